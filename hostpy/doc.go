// Package hostpy links gpython's interpreter into a program, for the host
// Python that tri evaluates: the arguments of @triton.autotune and
// @triton.heuristics, the functions of a kernel file that build config
// lists, pruning functions and heuristics lambdas. Import it for its effect:
//
//	import _ "github.com/tri-lang/tri/hostpy"
//
// The tri command does. A Go program that only compiles and launches
// kernels need not: without it, package launch links gpython's object model
// and parser but not its compiler, virtual machine and standard library,
// and reports a kernel whose decorators need host Python as an error that
// names this package.
package hostpy

import _ "github.com/go-python/gpython/stdlib" // the compiler, the VM and the builtins
