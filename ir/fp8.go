package ir

// This file implements the 8-bit float formats: their parameters, the
// mapping between their codes and values, and the saturating round to
// nearest even that the hardware conversions perform.
//
// The formats, as Triton names them:
//
//	fp8e4nv  (torch.float8_e4m3fn)    bias 7,  3 mantissa bits, no infinities, NaN = S.1111.111, max 448
//	fp8e5    (torch.float8_e5m2)      bias 15, 2 mantissa bits, IEEE-like: S.11111.00 is ±inf, the rest NaN, max 57344
//	fp8e4b8  (torch.float8_e4m3fnuz)  bias 8,  3 mantissa bits, 0x80 is the only NaN, no -0, no infinities, max 240
//	fp8e5b16 (torch.float8_e5m2fnuz)  bias 16, 2 mantissa bits, 0x80 is the only NaN, no -0, no infinities, max 57344
//	fp8e4b15 (Triton's own)           bias 15, 3 mantissa bits, every code finite (S.1111.111 is 1.875)
//
// fp8e4b15 is the top byte of an fp16 shifted left by one (the sign kept):
// Triton converts it in software (triton/language/extra/cuda/utils.py).
//
// A NaN code decodes to a float64 NaN that keeps the code's sign and
// mantissa bits in its low bits, so that bitcasting a code to an fp8 value
// and back gives the same code; a conversion produces the canonical NaN
// (FP8NaN), which encodes as 0x7F (0x80 for the fnuz formats), the code
// the PTX cvt instructions produce.

import "math"

// FP8Format describes an 8-bit float format.
type FP8Format struct {
	ManBits int  // stored mantissa bits
	Bias    int  // exponent bias
	Inf     bool // IEEE-like: an all-ones exponent is ±inf (mantissa 0) or NaN
	FNUZ    bool // 0x80 is the only NaN; no negative zero and no infinities
	Finite  bool // no NaN and no infinities: every code is a number
}

var fp8Formats = map[Kind]FP8Format{
	Float8E4NV:  {ManBits: 3, Bias: 7},
	Float8E5:    {ManBits: 2, Bias: 15, Inf: true},
	Float8E4B8:  {ManBits: 3, Bias: 8, FNUZ: true},
	Float8E5B16: {ManBits: 2, Bias: 16, FNUZ: true},
	Float8E4B15: {ManBits: 3, Bias: 15, Finite: true},
}

// FP8 returns the format of kind k, or false for the kinds that are not
// 8-bit floats with an element-wise encoding.
func (k Kind) FP8() (FP8Format, bool) {
	f, ok := fp8Formats[k]
	return f, ok
}

// FP8NaN is the NaN conversions to fp8 produce (positive, no payload).
var FP8NaN = math.Float64frombits(0x7ff8000000000000)

// expBits is the width of the exponent field.
func (f FP8Format) expBits() int { return 7 - f.ManBits }

// Emin is the exponent of the smallest normal number.
func (f FP8Format) Emin() int { return 1 - f.Bias }

// MaxFinite is the largest finite value.
func (f FP8Format) MaxFinite() float64 {
	top := 1<<f.expBits() - 1 // the all-ones exponent field
	man := 1<<f.ManBits - 1
	switch {
	case f.Inf:
		top-- // the all-ones exponent holds only inf and NaN
	case !f.FNUZ && !f.Finite:
		man-- // S.1..1.1..1 is NaN
	}
	return math.Ldexp(1+float64(man)/float64(int(1)<<f.ManBits), top-f.Bias)
}

// Decode returns the value of code.
func (f FP8Format) Decode(code uint8) float64 {
	neg := code&0x80 != 0
	mag := code & 0x7f
	e := int(mag >> f.ManBits)
	man := int(mag) & (1<<f.ManBits - 1)
	top := 1<<f.expBits() - 1
	switch {
	case f.FNUZ && code == 0x80,
		!f.FNUZ && !f.Inf && !f.Finite && mag == 0x7f,
		f.Inf && e == top && man != 0:
		bits := uint64(0x7ff8000000000000) | uint64(man)
		if neg {
			bits |= 1 << 63
		}
		return math.Float64frombits(bits)
	case f.Inf && e == top:
		return signed(math.Inf(1), neg)
	}
	var v float64
	if e == 0 {
		v = math.Ldexp(float64(man), f.Emin()-f.ManBits)
	} else {
		v = math.Ldexp(float64(man|1<<f.ManBits), e-f.Bias-f.ManBits)
	}
	return signed(v, neg)
}

