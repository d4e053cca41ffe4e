// Package kernelgen generates random well-typed Triton kernels for
// fuzzing tri: each is a .tri file whose header (# launch:, # let:,
// # check:) records a launch, so that `tri run --check FILE` runs it and a
// person can read it and run it under real Triton.
//
// A kernel has a 1-D block with a tail mask, a 2-D block with row and
// column vectors broadcast against it, or a tiled tl.dot over a K loop
// (fp16, bf16, int8, fp32 under tf32, tf32x3 and ieee); then chains of
// elementwise operations over fp32, fp16, bf16, int8, uint8, int32, int64
// and bools from compares (arithmetic, division, bitwise, tl.where,
// maximum and minimum, casts, exp, log, sqrt, sin, cos, sigmoid), loops
// with a loop-carried accumulator (for over runtime and constexpr ranges,
// tl.static_range, while), ifs on scalars, reductions (sum, max, min,
// argmax, argmin along an axis, with or without keep_dims) and tl.cumsum;
// block sizes are powers of two, sizes are rarely multiples of them, and
// num_warps is 1, 2, 4 or 8. Generate(seed) always gives the same kernel.
//
// A share of the kernels (Options.DotPositions, 15% by Generate) puts its
// dots where tri lowers them specially (dots.go): outside any loop, in a K
// loop at num_stages=1 or software-pipelined at 2 to 4 stages, and two to
// five dots in one loop as attention's passes hold them (a result, converted,
// feeding the next dot; an operand defined before the loop; a load two
// dots read, one through tl.trans; b as a [K, N] load, through transposed
// strides or transposed). Most have shapes and dtypes that reach wgmma on
// sm_90a (Kernel.Wgmma); the others must fall back. Each dot's result is
// stored as it is, besides the epilogue's values. The choice of such a
// kernel draws from a stream of its own, so the other kernels of a seed
// are those of a generator without them.
//
// Every value carries an interval that holds all its lanes, so the
// generator emits only operations that cannot overflow, divide by zero or
// leave a math function's domain; and an error bound, so that a kernel
// stores only values whose GPU and interpreter results must agree within
// the tolerance of `tri run --check`. Compares, argmax and float-to-int
// casts take only exact values (integers computed without rounding), so a
// rounding difference never flips them. Where Triton's rule is in doubt
// (promotion of fp16 with bf16, of uint8 with int8; sums of small types)
// the generator casts explicitly instead.
package kernelgen
