package sema

// This file implements the inlining of a @jit combine function into the
// ir.Region of a custom reduction or scan, as core.py's reduce and
// associative_scan build their combine regions: the function is called
// on scalars (the N accumulated values, then the N new ones) and must
// return N scalars of the inputs' dtypes.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// combineRegion compiles r.fn over scalar region arguments of the inputs'
// dtypes. It returns nil after reporting an error.
func (c *compiler) combineRegion(r *reduction, inputs []*ir.Value, pos diag.Pos) *ir.Region {
	fn := r.fn
	n := len(inputs)
	required := 0
	for _, p := range fn.Params {
		if p.Default == nil {
			required++
		}
	}
	if len(fn.Params) < 2*n || required > 2*n {
		c.errorf(pos, diag.CodeArgs, "the combine function %s takes %d arguments, but %s of %d input(s) calls it with %d (the accumulated values, then the new ones)", fn.Name, len(fn.Params), r.what, n, 2*n)
		return nil
	}
	for _, f := range c.stack {
		if f == fn {
			c.errorf(pos, diag.CodeUnsupported, "recursive call to %s: Triton does not support recursion", fn.Name)
			return nil
		}
	}
	region := &ir.Region{Body: &ir.Block{}}
	vals := make([]*val, 2*n)
	for i := range vals {
		v := &ir.Value{ID: c.kernel.NumValues, Op: ir.OpRegionArg, Type: ir.ScalarType(inputs[i%n].Type.DType), Pos: ir.Pos(pos), Axis: i, Name: fn.Params[i].Name}
		c.kernel.NumValues++
		region.Args = append(region.Args, v)
		vals[i] = rtVal(v)
	}
	saved := c.blk
	c.blk = region.Body
	defer func() { c.blk = saved }()
	ret := c.inlineVals(fn, vals, pos)
	if ret.k == kInvalid || !c.noDebugOps(region.Body, fn) {
		return nil
	}
	results := []*val{ret}
	if ret.k == kTuple {
		results = ret.elts
	}
	if len(results) != n {
		c.errorf(pos, diag.CodeType, "the combine function %s returns %d value(s), but %s of %d input(s) needs %d", fn.Name, len(results), r.what, n, n)
		return nil
	}
	for i, res := range results {
		want := inputs[i].Type.DType
		var y *ir.Value
		switch {
		case res.isNum():
			y = c.constOf(want, res, pos)
		case res.k == kRuntime && res.rt.Type.IsScalar() && res.rt.Type.DType == want:
			y = res.rt
		default:
			c.errorf(pos, diag.CodeType, "the combine function %s must return scalars of type %s (result %d), got %s", fn.Name, want, i, res.describe())
			return nil
		}
		region.Yields = append(region.Yields, y)
	}
	return region
}
