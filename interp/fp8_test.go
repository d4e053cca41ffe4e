package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// The AMD (fnuz) fp8 formats run only in the interpreter: Triton compiles
// them for AMD GPUs only, so no conformance kernel can compare them with
// Triton. These tests hold their conversions to a reference written from
// the formats' definitions on the bit patterns:
//
//	e4m3fnuz: bias 8, 3 mantissa bits; e5m2fnuz: bias 16, 2 mantissa bits;
//	0x80 is the only NaN, no -0, no infinities; the largest finite code is
//	0x7F (240 and 57344)
//
// with the interpreter's saturating narrowing: to nearest even, past the
// largest finite value (infinities included) the signed largest code, NaN
// 0x80, and a result of zero positive.

// fnuzSpec is an fnuz format as the reference sees it.
type fnuzSpec struct {
	kind      ir.Kind
	man, bias int
}

var fnuzSpecs = []fnuzSpec{{ir.Float8E4B8, 3, 8}, {ir.Float8E5B16, 2, 16}}

// decode is the value of code.
func (s fnuzSpec) decode(code uint8) float64 {
	if code == 0x80 {
		return math.NaN()
	}
	e := int(code&0x7f) >> s.man
	m := int(code) & (1<<s.man - 1)
	v := math.Ldexp(float64(m), 1-s.bias-s.man)
	if e > 0 {
		v = math.Ldexp(float64(m+1<<s.man), e-s.bias-s.man)
	}
	if code&0x80 != 0 {
		v = -v
	}
	return v
}

// fromF32 narrows the fp32 with bits b to nearest even.
func (s fnuzSpec) fromF32(b uint32) uint8 {
	sign := uint8(b>>31) << 7
	abs := b & 0x7fffffff
	switch {
	case abs > 0x7f800000:
		return 0x80
	case abs == 0x7f800000:
		return sign | 0x7f
	case abs < 0x00800000:
		return 0 // zeros and fp32 subnormals are far below the smallest fp8
	}
	e := int(abs>>23) - 127 + s.bias // the biased fp8 exponent
	sig := uint64(abs&0x7fffff | 1<<23)
	shift := 23 - s.man
	if e < 1 {
		shift += 1 - e
	}
	var q uint64
	if shift < 40 {
		q = sig >> shift
		rem, half := sig&(1<<shift-1), uint64(1)<<(shift-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	}
	code := q
	if e >= 1 {
		code = uint64(e-1)<<s.man + q
	}
	code = min(code, 0x7f)
	if code == 0 {
		return 0
	}
	return sign | uint8(code)
}

// castCodes runs the interpreter's casts on a tile of values of kind src.
func castCodes(src, dst ir.Kind, vals []float64) []float64 {
	a := newTile(src, ir.Shape{len(vals)})
	copy(a.flts, vals)
	return cast(a, dst, false, 0).flts
}

// toCodes bitcasts a tile of fp8 values of kind k to their codes.
func toCodes(k ir.Kind, vals []float64) []int64 {
	a := newTile(k, ir.Shape{len(vals)})
	copy(a.flts, vals)
	return bitcast(a, ir.Uint8).ints
}

// TestFNUZCodes: every code bitcast to the format decodes to its value,
// widens to fp32 and fp16 exactly, and narrows back to itself (NaN to 0x80).
func TestFNUZCodes(t *testing.T) {
	for _, s := range fnuzSpecs {
		t.Run(s.kind.String(), func(t *testing.T) {
			codes := newTile(ir.Uint8, ir.Shape{256})
			for c := range codes.ints {
				codes.ints[c] = int64(c)
			}
			x := bitcast(codes, s.kind).flts
			f := castCodes(s.kind, ir.Float32, x)
			h := castCodes(s.kind, ir.Float16, x)
			back := toCodes(s.kind, castCodes(ir.Float32, s.kind, f))
			backH := toCodes(s.kind, castCodes(ir.Float16, s.kind, h))
			for c := range 256 {
				want := s.decode(uint8(c))
				assertSameFloat(t, want, f[c])
				assertSameFloat(t, want, h[c])
				assert.Equal(t, int64(c), back[c], "code %#02x through fp32", c)
				assert.Equal(t, int64(c), backH[c], "code %#02x through fp16", c)
			}
		})
	}
}

// TestFNUZSweep narrows the fp32 sweep of the conformance kernel fp8_sweep
// (both signs; zeros, subnormals, exponents 2^-26 to 2^35, infinities and
// NaNs; exact values, ties and just past them) to both fnuz formats.
func TestFNUZSweep(t *testing.T) {
	bits := make([]uint32, 8192)
	x := make([]float64, len(bits))
	for i := range bits {
		field := uint32(100 + (i>>6)&63)
		switch (i >> 6) & 63 {
		case 0:
			field = 0
		case 63:
			field = 255
		}
		bits[i] = uint32((i>>12)&1)<<31 | field<<23 | uint32(i&31)<<18 | uint32((i>>5)&1)
		x[i] = float64(math.Float32frombits(bits[i]))
	}
	for _, s := range fnuzSpecs {
		t.Run(s.kind.String(), func(t *testing.T) {
			got := toCodes(s.kind, castCodes(ir.Float32, s.kind, x))
			bad := 0
			for i, b := range bits {
				if want := int64(s.fromF32(b)); got[i] != want && bad < 10 {
					bad++
					t.Errorf("%#08x (%v): got code %#02x, want %#02x", b, x[i], got[i], want)
				}
			}
		})
	}
}
