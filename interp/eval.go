package interp

// This file implements the evaluation of one Value (through the op's
// implementation from dispatch.go), shape ops and selection.

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

// evalOp computes v with its op's implementation.
func (p *program) evalOp(v *ir.Value, args []*tile) (*tile, error) {
	if f := p.ops[v.Op]; f != nil {
		return f(p, v, args)
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
