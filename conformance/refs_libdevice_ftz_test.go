package conformance

// Where Triton's libdevice departs from "fp32 operands and results
// flushed to zero", and where Go's math library departs from CUDA's
// (C99 special values, huge arguments, pow's accuracy), the references of
// refs_libdevice_test.go are overridden here with what real Triton 3.6
// gave on an H100 for the construct kernels' inputs.

import (
	"math"
	"math/big"
)

// sub32 reports whether x is an fp32 subnormal.
func sub32(x float64) bool { return x != 0 && math.Abs(x) < 0x1p-126 }

// setEach replaces output name by f of element i.
func setEach(in, res tensors, name string, f func(i int) float64) {
	res[name] = eachFloat(in[name], f)
}

// lgammaC99 is lgamma as C99 and CUDA define it: +inf at -inf too.
func lgammaC99(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1)
	}
	v, _ := math.Lgamma(x)
	return v
}

// tritonExpLog: exp keeps a subnormal result; log, log2 and log10 read a
// subnormal operand as it is; logb of one is -150; cbrt and rcbrt of one
// are NaN.
func tritonExpLog(in, res tensors) tensors {
	x := in["x"]
	setEach(in, res, "exp", func(i int) float64 { return r32(math.Exp(ftz(x.Float(i)))) })
	for name, f := range map[string]func(float64) float64{"log": math.Log, "log2": math.Log2, "log10": math.Log10} {
		setEach(in, res, name, func(i int) float64 { return ftz(r32(f(x.Float(i)))) })
	}
	setEach(in, res, "logb", func(i int) float64 { return tritonLogb(x.Float(i)) })
	for name, f := range map[string]func(float64) float64{"cbrt": math.Cbrt, "rcbrt": func(v float64) float64 { return 1 / math.Cbrt(v) }} {
		setEach(in, res, name, func(i int) float64 {
			if sub32(x.Float(i)) {
				return math.NaN()
			}
			return ftz(r32(f(ftz(x.Float(i)))))
		})
	}
	return res
}

// tritonLogb is logbf under Triton: -150 for a subnormal.
func tritonLogb(v float64) float64 {
	if sub32(v) {
		return -150
	}
	return math.Logb(v)
}

// tritonBessel: y0, y1 and yn flush a positive subnormal only (a negative
// one gives NaN as any negative); jnf(2, x) is NaN for tiny |x|, where its
// recurrence overflows (GPU: NaN at 0, 1e-40, 1e-30; finite at 1e-5).
func tritonBessel(in, res tensors) tensors {
	x := in["x"]
	pos := func(v float64) float64 {
		if sub32(v) && v > 0 {
			return 0
		}
		return v
	}
	for name, f := range map[string]func(float64) float64{"y0": math.Y0, "y1": math.Y1, "yn2": func(v float64) float64 { return math.Yn(2, v) }} {
		setEach(in, res, name, func(i int) float64 { return ftz(r32(f(pos(x.Float(i))))) })
	}
	setEach(in, res, "jn2", func(i int) float64 {
		if v := x.Float(i); math.Abs(v) < 0x1p-62 {
			return math.NaN()
		}
		return ftz(r32(math.Jn(2, ftz(x.Float(i)))))
	})
	return res
}

// tritonPow: powf reads a subnormal base as 2^-127 of its sign; powi
// multiplies by repeated squaring in fp32; rhypot, rnorm3d and rnorm4d
// keep a subnormal result.
func tritonPow(in, res tensors) tensors {
	x, y, n := in["x"], in["y"], in["n"]
	setEach(in, res, "p", func(i int) float64 {
		b := x.Float(i)
		if sub32(b) {
			b = math.Copysign(0x1p-127, b)
		}
		return ftz(r32(math.Pow(b, y.Float(i)))) // the exponent is not flushed: pow(-1, 1e-40) is NaN
	})
	setEach(in, res, "pi", func(i int) float64 {
		e := n.Int(i)
		acc, sq := float32(1), float32(ftz(x.Float(i)))
		for m := max(e, -e); m != 0; m /= 2 {
			if m%2 != 0 {
				acc *= sq
			}
			sq *= sq
		}
		if e < 0 {
			acc = 1 / acc
		}
		return ftz(float64(acc))
	})
	norm := func(v ...float64) float64 {
		s := big.NewFloat(0).SetPrec(200)
		for _, c := range v {
			if math.IsInf(c, 0) {
				return math.Inf(1)
			}
		}
		for _, c := range v {
			if math.IsNaN(c) {
				return math.NaN()
			}
			c = ftz(c)
			s.Add(s, new(big.Float).SetPrec(200).Mul(big.NewFloat(c), big.NewFloat(c)))
		}
		r, _ := s.Sqrt(s).Float64()
		return r
	}
	setEach(in, res, "rh", func(i int) float64 { return r32(1 / norm(x.Float(i), y.Float(i))) })
	setEach(in, res, "rn3", func(i int) float64 { return r32(1 / norm(x.Float(i), y.Float(i), 2)) })
	setEach(in, res, "rn4", func(i int) float64 { return r32(1 / norm(x.Float(i), y.Float(i), x.Float(i), 1)) })
	return res
}

