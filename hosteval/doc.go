// Package hosteval evaluates the host Python of a launch: launch lines,
// --let bindings, tensor constructors and grids, and marks and places the
// errors found in them.
//
// A launch line is written as a Triton user writes it in Python,
//
//	add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=4)
//
// and is parsed by ParseLaunch with the frontend's expression parser into
// the kernel name, the grid expression, the arguments and the launch
// options. The names it uses are bound beforehand by Env.Let from
// "NAME=EXPR" texts (the --let flags): numbers, tensors made by
// constructors such as randn(M, N, dtype='float16') or load("x.npy"),
// pointer tables, and grid lambdas. Bindings are evaluated in order, each
// over the earlier ones. dtype defaults to float32 (int32 for randint and
// arange); empty() fills floats with NaN and integers with 0x5A bytes, so
// unwritten elements show. ptrs(a, b) makes an int64 table whose Value.Ptrs
// names the tensors whose device addresses it must hold once they are
// placed on the GPU.
//
// Random constructors are deterministic: binding number i draws from its own
// PCG stream seeded by (seed, i), so adding a binding never changes the data
// of the bindings before it, and the same --seed repeats a run.
//
// Env.Grid evaluates a launch's grid, calling a grid lambda with the meta
// dict of the bound arguments. Python's number rules come from pyrules.
//
// Errors in a launch line or a --let are diagnostics placed in that text
// (launch:1:14: ..., --let x:1:5: ...), carry that text for PrintError, and
// are marked as bad input by Usage (ExitCode 2). An Env is not safe for
// concurrent use; separate Envs are.
package hosteval
