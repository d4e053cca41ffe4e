package ir_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

func TestFP8Codes(t *testing.T) {
	tests := []struct {
		kind      ir.Kind
		max       float64
		one, tiny uint8 // the codes of 1.0 and of the smallest subnormal
		nans      int
	}{
		{ir.Float8E4NV, 448, 0x38, 0x01, 2},
		{ir.Float8E5, 57344, 0x3c, 0x01, 6},
		{ir.Float8E4B8, 240, 0x40, 0x01, 1},
		{ir.Float8E5B16, 57344, 0x40, 0x01, 1},
		{ir.Float8E4B15, 1.875, 0x78, 0x01, 0},
	}
	for _, tc := range tests {
		t.Run(tc.kind.String(), func(t *testing.T) {
			f, ok := tc.kind.FP8()
			require.True(t, ok)
			assert.Equal(t, tc.max, f.MaxFinite())
			assert.Equal(t, 1.0, f.Decode(tc.one))
			assert.Equal(t, math.Ldexp(1, f.Emin()-f.ManBits), f.Decode(tc.tiny))
			nans := 0
			for c := range 256 {
				v := f.Decode(uint8(c))
				if math.IsNaN(v) {
					nans++
				} else if !math.IsInf(v, 0) && (!f.Finite || math.Abs(v) <= 1.75) {
					assert.Equal(t, v, f.RoundSat(v, false), "code %#02x is a value of the format", c)
					assert.Equal(t, v, f.RoundSat(v, true), "code %#02x is a value of the format", c)
				}
				assert.Equal(t, uint8(c), f.Encode(v), "code %#02x decodes to %v", c, v)
			}
			assert.Equal(t, tc.nans, nans)
		})
	}
}

func TestFP8RoundSat(t *testing.T) {
	e4, _ := ir.Float8E4NV.FP8()
	e5, _ := ir.Float8E5.FP8()
	b15, _ := ir.Float8E4B15.FP8()
	tests := []struct {
		f        ir.FP8Format
		x        float64
		tz       bool
		want     float64
		wantCode uint8
	}{
		{e4, 1.0625, false, 1, 0x38},    // tie between 1 and 1.125: even
		{e4, 1.1875, false, 1.25, 0x3a}, // tie between 1.125 and 1.25: even
		{e4, 1.1875, true, 1.125, 0x39}, // toward zero
		{e4, 464, false, 448, 0x7e},     // past max: saturates
		{e4, math.Inf(-1), false, -448, 0xfe},
		{e4, math.NaN(), false, ir.FP8NaN, 0x7f},
		{e4, 0x1p-10, false, 0, 0x00}, // half the smallest subnormal: ties to even zero
		{e4, -0x1.8p-10, false, -0x1p-9, 0x81},
		{e5, 61440, false, 57344, 0x7b},
		{e5, math.Inf(1), false, 57344, 0x7b},
		{e5, math.Copysign(0, -1), false, math.Copysign(0, -1), 0x80},
		// fp8e4b15 as Triton converts: clamped to 1.75, ties half up.
		{b15, 3, false, 1.75, 0x7e},
		{b15, -math.Inf(1), false, -1.75, 0xfe},
		{b15, math.NaN(), false, 1.75, 0x7e},
		{b15, 1.0625, false, 1.125, 0x79},
		{b15, 1.0625, true, 1.125, 0x79},
		{b15, 0x1p-18, false, 0x1p-17, 0x01},
		{b15, 1.0 + 0x1p-12, false, 1, 0x78}, // to fp16 first: 1.0 exactly
		// to fp16 toward zero, as Triton narrows an fp32: 1 + 63/1024, below
		// the tie 1.0625 that nearest even would give (and round up to 1.125).
		{b15, 1.0 + 0x3f.cp-10, false, 1, 0x78},
		{b15, math.Copysign(0, -1), false, math.Copysign(0, -1), 0x80},
	}
	for _, tc := range tests {
		got := tc.f.RoundSat(tc.x, tc.tz)
		if math.IsNaN(tc.want) {
			assert.True(t, math.IsNaN(got))
		} else {
			assert.Equal(t, tc.want, got, "%v", tc.x)
			assert.Equal(t, math.Signbit(tc.want), math.Signbit(got), "%v", tc.x)
		}
		assert.Equal(t, tc.wantCode, tc.f.Encode(got), "%v", tc.x)
	}
}
