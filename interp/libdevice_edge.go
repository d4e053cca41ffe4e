package interp

// This file implements the libdevice results where Go's math library and
// CUDA part: C99's special values Go defines otherwise (lgamma(-inf)),
// the recurrence of jnf at tiny arguments, sin, cos and tan of huge
// arguments and pow, where Go's error exceeds what CUDA documents, powi's
// repeated squaring, and the flush-to-zero rules of ir.SubnormalRule.

import (
	"math"
	"math/big"

	"github.com/tri-lang/tri/ir"
)

// lgamma is C99's lgamma: +inf at the poles and at both infinities (Go's
// Lgamma gives -inf for -inf).
func lgamma(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.Inf(1)
	}
	v, _ := math.Lgamma(x)
	return v
}

// nextafterC99 is r, Go's nextafter(a, b), or b where a == b: C99 and
// CUDA give y there (nextafter(-0, +0) = +0), Go gives x.
func nextafterC99(r, a, b float64) float64 {
	if a == b {
		return b
	}
	return r
}

// jnTinyF32 is the magnitude below which CUDA's jnf of an order n >= 2
// gives NaN: its recurrence over 2k/x overflows fp32 (measured on an H100:
// NaN at 0, 1e-40 and 1e-30, finite at 1e-5).
const jnTinyF32 = 0x1p-62

// jnf is jnf(n, x) in fp32: jn, NaN where the recurrence overflows.
func jnf(jn func(int64, float64) float64, n int64, x float64) float64 {
	if n >= 2 && math.Abs(x) < jnTinyF32 {
		return math.NaN()
	}
	return jn(n, x)
}

// powi is libdevice's powi: x multiplied by repeated squaring in the
// result's kind k, the reciprocal taken for a negative n (measured:
// powi(0.999f, 100) = 0.90479404f, 12 ulp from powf's 0.9047933f).
func powi(k ir.Kind, x float64, n int64) float64 {
	round := func(v float64) float64 {
		if k == ir.Float32 {
			return float64(float32(v))
		}
		return v
	}
	m := n
	if m < 0 {
		m = -m
	}
	r, b := 1.0, round(x)
	for ; m > 0; m >>= 1 {
		if m&1 == 1 {
			r = round(r * b)
		}
		b = round(b * b)
	}
	if n < 0 {
		r = round(1 / r)
	}
	return r
}

// hugeTrig is the magnitude from which sin, cos and tan reduce their
// argument with halfPi's 1200 bits; Go's reduction loses bits there
// (sin(3e38) 11 ulp off).
const hugeTrig = 0x1p29

// halfPi is pi/2 to 1200 bits: enough to reduce any float64 (< 2^1024)
// with a float64's precision left; computed once, never changed.
var halfPi = computeHalfPi(1200)

// computeHalfPi is pi/2 by Machin's formula, 4 atan(1/5) - atan(1/239),
// to prec bits.
func computeHalfPi(prec uint) *big.Float {
	atanInv := func(n int64) *big.Float {
		// atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1))
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), new(big.Float).SetPrec(prec).SetInt64(n))
		n2 := new(big.Float).SetPrec(prec).SetInt64(n * n)
		eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -int(prec)-8)
		for k := int64(0); pow.Cmp(eps) > 0; k++ {
			term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, term)
			} else {
				sum.Sub(sum, term)
			}
			pow.Quo(pow, n2)
		}
		return sum
	}
	a := new(big.Float).SetPrec(prec).Mul(atanInv(5), new(big.Float).SetPrec(prec).SetInt64(8))
	b := new(big.Float).SetPrec(prec).Mul(atanInv(239), new(big.Float).SetPrec(prec).SetInt64(2))
	return a.Sub(a, b) // 2 (4 atan(1/5) - atan(1/239))
}

