package sema

// This file evaluates calls of host functions that import a Triton module
// by name and return one of its attributes (frontend/getter.go), such as
// rsqrt = libdevice_find("rsqrt"): with a literal argument, the value is
// that attribute of the first module of the function's list that a recent
// Triton on a CUDA machine has, as running the function would give.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

func getterPaths(paths []string) []*val {
	out := make([]*val, len(paths))
	for i, p := range paths {
		out[i] = strVal(p)
	}
	return out
}

func (c *compiler) callGetter(fr *frame, g *val, e *frontend.Call) *val {
	a := c.bindArgs(fr, g.s, e, []string{"name"}, 1)
	if a == nil {
		return invalid
	}
	name := a.vals[0]
	if name.k != kStr {
		return c.errorf(e.Pos, diag.CodeValue, "%s imports a Triton module's attribute by name: its argument must be a compile-time string, got %s", g.s, name.describe())
	}
	for _, p := range g.elts {
		if path := normalizePath(p.s); modules[path] {
			return c.modulePath(path+"."+name.s, e.Pos)
		}
	}
	return c.errorf(e.Pos, diag.CodeUnsupported, "%s(%q): none of the modules it imports is a Triton module tri knows", g.s, name.s)
}
