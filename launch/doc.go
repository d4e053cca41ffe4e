// Package launch is tri's Go API and the host side of its command line:
// launch lines, --let bindings, argument binding and specialization, sample
// headers, and the comparison of results.
//
// A launch line is written as a Triton user writes it in Python,
//
//	add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=4)
//
// and is parsed by ParseLaunch with gpython's expression grammar into the
// kernel name, the grid expression, the arguments and the launch options.
// The names it uses are bound beforehand by Env.Let from "NAME=EXPR" texts
// (the --let flags): numbers, tensors made by constructors such as
// randn(M, N, dtype='float16') or load("x.npy"), pointer tables, and grid
// lambdas. Bindings are evaluated in order, each over the earlier ones.
// dtype defaults to float32 (int32 for randint and arange); empty() fills
// floats with NaN and integers with 0x5A bytes, so unwritten elements show.
// ptrs(a, b) makes an int64 table whose Value.Ptrs names the tensors whose
// device addresses it must hold once they are placed on the GPU.
//
// Random constructors are deterministic: binding number i draws from its own
// PCG stream seeded by (seed, i), so adding a binding never changes the data
// of the bindings before it, and the same --seed repeats a run.
//
// Bind matches a launch's arguments to a kernel's parameters as Python would
// (positional, then by keyword, then defaults) and derives the kernel's
// specialization (sema.Signature) from the values as Triton does: tensors
// become 16-byte aligned pointers, the integer 1 folds to a constant, other
// integers are i32 or i64 with a divisibility-by-16 flag, floats are fp32,
// and tl.constexpr parameters take their values at compile time. Env.Grid
// then evaluates the grid, calling a grid lambda with the meta dict of the
// bound arguments.
//
// A kernel under @triton.autotune or @triton.heuristics has a Tuning: the
// decorators' arguments, the file's config-building functions, pruning
// functions and heuristics lambdas run in gpython's interpreter against
// stand-ins of the triton and torch modules (hostpy.go). Prepare binds the
// config that Options.Config picks (its meta-parameters fill what the launch
// leaves out; heuristics set theirs at every launch), and Prepared.Autotune
// times the configs on the GPU and keeps the fastest in a disk cache
// (autotune.go).
//
// Errors in a launch line or a --let are diagnostics placed in that text
// (launch:1:14: ..., --let x:1:5: ...) and marked as bad input (exit
// status 2).
package launch
