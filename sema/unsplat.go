package sema

// This file implements Triton's unsplat: x.item() turns a tensor of one
// element into a scalar, and an if or while whose condition is such a
// tensor reads its element (Triton warns "If conditional called with
// multidimensional Tensor" and unsplats it).

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addUnsplatBuiltins() {
	builtins["triton.language.tensor.item"] = &builtin{[]string{"self"}, 1, bItem}
}

func bItem(c *compiler, a *args) *val {
	v := a.vals[0]
	if v.k == kInvalid {
		return invalid
	}
	if v.k != kRuntime {
		return c.errorf(a.pos, diag.CodeType, "item() needs a tensor, got %s", v.describe())
	}
	x := c.unsplat(v.rt, "item()", a.pos)
	if x == nil {
		return invalid
	}
	return rtVal(x)
}

// unsplat is the element of x, a tensor of one element, as a scalar (x
// itself if a scalar): a reduction over that element, which is the element
// whatever its dtype.
func (c *compiler) unsplat(x *ir.Value, what string, pos diag.Pos) *ir.Value {
	shape := x.Type.Shape
	if shape.Rank() == 0 {
		return x
	}
	if shape.NumElements() != 1 {
		c.errorf(pos, diag.CodeType, "%s: can only unsplat single-element tensors, got a tensor of shape %s", what, shape)
		return nil
	}
	if shape.Rank() > 1 {
		x = c.emit(ir.OpReshape, ir.Type{DType: x.Type.DType, Shape: ir.Shape{1}}, pos, x)
	}
	rs := c.emitReduction(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: intVal(0), combine: ir.CombineMax}, pos)
	if rs == nil {
		return nil
	}
	return rs[0]
}
