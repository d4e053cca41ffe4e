package conformance

// This file implements the references of fp8e5_sm80, the construct of
// fp8e5 on sm_80: one with the rounding of the cvt instructions (the
// interpreter's, and Triton's from sm_89 on) and, in sm80References, the
// one TestGPUSM80 holds its sm_80 code to: Triton 3.6 below sm_89, which
// converts in software (third_party/nvidia's FpToFpOp lowering without
// native fp8):
//
//   - fp32 to e5m2 goes to fp16 toward zero first, then adds half of the
//     dropped byte to the fp16's bits: the fp32's rounding half away from
//     zero, ±inf from 61440 on (no saturation), and NaN, whose fp16 is the
//     canonical 0x7FFF, 0x80;
//   - fp16 to e5m2 is that addition on its bits;
//   - bf16 to e5m2 clamps the magnitude's bits to [0x3800, 0x57e0], adds
//     0x10, subtracts 0x3800 and keeps bits 5..12 as the code, the sign
//     ORed in.
//
// Widening is exact both ways, and toward zero the same.

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sm80References are the references TestGPUSM80 uses instead of
// references' where Triton's results below sm_89 differ from its results
// from sm_89 on, which the interpreter gives.
var sm80References = map[string]Reference{
	"fp8e5_sm80":   refFP8E5SM80Soft,
	"fp8_e5_codes": refFP8E5CodesSoft,
}

// refFP8E5CodesSoft is fp8_e5_codes below sm_89: fp32 narrows through
// fp16 toward zero (infinities stay, NaN gives 0x80) and the widened fp16
// is the code's high byte, so it narrows back to the code itself.
func refFP8E5CodesSoft(in tensors, num map[string]float64) tensors {
	out := refFP8E5Codes(in, num)
	c := in["c"]
	v := func(i int) float64 { return specE5M2.decode(uint8(c.Int(i))) }
	out["back"] = codesOut(in["back"], func(i int) uint8 { return softFromF32(f32Bits(v(i))) })
	out["back_h"] = codesOut(in["back_h"], func(i int) uint8 { return uint8(c.Int(i)) })
	return out
}

func init() {
	references["fp8e5_sm80"] = refFP8E5SM80
}

// fp8e5SM80 computes the construct's outputs with the narrowings given.
func fp8e5SM80(in tensors, fromF32, fromF16, fromBF16 func(b uint32) uint8) tensors {
	code := func(i int) float64 { return specE5M2.decode(uint8(i & 255)) }
	x := func(i int) float64 { return float64(math.Float32frombits(sweepBits(i))) }
	a, b := in["a"], in["b"]
	dot := func(row, col int) float64 {
		s := 0.0
		for k := range 32 {
			s += a.Float(row*32+k) * b.Float(k*32+col) // small integers: exact
		}
		return s
	}
	return tensors{
		"h": eachFloat(in["h"], code),
		"f": eachFloat(in["f"], code),
		"bf": eachFloat(in["bf"], func(i int) float64 {
			if i&0x7c == 0x7c {
				return 0
			}
			return code(i)
		}),
		"e5":  codesOut(in["e5"], func(i int) uint8 { return fromF32(sweepBits(i)) }),
		"e5z": codesOut(in["e5z"], func(i int) uint8 { return specE5M2.fromF32(sweepBits(i), true) }),
		"e5h": codesOut(in["e5h"], func(i int) uint8 { return fromF16(uint32(f16Bits(x(i)))) }),
		"e5b": codesOut(in["e5b"], func(i int) uint8 { return fromBF16(bf16Bits(x(i))) }),
		"c":   eachFloat(in["c"], func(i int) float64 { return dot(i/32, i%32) }),
		"d":   eachFloat(in["d"], func(i int) float64 { return dot(i/16/16*32+i/16%16, i%16) }),
	}
}

// bf16Bits is the bf16 (round to nearest even) of an fp32 value, NaN as
// the GPU's canonical 0x7FFF.
func bf16Bits(x float64) uint32 {
	if math.IsNaN(x) {
		return 0x7fff
	}
	return math.Float32bits(float32(rbf(x))) >> 16
}

