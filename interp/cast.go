package interp

// This file implements OpCast and OpBitcast.

import (
	"github.com/tri-lang/tri/ir"
)

// cast converts a to kind dst on target arch (see Options.Arch). Float
// narrowing rounds to nearest even, or toward zero with tz; fp8e5 before
// sm_89 converts as fp8soft.go describes. See the package comment for
// float->int.
func cast(a *tile, dst ir.Kind, tz bool, arch int) *tile {
	src := a.kind
	t := newTile(dst, a.shape)
	soft := softFP8(arch) && (src == ir.Float8E5 || dst == ir.Float8E5)
	switch {
	case soft && src.IsFloat() && dst.IsFloat():
		for i, x := range a.flts {
			if y, ok := castE5Soft(src, dst, x, tz); ok {
				t.flts[i] = y
			} else {
				t.flts[i] = roundFloat(dst, x, tz)
			}
		}
	case soft && dst == ir.Float8E5:
		// An integer goes through fp32, as tri's CUDA converts it.
		for i, x := range a.ints {
			f := intToFloat(src, ir.Float32, x)
			if y, ok := castE5Soft(ir.Float32, dst, f, tz); ok {
				t.flts[i] = y
			} else {
				t.flts[i] = roundFloat(dst, f, tz)
			}
		}
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
