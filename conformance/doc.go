// Package conformance holds tri's construct test kernels and the tests that
// hold the interpreter and the GPU to them.
//
// Every file in constructs/ is a tiny kernel exercising one construct of the
// language (an operator, a cast, a loop form, a promotion rule), valid under
// real Triton 3.x too, with its launch recorded in header comments the way
// the samples record theirs:
//
//	# launch: divmod_kernel[(triton.cdiv(n, 128),)](x, y, q, r, n, BLOCK=128)
//	# let: x=randint(-1000, 1000, n, dtype='int32')
//	# check: q r
//	# tolerance: exact
//
// A file whose kernel needs a later GPU than sm_80 says so in an
// "# arch: sm_XY" line (the fp8 conversions need sm_89); the CUDA golden
// files are built for it. One that real Triton runs only on a later GPU
// than tri does says so in a "# triton-capability: N" line (descriptor
// gathers need Blackwell's TMA, 10), which the Triton comparison reads,
// as it reads "# triton-differs: OUTPUT REASON", an output that real Triton
// computes wrongly (seen on the GPU; tri's is still checked against the
// reference and the interpreter).
//
// The tests (in the package's _test files) run each launch in the
// interpreter and compare the checked outputs with a reference written
// independently in plain Go: truncating integer division, C remainders,
// wrap-around, fp16 and bf16 rounding after every op, fp32 rounding through
// float32 conversions. The samples in the repository's samples/ directory
// get references too. TestGPU runs the same launches on the GPU and compares
// them with the interpreter; it skips where no GPU is found unless
// TRI_REQUIRE_GPU=1.
//
// The same files, with the inputs saved by `tri run --save`, are what the
// Triton comparison script runs under real Triton.
package conformance
