package sema

// This file implements reductions and scans as Triton 3.6's standard.py and
// core.py define them: tl.sum, max, min, argmax, argmin, xor_sum, reduce,
// associative_scan, cumsum and cumprod, with their dtype rules (sum
// widens integers narrower than 32 bits, max and min widen everything
// narrower than 32 bits and bf16, the index of argmax/argmin is i32),
// axis=None (flatten, then axis 0) and keep_dims.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

func addReduceBuiltins(tl func(string) string) {
	builtins[tl("sum")] = &builtin{[]string{"input", "axis", "keep_dims", "dtype"}, 1, bSum}
	builtins[tl("max")] = &builtin{[]string{"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"}, 1, bMaxMin(ir.CombineMax)}
	builtins[tl("min")] = &builtin{[]string{"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"}, 1, bMaxMin(ir.CombineMin)}
	builtins[tl("argmax")] = &builtin{[]string{"input", "axis", "tie_break_left", "keep_dims"}, 2, bArg(ir.CombineArgMax)}
	builtins[tl("argmin")] = &builtin{[]string{"input", "axis", "tie_break_left", "keep_dims"}, 2, bArg(ir.CombineArgMin)}
	builtins[tl("xor_sum")] = &builtin{[]string{"input", "axis", "keep_dims"}, 1, bBitReduce("tl.xor_sum", ir.CombineXor)}
	builtins[tl("reduce_or")] = &builtin{[]string{"input", "axis", "keep_dims"}, 1, bBitReduce("tl.reduce_or", ir.CombineOr)}
	builtins[tl("reduce")] = &builtin{[]string{"input", "axis", "combine_fn", "keep_dims"}, 3, bReduce}
	builtins[tl("associative_scan")] = &builtin{[]string{"input", "axis", "combine_fn", "reverse"}, 3, bAssocScan}
	builtins[tl("cumsum")] = &builtin{[]string{"input", "axis", "reverse", "dtype"}, 1, bCumsum}
	builtins[tl("cumprod")] = &builtin{[]string{"input", "axis", "reverse"}, 1, bCumprod}
}

// reduction describes one OpReduce or OpScan to emit.
type reduction struct {
	op      ir.Op // OpReduce or OpScan
	what    string
	inputs  []*ir.Value
	axis    *val // nil or None: all axes (reductions only)
	combine ir.Combine
	fn      *frontend.Func // the combine function of CombineCustom
	keep    bool
	reverse bool
}

// constBool reads an optional compile-time flag.
func (c *compiler) constBool(v *val, what string, def bool, pos diag.Pos) (bool, bool) {
	if v == nil {
		return def, true
	}
	if !v.isConst() {
		c.errorf(pos, diag.CodeValue, "%s must be a compile-time value, got %s", what, v.describe())
		return false, false
	}
	return v.truth(), true
}

// reduceInput reads the tensor a reduction works on.
func (c *compiler) reduceInput(v *val, what string, pos diag.Pos) *ir.Value {
	if v.k == kRuntime && v.rt.Type.IsScalar() || v.isNum() {
		c.errorf(pos, diag.CodeType, "%s cannot reduce or scan a scalar; it needs a tensor", what)
		return nil
	}
	x := c.tensorArg(v, what, pos)
	if x != nil && x.Type.IsPtr() {
		c.errorf(pos, diag.CodeType, "%s of pointers is not supported", what)
		return nil
	}
	if x != nil && x.Type.Kind.IsFP8() {
		c.errorf(pos, diag.CodeType, "%s of %s values is not supported: convert them first, e.g. x.to(tl.float32)", what, x.Type.DType)
		return nil
	}
	return x
}

// wrapAxis is core.py's _wrap_axis.
func (c *compiler) wrapAxis(v *val, rank int, what string, pos diag.Pos) (int, bool) {
	n, ok := c.constInt(v, "the axis of "+what, pos)
	if !ok {
		return 0, false
	}
	if n < -int64(rank) || n >= int64(rank) {
		c.errorf(pos, diag.CodeValue, "%s: invalid axis %d for a tensor of rank %d; expected %d <= axis < %d", what, n, rank, -rank, rank)
		return 0, false
	}
	if n < 0 {
		n += int64(rank)
	}
	return int(n), true
}