// tritonNextafter is nextafterf on the flush-to-zero number line: from
// zero to the smallest normal, and from it to zero.
func tritonNextafter(a, b float64) float64 {
	a, b = ftz(a), ftz(b)
	r := float64(math.Nextafter32(float32(a), float32(b)))
	switch {
	case a == b: // C99: y
		return b
	case !sub32(r):
		return r
	case a == 0:
		return math.Copysign(0x1p-126, r)
	}
	return math.Copysign(0, r)
}

// tritonRounding: logb as tritonLogb; ldexp and scalbn of a subnormal
// give twice it, whatever the exponent; nextafter as tritonNextafter.
func tritonRounding(in, res tensors) tensors {
	x, y, n := in["x"], in["y"], in["n"]
	setEach(in, res, "logb", func(i int) float64 { return tritonLogb(x.Float(i)) })
	scale := func(v float64, e int64) float64 {
		if sub32(v) {
			return 2 * v
		}
		return ftz(r32(v * math.Pow(2, float64(e))))
	}
	setEach(in, res, "ldx", func(i int) float64 { return scale(x.Float(i), n.Int(i)) })
	setEach(in, res, "scb", func(i int) float64 { return scale(y.Float(i), n.Int(i)) })
	setEach(in, res, "nxt", func(i int) float64 { return tritonNextafter(x.Float(i), y.Float(i)) })
	return res
}

// piBig is pi to prec bits by the Gauss-Legendre iteration.
func piBig(prec uint) *big.Float {
	f := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	a, b, t, p := f(1), new(big.Float).SetPrec(prec).Sqrt(f(0.5)), f(0.25), f(1)
	for range 12 { // quadratic convergence: 2^12 digits
		an := new(big.Float).SetPrec(prec).Add(a, b)
		an.Quo(an, f(2))
		b.Sqrt(new(big.Float).SetPrec(prec).Mul(a, b))
		d := new(big.Float).SetPrec(prec).Sub(a, an)
		d.Mul(d, d)
		t.Sub(t, d.Mul(d, p))
		p.Mul(p, f(2))
		a = an
	}
	s := new(big.Float).SetPrec(prec).Add(a, b)
	s.Mul(s, s)
	return s.Quo(s, t.Mul(t, f(4)))
}

// trigBig is sin, cos and tan of x reduced by pi/2 exactly to [-pi/4,
// pi/4] (CUDA documents 2 ulp for every fp64 argument; Go's reduction of
// 3e38 is 11 ulp off).
func trigBig(x float64) (s, c, t float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) < 1<<20 {
		return math.Sin(x), math.Cos(x), math.Tan(x)
	}
	const prec = 1300
	half := piBig(prec)
	half.Quo(half, big.NewFloat(2))
	q := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetFloat64(x), half)
	q.Add(q, big.NewFloat(math.Copysign(0.5, x)))
	k, _ := q.Int(nil) // nearest
	r := new(big.Float).SetPrec(prec).Mul(new(big.Float).SetPrec(prec).SetInt(k), half)
	r.Sub(new(big.Float).SetPrec(prec).SetFloat64(x), r)
	rf, _ := r.Float64()
	sr, cr := math.Sin(rf), math.Cos(rf)
	switch new(big.Int).And(k, big.NewInt(3)).Int64() {
	case 0:
		s, c = sr, cr
	case 1:
		s, c = cr, -sr
	case 2:
		s, c = -sr, -cr
	default:
		s, c = -cr, sr
	}
	return s, c, s / c
}

// powBig is pow(x, y) for x > 0 finite and y a multiple of 1/4: x^(4y)
// exactly, then two square roots, to 300 bits; math.Pow elsewhere.
func powBig(x, y float64) float64 {
	q := y * 4
	if !(x > 0) || math.IsInf(x, 0) || q != math.Trunc(q) || math.Abs(q) > 4096 {
		return math.Pow(x, y)
	}
	const prec = 300
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	if q < 0 {
		bx.Quo(new(big.Float).SetPrec(prec).SetInt64(1), bx)
	}
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	for range int(math.Abs(q)) {
		r.Mul(r, bx)
	}
	r.Sqrt(r)
	r.Sqrt(r)
	v, _ := r.Float64()
	return v
}

// tritonFP64: lgamma(-inf) = +inf; sin, cos and tan of huge arguments and
// pow within CUDA's 2 ulp.
func tritonFP64(in, res tensors) tensors {
	x, y := in["x"], in["y"]
	setEach(in, res, "lgamma", func(i int) float64 { return lgammaC99(x.Float(i)) })
	setEach(in, res, "sin", func(i int) float64 { s, _, _ := trigBig(x.Float(i)); return s })
	setEach(in, res, "cos", func(i int) float64 { _, c, _ := trigBig(x.Float(i)); return c })
	setEach(in, res, "tan", func(i int) float64 { _, _, t := trigBig(x.Float(i)); return t })
	setEach(in, res, "pw", func(i int) float64 { return powBig(x.Float(i), y.Float(i)) })
	return res
}
