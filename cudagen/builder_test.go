package cudagen

// This file implements a small IR builder for the tests: it builds kernels
// the way sema does (explicit splats and casts, constants as statements).

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

type builder struct {
	k     *ir.Kernel
	stack []*ir.Block
	line  int
}

// newBuilder starts a kernel whose source is the named file of testdata/
// or, if testdata has none, of the samples.
func newBuilder(t *testing.T, name, sample string, numWarps int) *builder {
	path := filepath.Join("testdata", sample)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("..", "samples", sample)
	}
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	k := &ir.Kernel{Name: name, File: sample, Source: string(src), Body: &ir.Block{}, NumWarps: numWarps, NumStages: 3}
	return &builder{k: k, stack: []*ir.Block{k.Body}}
}

func (b *builder) at(line int) *builder { b.line = line; return b }

func (b *builder) pos() ir.Pos { return ir.Pos{File: b.k.File, Line: b.line, Col: 5} }

func (b *builder) emit(v *ir.Value) *ir.Value {
	v.ID = b.k.NumValues
	b.k.NumValues++
	v.Pos = b.pos()
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, v)
	return v
}

func (b *builder) param(name string, d ir.DType, div16 bool) *ir.Value {
	p := &ir.Param{Name: name, Index: len(b.k.Params), DType: d, DivisibleBy16: div16}
	v := &ir.Value{ID: b.k.NumValues, Op: ir.OpParam, Type: ir.ScalarType(d), Param: p, Name: name}
	b.k.NumValues++
	p.Value = v
	b.k.Params = append(b.k.Params, p)
	val := d.String()
	if div16 {
		val += ":16"
	}
	b.k.Spec = append(b.k.Spec, ir.SpecEntry{Name: name, Kind: "runtime", Value: val})
	return v
}

func (b *builder) constexpr(name, value string) {
	b.k.Spec = append(b.k.Spec, ir.SpecEntry{Name: name, Kind: "constexpr", Value: value})
}

func (b *builder) i32(v int64) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpConst, Type: ir.ScalarType(ir.TInt32), Const: ir.IntConst(v)})
}

func (b *builder) f(v float64, d ir.DType) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpConst, Type: ir.ScalarType(d), Const: ir.FloatConst(v)})
}

func (b *builder) named(name string, v *ir.Value) *ir.Value { v.Name = name; return v }

func (b *builder) splat(s *ir.Value, shape ir.Shape) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpSplat, Type: ir.Type{DType: s.Type.DType, Shape: shape}, Args: []*ir.Value{s}})
}

func (b *builder) arange(n int) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpArange, Type: ir.TileType(ir.TInt32, n)})
}

func (b *builder) pid(axis int) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpProgramID, Type: ir.ScalarType(ir.TInt32), Axis: axis})
}

func (b *builder) nprog(axis int) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpNumPrograms, Type: ir.ScalarType(ir.TInt32), Axis: axis})
}

// broadcast splats scalars among args to the shape of the tiles among
// them, and broadcasts tiles with dimensions of size 1, as sema does.
func (b *builder) broadcast(args []*ir.Value) []*ir.Value {
	var shape ir.Shape
	for _, a := range args {
		if a == nil || a.Type.IsScalar() {
			continue
		}
		if shape == nil {
			shape = append(ir.Shape{}, a.Type.Shape...)
		}
		for d := range shape {
			shape[d] = max(shape[d], a.Type.Shape[d])
		}
	}
	out := append([]*ir.Value{}, args...)
	for i, a := range out {
		switch {
		case a == nil || shape == nil:
		case a.Type.IsScalar():
			out[i] = b.splat(a, shape)
		case !a.Type.Shape.Equal(shape):
			out[i] = b.bcast(a, shape)
		}
	}
	return out
}

func (b *builder) bcast(v *ir.Value, shape ir.Shape) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpBroadcast, Type: ir.Type{DType: v.Type.DType, Shape: shape}, Args: []*ir.Value{v}})
}

// expand is v[:, None] (axis 1) or v[None, :] (axis 0).
func (b *builder) expand(v *ir.Value, axis int) *ir.Value {
	shape := append(append(append(ir.Shape{}, v.Type.Shape[:axis]...), 1), v.Type.Shape[axis:]...)
	return b.emit(&ir.Value{Op: ir.OpExpandDims, Type: ir.Type{DType: v.Type.DType, Shape: shape}, Args: []*ir.Value{v}, Axis: axis})
}

