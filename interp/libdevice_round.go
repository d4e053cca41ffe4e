package interp

// This file implements libdevice's correctly rounded arithmetic in the four
// IEEE rounding modes (add_rz, div_ru, sqrt_rd, fma_rn, the rounding
// conversions...), exactly. Each result starts from the exact value where
// it is finite (sums, products, fma, conversions: math/big holds them
// without loss) and is rounded once by big.Float's Float32 or Float64,
// which round to nearest even, subnormals included, and report on which
// side of the exact value they landed; a directed mode then moves to the
// neighbouring float where that side is wrong. Quotients and square roots
// are not finite: there the float64 operation gives the nearest result
// (for fp32 operands float64 has more than twice the precision, so its
// rounding to fp32 is the correctly rounded one) and the exact sign of the
// remainder a - q*b, or x - q*q, says on which side of the true value q is.

import (
	"math"
	"math/big"

	"github.com/tri-lang/tri/ir"
)

// roundMode is an IEEE rounding mode, in libdevice's suffixes.
type roundMode uint8

const (
	modeRN roundMode = iota // to nearest, ties to even
	modeRZ                  // toward zero
	modeRD                  // toward -inf
	modeRU                  // toward +inf
)

var roundModes = [...]string{"rn", "rz", "rd", "ru"}

// exactPrec holds any sum or fma of two doubles exactly: the exponents
// of finite doubles span 2098 binary places, a product 106 bits.
const exactPrec = 2400

func exactFloat(x float64) *big.Float { return new(big.Float).SetPrec(exactPrec).SetFloat64(x) }

// nextToward is the float of kind k next to q in the direction of dir.
func nextToward(k ir.Kind, q, dir float64) float64 {
	if k == ir.Float32 {
		return float64(math.Nextafter32(float32(q), float32(dir)))
	}
	return math.Nextafter(q, dir)
}

// settle rounds q, the float nearest the exact value, which lies on side
// acc of it (big.Below: q is below the exact value), to mode m.
func settle(k ir.Kind, q float64, acc big.Accuracy, m roundMode) float64 {
	switch {
	case m == modeRU && acc == big.Below, m == modeRZ && acc == big.Below && q < 0:
		return nextToward(k, q, math.Inf(1))
	case m == modeRD && acc == big.Above, m == modeRZ && acc == big.Above && q > 0:
		return nextToward(k, q, math.Inf(-1))
	}
	return q
}

// roundBig rounds the exact (finite, non-zero) value e to kind k in mode m.
func roundBig(e *big.Float, k ir.Kind, m roundMode) float64 {
	var q float64
	var acc big.Accuracy
	if k == ir.Float32 {
		f, a := e.Float32()
		q, acc = float64(f), a
	} else {
		q, acc = e.Float64()
	}
	return settle(k, q, acc, m)
}

// zeroSum is the sign IEEE gives an exact zero sum of addends signed sa
// and sb (true: negative): that sign if they agree, else -0 only when
// rounding down.
func zeroSum(sa, sb bool, m roundMode) float64 {
	if sa == sb && sa || sa != sb && m == modeRD {
		return math.Copysign(0, -1)
	}
	return 0
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}

// roundedAdd is a+b of kind k in mode m. To nearest, the float64 sum is
// the result (for fp32 operands, rounded again to fp32: float64's 53 bits
// are more than the 2*24+2 that make that second rounding harmless for
// sums, products, quotients and square roots).
func roundedAdd(k ir.Kind, m roundMode, a, b float64) float64 {
	if !finite(a, b) || m == modeRN {
		return nearest(k, a+b)
	}
	e := exactFloat(a)
	e.Add(e, exactFloat(b))
	if e.Sign() == 0 {
		return zeroSum(math.Signbit(a), math.Signbit(b), m)
	}
	return roundBig(e, k, m)
}

// roundedMul is a*b of kind k in mode m.
func roundedMul(k ir.Kind, m roundMode, a, b float64) float64 {
	if !finite(a, b) || a == 0 || b == 0 || m == modeRN {
		return nearest(k, a*b)
	}
	e := exactFloat(a)
	return roundBig(e.Mul(e, exactFloat(b)), k, m)
}

// roundedFma is a*b+c of kind k, rounded once in mode m.
func roundedFma(k ir.Kind, m roundMode, a, b, c float64) float64 {
	if !finite(a, b, c) || m == modeRN && k == ir.Float64 {
		return nearest(k, math.FMA(a, b, c))
	}
	p := exactFloat(a)
	p.Mul(p, exactFloat(b))
	e := new(big.Float).SetPrec(exactPrec).Add(p, exactFloat(c))
	if e.Sign() == 0 {
		return zeroSum(math.Signbit(a) != math.Signbit(b), math.Signbit(c), m)
	}
	return roundBig(e, k, m)
}