// refFP8E5SM80 rounds as the cvt instructions do.
func refFP8E5SM80(in tensors, _ map[string]float64) tensors {
	return fp8e5SM80(in,
		func(b uint32) uint8 { return specE5M2.fromF32(b, false) },
		func(h uint32) uint8 { return specE5M2.fromF16(uint16(h)) },
		func(b uint32) uint8 { return specE5M2.fromF32(b<<16, false) })
}

// refFP8E5SM80Soft rounds as Triton does below sm_89 (the top of the file).
func refFP8E5SM80Soft(in tensors, _ map[string]float64) tensors {
	return fp8e5SM80(in, softFromF32, softFromF16, softFromBF16)
}

// softFromF16 adds half of the dropped byte to the fp16's bits h.
func softFromF16(h uint32) uint8 { return uint8((h + 0x80) >> 8) }

// softFromF32 goes through fp16 toward zero.
func softFromF32(b uint32) uint8 {
	return softFromF16(uint32(f16BitsRZ(float64(math.Float32frombits(b)))))
}

// softFromBF16 clamps, rounds and shifts the bf16's bits b.
func softFromBF16(b uint32) uint8 {
	a := min(max(b&0x7fff, 0x3800), 0x57e0)
	return uint8((a+0x10-0x3800)>>5) | uint8(b>>8)&0x80
}

// TestFP8E5SoftReference checks the narrowings of refFP8E5SM80Soft on
// inputs where Triton below sm_89 gives other codes than the cvt
// instructions, next to what those give.
func TestFP8E5SoftReference(t *testing.T) {
	f32 := func(x float32) uint32 { return math.Float32bits(x) }
	tests := []struct {
		what       string
		soft, cvt  uint8
		softX, cvX uint8
	}{
		{"fp32 1.125, a tie", softFromF32(f32(1.125)), specE5M2.fromF32(f32(1.125), false), 0x3d, 0x3c},
		{"fp32 1.375, a tie to the even one above", softFromF32(f32(1.375)), specE5M2.fromF32(f32(1.375), false), 0x3e, 0x3e},
		{"fp32 -2^-17, a tie with zero", softFromF32(f32(-0x1p-17)), specE5M2.fromF32(f32(-0x1p-17), false), 0x81, 0x80},
		{"fp32 61439", softFromF32(f32(61439)), specE5M2.fromF32(f32(61439), false), 0x7b, 0x7b},
		{"fp32 61440", softFromF32(f32(61440)), specE5M2.fromF32(f32(61440), false), 0x7c, 0x7b},
		{"fp32 -inf", softFromF32(f32(float32(math.Inf(-1)))), specE5M2.fromF32(f32(float32(math.Inf(-1))), false), 0xfc, 0xfb},
		{"fp32 NaN", softFromF32(0x7fc00000), specE5M2.fromF32(0x7fc00000, false), 0x80, 0x7f},
		{"fp16 0x7e00 (NaN)", softFromF16(0x7e00), specE5M2.fromF16(0x7e00), 0x7e, 0x7f},
		{"fp16 0x7c01 (NaN)", softFromF16(0x7c01), specE5M2.fromF16(0x7c01), 0x7c, 0x7f},
		{"bf16 2^-16", softFromBF16(0x3780), specE5M2.fromF32(0x37800000, false), 0x00, 0x01},
		{"bf16 2^-15", softFromBF16(0x3800), specE5M2.fromF32(0x38000000, false), 0x00, 0x02},
		{"bf16 1.125", softFromBF16(0x3f90), specE5M2.fromF32(0x3f900000, false), 0x3d, 0x3c},
		{"bf16 1.0", softFromBF16(0x3f80), specE5M2.fromF32(0x3f800000, false), 0x3c, 0x3c},
		{"bf16 131072", softFromBF16(0x4800), specE5M2.fromF32(0x48000000, false), 0x80, 0x7b},
		{"bf16 -inf", softFromBF16(0xff80), specE5M2.fromF32(0xff800000, false), 0xff, 0xfb},
	}
	for _, tc := range tests {
		assert.Equal(t, [2]uint8{tc.softX, tc.cvX}, [2]uint8{tc.soft, tc.cvt}, tc.what)
	}
}
