package interp

// This file extends the test builder with the ops of tiles of rank 2 and
// more, reductions, scans and atomics.

import (
	"github.com/tri-lang/tri/ir"
)

func (b *builder) reshape(x *ir.Value, shape ...int) *ir.Value {
	return b.value(ir.OpReshape, ir.TileType(x.Type.DType, shape...), x)
}

func (b *builder) trans(x *ir.Value, perm ...int) *ir.Value {
	shape := make(ir.Shape, len(perm))
	for i, p := range perm {
		shape[i] = x.Type.Shape[p]
	}
	v := b.value(ir.OpTrans, ir.Type{DType: x.Type.DType, Shape: shape}, x)
	v.Perm = perm
	return v
}

func (b *builder) join(x, y *ir.Value) *ir.Value {
	shape := append(append(ir.Shape{}, x.Type.Shape...), 2)
	return b.value(ir.OpJoin, ir.Type{DType: x.Type.DType, Shape: shape}, x, y)
}

// split returns the two halves of x along its last dimension.
func (b *builder) split(x *ir.Value) (*ir.Value, *ir.Value) {
	half := ir.ReducedType(x.Type, len(x.Type.Shape)-1)
	v := b.value(ir.OpSplit, ir.ScalarType(ir.TVoid), x)
	v.Types = []ir.Type{half, half}
	return b.get(v, 0), b.get(v, 1)
}

// get appends tuple_get i of a multi-result value.
func (b *builder) get(x *ir.Value, i int) *ir.Value {
	v := b.value(ir.OpTupleGet, x.Types[i], x)
	v.Axis = i
	return v
}

// reduce appends a builtin reduction of x along axis.
func (b *builder) reduce(c ir.Combine, x *ir.Value, axis int, flags ir.Flags) *ir.Value {
	t := ir.ReducedType(x.Type, axis)
	if c == ir.CombineArgMax || c == ir.CombineArgMin {
		t.DType = ir.TInt32
	}
	v := b.value(ir.OpReduce, t, x)
	v.Combine, v.Axis, v.Flags = c, axis, flags
	return v
}

// scan appends a builtin scan of x along axis.
func (b *builder) scan(c ir.Combine, x *ir.Value, axis int, flags ir.Flags) *ir.Value {
	v := b.value(ir.OpScan, x.Type, x)
	v.Combine, v.Axis, v.Flags = c, axis, flags
	return v
}

// region builds a custom combine Region for operands xs: body gets the
// accumulated values then the new ones and returns the yields.
func (b *builder) region(xs []*ir.Value, body func(acc, x []*ir.Value) []*ir.Value) *ir.Region {
	n := len(xs)
	r := &ir.Region{}
	for i := range 2 * n {
		a := &ir.Value{ID: b.k.NumValues, Op: ir.OpRegionArg, Type: ir.ScalarType(xs[i%n].Type.DType), Pos: b.pos(), Axis: i}
		b.k.NumValues++
		r.Args = append(r.Args, a)
	}
	r.Body = b.nest(func() { r.Yields = body(r.Args[:n], r.Args[n:]) })
	return r
}

// custom appends a reduce (op OpReduce) or scan (OpScan) of xs along axis
// with a region; with several operands the results are read with get.
func (b *builder) custom(op ir.Op, xs []*ir.Value, axis int, flags ir.Flags, body func(acc, x []*ir.Value) []*ir.Value) *ir.Value {
	r := b.region(xs, body)
	var types []ir.Type
	for _, x := range xs {
		t := x.Type
		if op == ir.OpReduce {
			t = ir.ReducedType(t, axis)
		}
		types = append(types, t)
	}
	t := ir.ScalarType(ir.TVoid)
	if len(types) == 1 {
		t, types = types[0], nil
	}
	v := b.value(op, t, xs...)
	v.Combine, v.Axis, v.Flags, v.Region, v.Types = ir.CombineCustom, axis, flags, r, types
	return v
}

// atomic appends an atomic read-modify-write; mask may be nil.
func (b *builder) atomic(op ir.AtomicOp, p, x, mask *ir.Value) *ir.Value {
	v := b.value(ir.OpAtomicRMW, x.Type, p, x, mask)
	v.Atomic = op
	return v
}

func (b *builder) cas(p, cmp, x *ir.Value) *ir.Value {
	return b.value(ir.OpAtomicCAS, x.Type, p, cmp, x)
}

// tilePtrs returns the pointers p + offsets of a row-major tile of the
// given shape (p itself for a scalar shape).
func (b *builder) tilePtrs(p *ir.Value, shape ir.Shape) *ir.Value {
	if len(shape) == 0 {
		return p
	}
	n := shape.NumElements()
	offs := b.arange(0, n)
	if len(shape) > 1 {
		offs = b.reshape(offs, shape...)
	}
	return b.ptrAdd(b.splat(p, shape...), offs)
}
