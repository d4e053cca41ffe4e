package interp

// This file implements tiles, the values of the interpreter, and the
// wrapping of integers to their kind's width.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// tile is the value of one ir.Value: a scalar (shape nil, one element) or a
// tile. Exactly one of ints and flts holds the elements, row-major: flts
// for float kinds, ints for integers, Bool and pointers (see the package
// comment for the canonical form). Tiles are immutable once built. A
// multi-result value (a tuple reduce or scan, a split) has kind Void and
// its results in parts, read by OpTupleGet. undef marks the lanes whose
// value is undefined (see undef.go); it is nil for most tiles.
type tile struct {
	kind  ir.Kind
	shape ir.Shape
	ints  []int64
	flts  []float64
	parts []*tile
	undef *undefLanes
}

// newTile allocates a zeroed tile of kind k and the given shape.
func newTile(k ir.Kind, shape ir.Shape) *tile {
	t := &tile{kind: k, shape: shape}
	n := shape.NumElements()
	if k.IsFloat() {
		t.flts = make([]float64, n)
	} else {
		t.ints = make([]int64, n)
	}
	return t
}

// intScalar makes a scalar tile holding the integer x wrapped to k.
func intScalar(k ir.Kind, x int64) *tile {
	return &tile{kind: k, ints: []int64{wrapInt(k, x)}}
}

// constTile makes the scalar tile of an ir.Const of kind k (a Bool is true
// when Int is not zero).
func constTile(k ir.Kind, c ir.Const) *tile {
	switch {
	case k.IsFloat():
		return &tile{kind: k, flts: []float64{roundFloat(k, c.Float, false)}}
	case k == ir.Bool:
		return intScalar(k, b2i(c.Int != 0))
	}
	return intScalar(k, c.Int)
}

// len is the number of elements.
func (t *tile) len() int {
	if t.flts != nil {
		return len(t.flts)
	}
	return len(t.ints)
}

// withShape returns a tile sharing t's elements with another shape.
func (t *tile) withShape(shape ir.Shape) *tile {
	return &tile{kind: t.kind, shape: shape, ints: t.ints, flts: t.flts, undef: t.undef}
}

// truth is the value of a Bool scalar.
func (t *tile) truth() bool { return t.ints[0] != 0 }

// wrapInt brings x to the canonical form of integer kind k.
func wrapInt(k ir.Kind, x int64) int64 {
	switch k {
	case ir.Bool:
		return x & 1
	case ir.Int8:
		return int64(int8(x))
	case ir.Int16:
		return int64(int16(x))
	case ir.Int32:
		return int64(int32(x))
	case ir.Uint8:
		return int64(uint8(x))
	case ir.Uint16:
		return int64(uint16(x))
	case ir.Uint32:
		return int64(uint32(x))
	}
	return x
}

// wrapInts brings every element of s to the canonical form of k, in place.
func wrapInts(k ir.Kind, s []int64) {
	switch k {
	case ir.Int64, ir.Uint64, ir.Ptr:
		return
	case ir.Int32:
		for i, x := range s {
			s[i] = int64(int32(x))
		}
		return
	}
	for i, x := range s {
		s[i] = wrapInt(k, x)
	}
}

// laneString formats the coordinates of element i of a tile of the given
// shape: "[3, 5]", or "" for a scalar.
func laneString(shape ir.Shape, i int) string {
	if len(shape) == 0 {
		return ""
	}
	idx := make([]string, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = fmt.Sprint(i % shape[d])
		i /= shape[d]
	}
	return "[" + strings.Join(idx, ", ") + "]"
}
