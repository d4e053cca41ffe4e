package interp

// This file implements rounding of float64 values to the narrower float
// formats and conversions between float values and their bit patterns.

import (
	"math"
	"math/big"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

// floatFormat describes a binary floating-point format narrower than
// float64.
type floatFormat struct {
	prec      int     // significand bits, the implicit one included
	emin      int     // exponent of the smallest normal number
	maxFinite float64 // largest finite value
}

var (
	fp16Format = floatFormat{prec: 11, emin: -14, maxFinite: 65504}
	bf16Format = floatFormat{prec: 8, emin: -126, maxFinite: 0x1.fep127}
	fp32Format = floatFormat{prec: 24, emin: -126, maxFinite: math.MaxFloat32}
)

// round rounds x to the format, to nearest even or (tz) toward zero.
// Overflow gives infinity when rounding to nearest and the largest finite
// value toward zero; NaN, infinities and zeros pass through.
func (f floatFormat) round(x float64, tz bool) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x)
	e := max(exp-1, f.emin)
	q := e - f.prec + 1 // exponent of the last significand bit
	m := math.Ldexp(x, -q)
	if tz {
		m = math.Trunc(m)
	} else {
		m = math.RoundToEven(m)
	}
	r := math.Ldexp(m, q)
	if math.Abs(r) > f.maxFinite {
		if tz {
			return math.Copysign(f.maxFinite, x)
		}
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

func formatOf(k ir.Kind) *floatFormat {
	switch k {
	case ir.Float16:
		return &fp16Format
	case ir.BFloat16:
		return &bf16Format
	case ir.Float32:
		return &fp32Format
	}
	return nil
}

// roundFloat rounds x to kind k. Rounding to an fp8 kind saturates (see
// roundFP8).
func roundFloat(k ir.Kind, x float64, tz bool) float64 {
	if k == ir.Float64 {
		return x
	}
	if f, ok := k.FP8(); ok {
		return roundFP8(k, f, x, tz)
	}
	if k == ir.Float32 && !tz {
		return float64(float32(x))
	}
	return formatOf(k).round(x, tz)
}

// roundFloats rounds every element of s to kind k to nearest even, in place.
func roundFloats(k ir.Kind, s []float64) {
	switch k {
	case ir.Float64:
	case ir.Float32:
		for i, x := range s {
			s[i] = float64(float32(x))
		}
	default:
		if f8, ok := k.FP8(); ok {
			for i, x := range s {
				s[i] = roundFP8(k, f8, x, false)
			}
			return
		}
		f := formatOf(k)
		for i, x := range s {
			s[i] = f.round(x, false)
		}
	}
}

// roundFP8 rounds x to the fp8 kind k of format f as Triton's conversions
// on NVIDIA GPUs do: to nearest even with cvt.rn.satfinite (finite
// overflow and infinities to ±max, NaN to the canonical NaN); toward zero
// (fp8e5 only) by cvt.rz to fp16 and truncation of its bits, which also
// saturates finite values but keeps infinities.
func roundFP8(k ir.Kind, f ir.FP8Format, x float64, tz bool) float64 {
	if tz && k == ir.Float8E5 && math.IsInf(x, 0) {
		return x
	}
	return f.RoundSat(x, tz)
}

// exactInt is 2^53: integers below it in magnitude are exact in float64.
const exactInt = 1 << 53

// intToFloat converts the canonical integer x of kind src to float kind dst,
// rounding to nearest even once (no double rounding through float64).
func intToFloat(src, dst ir.Kind, x int64) float64 {
	if src == ir.Uint64 || src == ir.Ptr {
		u := uint64(x)
		switch {
		case u < exactInt:
			return roundFloat(dst, float64(u), false)
		case dst == ir.Float64:
			return float64(u)
		case dst == ir.Float32:
			return float64(float32(u))
		}
		return bigRound(dst, new(big.Float).SetUint64(u))
	}
	switch {
	case x > -exactInt && x < exactInt:
		return roundFloat(dst, float64(x), false)
	case dst == ir.Float64:
		return float64(x)
	case dst == ir.Float32:
		return float64(float32(x))
	}
	return bigRound(dst, new(big.Float).SetInt64(x))
}

// bigRound rounds a large exact integer to fp16 or bf16.
func bigRound(dst ir.Kind, x *big.Float) float64 {
	f := formatOf(dst)
	r, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(uint(f.prec)).Set(x).Float64()
	if math.Abs(r) > f.maxFinite {
		return math.Copysign(math.Inf(1), r)
	}
	return r
}

// floatToInt converts x to integer kind dst: toward zero, saturating at the
// kind's range, NaN to 0 (PTX cvt.rzi). Bool is x != 0 (NaN is true).
func floatToInt(dst ir.Kind, x float64) int64 {
	if dst == ir.Bool {
		return b2i(x != 0)
	}
	if math.IsNaN(x) {
		return 0
	}
	t := math.Trunc(x)
	bits := dst.Bits()
	if dst.IsSigned() {
		hi := math.Ldexp(1, bits-1)
		switch {
		case t <= -hi:
			return -1 << (bits - 1)
		case t >= hi:
			return 1<<(bits-1) - 1
		}
		return int64(t)
	}
	hi := math.Ldexp(1, bits)
	switch {
	case t <= 0:
		return 0
	case t >= hi:
		return wrapInt(dst, -1)
	case t >= math.Ldexp(1, 63):
		return int64(uint64(t))
	}
	return int64(t)
}

// floatBits returns the bit pattern of x, a value of float kind k.
func floatBits(k ir.Kind, x float64) uint64 {
	switch k {
	case ir.Float16:
		if h, ok := fp16NaNBits(x); ok {
			return uint64(h)
		}
		return uint64(float16.Fromfloat32(float32(x)).Bits())
	case ir.BFloat16:
		return uint64(tensor.BF16Bits(float32(x)))
	case ir.Float32:
		return uint64(math.Float32bits(float32(x)))
	}
	if f, ok := k.FP8(); ok {
		return uint64(f.Encode(x))
	}
	return math.Float64bits(x)
}

// floatFromBits returns the value of the bit pattern b of float kind k.
func floatFromBits(k ir.Kind, b uint64) float64 {
	switch k {
	case ir.Float16:
		return fp16FromBits(uint16(b))
	case ir.BFloat16:
		return float64(tensor.BF16Float(uint16(b)))
	case ir.Float32:
		return float64(math.Float32frombits(uint32(b)))
	}
	if f, ok := k.FP8(); ok {
		return f.Decode(uint8(b))
	}
	return math.Float64frombits(b)
}

// fp16NaNTag marks a float64 NaN that holds an fp16 NaN's bits in its
// low 16 bits (fp16FromBits), so that a NaN loaded, bitcast or widened
// from an fp8e5 code keeps its bits where they matter: stored or
// bitcast back, and narrowed to fp8e5 before sm_89, which rounds the bits.
const (
	fp16NaNTag  = 0x7ff8_0f16_0000_0000
	fp16NaNMask = 0x7fff_ffff_ffff_0000
)

// fp16CanonicalNaN is the NaN the GPU's fp16 arithmetic and conversions
// produce.
const fp16CanonicalNaN = 0x7fff

// fp16FromBits is the value of the fp16 bit pattern h; a NaN keeps h in
// its payload.
func fp16FromBits(h uint16) float64 {
	if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
		b := uint64(fp16NaNTag) | uint64(h)
		if h&0x8000 != 0 {
			b |= 1 << 63
		}
		return math.Float64frombits(b)
	}
	return float64(float16.Frombits(h).Float32())
}

// fp16NaNBits returns the fp16 bits a NaN made by fp16FromBits holds.
func fp16NaNBits(x float64) (uint16, bool) {
	b := math.Float64bits(x)
	if b&fp16NaNMask != fp16NaNTag {
		return 0, false
	}
	return uint16(b), true
}

// fp16Bits is the bit pattern of x, a value of kind fp16, as the GPU
// holds it: a NaN that came from bits keeps them, any other NaN (the
// result of arithmetic or a conversion) is the canonical 0x7FFF.
func fp16Bits(x float64) uint16 {
	if h, ok := fp16NaNBits(x); ok {
		return h
	}
	if x != x {
		return fp16CanonicalNaN
	}
	return float16.Fromfloat32(float32(x)).Bits()
}

// fmax is CUDA's fmaxf: a NaN operand is ignored, and +0 > -0.
func fmax(a, b float64) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a > b:
		return a
	case b > a:
		return b
	case math.Signbit(a):
		return b
	}
	return a
}

// fmin is CUDA's fminf: a NaN operand is ignored, and -0 < +0.
func fmin(a, b float64) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a < b:
		return a
	case b < a:
		return b
	case math.Signbit(a):
		return a
	}
	return b
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