// emitReduction emits r and returns its results, one per input.
func (c *compiler) emitReduction(r *reduction, pos diag.Pos) []*ir.Value {
	shape := r.inputs[0].Type.Shape
	for _, x := range r.inputs[1:] {
		if !x.Type.Shape.Equal(shape) {
			c.errorf(pos, diag.CodeType, "%s: all inputs must have the same shape, got %s and %s", r.what, shape, x.Type.Shape)
			return nil
		}
	}
	rank := shape.Rank()
	inputs := r.inputs
	axis := 0
	if r.axis == nil || r.axis.k == kNone {
		if r.op == ir.OpScan {
			c.errorf(pos, diag.CodeValue, "%s needs an axis", r.what)
			return nil
		}
		if rank > 1 {
			inputs = make([]*ir.Value, len(r.inputs))
			for i, x := range r.inputs {
				flat := ir.Type{DType: x.Type.DType, Shape: ir.Shape{shape.NumElements()}}
				inputs[i] = c.emit(ir.OpReshape, flat, pos, x)
			}
		}
	} else {
		var ok bool
		if axis, ok = c.wrapAxis(r.axis, rank, r.what, pos); !ok {
			return nil
		}
	}
	var types []ir.Type
	for _, x := range inputs {
		t := x.Type
		if r.op == ir.OpReduce {
			t = ir.ReducedType(x.Type, axis)
		}
		if r.combine == ir.CombineArgMax || r.combine == ir.CombineArgMin {
			t.DType = ir.TInt32
		}
		types = append(types, t)
	}
	var region *ir.Region
	if r.combine == ir.CombineCustom {
		if region = c.combineRegion(r, inputs, pos); region == nil {
			return nil
		}
	}
	v := c.emit(r.op, types[0], pos, inputs...)
	v.Axis, v.Combine, v.Region = axis, r.combine, region
	if r.reverse {
		v.Flags |= ir.FlagReverse
	}
	results := []*ir.Value{v}
	if len(types) > 1 {
		v.Type, v.Types = ir.ScalarType(ir.TVoid), types
		results = results[:0]
		for i, t := range types {
			g := c.emit(ir.OpTupleGet, t, pos, v)
			g.Axis = i
			results = append(results, g)
		}
	}
	if r.keep && r.op == ir.OpReduce {
		for i, x := range results {
			if r.axis == nil || r.axis.k == kNone {
				ones := make(ir.Shape, rank)
				for j := range ones {
					ones[j] = 1
				}
				results[i] = c.splatTo(x, ones, pos)
			} else {
				results[i] = c.expandDims(x, axis, pos)
			}
		}
	}
	return results
}

// reduceOne emits a reduction of one input and returns its value.
func (c *compiler) reduceOne(r *reduction, pos diag.Pos) *val {
	rs := c.emitReduction(r, pos)
	if rs == nil {
		return invalid
	}
	return rtVal(rs[0])
}

// sumDType is standard.py's _pick_sum_dtype: integers narrower than 32
// bits widen to i32 or u32 with the same signedness (int1 counts as
// unsigned); an explicit dtype wins.
func sumDType(in ir.DType) (ir.DType, bool) {
	switch {
	case in.Kind.IsSigned() && in.Kind.Bits() < 32:
		return ir.TInt32, true
	case in.Kind.IsUnsigned() && in.Kind.Bits() < 32:
		return ir.TUint32, true
	}
	return ir.DType{}, false
}

// minMaxDType is the dtype standard.py's max and min reduce in without
// return_indices: bf16 and every type narrower than 32 bits widen to fp32
// (floats) or i32 (integers, bool included).
func minMaxDType(in ir.DType) ir.DType {
	switch {
	case in.Kind.IsFloat() && in.Kind.Bits() < 32:
		return ir.TFloat32
	case in.Kind.IsInt() && in.Kind.Bits() < 32:
		return ir.TInt32
	}
	return in
}