// fma32 is the fp32 fma of fp32 operands, rounded once: the float64 fma
// rounded to fp32 is that, except where the float64 result lies exactly
// halfway between two fp32 values, and the exact one may not.
func fma32(a, b, c float64) float64 {
	r := math.FMA(a, b, c)
	q := float64(float32(r))
	if !finite(r, q) || q == r {
		return q
	}
	dir := math.Inf(1)
	if r < q {
		dir = math.Inf(-1)
	}
	if n := nextToward(ir.Float32, q, dir); (q+n)/2 != r {
		return q
	}
	return roundedFma(ir.Float32, modeRN, a, b, c)
}

// nearest rounds a float64 result to kind k (to nearest even).
func nearest(k ir.Kind, x float64) float64 {
	if k == ir.Float32 {
		return float64(float32(x))
	}
	return x
}

// roundedDiv is a/b of kind k in mode m.
func roundedDiv(k ir.Kind, m roundMode, a, b float64) float64 {
	q := nearest(k, a/b)
	if !finite(a, b) || a == 0 || b == 0 || m == modeRN {
		return q
	}
	var acc big.Accuracy
	switch {
	case math.IsInf(q, 1):
		acc = big.Above
	case math.IsInf(q, -1):
		acc = big.Below
	default:
		// q < a/b where the remainder a - q*b has the sign of b.
		r := exactFloat(q)
		r.Mul(r, exactFloat(b))
		r.Sub(exactFloat(a), r)
		acc = accuracyOf(r.Sign() * sign(b))
	}
	return settle(k, q, acc, m)
}

// roundedSqrt is the square root of x of kind k in mode m.
func roundedSqrt(k ir.Kind, m roundMode, x float64) float64 {
	q := nearest(k, math.Sqrt(x))
	if !finite(x) || x <= 0 || m == modeRN {
		return q
	}
	r := exactFloat(q)
	r.Mul(r, r)
	r.Sub(exactFloat(x), r)
	return settle(k, q, accuracyOf(r.Sign()), m)
}

// roundedRsqrt is 1/sqrt(x) for fp32, correctly rounded: the float64
// estimate rounded to fp32 is moved to the neighbour whose midpoints with
// it bracket the true value, decided exactly (q is too large when
// x*m^2 > 1 for the midpoint m below q, and so on).
func roundedRsqrt(x float64) float64 {
	if !finite(x) || x <= 0 {
		return nearest(ir.Float32, 1/math.Sqrt(x))
	}
	q := nearest(ir.Float32, 1/math.Sqrt(x))
	above := func(t float64) bool { // 1/sqrt(x) < t, i.e. x*t*t > 1
		e := exactFloat(t)
		e.Mul(e, e)
		e.Mul(e, exactFloat(x))
		return e.Cmp(big.NewFloat(1)) > 0
	}
	for range 2 {
		lo := nextToward(ir.Float32, q, 0)
		hi := nextToward(ir.Float32, q, math.Inf(1))
		switch {
		case above((lo + q) / 2):
			q = lo
		case !above((q + hi) / 2):
			q = hi
		}
	}
	return q
}

// roundedRcp is 1/x of kind k in mode m.
func roundedRcp(k ir.Kind, m roundMode, x float64) float64 { return roundedDiv(k, m, 1, x) }

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// accuracyOf says where q lies given the sign of (exact - q).
func accuracyOf(s int) big.Accuracy {
	switch {
	case s > 0:
		return big.Below
	case s < 0:
		return big.Above
	}
	return big.Exact
}

// roundInt rounds an exact integer (as big.Int) to float kind k in mode m.
func roundInt(i *big.Int, k ir.Kind, m roundMode) float64 {
	if i.Sign() == 0 {
		return 0
	}
	return roundBig(new(big.Float).SetPrec(exactPrec).SetInt(i), k, m)
}

// roundFloatMode rounds float64 x to kind k in mode m.
func roundFloatMode(x float64, k ir.Kind, m roundMode) float64 {
	if !finite(x) || x == 0 {
		return x
	}
	return roundBig(exactFloat(x), k, m)
}

// toIntMode rounds x to an integer in mode m.
func toIntMode(x float64, m roundMode) float64 {
	switch m {
	case modeRZ:
		return math.Trunc(x)
	case modeRD:
		return math.Floor(x)
	case modeRU:
		return math.Ceil(x)
	}
	return math.RoundToEven(x)
}

// saturate converts an integral float to an integer clamped to [lo, hi],
// as the GPU's float-to-integer conversions do; NaN becomes 0.
func saturate(x float64, lo, hi int64) int64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x <= float64(lo):
		return lo
	case x >= float64(hi):
		return hi
	}
	return int64(x)
}

// saturateU64 is saturate for the range of uint64, returning its bits.
func saturateU64(x float64) int64 {
	switch {
	case math.IsNaN(x), x <= 0:
		return 0
	case x >= 0x1p64:
		return -1
	case x >= 0x1p63:
		return int64(uint64(x))
	}
	return int64(x)
}
