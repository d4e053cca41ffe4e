package interp

// This file implements fp8e5's conversions on targets before sm_89
// (Options.Arch 80 to 88), which have no fp8 cvt instructions: Triton 3.6
// converts there in software (its FpToFpOp lowering without native fp8,
// and the fp32 -> fp16 -> fp8 path below sm_90), and tri's CUDA does the
// same, so the interpreter follows it when it is the reference for such a
// target. The rules, on the bit patterns:
//
//   - fp8e5 -> fp16 is the code as the fp16's high byte (exact, a NaN
//     code's bits kept); fp8e5 -> fp32 that fp16's value, as from sm_89 on;
//   - fp8e5 -> bf16 is the code's magnitude as an fp32 whose exponent is
//     112 too small, times 2^112, the product's high half with the sign
//     put back: finite codes exact, but ±inf becomes ±65536 and a NaN
//     ±(1 + m/4) * 65536;
//   - fp16 -> fp8e5 adds 0x80 to the fp16's bits (bit 0 cleared) and keeps
//     the high byte: ties away from zero, magnitudes from 61440 and ±inf to
//     ±inf (no saturation), a NaN to whatever its bits round to;
//   - fp32 -> fp8e5 goes to fp16 toward zero first (cvt.rz: finite
//     magnitudes past 65504 to 65504, NaN to the GPU's canonical 0x7FFF,
//     which then gives 0x80), then as from fp16; other sources (fp64,
//     integers, which sema routes through fp32 anyway) go through fp32;
//   - bf16 -> fp8e5 clamps the magnitude's bits to [0x3800, 0x57e0],
//     adds 0x10, subtracts 0x3800 and keeps bits 5..12, the sign ORed in:
//     below 2^-15 ±0, e5m2's subnormals on wrong codes, ties away from
//     zero, from 61440 on into inf, the NaNs and the sign bit, ±inf and
//     NaN 0xFF;
//   - toward zero (fp_downcast_rounding="rtz", from fp32) is the same on
//     every target (roundFP8).

import (
	"math"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

// fp8NativeArch is the first compute capability with fp8 cvt instructions.
const fp8NativeArch = 89

// softFP8 reports whether fp8e5 converts in software on target arch (0:
// sm_89 or newer).
func softFP8(arch int) bool { return arch > 0 && arch < fp8NativeArch }

var e5Format, _ = ir.Float8E5.FP8()

// castE5Soft converts x of kind src to dst, one of them fp8e5, as a
// target without fp8 cvt does; false where the conversion is the same as
// from sm_89 on (widening to fp32, toward zero).
func castE5Soft(src, dst ir.Kind, x float64, tz bool) (float64, bool) {
	if src == ir.Float8E5 {
		code := e5Format.Encode(x)
		switch dst {
		case ir.Float16:
			return fp16FromBits(uint16(code) << 8), true
		case ir.BFloat16:
			return float64(tensor.BF16Float(e5ToBF16(code))), true
		}
		return 0, false
	}
	if dst != ir.Float8E5 || tz {
		return 0, false
	}
	var code uint8
	switch src {
	case ir.Float16:
		code = e5FromF16(fp16Bits(x))
	case ir.BFloat16:
		code = e5FromBF16(tensor.BF16Bits(float32(x)))
	default:
		code = e5FromF16(f32ToF16RZ(float32(x)))
	}
	return e5Format.Decode(code), true
}

// e5ToBF16 moves the code's magnitude into an fp32 whose exponent is 112
// too small, multiplies by 2^112 and keeps the high half (exact: the
// product has at most 3 significant bits), the sign ORed in.
func e5ToBF16(code uint8) uint16 {
	m := math.Float32frombits(uint32(code&0x7f)<<21) * math.Float32frombits(0x77800000)
	return uint16(math.Float32bits(m)>>16) | uint16(code&0x80)<<8
}

// e5FromF16 adds half of the dropped byte to the fp16's bits h.
func e5FromF16(h uint16) uint8 { return uint8((uint32(h&0xfffe) + 0x80) >> 8) }

// e5FromBF16 clamps the bf16's magnitude bits, rounds them half up to
// e5m2's normal step and shifts them into the byte.
func e5FromBF16(b uint16) uint8 {
	a := min(max(uint32(b&0x7fff), 0x3800), 0x57e0)
	return uint8((a+0x10-0x3800)>>5) | uint8(b>>8)&0x80
}

// f32ToF16RZ is cvt.rz.f16.f32: toward zero, finite magnitudes past 65504
// to 65504, infinities kept, NaN to the canonical 0x7FFF.
func f32ToF16RZ(f float32) uint16 {
	if f != f {
		return fp16CanonicalNaN
	}
	return float16.Fromfloat32(float32(fp16Format.round(float64(f), true))).Bits()
}
