package interp

// This file implements a small builder of ir.Kernels for the tests, used
// until kernels can be written as source and run through sema.

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// builder appends values and statements to the innermost open block. Every
// value and statement is placed at line b.line of k.tri.
type builder struct {
	k      *ir.Kernel
	blocks []*ir.Block
	line   int
}

func newBuilder(name string) *builder {
	k := &ir.Kernel{Name: name, File: "k.tri", Body: &ir.Block{}, NumWarps: 4, NumStages: 3}
	return &builder{k: k, blocks: []*ir.Block{k.Body}, line: 1}
}

// at sets the line of what follows.
func (b *builder) at(line int) *builder {
	b.line = line
	return b
}

func (b *builder) pos() ir.Pos { return ir.Pos{File: b.k.File, Line: b.line, Col: 5} }

func (b *builder) add(s ir.Stmt) {
	blk := b.blocks[len(b.blocks)-1]
	blk.Stmts = append(blk.Stmts, s)
}

// value appends a value of type t computing op over args.
func (b *builder) value(op ir.Op, t ir.Type, args ...*ir.Value) *ir.Value {
	v := &ir.Value{ID: b.k.NumValues, Op: op, Type: t, Args: args, Pos: b.pos()}
	b.k.NumValues++
	b.add(v)
	return v
}

func (b *builder) param(name string, d ir.DType) *ir.Value {
	p := &ir.Param{Name: name, Index: len(b.k.Params), DType: d, Pos: b.pos()}
	b.k.Params = append(b.k.Params, p)
	v := b.value(ir.OpParam, ir.ScalarType(d))
	v.Param = p
	p.Value = v
	return v
}

func (b *builder) cint(d ir.DType, x int64) *ir.Value {
	v := b.value(ir.OpConst, ir.ScalarType(d))
	v.Const = ir.IntConst(x)
	return v
}

func (b *builder) cfloat(d ir.DType, x float64) *ir.Value {
	v := b.value(ir.OpConst, ir.ScalarType(d))
	v.Const = ir.FloatConst(x)
	return v
}

func (b *builder) i32(x int64) *ir.Value { return b.cint(ir.TInt32, x) }

func (b *builder) pid(axis int) *ir.Value {
	v := b.value(ir.OpProgramID, ir.ScalarType(ir.TInt32))
	v.Axis = axis
	return v
}

func (b *builder) arange(lo, n int) *ir.Value {
	v := b.value(ir.OpArange, ir.TileType(ir.TInt32, n))
	v.Const = ir.IntConst(int64(lo))
	return v
}

func (b *builder) splat(x *ir.Value, shape ...int) *ir.Value {
	return b.value(ir.OpSplat, ir.TileType(x.Type.DType, shape...), x)
}

// bin appends an elementwise op whose result has x's type.
func (b *builder) bin(op ir.Op, x, y *ir.Value) *ir.Value { return b.value(op, x.Type, x, y) }

func (b *builder) cmp(op ir.Op, x, y *ir.Value) *ir.Value {
	return b.value(op, ir.Type{DType: ir.TBool, Shape: x.Type.Shape}, x, y)
}

func (b *builder) cast(x *ir.Value, d ir.DType) *ir.Value {
	return b.value(ir.OpCast, ir.Type{DType: d, Shape: x.Type.Shape}, x)
}

func (b *builder) ptrAdd(p, off *ir.Value) *ir.Value { return b.value(ir.OpPtrAdd, p.Type, p, off) }

func (b *builder) expand(x *ir.Value, axis int) *ir.Value {
	shape := append(append(ir.Shape{}, x.Type.Shape[:axis]...), 1)
	shape = append(shape, x.Type.Shape[axis:]...)
	v := b.value(ir.OpExpandDims, ir.Type{DType: x.Type.DType, Shape: shape}, x)
	v.Axis = axis
	return v
}

func (b *builder) broadcast(x *ir.Value, shape ...int) *ir.Value {
	return b.value(ir.OpBroadcast, ir.TileType(x.Type.DType, shape...), x)
}

// load appends a load; mask and other may be nil.
func (b *builder) load(p, mask, other *ir.Value) *ir.Value {
	return b.value(ir.OpLoad, ir.Type{DType: ir.Scalar(p.Type.Elem), Shape: p.Type.Shape}, p, mask, other)
}

func (b *builder) store(p, x, mask *ir.Value) {
	b.value(ir.OpStore, ir.ScalarType(ir.TVoid), p, x, mask)
}

func (b *builder) newVar(name string, t ir.Type) *ir.Var {
	v := &ir.Var{ID: b.k.NumVars, Name: name, Type: t, Pos: b.pos()}
	b.k.NumVars++
	return v
}

func (b *builder) assign(v *ir.Var, x *ir.Value) {
	b.add(&ir.Assign{Var: v, Value: x, Pos: b.pos()})
}

func (b *builder) read(v *ir.Var) *ir.Value {
	r := b.value(ir.OpVarRead, v.Type)
	r.Var = v
	return r
}

func (b *builder) nest(body func()) *ir.Block {
	blk := &ir.Block{}
	b.blocks = append(b.blocks, blk)
	body()
	b.blocks = b.blocks[:len(b.blocks)-1]
	return blk
}

// forRange appends `for v in range(lo, hi, step)`.
func (b *builder) forRange(v *ir.Var, lo, hi, step *ir.Value, body func()) {
	s := &ir.For{Var: v, Lo: lo, Hi: hi, Step: step, Pos: b.pos()}
	s.Body = b.nest(body)
	b.add(s)
}

// while appends a while loop; cond appends the condition's values and
// returns the Bool scalar.
func (b *builder) while(cond func() *ir.Value, body func()) {
	s := &ir.While{Pos: b.pos()}
	s.Cond = b.nest(func() { s.CondValue = cond() })
	s.Body = b.nest(body)
	b.add(s)
}

func (b *builder) ifElse(cond *ir.Value, then, els func()) {
	s := &ir.If{Cond: cond, Pos: b.pos()}
	s.Then = b.nest(then)
	s.Else = b.nest(func() {
		if els != nil {
			els()
		}
	})
	b.add(s)
}

func (b *builder) ret() { b.add(&ir.Return{Pos: b.pos()}) }

// done returns the kernel after checking it with ir.Verify.
func (b *builder) done(t testing.TB) *ir.Kernel {
	require.NoError(t, ir.Verify(b.k))
	return b.k
}
