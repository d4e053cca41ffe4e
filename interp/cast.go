package interp

// This file implements OpCast and OpBitcast.

import (
	"github.com/tri-lang/tri/ir"
)

// cast converts a to kind dst. Float narrowing rounds to nearest even, or
// toward zero with tz. See the package comment for float->int.
func cast(a *tile, dst ir.Kind, tz bool) *tile {
	src := a.kind
	t := newTile(dst, a.shape)
	switch {
	case src.IsFloat() && dst.IsFloat():
		for i, x := range a.flts {
			t.flts[i] = roundFloat(dst, x, tz)
		}
	case src.IsFloat():
		for i, x := range a.flts {
			t.ints[i] = floatToInt(dst, x)
		}
	case dst.IsFloat():
		for i, x := range a.ints {
			t.flts[i] = intToFloat(src, dst, x)
		}
	case dst == ir.Bool:
		for i, x := range a.ints {
			t.ints[i] = b2i(x != 0)
		}
	default:
		copy(t.ints, a.ints)
		wrapInts(dst, t.ints)
	}
	return t
}

// bitcast reinterprets the bits of a (same width) as kind dst.
func bitcast(a *tile, dst ir.Kind) *tile {
	t := newTile(dst, a.shape)
	for i := range a.len() {
		setBits(t, i, bitsOf(a, i))
	}
	return t
}

// bitsOf returns the bit pattern of element i of t, zero-extended.
func bitsOf(t *tile, i int) uint64 {
	if t.flts != nil {
		return floatBits(t.kind, t.flts[i])
	}
	b := uint64(t.ints[i])
	if w := t.kind.Bits(); w < 64 {
		b &= 1<<w - 1
	}
	return b
}

// setBits sets element i of t from a bit pattern of t's kind.
func setBits(t *tile, i int, b uint64) {
	if t.flts != nil {
		t.flts[i] = floatFromBits(t.kind, b)
		return
	}
	t.ints[i] = wrapInt(t.kind, int64(b))
}