// reduceHuge is x = q pi/2 + (hi + lo), |hi + lo| <= pi/4, q mod 4.
func reduceHuge(x float64) (q int, hi, lo float64) {
	prec := halfPi.Prec()
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	k := new(big.Float).SetPrec(prec).Quo(bx, halfPi)
	ki, _ := k.Int(nil)
	frac := new(big.Float).SetPrec(prec).Sub(k, new(big.Float).SetPrec(prec).SetInt(ki))
	half := big.NewFloat(0.5)
	if frac.Cmp(half) > 0 {
		ki.Add(ki, big.NewInt(1))
	} else if frac.Cmp(new(big.Float).Neg(half)) < 0 {
		ki.Sub(ki, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(prec).Mul(new(big.Float).SetPrec(prec).SetInt(ki), halfPi)
	r.Sub(bx, r)
	hi, _ = r.Float64()
	lo, _ = r.Sub(r, new(big.Float).SetPrec(prec).SetFloat64(hi)).Float64()
	return int(new(big.Int).And(ki, big.NewInt(3)).Int64()), hi, lo
}

// sinCosHuge is sin and cos of a huge finite x.
func sinCosHuge(x float64) (s, c float64) {
	q, hi, lo := reduceHuge(x)
	sh, ch := math.Sincos(hi)
	s, c = sh+ch*lo, ch-sh*lo
	switch q {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	return s, c
}

// sinAccurate, cosAccurate and tanAccurate are math's below hugeTrig and
// reduce with sinCosHuge from there.
func sinAccurate(x float64) float64 {
	if !(math.Abs(x) >= hugeTrig) || math.IsInf(x, 0) { // NaN too
		return math.Sin(x)
	}
	s, _ := sinCosHuge(x)
	return s
}

func cosAccurate(x float64) float64 {
	if !(math.Abs(x) >= hugeTrig) || math.IsInf(x, 0) { // NaN too
		return math.Cos(x)
	}
	_, c := sinCosHuge(x)
	return c
}

func tanAccurate(x float64) float64 {
	if !(math.Abs(x) >= hugeTrig) || math.IsInf(x, 0) { // NaN too
		return math.Tan(x)
	}
	s, c := sinCosHuge(x)
	return s / c
}

// ln2Hi + ln2Lo is ln 2, ln2Hi with 11 trailing zero bits so that its
// products with exponents are exact.
const (
	ln2Hi = 0x1.62e42feep-1
	ln2Lo = 0x1.a39ef35793c76p-33
)

// powAccurate is pow(x, y) within about an ulp (Go's Pow errs by up to 15
// ulp: pow(3e38, 1.5)): exp(y log x) with log x and the product in
// double-double, for finite x > 0 and a y that is not an integer; math.Pow
// elsewhere (its special values, and exact integer powers).
func powAccurate(x, y float64) float64 {
	p := math.Pow(x, y)
	if !(x > 0) || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(y) || y == math.Trunc(y) || p == 0 || math.IsInf(p, 0) {
		return p
	}
	// log x = e ln2 + log m, m in [sqrt(1/2), sqrt(2)).
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m, e = 2*m, e-1
	}
	lm := math.Log(m)
	fe := float64(e)
	lhi, llo := twoSum(fe*ln2Hi, lm) // fe * ln2Hi is exact
	llo += fe * ln2Lo
	lhi, llo = twoSum(lhi, llo)
	// t = y log x in double-double.
	thi := y * lhi
	tlo := math.FMA(y, lhi, -thi) + y*llo
	// exp(t) = 2^k exp(r), r = t - k ln2.
	k := math.Round(thi / math.Ln2)
	r := (thi - k*ln2Hi) - k*ln2Lo + tlo
	return math.Ldexp(math.Exp(r), int(k))
}

// twoSum is a + b as a double-double.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// subnormalOperand is what rule o.Subnormal makes of a first fp32
// operand x before the call.
func subnormalOperand(o *ir.LibdeviceOverload, x float64) float64 {
	sub := x != 0 && math.Abs(x) < 0x1p-126
	switch o.Subnormal {
	case ir.SubnormalPow:
		if sub {
			return math.Copysign(0x1p-127, x)
		}
		return x
	case ir.SubnormalPositive:
		if sub && x > 0 {
			return 0
		}
		return x
	case ir.SubnormalNext:
		return flushSubnormal32(x)
	}
	if o.FTZIn {
		return flushSubnormal32(x)
	}
	return x
}

// subnormalResult is what rule o.Subnormal makes of the result r of a
// call whose first fp32 operand was x.
func subnormalResult(o *ir.LibdeviceOverload, x, r float64) float64 {
	sub := x != 0 && math.Abs(x) < 0x1p-126
	switch o.Subnormal {
	case ir.SubnormalNaN:
		if sub {
			return math.NaN()
		}
	case ir.SubnormalLogb:
		if sub {
			return -150
		}
	case ir.SubnormalTwice:
		if sub {
			return 2 * x
		}
	case ir.SubnormalNext:
		if r != 0 && math.Abs(r) < 0x1p-126 {
			if flushSubnormal32(x) == 0 {
				return math.Copysign(0x1p-126, r)
			}
			return math.Copysign(0, r)
		}
	}
	return r
}