// sumInput casts the input of sum or cumsum to its accumulation dtype:
// the dtype argument if given, else _pick_sum_dtype's choice.
func (c *compiler) sumInput(x *ir.Value, dtype *val, pos diag.Pos) *ir.Value {
	if !given(dtype) {
		if dt, ok := sumDType(x.Type.DType); ok {
			return c.cast(x, dt, pos)
		}
		return x
	}
	dt, ok := c.dtypeArg(dtype, pos)
	if !ok {
		return nil
	}
	if dt.IsPtr() {
		c.errorf(pos, diag.CodeType, "the dtype of a sum must be a number type, not %s", dt)
		return nil
	}
	return c.cast(x, dt, pos)
}

func bSum(c *compiler, a *args) *val {
	x := c.reduceInput(a.vals[0], "tl.sum", a.pos)
	keep, ok := c.constBool(a.vals[2], "keep_dims", false, a.pos)
	if x == nil || !ok {
		return invalid
	}
	if x = c.sumInput(x, a.vals[3], a.pos); x == nil {
		return invalid
	}
	return c.reduceOne(&reduction{op: ir.OpReduce, what: "tl.sum", inputs: []*ir.Value{x}, axis: a.vals[1], combine: ir.CombineSum, keep: keep}, a.pos)
}

// bMaxMin is standard.py's max and min.
func bMaxMin(comb ir.Combine) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		what, arg := "tl.max", ir.CombineArgMax
		if comb == ir.CombineMin {
			what, arg = "tl.min", ir.CombineArgMin
		}
		x := c.reduceInput(a.vals[0], what, a.pos)
		indices, ok1 := c.constBool(a.vals[2], "return_indices", false, a.pos)
		_, ok2 := c.constBool(a.vals[3], "return_indices_tie_break_left", true, a.pos)
		keep, ok3 := c.constBool(a.vals[4], "keep_dims", false, a.pos)
		if x == nil || !ok1 || !ok2 || !ok3 {
			return invalid
		}
		if x.Type.Kind == ir.BFloat16 {
			x = c.cast(x, ir.TFloat32, a.pos)
		}
		if !indices {
			x = c.cast(x, minMaxDType(x.Type.DType), a.pos)
			return c.reduceOne(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: a.vals[1], combine: comb, keep: keep}, a.pos)
		}
		// _reduce_with_indices: the value keeps its dtype; tie_break_left
		// or not, the leftmost index is a valid answer.
		value := c.reduceOne(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: a.vals[1], combine: comb, keep: keep}, a.pos)
		if value.k == kInvalid {
			return invalid
		}
		index := c.reduceOne(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: a.vals[1], combine: arg, keep: keep}, a.pos)
		if index.k == kInvalid {
			return invalid
		}
		return &val{k: kTuple, elts: []*val{value, index}}
	}
}

// bArg is standard.py's argmax and argmin: the i32 index of the first
// maximum (minimum); bf16 is compared in fp32.
func bArg(comb ir.Combine) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		what := "tl.argmax"
		if comb == ir.CombineArgMin {
			what = "tl.argmin"
		}
		x := c.reduceInput(a.vals[0], what, a.pos)
		_, ok1 := c.constBool(a.vals[2], "tie_break_left", true, a.pos)
		keep, ok2 := c.constBool(a.vals[3], "keep_dims", false, a.pos)
		if x == nil || !ok1 || !ok2 {
			return invalid
		}
		if x.Type.Kind == ir.BFloat16 {
			x = c.cast(x, ir.TFloat32, a.pos)
		}
		return c.reduceOne(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: a.vals[1], combine: comb, keep: keep}, a.pos)
	}
}

// bBitReduce is standard.py's xor_sum and reduce_or: a bitwise reduction
// of integers.
func bBitReduce(what string, comb ir.Combine) func(c *compiler, a *args) *val {
	return func(c *compiler, a *args) *val {
		x := c.reduceInput(a.vals[0], what, a.pos)
		keep, ok := c.constBool(a.vals[2], "keep_dims", false, a.pos)
		if x == nil || !ok {
			return invalid
		}
		if !x.Type.Kind.IsInt() {
			return c.errorf(a.pos, diag.CodeType, "%s only supported for integers, got %s", what[len("tl."):], x.Type.DType)
		}
		return c.reduceOne(&reduction{op: ir.OpReduce, what: what, inputs: []*ir.Value{x}, axis: a.vals[1], combine: comb, keep: keep}, a.pos)
	}
}

