package interp

// This file implements the shape ops of tiles of rank 2 and more that move
// elements: OpTrans, OpJoin, OpSplit, and OpTupleGet. (OpReshape and
// OpExpandDims keep the row-major order and share their operand's slice;
// OpBroadcast is in eval.go.)

import (
	"github.com/tri-lang/tri/ir"
)

// trans permutes the dimensions of a: result dimension i is a's dimension
// perm[i].
func trans(a *tile, perm []int, shape ir.Shape) *tile {
	t := &tile{kind: a.kind, shape: shape}
	if a.flts != nil {
		t.flts = permute(a.flts, a.shape, perm)
	} else {
		t.ints = permute(a.ints, a.shape, perm)
	}
	return t
}

// permute returns src (of shape from) with its dimensions reordered by
// perm, walking the result in row-major order like an odometer.
func permute[T any](src []T, from ir.Shape, perm []int) []T {
	r := len(from)
	out := make([]T, len(src))
	if r == 0 {
		copy(out, src)
		return out
	}
	inStride := make([]int, r)
	s := 1
	for d := r - 1; d >= 0; d-- {
		inStride[d] = s
		s *= from[d]
	}
	to := make([]int, r)     // result shape
	stride := make([]int, r) // input stride of result dimension i
	for i, p := range perm {
		to[i] = from[p]
		stride[i] = inStride[p]
	}
	idx := make([]int, r)
	off := 0
	for i := range out {
		out[i] = src[off]
		for d := r - 1; d >= 0; d-- {
			idx[d]++
			off += stride[d]
			if idx[d] < to[d] {
				break
			}
			off -= stride[d] * idx[d]
			idx[d] = 0
		}
	}
	return out
}

// join interleaves a and b (same type) along a new last dimension of 2.
func join(a, b *tile, shape ir.Shape) *tile {
	t := newTile(a.kind, shape)
	if t.flts != nil {
		for i := range a.flts {
			t.flts[2*i], t.flts[2*i+1] = a.flts[i], b.flts[i]
		}
		return t
	}
	for i := range a.ints {
		t.ints[2*i], t.ints[2*i+1] = a.ints[i], b.ints[i]
	}
	return t
}

// split separates a, whose last dimension is 2, into its two halves.
func split(a *tile, types []ir.Type) *tile {
	lo, hi := newTile(a.kind, types[0].Shape), newTile(a.kind, types[1].Shape)
	if a.flts != nil {
		for i := range lo.flts {
			lo.flts[i], hi.flts[i] = a.flts[2*i], a.flts[2*i+1]
		}
	} else {
		for i := range lo.ints {
			lo.ints[i], hi.ints[i] = a.ints[2*i], a.ints[2*i+1]
		}
	}
	return &tile{kind: ir.Void, parts: []*tile{lo, hi}}
}
