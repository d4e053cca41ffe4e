// Package tri compiles Triton kernels (Python functions under
// @triton.jit, written against triton.language) for Go programs, and runs
// them on the GPU or, without one, in tri's interpreter on the CPU.
//
// A kernel file is parsed once (ParseFile, or Parse for a text in memory)
// and a kernel of it compiled for one specialization in either of
// Triton's two ways:
//
//   - for a launch: File.Prepare takes the launch as a Python user writes
//     it, add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024),
//     with its names bound to Go values by Args, and derives dtypes,
//     constexprs and the grid from the values as Triton's launcher does.
//     File.Interpret and File.Run do that and run the launch at once.
//   - for a signature: File.Compile takes one as Triton's ahead-of-time
//     compiler does ("*fp32:16, *fp32:16, *fp32:16, i32, 1024"), and the
//     Kernel it returns runs over any grid with arguments given in Go.
//
// Kernels run on Go slices ([]float32, []int32, []float16.Float16, ...),
// which the interpreter reads and writes in place and a GPU run copies to
// the device and back, or on a Buffer, which stays on the device; a
// Tensor gives either a shape. A GPU run is queued on a Stream (nil: the
// default stream). Kernel.CUDA returns the CUDA C that tri generates.
//
// Every function and method returns an *Error on failure: errors.Is tells
// ErrNoGPU (no driver or NVRTC on this machine) and ErrBadInput (a
// mistake in the source, the launch line, the signature or the
// arguments) apart from failures of good input, and Error.Diagnostics
// lists the problems with their file, line and column. Nil and zero
// values are answered with errors, never panics.
//
// A kernel under @triton.autotune or @triton.heuristics has host Python
// in its decorators, which needs gpython's interpreter: a program that
// runs such kernels imports it for its effect,
//
//	import _ "github.com/tri-lang/tri/hostpy"
//
// and without it gets an error that says so. Prepare binds an autotuned
// kernel's first config (tuning on the GPU is the command line's
// `tri run`).
//
// The command line tri (cmd/tri) is built on the same packages; this
// package is for programs, and keeps the command line's options out.
package tri
