package sema

// This file implements the names a kernel defined inside a host function
// takes from there: the other @jit functions defined in it
// (frontend.Func.Closure), which Triton finds in the kernel's closure
// before the module's globals (test_core.py's map_elementwise tests call
// a combine function their test defines).

import "github.com/tri-lang/tri/frontend"

// closureFunc is the @jit function that name means in fn's closure, or
// nil.
func closureFunc(fn *frontend.Func, name string) *frontend.Func {
	if fn == nil {
		return nil
	}
	return fn.Closure[name]
}
