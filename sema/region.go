package sema

// This file implements the inlining of a @jit combine function into the
// ir.Region of a custom reduction or scan, as core.py's reduce and
// associative_scan build their combine regions: the function is called
// on scalars (the N accumulated values, then the N new ones) and must
// return N scalars of the inputs' dtypes.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// combineRegion compiles r.fn over scalar region arguments of the inputs'
// dtypes. It returns nil after reporting an error.
func (c *compiler) combineRegion(r *reduction, inputs []*ir.Value, pos diag.Pos) *ir.Region {
	fn := r.fn
	n := len(inputs)
	if len(fn.Params) < 2*n || requiredParams(fn) > 2*n {
		c.errorf(pos, diag.CodeArgs, "the combine function %s takes %d arguments, but %s of %d input(s) calls it with %d (the accumulated values, then the new ones)", fn.Name, len(fn.Params), r.what, n, 2*n)
		return nil
	}
	args := make([]ir.DType, 2*n)
	for i := range args {
		args[i] = inputs[i%n].Type.DType
	}
	return c.inlineRegion(fn, args, "the combine function "+fn.Name, "print or check the result of the reduction or scan instead", pos, func(results []*val, _ bool) ([]*ir.Value, bool) {
		if len(results) != n {
			c.errorf(pos, diag.CodeType, "the combine function %s returns %d value(s), but %s of %d input(s) needs %d", fn.Name, len(results), r.what, n, n)
			return nil, false
		}
		var yields []*ir.Value
		for i, res := range results {
			want := inputs[i].Type.DType
			switch {
			case res.isNum():
				yields = append(yields, c.constOf(want, res, pos))
			case res.k == kRuntime && res.rt.Type.IsScalar() && res.rt.Type.DType == want:
				yields = append(yields, res.rt)
			default:
				c.errorf(pos, diag.CodeType, "the combine function %s must return scalars of type %s (result %d), got %s", fn.Name, want, i, res.describe())
				return nil, false
			}
		}
		return yields, true
	})
}

// requiredParams counts fn's parameters without a default.
func requiredParams(fn *frontend.Func) int {
	n := 0
	for _, p := range fn.Params {
		if p.Default == nil {
			n++
		}
	}
	return n
}

// inlineRegion inlines fn into a new region on one scalar region argument
// per dtype of args (named after fn's parameters); yield turns fn's results
// (a tuple's elements, tuple set, or the one value) into the region's
// yields, still inside the region's body, or returns nil after reporting an error. A
// print or an assertion in the body is refused: the region runs once per
// element or pair of elements, with no program or element index of its
// own; where names the function in that error and advice says what to do
// instead. It returns nil after reporting an error.
func (c *compiler) inlineRegion(fn *frontend.Func, args []ir.DType, where, advice string, pos diag.Pos, yield func(results []*val, tuple bool) ([]*ir.Value, bool)) *ir.Region {
	for _, f := range c.stack {
		if f == fn {
			c.errorf(pos, diag.CodeUnsupported, "recursive call to %s: Triton does not support recursion", fn.Name)
			return nil
		}
	}
	region := &ir.Region{Body: &ir.Block{}}
	vals := make([]*val, len(args))
	for i, d := range args {
		v := &ir.Value{ID: c.kernel.NumValues, Op: ir.OpRegionArg, Type: ir.ScalarType(d), Pos: ir.Pos(pos), Axis: i, Name: fn.Params[i].Name}
		c.kernel.NumValues++
		region.Args = append(region.Args, v)
		vals[i] = rtVal(v)
	}
	saved := c.blk
	c.blk = region.Body
	defer func() { c.blk = saved }()
	ret := c.inlineVals(fn, vals, pos)
	if ret.k == kInvalid {
		return nil
	}
	ok := true
	ir.Inspect(region.Body, func(v *ir.Value) {
		if ok && (v.Op == ir.OpPrint || v.Op == ir.OpAssert) {
			what := map[ir.Op]string{ir.OpPrint: "printing", ir.OpAssert: "an assertion"}[v.Op]
			c.errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "%s inside %s is not supported; %s", what, where, advice)
			ok = false
		}
	})
	if !ok {
		return nil
	}
	results := []*val{ret}
	if ret.k == kTuple {
		results = ret.elts
	}
	var yielded bool
	if region.Yields, yielded = yield(results, ret.k == kTuple); !yielded {
		return nil
	}
	return region
}