func signed(v float64, neg bool) float64 {
	if neg {
		return -v
	}
	return v
}

// Encode returns the code of x, a value of the format (as RoundSat
// returns), infinity or NaN. An infinity in a format without one encodes
// as NaN; a NaN keeps the sign and mantissa bits Decode left in it where
// the format has such a NaN, and is 0x7F (0x80 for fnuz) otherwise. In a
// format of finite values only, NaN and infinities encode as the signed
// largest code.
func (f FP8Format) Encode(x float64) uint8 {
	var sign uint8
	if math.Signbit(x) {
		sign = 0x80
	}
	top := uint8(1<<f.expBits() - 1)
	nan := func() uint8 {
		switch {
		case f.FNUZ:
			return 0x80
		case !f.Inf:
			return sign | 0x7f
		}
		man := uint8(math.Float64bits(x)) & (1<<f.ManBits - 1)
		if man == 0 {
			man = 1<<f.ManBits - 1
		}
		return sign | top<<f.ManBits | man
	}
	switch {
	case math.IsNaN(x):
		return nan()
	case math.IsInf(x, 0):
		if f.Inf {
			return sign | top<<f.ManBits
		}
		return nan()
	case x == 0 && f.FNUZ:
		return 0
	case x == 0:
		return sign
	}
	a := math.Abs(x)
	_, exp := math.Frexp(a)
	e := exp - 1 + f.Bias // biased exponent
	if e <= 0 {
		return sign | uint8(math.Ldexp(a, f.ManBits-f.Emin()))
	}
	man := uint8(math.Ldexp(a, f.ManBits-(exp-1))) &^ (1 << f.ManBits)
	return sign | uint8(e)<<f.ManBits | man
}

// RoundSat rounds x to the format as the saturating conversions do (PTX
// cvt.rn.satfinite, or cvt.rz with tz): to nearest even (toward zero),
// magnitudes past the largest finite value, infinities included, to
// ±MaxFinite, NaN to FP8NaN. Zero keeps its sign except in the fnuz
// formats. The finite-only fp8e4b15 rounds as Triton's software
// conversion does instead (see roundE4B15); tz does not change it.
func (f FP8Format) RoundSat(x float64, tz bool) float64 {
	if f.Finite {
		return f.roundE4B15(x)
	}
	switch {
	case math.IsNaN(x):
		return FP8NaN
	case math.IsInf(x, 0):
		return math.Copysign(f.MaxFinite(), x)
	case x == 0:
		if f.FNUZ {
			return 0
		}
		return x
	}
	_, exp := math.Frexp(x)
	q := max(exp-1, f.Emin()) - f.ManBits // exponent of the last mantissa bit
	m := math.Ldexp(x, -q)
	if tz {
		m = math.Trunc(m)
	} else {
		m = math.RoundToEven(m)
	}
	r := math.Ldexp(m, q)
	if math.Abs(r) > f.MaxFinite() {
		return math.Copysign(f.MaxFinite(), x)
	}
	if r == 0 && f.FNUZ {
		return 0
	}
	return r
}

// e4b15Max is the largest magnitude Triton's conversion to fp8e4b15
// produces: it clamps to 1.75, short of the format's 1.875.
const e4b15Max = 1.75

// roundE4B15 is Triton's conversion to fp8e4b15 (convert_custom_float8 and
// convert_float16_to_fp8e4b15): the value goes to fp16 first, toward zero
// (as Triton narrows an fp32; an fp16 is exact); its magnitude is clamped to
// 1.75 (a NaN becomes +1.75: the GPU's fp16 NaN is positive and min.f16x2
// takes the number), and the fp16 bits are rounded to the code's 3
// mantissa bits half up (adding half of the dropped part), the sign kept.
func (f FP8Format) roundE4B15(x float64) float64 {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return e4b15Max
	case a >= e4b15Max:
		return math.Copysign(e4b15Max, x)
	}
	if a == 0 {
		return x
	}
	grid := func(v float64, prec int) float64 { // the exponent of v's last bit at prec bits, fp16's range
		_, exp := math.Frexp(v)
		return math.Ldexp(1, max(exp-1, -14)-prec+1)
	}
	u := grid(a, 11)
	h := math.Trunc(a/u) * u // fp16 toward zero, exactly
	u = grid(h, f.ManBits+1)
	return math.Copysign(math.Floor(h/u+0.5)*u, x)
}
