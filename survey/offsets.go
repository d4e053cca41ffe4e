package survey

// This file implements the parameters that a kernel's addresses are
// offset by: strides, sizes and offsets, which are integers whatever their
// names (stride_scale_am is no fp32 scale).

import (
	"regexp"

	"github.com/tri-lang/tri/frontend"
)

// strideName matches parameters named as strides.
var strideName = regexp.MustCompile(`(?i)(^|_)strides?(_|$)|^stride`)

// offsetParams are the parameters of fn that the offsets of its addresses
// are computed from: every name in what is added to or subtracted from an
// address's base (p + pid * stride_am, p += BLOCK * stride_k), followed
// through local assignments. ptrs are the pointer parameters of every
// @jit function of file (pointerParams), which calls into other @jit
// functions take addresses by.
func offsetParams(file *frontend.File, fn *frontend.Func, ptrs map[string]map[string]bool) map[string]bool {
	byName := map[string]*frontend.Func{}
	for _, f := range file.Funcs {
		byName[f.Name] = f
	}
	s := newPtrScan(fn)
	out := map[string]bool{}
	seenOffset := map[string]bool{}
	var offsets func(frontend.Expr)
	offsets = func(x frontend.Expr) {
		walkExpr(x, func(y frontend.Expr) {
			n, ok := y.(*frontend.Name)
			if !ok || seenOffset[n.ID] {
				return
			}
			seenOffset[n.ID] = true
			if s.isParam(n.ID) {
				out[n.ID] = true
			}
			for _, v := range s.assigns[n.ID] {
				offsets(v)
			}
		})
	}
	seenBase := map[string]bool{}
	var address func(frontend.Expr)
	address = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Binary:
			if x.Op == "+" || x.Op == "-" {
				address(x.X)
				offsets(x.Y)
			}
		case *frontend.IfExp:
			address(x.Then)
			address(x.Else)
		case *frontend.Name:
			if seenBase[x.ID] {
				return
			}
			seenBase[x.ID] = true
			for _, v := range s.assigns[x.ID] {
				address(v)
			}
			for _, v := range s.steps[x.ID] {
				offsets(v)
			}
		}
	}
	walkExprs(fn.Body, func(x frontend.Expr) {
		if c, ok := x.(*frontend.Call); ok {
			for _, a := range addressArgs(c, byName, ptrs) {
				address(a)
			}
		}
	})
	return out
}
