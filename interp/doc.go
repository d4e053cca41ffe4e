// Package interp runs a typed tile kernel (an ir.Kernel) on the CPU over a
// grid of program instances, reading and writing host tensors in place. It
// is tri's reference semantics: the CUDA output is checked against it.
//
// Every Value evaluates to a tile: a kind, a shape and one typed slice, with
// each op applied to whole slices in tight loops. Integers (Bool and
// pointers included) live in []int64 in a canonical form: signed kinds
// sign-extended from their width, unsigned kinds zero-extended (uint64 as
// its bit pattern), Bool as 0 or 1; every op wraps its result back to the
// width. Floats live in []float64 rounded to their dtype after every op
// (fp32 with float32(), fp16 and bf16 to nearest even). For +, -, *, / the
// result equals the GPU's compute-in-fp32-then-round for fp16 and bf16,
// since fp32 carries more than twice their precision; math functions and
// fp32 division are exact here and within a few ulp on the GPU. The fp8
// kinds are storage only: their values live in []float64 too, converted as
// the GPU's saturating cvt instructions do (roundFP8; NaN codes keep their
// bits through bitcasts, see ir/fp8.go), or, for fp8e5 with Options.Arch
// before sm_89, as Triton's software conversions there (fp8soft.go); fp16
// NaNs keep their bits too (fp16FromBits). libdevice functions
// (libdevice.go) follow the same rule, except the correctly rounded ones
// (div_rz, sqrt_rn, fma_ru, the rounding conversions), which are exact in
// every IEEE rounding mode, and the integer and bit ones, which are bit for
// bit. Tiles are never mutated once built, so shape ops and hints share
// their operand's slice.
//
// Memory is a fake address space: tensor i lives at Base(i), 1 TiB apart
// and 256-byte aligned, so pointers are plain 64-bit integers and pointer
// arithmetic, int64<->pointer casts and pointer tables work as on the GPU.
// A load or store resolves each active lane's address to the nearest
// buffer and checks bounds and alignment; masked-off lanes are never
// touched, and a masked load gives `other` (or zero) there.
//
// Where Triton leaves behaviour undefined the interpreter picks one and
// documents it: a failed tl.assume is an error; an integer division by zero
// and a shift by a negative amount or by at least the operand's width leave
// their lane undefined, and only the use of an undefined lane (stored, an
// address, a mask, an atomic operand, control flow) is an error, placed at
// the division or shift (undef.go), since Triton's kernels routinely divide
// in lanes that tl.where or a mask discards; a float->int cast truncates toward zero, saturates at the
// target's range as PTX cvt.rzi does, and maps NaN to 0; an integer
// division overflow (MIN / -1) wraps.
//
// Tiles of any rank are row-major; reshape and expand_dims keep the element
// order. A float sum or product along an axis combines neighbours pairwise
// in a balanced tree, as the GPU combines lanes in a tree (a left fold of
// 1024 bf16 ones stalls at 256); other reductions are a left fold from
// index 0, a scan an inclusive prefix from index 0 (from the end with
// reverse), combining in the value's dtype and rounding at each step. The
// GPU's tree has another shape, so float sums and products may differ by
// rounding.
// Max and min ignore NaN (like fmaxf) unless propagate_nan is set;
// argmax/argmin follow Triton's tie_break_left combine (ties to the smaller
// index; over NaN the pick depends on the combination order). A custom
// combine Region is evaluated on all lanes of the reduction at once when
// its body is elementwise, lane by lane otherwise. Multi-result values
// (tuple reduces and scans, split) are tuples read by OpTupleGet.
//
// tl.dot adds to each accumulator element the products in k order, summed
// in float64 and rounded once to the result's dtype: fp16, bf16 and fp32
// products are exact there, while the GPU's tensor cores round after each
// mma's k-chunk, so float results may differ by rounding. Under
// input_precision tf32, fp32 operands are first cut to tf32 (the low 13
// bits ignored, as the tensor cores read them); tf32x3 is computed as
// ieee. int8 dots wrap to int32.
//
// Atomics apply lane by lane in index order, each holding the mutex of the
// buffer it touches, so they are atomic across programs; volatile loads
// hold it too. Float atomic max/min follow Triton's integer lowering on the
// bits. Masked-off lanes are untouched and give 0. Float atomic adds from
// several programs land in a scheduling-dependent order.
//
// Inline PTX (tl.inline_asm_elementwise) cannot be interpreted: Run refuses
// a kernel that has any before a program starts, with an error placed at
// the call (CanRun says so beforehand).
//
// Program instances are independent and run on several goroutines. A
// program is one logical thread of tile ops: tl.debug_barrier is a no-op.
// A program that waits for another (a spin lock on atomic_cas, a flag) makes
// progress: every 64 iterations of a while loop it yields and, if programs
// remain unstarted, starts a helper goroutine running the next one, so a
// wait on a later program ends even with Workers == 1. A true deadlock is
// stopped by Options.Timeout with an error naming the loop. Options.MaxMemory
// bounds the kernel's tensors plus the large tiles the programs hold
// (budget.go): past it the run stops with an error at the statement.
// When programs fail, the error of the lowest-numbered failing program (x
// fastest, then y, then z) is reported, whatever the number of workers.
package interp