// reduce is a reduction of x along axis.
func (b *builder) reduce(x *ir.Value, axis int, c ir.Combine) *ir.Value {
	shape := append(append(ir.Shape{}, x.Type.Shape[:axis]...), x.Type.Shape[axis+1:]...)
	d := x.Type.DType
	if c == ir.CombineArgMax || c == ir.CombineArgMin {
		d = ir.TInt32
	}
	if len(shape) == 0 {
		shape = nil
	}
	return b.emit(&ir.Value{Op: ir.OpReduce, Type: ir.Type{DType: d, Shape: shape}, Args: []*ir.Value{x}, Axis: axis, Combine: c})
}

func (b *builder) tupleGet(v *ir.Value, i int) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpTupleGet, Type: v.Types[i], Args: []*ir.Value{v}, Axis: i})
}

func (b *builder) atomic(op ir.AtomicOp, ptr, val, mask *ir.Value) *ir.Value {
	args := b.broadcast([]*ir.Value{ptr, val, mask})
	t := ir.Type{DType: ir.Scalar(ptr.Type.Elem), Shape: ptr.Type.Shape}
	return b.emit(&ir.Value{Op: ir.OpAtomicRMW, Type: t, Args: args, Atomic: op})
}

func (b *builder) atomicCAS(ptr, cmp, val *ir.Value) *ir.Value {
	t := ir.Type{DType: ir.Scalar(ptr.Type.Elem), Shape: ptr.Type.Shape}
	return b.emit(&ir.Value{Op: ir.OpAtomicCAS, Type: t, Args: []*ir.Value{ptr, cmp, val}})
}

func (b *builder) whileLoop(cond func() *ir.Value, body func()) {
	w := &ir.While{Cond: &ir.Block{}, Body: &ir.Block{}, Pos: b.pos()}
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, w)
	b.stack = append(b.stack, w.Cond)
	w.CondValue = cond()
	b.stack[len(b.stack)-1] = w.Body
	body()
	b.stack = b.stack[:len(b.stack)-1]
}

func (b *builder) op(op ir.Op, args ...*ir.Value) *ir.Value {
	args = b.broadcast(args)
	t := args[0].Type
	if op.IsCompare() {
		t.DType = ir.TBool
	}
	if op == ir.OpWhere {
		t = args[1].Type
	}
	return b.emit(&ir.Value{Op: op, Type: t, Args: args})
}

func (b *builder) cast(v *ir.Value, d ir.DType) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpCast, Type: ir.Type{DType: d, Shape: v.Type.Shape}, Args: []*ir.Value{v}})
}

func (b *builder) ptrAdd(p, off *ir.Value) *ir.Value {
	args := b.broadcast([]*ir.Value{p, off})
	return b.emit(&ir.Value{Op: ir.OpPtrAdd, Type: args[0].Type, Args: args})
}

func (b *builder) load(ptr, mask, other *ir.Value) *ir.Value {
	t := ir.Type{DType: ir.Scalar(ptr.Type.Elem), Shape: ptr.Type.Shape}
	return b.emit(&ir.Value{Op: ir.OpLoad, Type: t, Args: []*ir.Value{ptr, mask, other}})
}

func (b *builder) store(ptr, val, mask *ir.Value) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpStore, Type: ir.ScalarType(ir.TVoid), Args: []*ir.Value{ptr, val, mask}})
}

func (b *builder) newVar(name string, t ir.Type) *ir.Var {
	v := &ir.Var{ID: b.k.NumVars, Name: name, Type: t, Pos: b.pos()}
	b.k.NumVars++
	return v
}

func (b *builder) read(x *ir.Var) *ir.Value {
	return b.emit(&ir.Value{Op: ir.OpVarRead, Type: x.Type, Var: x})
}

func (b *builder) assign(x *ir.Var, v *ir.Value) {
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, &ir.Assign{Var: x, Value: v, Pos: b.pos()})
}

func (b *builder) forLoop(x *ir.Var, lo, hi, step *ir.Value, body func()) {
	f := &ir.For{Var: x, Lo: lo, Hi: hi, Step: step, Body: &ir.Block{}, Pos: b.pos()}
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, f)
	b.stack = append(b.stack, f.Body)
	body()
	b.stack = b.stack[:len(b.stack)-1]
}

func (b *builder) ifStmt(cond *ir.Value, then, els func()) {
	s := &ir.If{Cond: cond, Then: &ir.Block{}, Else: &ir.Block{}, Pos: b.pos()}
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, s)
	b.stack = append(b.stack, s.Then)
	then()
	b.stack[len(b.stack)-1] = s.Else
	if els != nil {
		els()
	}
	b.stack = b.stack[:len(b.stack)-1]
}

func (b *builder) ret() {
	blk := b.stack[len(b.stack)-1]
	blk.Stmts = append(blk.Stmts, &ir.Return{Pos: b.pos()})
}
