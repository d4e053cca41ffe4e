package sema

// This file binds tuples passed to a kernel from the host (test_tuple.py):
// each runtime element becomes a kernel parameter of its own, named after
// the source parameter and the element's indices (Ptrs_0, tuple1_1_2), as
// Triton flattens tuple arguments; constexpr elements, None and elements
// specialized to 1 are folded. The kernel sees a tuple it can index,
// unpack and pass on.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// tupleParam is the value of a tuple parameter name (or of its element at
// path), declaring a kernel parameter for each runtime element.
func (c *compiler) tupleParam(name string, path []int, a Arg, pos diag.Pos) *val {
	t := &val{k: kTuple, elts: make([]*val, len(a.Elems))}
	for i, e := range a.Elems {
		p := append(slices.Clone(path), i)
		switch e.Kind {
		case ArgTuple:
			t.elts[i] = c.tupleParam(name, p, e, pos)
		case ArgRuntime:
			if e.DType.Kind == ir.Invalid || e.DType.Kind == ir.Void {
				return c.errorf(pos, diag.CodeArgs, "element %s of parameter %s has no runtime dtype", indexString(p), name)
			}
			pname := name
			for _, j := range p {
				pname += fmt.Sprintf("_%d", j)
			}
			prm := &ir.Param{Name: pname, Index: len(c.kernel.Params), DType: e.DType, Pos: ir.Pos(pos), DivisibleBy16: e.DivisibleBy16, TupleOf: name, Path: p}
			v := c.emit(ir.OpParam, ir.ScalarType(e.DType), pos)
			v.Param = prm
			v.Name = pname
			prm.Value = v
			c.kernel.Params = append(c.kernel.Params, prm)
			t.elts[i] = rtVal(v)
		case ArgOne:
			t.elts[i] = intVal(1)
		case ArgNone:
			t.elts[i] = noneVal
		case ArgConstexpr:
			t.elts[i] = constexprVal(e.Value)
		default:
			return c.errorf(pos, diag.CodeUnsupported, "element %s of parameter %s: a tensor descriptor inside a tuple is not supported by tri yet; pass it as a parameter of its own", indexString(p), name)
		}
	}
	return t
}

// indexString writes a path of tuple indices as Python subscripts: [1][0].
func indexString(path []int) string {
	var b strings.Builder
	for _, i := range path {
		fmt.Fprintf(&b, "[%d]", i)
	}
	return b.String()
}

// tupleSpec writes a tuple's specialization as the kernel's comment shows
// it: (*fp32:16, i32, 1, None).
func tupleSpec(a Arg) string {
	parts := make([]string, len(a.Elems))
	for i, e := range a.Elems {
		switch e.Kind {
		case ArgTuple:
			parts[i] = tupleSpec(e)
		case ArgRuntime:
			parts[i] = e.DType.String()
			if e.DivisibleBy16 {
				parts[i] += ":16"
			}
		case ArgOne:
			parts[i] = "1"
		case ArgNone:
			parts[i] = "None"
		case ArgConstexpr:
			parts[i] = constexprVal(e.Value).repr()
		default:
			parts[i] = "?"
		}
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
