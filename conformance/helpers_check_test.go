package conformance

// This file tests the references' own arithmetic against known values, so
// a reference is not wrong in the same way as the code it checks.

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRounding(t *testing.T) {
	tests := []struct {
		name      string
		got, want float64
	}{
		{"fp32 of 0.1", r32(0.1), 0.100000001490116119384765625},
		{"fp16 tie to even down", r16(1 + math.Pow(2, -11)), 1},
		{"fp16 tie to even up", r16(1 + 3*math.Pow(2, -11)), 1 + math.Pow(2, -9)},
		{"fp16 largest finite", r16(65519), 65504},
		{"fp16 overflow", r16(65520), math.Inf(1)},
		{"fp16 of 0.1", r16(0.1), 0.0999755859375},
		{"bf16 tie to even down", rbf(1 + math.Pow(2, -8)), 1},
		{"bf16 tie to even up", rbf(1 + 3*math.Pow(2, -8)), 1 + math.Pow(2, -6)},
		{"bf16 of 3.14159", rbf(3.14159), 3.140625},
		{"sigmoid(0)", sigmoid32(0), 0.5},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got, tt.name)
	}
}

func TestCSemantics(t *testing.T) {
	// The references rely on Go's / and % being C's: truncation toward
	// zero, remainder with the dividend's sign.
	tests := []struct{ a, b, q, r int64 }{
		{7, 2, 3, 1},
		{-7, 2, -3, -1},
		{7, -2, -3, 1},
		{-7, -2, 3, -1},
		{-1000000000000, 99999, -10000100, -100},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.q, tt.a/tt.b, "%d / %d", tt.a, tt.b)
		assert.Equal(t, tt.r, tt.a%tt.b, "%d %% %d", tt.a, tt.b)
	}
	assert.Equal(t, int32(-4), int32(-7)>>1, "arithmetic shift")
	assert.Equal(t, uint32(0x7ffffffc), uint32(0xfffffff9)>>1, "logical shift")
}

func TestNaNAwareMinMax(t *testing.T) {
	nan := math.NaN()
	assert.Equal(t, 1.0, maxNum(nan, 1))
	assert.Equal(t, 1.0, maxNum(1, nan))
	assert.Equal(t, 2.0, maxNum(1, 2))
	assert.Equal(t, -1.0, minNum(nan, -1))
	assert.Equal(t, 1.0, minNum(2, 1))
	assert.True(t, math.IsNaN(maxNum(nan, nan)))
	assert.True(t, math.IsNaN(minNum(nan, nan)))
}
