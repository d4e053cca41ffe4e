// Package cudagen lowers tri's typed tile IR to readable CUDA C: one
// self-contained translation unit per specialized kernel, which compiles
// with NVRTC (no include path), with nvcc, and with clang's CUDA mode
// without the SDK (-nocudainc -nocudalib).
//
// A program instance is one CTA of num_warps*32 threads. Generate works in
// two phases: planning (newPlan, newplan.go, and the passes it calls in
// order, over the plan of plan.go) decides, before anything is printed,
// where every value lives and how every statement is lowered, and keeps
// the decisions as records on the plan; the emitter (emit.go, driven by
// generate.go, and the files of each kind of statement) then walks the IR
// tree once and prints it from those records. Describe and DumpLayouts return
// the same records (describe.go, tiles.go) for tri review and
// --dump=layout.
//
// The files stand on one another in that order: the records and what
// reads them without printing (layout.go, ctype.go, plan.go, the planning
// passes, scratch.go) at the bottom; then the emitter's core (emit.go:
// names, element expressions, declarations, the scratch's addressing);
// the printers of each kind of value and of each pipeline above it; the
// printing of one statement (stmt.go) and of a value by its op (ops.go)
// above those; the tree's walk (walk.go) and generate.go at the top. No
// file uses a definition of a file above it (TestFileUsesRunOneWay type-
// checks the files and fails on a circle). The walk's own recursion
// runs through the emitter instead: a loop's printer prints its body's
// statements, a reduction's or a map_elementwise's its combine function's
// values, a loop with hoisted operands its for, each through the
// emitter's nest (emit.go's nested), which Generate binds to stmt.go's,
// ops.go's and walk.go's printers. castExpr (convert.go) stands above the
// conversions it chooses between, fp8's (fp8.go) and the rest's
// (ctype.go's plainCast), which fp8's call through fp32.
//
// # Planning
//
//  1. Index: where each value is defined (block and statement index), who
//     uses it, and in which block each Var must be declared: the innermost
//     block enclosing all its assignments and reads, so that uses after a
//     loop or an if see it. A loop's index is declared by the for itself.
//  2. Check: tile dimensions are powers of two; ops cudagen cannot lower
//     are reported with the value's position.
//  3. Axis analysis (axisinfo.go), after Triton's AxisInfo: for every value
//     and every dimension, its contiguity (runs of consecutive integers),
//     divisibility (a power of two dividing the first element of each run,
//     in bytes for pointers) and constancy, propagated through arange,
//     splat, expand_dims, broadcast, +, -, *, pointer arithmetic, casts and
//     the multiple_of/max_contiguous hints, from the specialization's
//     16-divisibility of parameters. Loop-carried Vars are solved to a
//     fixed point.
//  4. Dots and loops: which instruction each tl.dot runs as, which loops
//     are software-pipelined and how (the pipeline and multiPipe records:
//     stages, the operand forms, TMA or cp.async copies, the tensor maps),
//     which dots outside the pipelines read operands stored before their
//     loop (hoistRegion), and, for every loop with dots that is not
//     pipelined, why (the loop's verdict, plan.verdicts). See "Dots" below.
//  5. Layouts (propagate.go, layout.go), after Triton's Coalesce pass and
//     layout propagation; see "Layouts".
//
// # Layouts
//
// Values that must share a layout (elementwise operands and results, loads
// and stores, a Var and its assignments, a broadcast and its input) form
// families. A family whose tiles are expanded into, or reduced from, a
// family of one more dimension gets Slice(dim, parent) of that family's
// layout; the others are roots and get Blocked(sizePerThread,
// threadsPerWarp, warpsPerCTA, order): the fastest axis is the one its
// pointer tiles are contiguous along, with 16 bytes per thread there when
// aligned (4 floats, 8 halves, capped at the thread's share), lanes filling
// the fastest axes first and warps the slowest. A dot's result takes the
// accumulator layout of its instruction (wgmmaBlocked on wgmma: sizePerThread
// [1, 2], threadsPerWarp [8, 4], warps along M). Broadcasting a Slice value
// into its parent, and expand_dims, then only re-index a thread's registers
// (printed inline where used). An index value (aranges, scalars and integer
// arithmetic) expanded in a layout it does not have is computed again from
// that layout's coordinates, and so is an unmasked load of such indices
// that nothing else reads (reloadable: attention backward's m and Di are
// loaded in the dot's layout). Where layouts still differ (trans, reshape,
// join, split, or a loaded 1-D value expanded along two different axes)
// the value is converted through shared memory; DumpLayouts counts these
// conversions.
//
// A thread's element e of a tile has, along axis d, the coordinate
// base_d + rep_d(e)*tile_d + k_d(e), where base_d comes from the thread's
// lane and warp (locals computed once per layout at the top of the kernel,
// and only those some statement named) and rep and k are constant
// divisions of e.
//
// # Printing values
//
// The emitter (emit.go; ops.go and compute.go for values, shapes.go,
// asm.go for inline PTX) walks the tree. Each tile value becomes a per-thread array (`float x[8]`) named
// after its source name, filled by a `#pragma unroll` loop over the
// thread's elements and indexed only by constants once unrolled, so it
// lives in registers. Scalars are plain locals; constants, parameters,
// splats and hints are printed inline, a read of a Var is printed as the
// Var while it cannot change, and a value whose only use is the
// assignment right after it is computed straight into the Var. fp16 and
// bf16 stay as their bits and are computed in float, rounded back after
// each op; fp8 values stay as their byte and are converted only by casts
// and dots (fp8.go: with the cvt instructions from sm_89, fp8e5 before it
// in software, as Triton lowers it there). fp32 math follows Triton's fast lowering (div.full,
// ex2, lg2, sqrt.approx as inline PTX; log, sin and cos through libdevice,
// precise, as in Triton); fp64 math is precise; libdevice calls go through
// wrappers (libdevice.go, libm.go).
//
// # Loads and stores, the full-tile path and the peeled loop
//
// Loads and stores (memory.go) are element by element with the mask as a C
// condition, or, where the access is unmasked and the analysis proves a
// thread's elements contiguous and aligned along the layout's fastest
// axis, through 8- and 16-byte vector structs. A store whose threads hold
// short runs along a row, the next runs in 2 or 4 lanes side by side (a
// dot's accumulators: 2 fp16 elements in each of 4 lanes), is written
// after the lanes transpose their runs of as many repetitions with
// shuffles (transpose.go), each then storing one repetition's elements as
// one vector. A store whose pointers are better coalesced in another
// layout moves its value there through shared memory first.
//
// In a run of straight-line statements whose masks all have the form
// affine(arange) < bound, or an & of such, possibly broadcast from 1-D
// (fastpath.go), the run is printed twice from its first masked access:
// under one scalar test that the tile is full, unmasked and vectorized;
// otherwise masked, element by element. A loop whose body is one such run,
// and whose test can only turn from true to false as the loop goes on, is
// peeled instead (peel.go): one loop over the full tiles with no test and
// no masked code, which the compiler can unroll to keep several loads in
// flight, then one masked loop over the rest. When threads hold 32 or more
// elements and a program has at most 256 threads, the kernel asks for
// enough programs per SM to keep loads in flight (launch_bounds' second
// argument), which caps registers at 128.
//
// # Reductions, scans, atomics
//
// Reductions (reduce.go) combine in each thread, then across the lanes
// spanning the axis with shfl.sync.bfly butterflies, then across warps
// through shared memory; the result, in the Slice layout, is held by every
// thread that needs it. Argmin and argmax carry the index beside the
// value and keep the lower index on ties. Scans (scan.go) run
// Hillis-Steele steps through shared memory. Atomics (atomic.go) are inline
// PTX with the op's ordering and scope, done once per element by its
// owning thread; a scalar atomic is done by thread 0 and its result shared
// through shared memory, so a spin lock is taken once per program.
//
// # Dots
//
// Which instruction a tl.dot runs as is decided from the target, the
// shapes and the dtypes, as Triton's AccelerateMatmul decides it, not from
// whether its loop is pipelined.
//
// On sm_90a a dot of fp16, bf16 or fp8 (e4m3, e5m2) operands into fp32
// whose result tiles whole warpgroups runs as wgmma.mma_async m64nNk16
// (k32 for fp8). Its operands are read from shared memory through matrix
// descriptors (start address, leading and stride byte offsets, swizzle
// mode): a K-major, each row one swizzle row of 32, 64 or 128 bytes; b
// K-major or MN-major (blocks of up to 64 columns), fp8's b always K-major
// since 8-bit wgmma has no transpose; tl.trans and transposed strides pick
// the major-ness rather than moving data. The rows are XOR-swizzled in
// 16-byte chunks (CUTLASS's Swizzle<B,4,3>) from a 1024-byte aligned base,
// and a's rows are stored in the order of wgmma's fragments, so that the
// accumulator's Blocked layout registers are wgmma's accumulators. a may
// instead come from registers: a value computed in the loop body
// (attention's p) is packed two halves to a register (four bytes for fp8,
// fetched from the quad's lanes with shuffles) as the A fragment, each
// register bound to a named local before the wgmma (wgdot.go, multipipe.go).
//
// Where the dot stands decides how its operands reach shared memory: in a
// pipelined loop they stream into the stages (below); outside loops, at
// num_stages=1, or in a loop neither pipeliner takes, they are stored from
// registers where the dot stands, and those defined before the dot's loop
// once before it (wgdot.go: the staged and hoisted forms).
//
// On sm_80 to sm_89, and for shapes and dtypes wgmma has no form for, a dot
// runs as mma.sync m16n8k16 (m16n8k8 for tf32, k32 for int8 and fp8; before
// sm_89, fp8e5 as two fp16 k16 per k32 step) on
// fragments that ldmatrix reads from shared memory; its accumulators are
// the references tri_c0..3 of the m16n8 tile. Outside the pipelines the
// operands are staged where the dot stands (dot.go); fp64 and ieee fp32
// dots run as FMAs on the CUDA cores.
//
// # Pipelines
//
// One analysis plans every loop (pipeplan.go's pipelineOf): it reads the
// loop once (pipescan.go's loopScan: stages, step, body, dots, the Vars'
// assignments) and returns the loop's verdict (pipeVerdict), the plan of
// one of its two cases or why the loop is not pipelined, which
// findPipelines stores for the comments and Describe to read. The K loop
// of one dot (pipeone.go's kLoopOf) is the case tried first; a loop it
// does not take is a loop of several dots (multiplan.go's multiPipeOf).
// Both cases take their shared steps from pipescan.go (the dtypes a
// pipeline takes, b's source, which loads stream, the ahead statements
// with their carried Vars, the stages that fit in shared memory, the
// tensor maps) and stages.go, and the TMA boxes from tensormap.go; what
// stays per case is what their printers lay out differently: the shapes
// they take, the copy of each operand (the K loop's a in 8-row TMA boxes
// or one box in wgmma's row order, its own stage size and the buffer of
// the wgmma in flight; the several dots' operand forms and tiles), and
// which statements a body may hold besides the copies. Once the layouts
// are chosen, each pipelined loop has one record, pipePlan
// (piperecord.go): its instruction (wgmma or mma.sync), its dots, each
// operand with its form and copy (TMA, cp.async, or cp.async by rows from
// a descriptor), its stages and their shared memory (stagePlan), and the
// dot left in flight. pipeprint.go picks the printer of a record, and the
// four printers (pipeline.go, multipipe.go on wgmma; mmapipe.go,
// mmamulti.go on mma.sync) share the copies of stagecopy.go, the dot of
// wgmmadot.go and the instruction pieces of tensorasm.go.
//
// A K loop of one dot and the two loads feeding it (pipeline.go) is cut in
// two stages after Triton's pipeliner: the loads and everything they
// depend on run num_stages-1 iterations ahead of the dot, as cp.async (or
// TMA) copies straight from global memory into one of num_stages
// shared-memory buffers, and on sm_90a the wgmma of one iteration stays in
// flight while the next is issued. A loop of several dots with other work
// between them (multipipe.go: attention forward and backward) is pipelined
// the same way: every operand has a form (streamed: loaded in the body and
// copied ahead into the stages; invariant: defined before the loop and
// stored once, by the TMA unit where it is a descriptor load; inRegisters:
// an a computed in the body; staged: one that goes through shared memory
// where its dot stands), a load several dots read is copied once
// where its tiles coincide, and the last dot may run on into the next
// iteration (inFlight). The analysis of both is target-independent; on
// sm_80 to sm_89 the loops they recognise run on mma.sync instead
// (mmapipe.go for one dot, mmamulti.go for several): each warp owns whole
// rows of every result where the rows give each an m16 tile, and the
// warps split N too where they do not (mmaPipeBlocked: a decode
// attention's 16 query heads over 4 warps, as Triton's MMAv2 splits
// them), the fragments are read with ldmatrix from stage rows swizzled so
// that the eight rows of each 8x8 matrix hit distinct banks, an invariant
// a's A fragments are read into registers once before the loop, and an a
// computed in the body is packed from the accumulator registers as the
// next mma.sync's A fragment, or, where the warps split its columns,
// stored into the scratch memory where its dot stands (staged) and read
// back by ldmatrix. So a new dot dtype or
// operand form is a case of the planner's records (wgOperand, the tile
// shapes) and of the printer that reads them, for both targets.
//
// Two choices look past one loop. An invariant a that the pipelined loop
// just before stored at the same shared address, with only values and
// assignments between that keep their scratch below it, is found in place
// and not stored again (findKeptInvariants): tutorial 06's backward runs a
// masked and an unmasked loop over the same k and v, whose registers are
// then free after the first loop's stores, as Triton's local_alloc next to
// the load leaves them. And a kernel whose loops carry dot accumulators
// that alone overflow three quarters of a thread's 255 registers spills
// whatever else happens (isSpillBound): its spills go through L1, which gets
// what shared memory leaves of the SM, so its pipelines run at most three
// stages, two iterations of copies ahead, and leave the rest to L1 (the
// backward at head dimension 128: 1.3 times as fast as with its five).
//
// # TMA
//
// On sm_90a the pipelines copy descriptor loads (tl.make_tensor_descriptor,
// host TensorDescriptors) and, where the rows allow, pointer loads with
// the TMA unit: a box per operand and stage, completing on the stage's
// mbarrier, swizzled as wgmma reads it; a's rows reach wgmma's fragment
// order through a 5-D view of the tensor, or 8-row boxes each to its place
// at the tensor's last rows. Tensor maps come from the launch as
// __grid_constant__ parameters (host descriptors) or are built by the
// kernel in its program's part of a global scratch buffer (tmapdev.go). A
// descriptor store goes through shared memory to the TMA unit (tma.go),
// which writes only what lies inside the tensor. Loads through descriptors
// that the TMA unit cannot take are copied by rows (directStageCopies),
// each copy cut at the tensor's edge.
//
// # Why a loop is not pipelined
//
// Every loop with dots that the analysis does not pipeline has a reason in
// its verdict (plan.verdicts): num_stages, a step that is not constant, a
// loop or an if in the body, a dot's shape or dtypes, shared memory, a row
// permutation the accumulator layout cannot take (why, from the loop's
// reading or the case of several dots; kinds, the K-loop case's dtypes on
// mma.sync). The printers and Describe only read it: the dot's CUDA
// comment, --dump=layout and Describe's Loop records say it in one line.
//
// # Shared memory
//
// Shared memory is one scratch buffer, tri_smem, reused by every step
// between barriers: each statement that needs it (a conversion, a
// reduction across warps, a scan, a staged dot, a TMA store's boxes)
// reserves its size, and the buffer is the largest of them, declared
// statically up to 48 KiB and dynamically (Result.SharedBytes) above.
// Each statement's size is planned (scratch.go: stmtScratch, by the size
// functions its printer reserves through), a loop's is the most of its
// body's, and a pipeline's stages, or the operands hoisted before a loop,
// come after that planned figure at a 1024-byte aligned offset
// (loopReserve; multiPipedFor, mmaMultiPipedFor, hoistedFor), so a loop
// is printed in order, its head first. TestScratchPlanned holds each
// statement's planned size against what its printers reserved. Whether
// tri_smem's start must be 1024-byte aligned (a pipeline's stages, hoisted
// or staged wgmma operands, a swizzled TMA store's boxes) is planned too
// (alignedScratch), so its declaration is printed before the body; a
// printer that lays out swizzled tiles records it, and generate stops
// with an internal error where the plan did not foresee one. A kernel
// whose stages or swizzled boxes need a 1024-byte aligned start traps if
// the driver placed tri_smem otherwise.
//
// # Prelude and helpers
//
// The definitions the code calls are records (needs.go): a cdef is a name,
// the names its own text uses (its deps) and its text; a cgroup is a group
// of them under one comment head. Whatever prints a name records it in the
// emitter's nameSet as it builds the text, and the prelude (prelude.go)
// and the helpers a kernel needs (shuffles, atomics, tensor cores, copies)
// are then written from those records alone, in a fixed order, as the
// closure of the recorded names over the deps: only what the kernel uses,
// so that a file changes only when its kernel's code does. Nothing reads
// the printed code back. The preamble's locals (a layout's coordinates,
// its owner flag, lane_id, warp_id) are declared the same way, only where
// recorded. They are the one part of the kernel written after its body and
// placed above it (generate.go's kernel: the signature and tri_smem from
// the plan, then the body into its own writer, then these locals): which
// of them the code reads is what each printer's expressions chose (a
// coordinate folded to a constant, a full-tile path, an index computed
// again in another layout), which no plan records short of a second copy
// of those choices.
//
// # The generated text
//
// Output is deterministic. Names are given in program order (clashes with
// C++ keywords and with the names CUDA under NVRTC declares, the table of
// cudanames.go generated from NVIDIA's headers and libraries by
// internal/cudanames, get a trailing underscore; repeats _1, _2); the
// emitter's own locals start with tri_. The kernel's file is named once,
// above the kernel; each statement's comment quotes its source line
// ("// 12: x = tl.load(...)"), or names the file of a line from another
// module ("// helpers.py:7:"), and Result.Lines maps every CUDA line to
// its source position (NVRTC's errors and tri review use it, not the
// comments); Options.LineInfo adds #line directives. No line is wider
// than 160 characters outside inline asm (writer.go's lineWidth): comments
// wrap, a long signature breaks after its parameters, and C
// sub-expressions are bound to named const locals (a copy's tri_row,
// tri_col and tri_dst; a wgmma's A registers tri_ar0..; a scratch index
// tri_j) rather than pasted into each other. User text copied into
// comments and #line directives (source lines, file and kernel names) is
// made safe (writer.go).
package cudagen
