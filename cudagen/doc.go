// Package cudagen lowers tri's typed tile IR to readable CUDA C: one
// self-contained translation unit per specialized kernel, which compiles
// with NVRTC (no include path), with nvcc, and with clang's CUDA mode
// without the SDK (-nocudainc -nocudalib).
//
// # How a kernel is lowered
//
// A program instance is one CTA of num_warps*32 threads. Generate runs a
// few passes over the ir.Kernel before printing anything (plan.go):
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
//  4. Layouts (propagate.go, layout.go), after Triton's Coalesce pass and
//     layout propagation. Values that must share a layout (elementwise
//     operands and results, loads and stores, a Var and its assignments, a
//     broadcast and its input) form families. A family whose tiles are
//     expanded into, or reduced from, a family of one more dimension gets
//     Slice(dim, parent) of that family's layout; the others are roots and
//     get Blocked(sizePerThread, threadsPerWarp, warpsPerCTA, order): the
//     fastest axis is the one its pointer tiles are contiguous along, with
//     16 bytes per thread there when aligned (4 floats, 8 halves, capped at
//     the thread's share), lanes filling the fastest axes first and warps
//     the slowest. Broadcasting a Slice value into its parent, and
//     expand_dims, then only re-index a thread's registers (printed inline
//     where used). An index value (aranges, scalars and integer arithmetic)
//     expanded in a layout it does not have is computed again from that
//     layout's coordinates. Where layouts still differ (trans, reshape,
//     join, split, or a loaded 1-D value expanded along two different
//     axes) the value is converted through shared memory; DumpLayouts
//     counts these conversions.
//
// Printing (emit.go, ops.go, memory.go, shapes.go, reduce.go, scan.go,
// atomic.go, asm.go for inline PTX) then walks the tree. Each tile value becomes a per-thread
// array (`float x[8]`) named after its source name, filled by a one-line
// `#pragma unroll` loop over the thread's elements and indexed only by
// constants once unrolled, so it lives in registers. A thread's element e
// has, along axis d, the coordinate base_d + rep_d(e)*tile_d + k_d(e),
// where base_d comes from the thread's lane and warp (locals computed once
// per layout) and rep and k are constant divisions of e. Scalars are plain
// locals; constants, parameters, splats and hints are printed inline, a
// read of a Var is printed as the Var while it cannot change, and a value
// whose only use is the assignment right after it is computed straight
// into the Var. fp16 and bf16 stay as their bits and are computed in
// float, rounded back after each op; fp8 values stay as their byte and are
// converted only by casts and dots (fp8.go). fp32 math follows Triton's fast
// lowering (div.full, ex2, lg2, sqrt.approx as inline PTX; log, sin and
// cos through libdevice, precise, as in Triton); fp64 math is
// precise.
//
// Reductions combine in each thread, then across the lanes spanning the
// axis with shfl.sync.bfly butterflies, then across warps through shared
// memory; the result, in the Slice layout, is held by every thread that
// needs it. Scans run Hillis-Steele steps through shared memory. Atomics
// are inline PTX with the op's ordering and scope, done once per element
// by its owning thread; a scalar atomic is done by thread 0 and its result
// shared through shared memory, so a spin lock is taken once per program.
// Shared memory is one static scratch buffer, reused by every step between
// barriers.
//
// Loads and stores (memory.go) are element by element with the mask as a C
// condition, or, where the access is unmasked and the analysis proves a
// thread's elements contiguous and aligned along the layout's fastest
// axis, through 8- and 16-byte vector structs. A store whose threads hold
// short runs along a row, the next runs in 2 or 4 lanes side by side (a
// dot's accumulators: 2 fp16 elements in each of 4 lanes), is written
// after the lanes transpose their runs of as many repetitions with
// shuffles (transpose.go), each then storing one repetition's elements as
// one vector (16 bytes there). In a run of straight-line statements whose masks all
// have the form affine(arange) < bound, or an & of such, possibly
// broadcast from 1-D (fastpath.go), the run is printed twice from its
// first masked access: under one scalar test that the tile is full,
// unmasked and vectorized; otherwise masked, element by element. When
// threads hold 32 or more elements and a program has at most 256 threads,
// the kernel asks for enough programs per SM to keep loads in flight
// (launch_bounds' second argument), which caps registers at 128.
//
// # Dots and pipelines
//
// Which instruction a tl.dot runs as is decided from the target, the
// shapes and the dtypes, as Triton's AccelerateMatmul decides it. On
// sm_90a a dot of fp16 or bf16 operands into fp32 whose result tiles
// whole warpgroups runs as wgmma.mma_async, its operands read from
// XOR-swizzled shared memory through matrix descriptors (a may come from
// registers), its result in the accumulator layout wgmmaBlocked; fp8
// dots into fp32 do too inside the matmul pipeline. Where the dot
// stands decides how its operands reach shared memory:
//
//   - in a K loop of one dot and the two loads feeding it (pipeline.go),
//     the loads become cp.async or TMA copies num_stages-1 iterations
//     ahead into num_stages buffers, and the wgmma of one iteration stays
//     in flight while the next is issued;
//   - in a loop with several dots and other work between them
//     (multipipe.go: attention forward and backward), the loads that
//     feed dots stream the same way, an operand defined before the loop
//     is stored once (by the TMA unit where it is a descriptor load), an
//     a computed in the body is read from registers, and a load several
//     dots read is copied once where its tiles coincide;
//   - anywhere else (wgdot.go: outside loops, at num_stages=1, in loops
//     neither pipeliner takes), the operands are stored from registers
//     where the dot stands, those defined before its loop once before it.
//
// On the other targets (sm_80 to sm_89 above all) the same K loops of one
// fp16 or bf16 dot are pipelined with cp.async into num_stages stages
// (mmapipe.go, pipeline.go's analysis), the dot running as mma.sync
// m16n8k16 on fragments ldmatrix reads from the stages, whose rows are
// XOR-swizzled so that the eight rows of each 8x8 matrix hit distinct
// banks; the loops of several dots likewise (mmamulti.go, multipipe.go's
// analysis and stages), each warp owning whole rows of every result, an
// invariant a's A fragments read into registers once before the loop,
// and an a computed in the body (attention's p) packed from the
// accumulator registers as the next mma.sync's A fragment. Where a loop
// is not pipelined there, the dot's comment and --dump=layout say why
// (plan.whyNot, plan.unpiped). Other dots there, and dots of shapes and dtypes wgmma has no
// form for, run as mma.sync fed by ldmatrix from operands staged where
// the dot stands (dot.go), or as FMAs on the CUDA cores for fp64 and
// ieee fp32. Tensor maps for the
// TMA unit come from the launch (host descriptors) or are built by the
// kernel (tmapdev.go); tma.go writes descriptor stores through shared
// memory to the TMA unit.
//
// Output is deterministic: names are given in program order (clashes with
// C++ keywords and with the names CUDA under NVRTC declares, the table of
// cudanames.go generated from NVIDIA's headers and libraries by
// internal/cudanames, get a trailing underscore; repeats _1, _2), and every
// source line is quoted once in a comment above its code, with #line
// directives under Options.LineInfo. The prelude (prelude.go) holds only
// the definitions the kernel uses, in a fixed order, so a file changes only
// when its kernel's code does; it includes no header. Helpers only some
// kernels need (shuffles, atomics, tensor cores) follow it, also only where
// used. User text copied into comments and #line directives (source lines,
// file and kernel names) is made safe (writer.go).
package cudagen
