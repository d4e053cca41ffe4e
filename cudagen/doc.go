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
//  2. Check: only scalars and 1-D tiles with power-of-two lengths are
//     supported for now; reshapes, broadcasts and expand_dims of higher rank
//     are reported as not yet supported, with the value's position.
//  3. Axis analysis (axisinfo.go), after Triton's AxisInfo: for every value,
//     its contiguity (runs of consecutive integers), divisibility (a power
//     of two dividing the first element of each run, in bytes for pointers)
//     and constancy, propagated through arange, splat, +, -, *, pointer
//     arithmetic, casts and the multiple_of/max_contiguous hints, from the
//     specialization's 16-divisibility of parameters. Loop-carried Vars are
//     solved to a fixed point.
//  4. Layouts (layout.go): every 1-D tile of length N gets
//     Blocked([spt], [32], [num_warps], [0]); spt is the widest access the
//     analysis allows among the loads and stores of such tiles (16 bytes'
//     worth when aligned and contiguous: 4 floats, 8 halves), capped at
//     N/threads. Tiles shorter than the CTA are replicated: every thread
//     holds an element, and only the owner (tid*spt < N) stores it.
//
// Printing (emit.go, ops.go, memory.go) then walks the tree. Each tile
// value becomes a per-thread array (`float x[8]`) named after its source
// name, filled by a one-line `#pragma unroll` loop over the thread's
// elements and indexed only by constants once unrolled, so it lives in
// registers; element e of a thread is tile index
// base + (e/spt)*(spt*threads) + e%spt with base = tid*spt. Scalars are
// plain locals; constants, parameters, splats and hints are printed inline,
// a read of a Var is printed as the Var while it cannot change, and a value
// whose only use is the assignment right after it is computed straight
// into the Var.
// fp16 and bf16 stay as their bits and are computed in float, rounded back
// after each op. fp32 math follows Triton's fast lowering (div.full, ex2,
// lg2, sqrt.approx as inline PTX); fp64 math is precise.
//
// Loads and stores (memory.go) are element by element with the mask as a
// C condition, or, where the access is unmasked and the analysis proves a
// thread's elements contiguous and aligned, through 8- and 16-byte vector
// structs. In a run of straight-line statements whose masks all have the
// form affine(arange) < bound (fastpath.go), the run is printed twice from
// its first masked access: under one scalar test that the tile is full,
// unmasked and vectorized; otherwise masked, element by element.
//
// Output is deterministic: names are given in program order (clashes with
// C and CUDA names get a trailing underscore, repeats _1, _2), and every
// source line is quoted once in a comment above its code, with #line
// directives under Options.LineInfo. The prelude (prelude.go) is the same
// in every file; it includes no header.
package cudagen
