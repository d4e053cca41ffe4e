package ir

// This file implements the checks of the tile operations: sort and topk,
// flip, gather, histogram and cat.

import "fmt"

// checkTileOps checks OpSort, OpFlip, OpGather, OpHistogram and OpCat.
func checkTileOps(v *Value) error {
	t := v.Type
	a := v.Args[0].Type
	switch v.Op {
	case OpSort:
		r := a.Shape.Rank()
		if r == 0 || t.Shape.Rank() != r || a.DType != t.DType || a.IsPtr() || v.Axis < 0 || v.Axis > 1 {
			return fmt.Errorf("sort of %s giving %s", a, t)
		}
		k := v.Const.Int
		if k < 0 || k >= 31 || t.Shape[r-1] != 1<<k || t.Shape[r-1] > a.Shape[r-1] || !t.Shape[:r-1].Equal(a.Shape[:r-1]) {
			return fmt.Errorf("sort of %s keeping 2**%d giving %s", a, k, t)
		}
		if v.Axis == 1 && !t.Equal(a) {
			return fmt.Errorf("bitonic merge of %s giving %s", a, t)
		}
	case OpFlip:
		if v.Axis < 0 || v.Axis >= a.Shape.Rank() {
			return fmt.Errorf("flip of %s along axis %d", a, v.Axis)
		}
	case OpGather:
		idx := v.Args[1].Type
		r := a.Shape.Rank()
		if r == 0 || !idx.Kind.IsInt() || idx.Shape.Rank() != r || v.Axis < 0 || v.Axis >= r ||
			!t.Equal(Type{DType: a.DType, Shape: idx.Shape}) {
			return fmt.Errorf("gather of %s with index %s along axis %d giving %s", a, idx, v.Axis, t)
		}
		for d := range r {
			if d != v.Axis && idx.Shape[d] != a.Shape[d] {
				return fmt.Errorf("gather of %s with index %s along axis %d", a, idx, v.Axis)
			}
		}
	case OpHistogram:
		if a.Shape.Rank() != 1 || !a.Kind.IsInt() || t.DType != TInt32 || t.Shape.Rank() != 1 {
			return fmt.Errorf("histogram of %s giving %s", a, t)
		}
		if m := v.Args[1]; m != nil && (m.Type.DType != TBool || !m.Type.Shape.Equal(a.Shape)) {
			return fmt.Errorf("mask of type %s for histogram of %s", m.Type, a)
		}
	case OpMapElementwise:
		if v.Region == nil {
			return fmt.Errorf("map_elementwise without a region")
		}
		for _, x := range v.Args {
			if !x.Type.Shape.Equal(a.Shape) || a.IsScalar() {
				return fmt.Errorf("map_elementwise of operands of shapes %s and %s", a.Shape, x.Type.Shape)
			}
		}
		types := v.Types
		if len(types) == 0 {
			types = []Type{t}
		} else if t.Kind != Void {
			return fmt.Errorf("map_elementwise with several results and a result of type %s", t)
		}
		for _, rt := range types {
			if !rt.Shape.Equal(a.Shape) {
				return fmt.Errorf("map_elementwise of %s giving %s", a, rt)
			}
		}
	case OpCat:
		b := v.Args[1].Type
		if a.Shape.Rank() != 1 || b.Shape.Rank() != 1 || a.DType != b.DType ||
			!t.Equal(Type{DType: a.DType, Shape: Shape{a.Shape[0] + b.Shape[0]}}) {
			return fmt.Errorf("cat of %s and %s giving %s", a, b, t)
		}
	}
	return nil
}

// mapRegion checks the Region of an OpMapElementwise: pack scalar
// arguments per operand, of its dtype; a body using only them and its own
// values; pack yields per result, of its dtype. A pack above 1 needs a
// last axis it divides and results in Types.
func (vf *verifier) mapRegion(v *Value) error {
	r := v.Region
	types := v.Types
	if len(types) == 0 {
		types = []Type{v.Type}
	}
	pack := v.MapPack()
	if pack > 1 {
		s := v.Args[0].Type.Shape
		if len(v.Types) == 0 || s.Rank() == 0 || s[s.Rank()-1]%pack != 0 {
			return fmt.Errorf("map_elementwise with pack=%d of %s giving %d results", pack, v.Args[0].Type, len(v.Types))
		}
	}
	if len(r.Args) != pack*len(v.Args) || len(r.Yields) != pack*len(types) {
		return fmt.Errorf("region with %d arguments and %d yields for %d operands and %d results with pack=%d", len(r.Args), len(r.Yields), len(v.Args), len(types), pack)
	}
	return vf.regionBody(r, func(i int) DType { return v.Args[i/pack].Type.DType }, func(i int) DType { return types[i/pack].DType })
}
