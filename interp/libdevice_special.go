package interp

// This file implements the libdevice functions Go's math package lacks or
// computes too loosely for CUDA's error bounds: sinpi and cospi with exact
// argument reduction, erfcx, erfcinv, normcdf and normcdfinv in the tails,
// and the modified Bessel functions I0 and I1. All work in float64; fp32
// results are rounded once from them.

import "math"

// sinpi is sin(pi*x), reduced exactly: math.Mod is exact, and so is 1 - a
// for a in [0.5, 1].
func sinpi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	r := math.Mod(x, 2) // in (-2, 2), the sign of x
	s := 1.0
	if r < 0 {
		s, r = -1, -r
	}
	if r >= 1 { // sin(pi*(1+t)) = -sin(pi*t)
		s, r = -s, r-1
	}
	if r > 0.5 {
		r = 1 - r
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return s * math.Sin(math.Pi*r)
}

// cospi is cos(pi*x), reduced exactly; cospi(n + 0.5) is +0.
func cospi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	r := math.Mod(math.Abs(x), 2)
	if r > 1 {
		r = 2 - r
	}
	s := 1.0
	if r > 0.5 { // cos(pi*r) = -cos(pi*(1-r))
		s, r = -1, 1-r
	}
	if r == 0.5 {
		return 0
	}
	if r < 0.25 {
		return s * math.Cos(math.Pi*r)
	}
	return s * math.Sin(math.Pi*(0.5-r))
}

// expSquare is exp(x*x) without the error of rounding x*x first: the
// rounding error of the square, held exactly by an fma, multiplies in.
func expSquare(x float64) float64 {
	h := x * x
	l := math.FMA(x, x, -h)
	return math.Exp(h) * (1 + l)
}

// erfcx is exp(x^2) * erfc(x): directly while erfc(x) is a normal number,
// by its asymptotic series beyond, and through erfcx(-x) = 2 exp(x^2) -
// erfcx(x) for negative x.
func erfcx(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x < 0:
		if x < -26.7 {
			return math.Inf(1)
		}
		return 2*expSquare(x) - erfcx(-x)
	case x < 25:
		return expSquare(x) * math.Erfc(x)
	case math.IsInf(x, 1):
		return 0
	}
	// 1/(x sqrt(pi)) * sum (-1)^n (2n-1)!! / (2x^2)^n.
	t, sum := 1.0, 1.0
	z := 1 / (2 * x * x)
	for n := 1; n < 12; n++ {
		t *= -float64(2*n-1) * z
		sum += t
	}
	return sum / (x * math.SqrtPi)
}

// erfcinv is the inverse of erfc on [0, 2]: Go's Erfcinv(y) is
// Erfinv(1 - y), which loses y below 1e-16 and errs by a few ulp
// elsewhere; Newton's method on erfc, whose relative accuracy Go keeps,
// refines it (from the leading asymptotic term in the tail).
func erfcinv(y float64) float64 {
	switch {
	case math.IsNaN(y) || y < 0 || y > 2:
		return math.NaN()
	case y == 0:
		return math.Inf(1)
	case y == 2:
		return math.Inf(-1)
	case y > 1:
		return -erfcinv(2 - y)
	case y == 1:
		return 0
	}
	t := math.Erfinv(1 - y)
	if y < 0.0625 {
		l := -math.Log(y * math.SqrtPi)
		t = math.Sqrt(l - 0.5*math.Log(l))
	}
	// erfc'(t) = -2/sqrt(pi) exp(-t^2).
	for range 8 {
		step := (math.Erfc(t) - y) / (-2 / math.SqrtPi * math.Exp(-t*t))
		t -= step
		if math.Abs(step) <= 1e-17*t {
			break
		}
	}
	return t
}

// erfinv is Go's Erfinv, which errs by up to 3 ulp, refined by one Newton
// step on erf (erf'(x) = 2/sqrt(pi) exp(-x^2)) to erf's own accuracy.
func erfinv(y float64) float64 {
	x := math.Erfinv(y)
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
		return x
	}
	return x - (math.Erf(x)-y)/(2/math.SqrtPi*math.Exp(-x*x))
}

// normcdf is (1/2) erfc(-x/sqrt(2)), with the rounding error of x/sqrt(2)
// corrected to first order (it matters where erfc is steep, in the tail).
func normcdf(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	const invSqrt2 = 1 / math.Sqrt2
	h := -x * invSqrt2
	// invSqrt2's own error: 1/sqrt(2) - invSqrt2, about -4.8e-17 relative.
	l := math.FMA(-x, invSqrt2, -h) + -x*(-4.833646656726457e-17)
	v := math.Erfc(h)
	if math.IsInf(h, 0) {
		return v / 2
	}
	return (v - l*2/math.SqrtPi*math.Exp(-h*h)) / 2
}

// normcdfinv is the inverse of normcdf on [0, 1]: -sqrt(2) erfcinv(2p).
func normcdfinv(p float64) float64 {
	return -math.Sqrt2 * erfcinv(2*p)
}

// besselI is the modified Bessel function of the first kind of order nu
// (0 or 1): its power series, all terms positive, for |x| up to 30, and
// beyond its asymptotic expansion e^x/sqrt(2 pi x) sum (-1)^k a_k/x^k.
func besselI(nu int, x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		if nu == 1 {
			return x
		}
		return math.Inf(1)
	}
	ax := math.Abs(x)
	var v float64
	if ax <= 30 {
		q := ax * ax / 4
		term := 1.0
		if nu == 1 {
			term = ax / 2
		}
		sum := term
		for k := 1; k < 200; k++ {
			term *= q / (float64(k) * float64(k+nu))
			sum += term
			if term < sum*1e-18 {
				break
			}
		}
		v = sum
	} else {
		mu := 4 * float64(nu*nu)
		term, sum := 1.0, 1.0
		for k := 1; k < 30; k++ {
			odd := float64(2*k - 1)
			term *= -(mu - odd*odd) / (float64(k) * 8 * ax)
			sum += term
			if math.Abs(term) < 1e-18 {
				break
			}
		}
		// e^x overflows before I0(x) does: split it.
		e := math.Exp(ax / 2)
		v = e * (e / math.Sqrt(2*math.Pi*ax)) * sum
	}
	if nu == 1 && x < 0 {
		return -v
	}
	return v
}

// besselN is Jn or Yn as CUDA defines them: NaN for a negative order.
func besselN(f func(int, float64) float64) func(n int64, x float64) float64 {
	return func(n int64, x float64) float64 {
		if n < 0 {
			return math.NaN()
		}
		return f(int(n), x)
	}
}

// ilogb is CUDA's: INT_MIN for 0 and NaN, INT_MAX for infinities.
func ilogb(x float64) int64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return math.MinInt32
	case math.IsInf(x, 0):
		return math.MaxInt32
	}
	return int64(math.Ilogb(x))
}

// rcp64h emulates rcp.approx.ftz.f64, which uses the upper 32 bits of its
// operand and gives an estimate of about 20 bits; its error bound, not its
// bits, is what the interpreter keeps.
func rcp64h(x float64) float64 {
	hi := math.Float64frombits(math.Float64bits(x) &^ 0xffffffff)
	return math.Float64frombits(math.Float64bits(1/hi) &^ 0xffffffff)
}
