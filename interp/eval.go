package interp

// This file implements the evaluation of one Value: the dispatch on its op,
// leaves, shape ops, selection and hints.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// eval computes v from its operands' tiles. Void values give nil. Lanes
// computed from undefined lanes are undefined; using one is an error.
func (p *program) eval(v *ir.Value) (*tile, error) {
	var buf [3]*tile
	args := buf[:0]
	if len(v.Args) > len(buf) {
		args = make([]*tile, 0, len(v.Args))
	}
	args = args[:len(v.Args)]
	for i, a := range v.Args {
		if a != nil {
			args[i] = p.vals[a.ID]
		}
	}
	if firstUndef(args) == nil {
		return p.evalOp(v, args)
	}
	if err := p.checkUses(v, args); err != nil {
		return nil, err
	}
	t, err := p.evalOp(v, args)
	if t != nil && err == nil {
		propagate(v, args, t)
	}
	return t, err
}

// evalOp dispatches on v's op.
func (p *program) evalOp(v *ir.Value, args []*tile) (*tile, error) {
	k := v.Type.Kind
	switch v.Op {
	case ir.OpConst:
		return constTile(k, v.Const), nil
	case ir.OpParam:
		return p.m.params[v.Param.Index], nil
	case ir.OpProgramID:
		return intScalar(ir.Int32, int64(p.pid[v.Axis])), nil
	case ir.OpNumPrograms:
		return intScalar(ir.Int32, int64(p.m.grid[v.Axis])), nil
	case ir.OpArange:
		t := newTile(ir.Int32, v.Type.Shape)
		for i := range t.ints {
			t.ints[i] = v.Const.Int + int64(i)
		}
		wrapInts(ir.Int32, t.ints)
		return t, nil
	case ir.OpVarRead:
		t := p.vars[v.Var.ID]
		if t == nil {
			return nil, p.errorf(v.Pos, diag.CodeInternal, "internal error: %s read before it is assigned", v.Var.Name)
		}
		return t, nil
	case ir.OpSplat:
		return splat(args[0], v.Type.Shape), nil
	case ir.OpBroadcast:
		return broadcast(args[0], v.Type.Shape), nil
	case ir.OpExpandDims, ir.OpReshape, ir.OpMultipleOf, ir.OpMaxContiguous:
		return args[0].withShape(v.Type.Shape), nil
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem, ir.OpMax, ir.OpMin,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpShr:
		if k.IsFloat() {
			return floatBinary(v, args[0], args[1]), nil
		}
		return intBinary(v, args[0], args[1]), nil
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return compare(v.Op, args[0], args[1]), nil
	case ir.OpNeg, ir.OpNot, ir.OpAbs:
		if k.IsFloat() {
			return floatUnary(v, args[0]), nil
		}
		return intUnary(v, args[0]), nil
	case ir.OpExp, ir.OpExp2, ir.OpLog, ir.OpLog2, ir.OpSqrt, ir.OpRsqrt,
		ir.OpSin, ir.OpCos, ir.OpFloor, ir.OpCeil:
		return floatUnary(v, args[0]), nil
	case ir.OpFma:
		return fma(k, args[0], args[1], args[2]), nil
	case ir.OpCast:
		return cast(args[0], k, v.Flags&ir.FlagRoundTZ != 0), nil
	case ir.OpBitcast:
		return bitcast(args[0], k), nil
	case ir.OpWhere:
		return where(args[0], args[1], args[2]), nil
	case ir.OpPtrAdd:
		return ptrAdd(args[0], args[1], int64(v.Type.Elem.Bytes())), nil
	case ir.OpLoad:
		return p.load(v, args[0], args[1], args[2])
	case ir.OpStore:
		return nil, p.store(v, args[0], args[1], args[2])
	case ir.OpAssume:
		if !args[0].truth() {
			return nil, p.errorf(v.Pos, diag.CodeRuntime, "tl.assume does not hold")
		}
		return nil, nil
	case ir.OpBarrier:
		return nil, nil
	case ir.OpTrans:
		return trans(args[0], v.Perm, v.Type.Shape), nil
	case ir.OpJoin:
		return join(args[0], args[1], v.Type.Shape), nil
	case ir.OpSplit:
		return split(args[0], v.Types), nil
	case ir.OpTupleGet:
		return args[0].parts[v.Axis], nil
	case ir.OpReduce:
		if v.Combine == ir.CombineCustom {
			return p.reduceCustom(v, args)
		}
		return reduceBuiltin(v, args[0]), nil
	case ir.OpScan:
		if v.Combine == ir.CombineCustom {
			return p.scanCustom(v, args)
		}
		return scanBuiltin(v, args[0]), nil
	case ir.OpDot:
		return dot(args[0], args[1], args[2], v.Precision), nil
	case ir.OpAtomicRMW:
		return p.atomicRMW(v, args[0], args[1], args[2])
	case ir.OpAtomicCAS:
		return p.atomicCAS(v, args[0], args[1], args[2])
	}
	return nil, p.errorf(v.Pos, diag.CodeInternal, "internal error: the interpreter has no op %s", v.Op)
}

// splat fills a tile of the given shape with the scalar a.
func splat(a *tile, shape ir.Shape) *tile {
	t := newTile(a.kind, shape)
	if t.flts != nil {
		fill(t.flts, a.flts[0])
	} else {
		fill(t.ints, a.ints[0])
	}
	return t
}

func fill[T any](s []T, x T) {
	for i := range s {
		s[i] = x
	}
}

// broadcast stretches the dimensions of size 1 of a to shape (same rank).
func broadcast(a *tile, shape ir.Shape) *tile {
	if a.shape.Equal(shape) {
		return a
	}
	t := &tile{kind: a.kind, shape: shape}
	if a.flts != nil {
		t.flts = stretch(a.flts, a.shape, shape)
	} else {
		t.ints = stretch(a.ints, a.shape, shape)
	}
	return t
}

// stretch copies src of shape from into a new slice of shape to (same
// rank, at least 1), reading index 0 along each dimension where from has
// size 1. It copies one innermost row at a time, then advances the outer
// index like an odometer.
func stretch[T any](src []T, from, to ir.Shape) []T {
	r := len(to)
	strides := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		if from[d] != 1 {
			strides[d] = s
		}
		s *= from[d]
	}
	out := make([]T, to.NumElements())
	idx := make([]int, r)
	inner, st := to[r-1], strides[r-1]
	off := 0
	for i := 0; i < len(out); i += inner {
		for j := range inner {
			out[i+j] = src[off+j*st]
		}
		for d := r - 2; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < to[d] {
				break
			}
			off -= strides[d] * idx[d]
			idx[d] = 0
		}
	}
	return out
}

// where selects a where cond is true, else b.
func where(cond, a, b *tile) *tile {
	t := newTile(a.kind, a.shape)
	c := cond.ints
	if t.flts != nil {
		for i := range t.flts {
			if c[i] != 0 {
				t.flts[i] = a.flts[i]
			} else {
				t.flts[i] = b.flts[i]
			}
		}
		return t
	}
	for i := range t.ints {
		if c[i] != 0 {
			t.ints[i] = a.ints[i]
		} else {
			t.ints[i] = b.ints[i]
		}
	}
	return t
}

// ptrAdd advances each pointer of p by off elements of size bytes.
func ptrAdd(p, off *tile, size int64) *tile {
	t := newTile(ir.Ptr, p.shape)
	for i := range t.ints {
		t.ints[i] = p.ints[i] + off.ints[i]*size
	}
	return t
}