// bCumsum is standard.py's cumsum: bf16 scans in fp32, narrow integers
// as sum does.
func bCumsum(c *compiler, a *args) *val {
	x := c.reduceInput(a.vals[0], "tl.cumsum", a.pos)
	rev, ok := c.constBool(a.vals[2], "reverse", false, a.pos)
	if x == nil || !ok {
		return invalid
	}
	if x.Type.Kind == ir.BFloat16 {
		x = c.cast(x, ir.TFloat32, a.pos)
	}
	if x = c.sumInput(x, a.vals[3], a.pos); x == nil {
		return invalid
	}
	return c.reduceOne(&reduction{op: ir.OpScan, what: "tl.cumsum", inputs: []*ir.Value{x}, axis: axisOr0(a.vals[1]), combine: ir.CombineSum, reverse: rev}, a.pos)
}

// bCumprod is standard.py's cumprod: bf16 scans in fp32.
func bCumprod(c *compiler, a *args) *val {
	x := c.reduceInput(a.vals[0], "tl.cumprod", a.pos)
	rev, ok := c.constBool(a.vals[2], "reverse", false, a.pos)
	if x == nil || !ok {
		return invalid
	}
	if x.Type.Kind == ir.BFloat16 {
		x = c.cast(x, ir.TFloat32, a.pos)
	}
	return c.reduceOne(&reduction{op: ir.OpScan, what: "tl.cumprod", inputs: []*ir.Value{x}, axis: axisOr0(a.vals[1]), combine: ir.CombineProd, reverse: rev}, a.pos)
}

func axisOr0(v *val) *val {
	if v == nil {
		return intVal(0)
	}
	return v
}

// customInputs reads the input of tl.reduce or tl.associative_scan: a
// tensor or a tuple of tensors.
func (c *compiler) customInputs(v *val, what string, pos diag.Pos) ([]*ir.Value, bool) {
	if v.k != kTuple {
		x := c.reduceInput(v, what, pos)
		return []*ir.Value{x}, x != nil
	}
	if len(v.elts) == 0 {
		c.errorf(pos, diag.CodeValue, "%s needs at least one input", what)
		return nil, false
	}
	var xs []*ir.Value
	for _, e := range v.elts {
		x := c.reduceInput(e, what, pos)
		if x == nil {
			return nil, false
		}
		xs = append(xs, x)
	}
	return xs, true
}

// customCombine runs tl.reduce or tl.associative_scan with a @jit combine
// function; a tuple input gives a tuple result.
func (c *compiler) customCombine(a *args, r *reduction) *val {
	xs, ok := c.customInputs(a.vals[0], r.what, a.pos)
	if !ok {
		return invalid
	}
	fn := a.vals[2]
	if fn.k != kFunc {
		return c.errorf(a.pos, diag.CodeType, "the combine_fn of %s must be a @triton.jit function, got %s", r.what, fn.describe())
	}
	r.inputs, r.fn = xs, fn.fn
	rs := c.emitReduction(r, a.pos)
	if rs == nil {
		return invalid
	}
	if a.vals[0].k != kTuple {
		return rtVal(rs[0])
	}
	out := &val{k: kTuple}
	for _, x := range rs {
		out.elts = append(out.elts, rtVal(x))
	}
	return out
}

func bReduce(c *compiler, a *args) *val {
	keep, ok := c.constBool(a.vals[3], "keep_dims", false, a.pos)
	if !ok {
		return invalid
	}
	return c.customCombine(a, &reduction{op: ir.OpReduce, what: "tl.reduce", axis: a.vals[1], combine: ir.CombineCustom, keep: keep})
}

func bAssocScan(c *compiler, a *args) *val {
	rev, ok := c.constBool(a.vals[3], "reverse", false, a.pos)
	if !ok {
		return invalid
	}
	return c.customCombine(a, &reduction{op: ir.OpScan, what: "tl.associative_scan", axis: a.vals[1], combine: ir.CombineCustom, reverse: rev})
}
