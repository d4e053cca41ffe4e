package conformance

// This file implements the references of the libdevice construct kernels
// (constructs/libdevice_*.tri) and of tutorial 07's sample. Float results
// are computed in float64 with Go's math (or exactly, for the correctly
// rounded operations) and rounded once; the files' tolerances are the
// errors CUDA documents for each function, which the GPU may add.

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

func init() {
	for k, v := range map[string]Reference{
		"sample/extern_tutorial07": refSampleAsin,
	} {
		references[k] = v
	}
}

func refSampleAsin(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"output_triton": eachFloat(in["output_triton"], func(i int) float64 { return r32(math.Asin(x.Float(i))) })}
}

func init() {
	for k, v := range map[string]Reference{
		"libdevice_explog":        refLibExpLog,
		"libdevice_trig":          refLibTrig,
		"libdevice_pow":           refLibPow,
		"libdevice_erf_gamma":     refLibErfGamma,
		"libdevice_bessel":        refLibBessel,
		"libdevice_rounding":      refLibRounding,
		"libdevice_classify":      refLibClassify,
		"libdevice_rounded_arith": refLibRoundedArith,
		"libdevice_intbits":       refLibIntBits,
		"libdevice_fp64":          refLibFP64,
		"libdevice_fast":          refLibFast,
	} {
		references[k] = v
	}
}

// ftz flushes an fp32 subnormal to zero of its sign: Triton links
// libdevice in flush-to-zero mode, so fp32 functions see and give no
// subnormals.
func ftz(x float64) float64 {
	if x != 0 && math.Abs(x) < 0x1p-126 {
		return math.Copysign(0, x)
	}
	return x
}

// ftzIf is ftz for fp32 tensors, the identity for others.
func ftzIf(t *tensor.Tensor, x float64) float64 {
	if t.Kind == ir.Float32 {
		return ftz(x)
	}
	return x
}

// floats1 fills each output from f of input x's element, rounded to the
// output's dtype by the tensor; fp32 operands and results flushed (ftz).
func floats1(in tensors, x string, outs map[string]func(float64) float64) tensors {
	res := tensors{}
	for name, f := range outs {
		res[name] = eachFloat(in[name], func(i int) float64 {
			return ftzIf(in[name], r32If(in[name], f(ftzIf(in[x], in[x].Float(i)))))
		})
	}
	return res
}

// floats2 is floats1 for functions of inputs x and y.
func floats2(in tensors, x, y string, outs map[string]func(a, b float64) float64) tensors {
	res := tensors{}
	for name, f := range outs {
		res[name] = eachFloat(in[name], func(i int) float64 {
			return ftzIf(in[name], r32If(in[name], f(ftzIf(in[x], in[x].Float(i)), ftzIf(in[y], in[y].Float(i)))))
		})
	}
	return res
}

// r32If rounds to fp32 for fp32 tensors (so that a result rounding up to
// the smallest normal is not flushed).
func r32If(t *tensor.Tensor, x float64) float64 {
	if t.Kind == ir.Float32 {
		return r32(x)
	}
	return x
}

func merge(ts ...tensors) tensors {
	out := tensors{}
	for _, t := range ts {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}

func refLibExpLog(in tensors, _ map[string]float64) tensors {
	return tritonExpLog(in, floats1(in, "x", map[string]func(float64) float64{
		"exp": math.Exp, "exp2": math.Exp2, "exp10": func(x float64) float64 { return math.Pow(10, x) },
		"expm1": math.Expm1, "log": math.Log, "log2": math.Log2, "log10": math.Log10, "log1p": math.Log1p,
		"logb": math.Logb, "cbrt": math.Cbrt, "rcbrt": func(x float64) float64 { return 1 / math.Cbrt(x) },
		"sqrt": math.Sqrt, "rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
	}))
}

// sinPi is sin(pi*x) for the reference: exact zeros at integers, else
// math.Sin of the product (the inputs are small or integers).
func sinPi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == math.Trunc(x) {
		return math.Copysign(0, x)
	}
	return math.Sin(math.Pi * math.Mod(x, 2))
}

func cosPi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if a := math.Abs(x); a-math.Trunc(a) == 0.5 {
		return 0
	}
	if x == math.Trunc(x) {
		return 1 - 2*math.Mod(math.Abs(x), 2)
	}
	return math.Cos(math.Pi * math.Mod(x, 2))
}

func refLibTrig(in tensors, _ map[string]float64) tensors {
	return merge(floats1(in, "x", map[string]func(float64) float64{
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "sinpi": sinPi, "cospi": cosPi,
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan, "sinh": math.Sinh, "cosh": math.Cosh,
		"tanh": math.Tanh, "asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh,
	}), floats2(in, "x", "y", map[string]func(a, b float64) float64{"at2": math.Atan2}))
}

func refLibPow(in tensors, _ map[string]float64) tensors {
	n := in["n"]
	norm := func(v ...float64) float64 {
		for _, x := range v {
			if math.IsInf(x, 0) {
				return math.Inf(1)
			}
		}
		s := 0.0
		for _, x := range v {
			s += x * x
		}
		return math.Sqrt(s)
	}
	res := floats2(in, "x", "y", map[string]func(a, b float64) float64{
		"p": math.Pow, "h": math.Hypot, "rh": func(a, b float64) float64 { return 1 / math.Hypot(a, b) },
		"n3": func(a, b float64) float64 { return norm(a, b, 2) }, "rn3": func(a, b float64) float64 { return 1 / norm(a, b, 2) },
		"n4": func(a, b float64) float64 { return norm(a, b, a, 1) }, "rn4": func(a, b float64) float64 { return 1 / norm(a, b, a, 1) },
	})
	x := in["x"]
	res["pi"] = eachFloat(in["pi"], func(i int) float64 { return ftz(r32(math.Pow(ftz(x.Float(i)), float64(n.Int(i))))) })
	return tritonPow(in, res)
}

func refLibErfGamma(in tensors, _ map[string]float64) tensors {
	erfcinv := func(y float64) float64 {
		if y < 0 {
			return math.NaN()
		}
		if y == 0 || y >= 0.0625 || math.IsNaN(y) {
			return math.Erfcinv(y)
		}
		// Go's Erfcinv is Erfinv(1-y), too coarse in the tail: bisect erfc,
		// which is decreasing.
		lo, hi := 0.0, 30.0
		for range 200 {
			mid := (lo + hi) / 2
			if math.Erfc(mid) > y {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	return merge(floats1(in, "x", map[string]func(float64) float64{
		"erf": math.Erf, "erfc": math.Erfc,
		"erfcx": func(x float64) float64 {
			if x > 20 {
				return 1 / (x * math.SqrtPi) * (1 - 1/(2*x*x) + 3/(4*x*x*x*x))
			}
			return math.Exp(x*x) * math.Erfc(x)
		},
		"normcdf": func(x float64) float64 { return math.Erfc(-x/math.Sqrt2) / 2 },
		"lgamma":  lgammaC99,
		"tgamma":  math.Gamma,
	}), floats1(in, "p", map[string]func(float64) float64{
		"erfinv": math.Erfinv, "erfcinv": erfcinv,
		"normcdfinv": func(p float64) float64 { return -math.Sqrt2 * erfcinv(2*p) },
	}))
}

func refLibBessel(in tensors, _ map[string]float64) tensors {
	// I0 and I1 by their power series, enough for the inputs' |x| <= 100.
	besselI := func(nu int, x float64) float64 {
		if math.IsInf(x, 0) {
			if nu == 1 {
				return x
			}
			return math.Inf(1)
		}
		if math.Abs(x) > 100 {
			return math.Copysign(math.Inf(1), math.Pow(x, float64(nu)))
		}
		q, term := x*x/4, math.Pow(x/2, float64(nu))
		sum := term
		for k := 1; k < 400; k++ {
			term *= q / float64(k*(k+nu))
			sum += term
		}
		return sum
	}
	return tritonBessel(in, floats1(in, "x", map[string]func(float64) float64{
		"j0": math.J0, "j1": math.J1, "y0": math.Y0, "y1": math.Y1,
		"cyl_bessel_i0": func(x float64) float64 { return besselI(0, x) },
		"cyl_bessel_i1": func(x float64) float64 { return besselI(1, x) },
		"jn2":           func(x float64) float64 { return math.Jn(2, x) }, "yn2": func(x float64) float64 { return math.Yn(2, x) },
	}))
}

func refLibRounding(in tensors, _ map[string]float64) tensors {
	x, y, n := in["x"], in["y"], in["n"]
	res := floats1(in, "x", map[string]func(float64) float64{
		"floor": math.Floor, "ceil": math.Ceil, "trunc": math.Trunc, "round": math.Round,
		"rint": math.RoundToEven, "nearbyint": math.RoundToEven, "logb": math.Logb,
		"sat": func(v float64) float64 {
			if math.IsNaN(v) {
				return 0
			}
			return math.Max(0, math.Min(v, 1))
		},
	})
	for k, v := range floats2(in, "x", "y", map[string]func(a, b float64) float64{
		"fmd": math.Mod, "rem": math.Remainder,
		"fdm": func(a, b float64) float64 {
			if math.IsNaN(a) || math.IsNaN(b) {
				return math.NaN()
			}
			return math.Max(a-b, 0)
		},
		"nxt": func(a, b float64) float64 { return float64(math.Nextafter32(float32(a), float32(b))) },
	}) {
		res[k] = v
	}
	toI64 := func(v float64) int64 {
		switch {
		case math.IsNaN(v):
			return 0
		case v >= 0x1p63:
			return math.MaxInt64
		case v < -0x1p63:
			return math.MinInt64
		}
		return int64(v)
	}
	// copysign works on bits: nothing is flushed.
	res["cps"] = eachFloat(in["cps"], func(i int) float64 { return math.Copysign(x.Float(i), y.Float(i)) })
	z := func(i int) float64 { // NaN replaced by 4.5
		if v := y.Float(i); v == v {
			return ftz(v)
		}
		return 4.5
	}
	res["lri"] = eachInt(in["lri"], func(i int) int64 { return toI64(math.RoundToEven(z(i))) })
	res["lro"] = eachInt(in["lro"], func(i int) int64 { return toI64(math.Round(z(i))) })
	res["ilb"] = eachInt(in["ilb"], func(i int) int64 {
		v := ftz(x.Float(i))
		switch {
		case v == 0 || math.IsNaN(v):
			return math.MinInt32
		case math.IsInf(v, 0):
			return math.MaxInt32
		}
		_, e := math.Frexp(v)
		return int64(e - 1)
	})
	res["ldx"] = eachFloat(in["ldx"], func(i int) float64 { return ftz(r32(ftz(x.Float(i)) * math.Pow(2, float64(n.Int(i))))) })
	res["scb"] = eachFloat(in["scb"], func(i int) float64 { return ftz(r32(ftz(y.Float(i)) * math.Pow(2, float64(n.Int(i))))) })
	return tritonRounding(in, res)
}

func refLibClassify(in tensors, _ map[string]float64) tensors {
	res := tensors{}
	for _, sfx := range []string{"", "d"} {
		src := in["x"+sfx]
		tests := map[string]func(float64) bool{
			"nan": math.IsNaN, "inf": func(v float64) bool { return math.IsInf(v, 0) },
			"sgn": math.Signbit, "fin": func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) },
		}
		for name, f := range tests {
			res[name+sfx] = eachInt(in[name+sfx], func(i int) int64 { return b2i(f(src.Float(i))) })
		}
	}
	return res
}

// roundRef rounds the value e (exact, or computed to 300 bits in the
// target's direction) to a float of mant bits whose normal exponents
// (big.Float's, mantissa in [0.5, 1)) start at emin, subnormals and
// overflow included, in mode m.
func roundRef(e *big.Float, mant int, emin int, maxf float64, m big.RoundingMode) float64 {
	if e.Sign() == 0 {
		f, _ := e.Float64()
		return f
	}
	neg := e.Sign() < 0
	p := mant
	if exp := e.MantExp(nil); exp < emin {
		p = mant - (emin - exp)
	}
	tiny := math.Ldexp(1, emin-mant) // the smallest subnormal
	if p <= 0 {
		a := new(big.Float).Abs(e)
		up := m == big.ToPositiveInf && !neg || m == big.ToNegativeInf && neg ||
			m == big.ToNearestEven && a.Cmp(big.NewFloat(tiny/2)) > 0
		sign := 1.0
		if neg {
			sign = -1
		}
		if up {
			return math.Copysign(tiny, sign)
		}
		return math.Copysign(0, sign)
	}
	z := new(big.Float).SetPrec(uint(p)).SetMode(m).Set(e)
	f, _ := z.Float64()
	if math.Abs(f) > maxf {
		towardZero := m == big.ToZero || m == big.ToPositiveInf && neg || m == big.ToNegativeInf && !neg
		if towardZero {
			return math.Copysign(maxf, f)
		}
		return math.Copysign(math.Inf(1), f)
	}
	return f
}

var refModes = map[string]big.RoundingMode{"rn": big.ToNearestEven, "rz": big.ToZero, "rd": big.ToNegativeInf, "ru": big.ToPositiveInf}

func round32(e *big.Float, m big.RoundingMode) float64 {
	return roundRef(e, 24, -125, math.MaxFloat32, m)
}

func round64(e *big.Float, m big.RoundingMode) float64 {
	return roundRef(e, 53, -1021, math.MaxFloat64, m)
}

// exactOp computes op on the operands to 3000 bits (exact for +, -, * and
// fma; div and sqrt rounded in mode m, which then rounds again alike).
func exactOp(op string, m big.RoundingMode, v ...float64) *big.Float {
	b := func(x float64) *big.Float { return new(big.Float).SetPrec(3000).SetMode(m).SetFloat64(x) }
	z := new(big.Float).SetPrec(3000).SetMode(m)
	switch op {
	case "add":
		return z.Add(b(v[0]), b(v[1]))
	case "sub":
		return z.Sub(b(v[0]), b(v[1]))
	case "mul":
		return z.Mul(b(v[0]), b(v[1]))
	case "div":
		return z.Quo(b(v[0]), b(v[1]))
	case "sqrt":
		// big's Sqrt is not exact on perfect squares: test the nearest
		// double first.
		r, _ := new(big.Float).SetPrec(3000).Sqrt(b(v[0])).Float64()
		if sq := new(big.Float).SetPrec(3000).Mul(b(r), b(r)); sq.Cmp(b(v[0])) == 0 {
			return b(r)
		}
		return z.Sqrt(b(v[0]))
	case "fma":
		return z.Add(new(big.Float).SetPrec(3000).Mul(b(v[0]), b(v[1])), b(v[2]))
	}
	panic(op)
}

// roundedRef is a correctly rounded op of fp32 or fp64 operands, with
// IEEE's special values and signed zeros.
func roundedRef(op, mode string, f64 bool, v ...float64) float64 {
	if f64 {
		return roundedRefExact(op, mode, true, v...)
	}
	for i := range v {
		v[i] = ftz(v[i])
	}
	return ftz(roundedRefExact(op, mode, false, v...))
}

// roundedRefExact is roundedRef without flushing.
func roundedRefExact(op, mode string, f64 bool, v ...float64) float64 {
	m := refModes[mode]
	nat := map[string]func() float64{
		"add": func() float64 { return v[0] + v[1] }, "sub": func() float64 { return v[0] - v[1] },
		"mul": func() float64 { return v[0] * v[1] }, "div": func() float64 { return v[0] / v[1] },
		"sqrt": func() float64 { return math.Sqrt(v[0]) }, "fma": func() float64 { return math.FMA(v[0], v[1], v[2]) },
	}[op]()
	special := math.IsNaN(nat)
	for _, x := range v {
		special = special || math.IsInf(x, 0) || x == 0 && (op == "div" || op == "mul" || op == "sqrt")
	}
	if op == "div" && v[1] == 0 || op == "sqrt" && v[0] < 0 {
		special = true
	}
	if special {
		return nat
	}
	e := exactOp(op, m, v...)
	if e.Sign() == 0 { // an exact zero sum: -0 only rounding down, or from two -0
		if nat == 0 && math.Signbit(nat) && m != big.ToNegativeInf {
			return nat
		}
		if m == big.ToNegativeInf {
			return math.Copysign(0, -1)
		}
		return 0
	}
	if f64 {
		return round64(e, m)
	}
	return round32(e, m)
}

func refLibRoundedArith(in tensors, _ map[string]float64) tensors {
	a, b, k := in["a"], in["b"], in["k"]
	res := tensors{}
	for mode, m := range refModes {
		for _, op := range []string{"add", "sub", "mul", "div"} {
			res[op+"_"+mode] = eachFloat(in[op+"_"+mode], func(i int) float64 { return roundedRef(op, mode, false, a.Float(i), b.Float(i)) })
		}
		res["rcp_"+mode] = eachFloat(in["rcp_"+mode], func(i int) float64 { return roundedRef("div", mode, false, 1, b.Float(i)) })
		res["sqrt_"+mode] = eachFloat(in["sqrt_"+mode], func(i int) float64 { return roundedRef("sqrt", mode, false, b.Float(i)) })
		res["fma_"+mode] = eachFloat(in["fma_"+mode], func(i int) float64 {
			return roundedRef("fma", mode, false, a.Float(i), b.Float(i), a.Float(i))
		})
		res["i2f_"+mode] = eachFloat(in["i2f_"+mode], func(i int) float64 {
			v := k.Int(i)
			if v == 0 {
				return 0
			}
			return round32(new(big.Float).SetInt64(v), m)
		})
		res["f2i_"+mode] = eachInt(in["f2i_"+mode], func(i int) int64 {
			// a * 1000.0 is one fp32 product, rounded to nearest.
			v := ftz(r32(a.Float(i) * 1000))
			switch mode {
			case "rn":
				v = math.RoundToEven(v)
			case "rz":
				v = math.Trunc(v)
			case "rd":
				v = math.Floor(v)
			case "ru":
				v = math.Ceil(v)
			}
			switch {
			case math.IsNaN(v):
				return 0
			case v >= math.MaxInt32:
				return math.MaxInt32
			case v <= math.MinInt32:
				return math.MinInt32
			}
			return int64(v)
		})
	}
	// tl.div_rn is div.rn.f32 under Triton, not libdevice's: nothing flushed.
	res["tdiv"] = eachFloat(in["tdiv"], func(i int) float64 { return r32(a.Float(i) / b.Float(i)) })
	res["tsqrt"] = eachFloat(in["tsqrt"], func(i int) float64 { return ftz(r32(math.Sqrt(ftz(b.Float(i))))) })
	res["rsq"] = eachFloat(in["rsq"], func(i int) float64 {
		v := ftz(b.Float(i))
		if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return 1 / math.Sqrt(v)
		}
		z := new(big.Float).SetPrec(300).Sqrt(big.NewFloat(v))
		return round32(z.Quo(big.NewFloat(1), z), big.ToNearestEven)
	})
	return res
}

func refLibIntBits(in tensors, _ map[string]float64) tensors {
	iv, jv, lv := in["i"], in["j"], in["l"]
	i32 := func(f func(a, b int64) int64) func(int) int64 {
		return func(n int) int64 { return f(iv.Int(n), jv.Int(n)) }
	}
	u := func(x int64) uint64 { return uint64(uint32(x)) }
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	res := tensors{}
	for name, f := range map[string]func(int) int64{
		"popc": func(n int) int64 { return int64(bits.OnesCount32(uint32(iv.Int(n)))) },
		"clz":  func(n int) int64 { return int64(bits.LeadingZeros32(uint32(iv.Int(n)))) },
		"ffs": func(n int) int64 {
			if iv.Int(n) == 0 {
				return 0
			}
			return int64(bits.TrailingZeros32(uint32(iv.Int(n))) + 1)
		},
		"brev":  func(n int) int64 { return int64(bits.Reverse32(uint32(iv.Int(n)))) },
		"popcl": func(n int) int64 { return int64(bits.OnesCount64(uint64(lv.Int(n)))) },
		"clzl":  func(n int) int64 { return int64(bits.LeadingZeros64(uint64(lv.Int(n)))) },
		"ffsl": func(n int) int64 {
			if lv.Int(n) == 0 {
				return 0
			}
			return int64(bits.TrailingZeros64(uint64(lv.Int(n))) + 1)
		},
		"brevl": func(n int) int64 { return int64(bits.Reverse64(uint64(lv.Int(n)))) },
		"bperm": func(n int) int64 {
			x, y := u(iv.Int(n)), u(jv.Int(n))
			s := uint64(0x3210 + n*0x1111)
			var r uint64
			for b := range 4 {
				sel := s >> (4 * b) & 7
				r |= ((y<<32 | x) >> (8 * sel) & 0xff) << (8 * b)
			}
			return int64(r)
		},
		"mulhi":  i32(func(a, b int64) int64 { return a * b >> 32 }),
		"umulhi": i32(func(a, b int64) int64 { return int64(u(a) * u(b) >> 32) }),
		"mulhil": func(n int) int64 {
			p := new(big.Int).Mul(big.NewInt(lv.Int(n)), big.NewInt(lv.Int(n)))
			return new(big.Int).Rsh(p, 64).Int64()
		},
		"umulhil": func(n int) int64 {
			hi, _ := bits.Mul64(uint64(lv.Int(n)), uint64(lv.Int(n)))
			return int64(hi)
		},
		"mul24": i32(func(a, b int64) int64 {
			s := func(x int64) int64 { return x & 0xffffff << 40 >> 40 }
			return s(a) * s(b)
		}),
		"umul24": i32(func(a, b int64) int64 { return (a & 0xffffff) * (b & 0xffffff) }),
		"sad":    i32(func(a, b int64) int64 { return abs(a-b) + int64(u(b)) }),
		"usad":   i32(func(a, b int64) int64 { return abs(int64(u(a))-int64(u(b))) + int64(u(b)) }),
		"hadd":   i32(func(a, b int64) int64 { return (a + b) >> 1 }),
		"uhadd":  i32(func(a, b int64) int64 { return int64(u(a)+u(b)) >> 1 }),
		"rhadd":  i32(func(a, b int64) int64 { return (a + b + 1) >> 1 }),
		"urhadd": i32(func(a, b int64) int64 { return int64(u(a)+u(b)+1) >> 1 }),
		"iabs":   func(n int) int64 { return abs(iv.Int(n)) },
		"labs":   func(n int) int64 { return abs(lv.Int(n)) },
		"f2i":    func(n int) int64 { return iv.Int(n) },
	} {
		res[name] = eachInt(in[name], f)
	}
	res["i2f"] = eachFloat(in["i2f"], func(n int) float64 { return float64(math.Float32frombits(uint32(jv.Int(n)))) })
	return res
}

func refLibFP64(in tensors, _ map[string]float64) tensors {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	res := floats1(in, "x", map[string]func(float64) float64{
		"exp": math.Exp, "log": math.Log, "sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
		"asin": math.Asin, "atan": math.Atan, "sinh": math.Sinh, "tanh": math.Tanh, "erf": math.Erf,
		"erfinv": func(y float64) float64 {
			// Go's Erfinv errs by a few ulp: one Newton step on erf.
			x := math.Erfinv(y)
			if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
				return x
			}
			return x - (math.Erf(x)-y)*math.SqrtPi/2*math.Exp(x*x)
		},
		"lgamma": lg, "cbrt": math.Cbrt, "expm1": math.Expm1, "log1p": math.Log1p,
		"d2f": func(x float64) float64 { return float64(float32(x)) },
		"d2fz": func(x float64) float64 {
			if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
				return x
			}
			return round32(new(big.Float).SetFloat64(x), big.ToZero)
		},
	})
	for k, v := range floats2(in, "x", "y", map[string]func(a, b float64) float64{
		"pw": math.Pow,
		"dz": func(a, b float64) float64 { return roundedRef("div", "rz", true, a, b) },
		"du": func(a, b float64) float64 { return roundedRef("div", "ru", true, a, b) },
		"fd": func(a, b float64) float64 { return roundedRef("fma", "rd", true, a, b, a) },
		"sq": func(_, b float64) float64 { return roundedRef("sqrt", "ru", true, b) },
	}) {
		res[k] = v
	}
	return tritonFP64(in, res)
}

func refLibFast(in tensors, _ map[string]float64) tensors {
	// The exact functions: the file's tolerance covers the intrinsics'
	// error and the fp32 roundings of their instruction sequences.
	return merge(floats1(in, "x", map[string]func(float64) float64{
		"fast_expf": math.Exp, "fast_exp10f": func(x float64) float64 { return math.Pow(10, x) },
		"fast_sinf": math.Sin, "fast_cosf": math.Cos, "fast_tanf": math.Tan,
	}), floats1(in, "y", map[string]func(float64) float64{
		"fast_logf": math.Log, "fast_log2f": math.Log2, "fast_log10f": math.Log10,
	}), floats2(in, "y", "x", map[string]func(a, b float64) float64{"pw": math.Pow}),
		floats2(in, "x", "y", map[string]func(a, b float64) float64{"dv": func(a, b float64) float64 { return a / b }}))
}

func init() { references["libdevice_convert"] = refLibConvert }

// saturateRef converts an integral float to an integer in [lo, hi] (as
// big.Int, so that uint64's range is exact).
func saturateRef(v float64, lo, hi *big.Int) *big.Int {
	if math.IsInf(v, 0) {
		if v > 0 {
			return hi
		}
		return lo
	}
	i, _ := new(big.Float).SetFloat64(v).Int(nil)
	if i.Cmp(lo) < 0 {
		return lo
	}
	if i.Cmp(hi) > 0 {
		return hi
	}
	return i
}

func refLibConvert(in tensors, _ map[string]float64) tensors {
	d, l, iv := in["d"], in["l"], in["i"]
	integral := map[string]func(float64) float64{"rn": math.RoundToEven, "rz": math.Trunc, "rd": math.Floor, "ru": math.Ceil}
	bi := func(x int64) *big.Int { return big.NewInt(x) }
	maxU64 := new(big.Int).SetUint64(math.MaxUint64)
	// bits stores an integer's low 64 bits, as the output's width wraps it.
	bits := func(i *big.Int) int64 { return int64(new(big.Int).And(i, maxU64).Uint64()) }
	f32 := func(n int) float64 { return ftz(float64(float32(d.Float(n)))) }
	res := tensors{}
	for mode, m := range refModes {
		res["double2float_"+mode] = eachFloat(in["double2float_"+mode], func(n int) float64 {
			v := d.Float(n)
			if v == 0 || math.IsInf(v, 0) {
				return v
			}
			return ftz(round32(new(big.Float).SetFloat64(v), m))
		})
		for src, get := range map[string]func(int) float64{"double": d.Float, "float": f32} {
			for _, dst := range []struct {
				name   string
				lo, hi *big.Int
			}{
				{"int", bi(math.MinInt32), bi(math.MaxInt32)}, {"uint", bi(0), bi(math.MaxUint32)},
				{"ll", bi(math.MinInt64), bi(math.MaxInt64)}, {"ull", bi(0), maxU64},
			} {
				name := src + "2" + dst.name + "_" + mode
				if in[name] == nil {
					continue
				}
				res[name] = eachInt(in[name], func(n int) int64 { return bits(saturateRef(integral[mode](get(n)), dst.lo, dst.hi)) })
			}
		}
		toFloat := func(i *big.Int, f64 bool) float64 {
			if i.Sign() == 0 {
				return 0
			}
			e := new(big.Float).SetInt(i)
			if f64 {
				return round64(e, m)
			}
			return round32(e, m)
		}
		res["ll2float_"+mode] = eachFloat(in["ll2float_"+mode], func(n int) float64 { return toFloat(bi(l.Int(n)), false) })
		res["ll2double_"+mode] = eachFloat(in["ll2double_"+mode], func(n int) float64 { return toFloat(bi(l.Int(n)), true) })
		u64 := func(n int) *big.Int { return new(big.Int).SetUint64(uint64(l.Int(n))) }
		res["ull2float_"+mode] = eachFloat(in["ull2float_"+mode], func(n int) float64 { return toFloat(u64(n), false) })
		res["ull2double_"+mode] = eachFloat(in["ull2double_"+mode], func(n int) float64 { return toFloat(u64(n), true) })
		res["uint2float_"+mode] = eachFloat(in["uint2float_"+mode], func(n int) float64 {
			return toFloat(new(big.Int).SetUint64(uint64(uint32(iv.Int(n)))), false)
		})
	}
	res["double2loint"] = eachInt(in["double2loint"], func(n int) int64 { return int64(int32(math.Float64bits(d.Float(n)))) })
	res["double2hiint"] = eachInt(in["double2hiint"], func(n int) int64 { return int64(math.Float64bits(d.Float(n)) >> 32) })
	res["double_as_longlong"] = eachInt(in["double_as_longlong"], func(n int) int64 { return int64(math.Float64bits(d.Float(n))) })
	res["float_as_uint"] = eachInt(in["float_as_uint"], func(n int) int64 { return int64(math.Float32bits(float32(d.Float(n)))) })
	res["longlong_as_double"] = eachFloat(in["longlong_as_double"], func(n int) float64 { return math.Float64frombits(uint64(l.Int(n))) })
	res["int2double_rn"] = eachFloat(in["int2double_rn"], func(n int) float64 { return float64(iv.Int(n)) })
	res["uint2double_rn"] = eachFloat(in["uint2double_rn"], func(n int) float64 { return float64(uint32(iv.Int(n))) })
	res["uint_as_float"] = eachFloat(in["uint_as_float"], func(n int) float64 { return float64(math.Float32frombits(uint32(iv.Int(n)))) })
	res["hilo"] = eachFloat(in["hilo"], func(n int) float64 {
		return math.Float64frombits(uint64(uint32(iv.Int(n)))<<32 | uint64(uint32(iv.Int(n)+1)))
	})
	return res
}

func init() { references["libdevice_fp64_more"] = refLibFP64More }

// sinPi64 is sin(pi*x) to fp64 accuracy: x reduced exactly to r in
// [-1, 1] (x - 2*round(x/2) is exact), then to the quarter where sin or
// cos of a small argument applies.
func sinPi64(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	r := x - 2*math.Round(x/2)
	a := math.Abs(r)
	var v float64
	switch {
	case a == 0 || a == 1:
		return math.Copysign(0, x)
	case a <= 0.25:
		v = math.Sin(math.Pi * a)
	case a <= 0.75:
		v = math.Cos(math.Pi * (0.5 - a))
	default:
		v = math.Sin(math.Pi * (1 - a))
	}
	return math.Copysign(v, r)
}

// cosPi64 is cos(pi*x) likewise; +0 at the odd multiples of 1/2.
func cosPi64(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	a := math.Abs(x - 2*math.Round(x/2))
	switch {
	case a == 0.5:
		return 0
	case a <= 0.25:
		return math.Cos(math.Pi * a)
	case a <= 0.75:
		return math.Sin(math.Pi * (0.5 - a))
	}
	return -math.Cos(math.Pi * (1 - a))
}

// besselIBig is I0 or I1 by their power series in 300-bit arithmetic.
func besselIBig(nu int, x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 720 {
		switch {
		case math.IsNaN(x):
			return x
		case nu == 1:
			return math.Copysign(math.Inf(1), x)
		}
		return math.Inf(1)
	}
	prec := uint(300)
	h := new(big.Float).SetPrec(prec).SetFloat64(x / 2)
	q := new(big.Float).SetPrec(prec).Mul(h, h)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	if nu == 1 {
		term.Set(h)
	}
	sum := new(big.Float).SetPrec(prec).Set(term)
	for k := 1; k < 2000; k++ {
		term.Mul(term, q)
		term.Quo(term, new(big.Float).SetInt64(int64(k*(k+nu))))
		sum.Add(sum, term)
	}
	f, _ := sum.Float64()
	return f
}

// erfcinv64 inverts erfc by Newton's method from Go's estimate (or, in the
// tail, from the leading asymptotic term), to erfc's accuracy.
func erfcinv64(y float64) float64 {
	switch {
	case math.IsNaN(y) || y < 0 || y > 2:
		return math.NaN()
	case y == 0 || y == 2 || y == 1:
		return math.Erfcinv(y)
	case y > 1:
		return -erfcinv64(2 - y)
	}
	t := math.Erfcinv(y)
	if y < 1e-3 {
		t = math.Sqrt(-math.Log(y))
	}
	for range 60 {
		t += (math.Erfc(t) - y) * math.SqrtPi / 2 * math.Exp(t*t)
	}
	return t
}

// normcdf64 is erfc(-x/sqrt(2))/2 with -x/sqrt(2) carried as a pair of
// doubles, its low part applied to first order.
func normcdf64(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.Erfc(-x/math.Sqrt2) / 2
	}
	const c, cLo = 0.7071067811865476, -4.833646656726457e-17 // 1/sqrt(2) = c + cLo
	hi := -x * c
	lo := math.FMA(-x, c, -hi) - x*cLo
	return (math.Erfc(hi) - lo*2/math.SqrtPi*math.Exp(-hi*hi)) / 2
}

// erfcx64 is exp(x^2) erfc(x), by its asymptotic series beyond 20.
func erfcx64(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x < -27: // 2 exp(x^2) overflows
		return math.Inf(1)
	case x <= 20:
		return math.Exp(x*x) * math.Erfc(x) * (1 + math.FMA(x, x, -x*x))
	}
	z, term, sum := 1/(2*x*x), 1.0, 1.0
	for n := 1; n < 20; n++ {
		term *= -float64(2*n-1) * z
		sum += term
	}
	return sum / (x * math.SqrtPi)
}

func refLibFP64More(in tensors, _ map[string]float64) tensors {
	return floats1(in, "x", map[string]func(float64) float64{
		"exp2": math.Exp2, "exp10": func(x float64) float64 { return math.Pow(10, x) }, "log2": math.Log2,
		"log10": math.Log10, "logb": math.Logb, "sqrt": math.Sqrt, "rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
		"rcbrt": func(x float64) float64 { return 1 / math.Cbrt(x) }, "sinpi": sinPi64, "cospi": cosPi64,
		"acos": math.Acos, "acosh": math.Acosh, "atanh": math.Atanh, "cosh": math.Cosh, "asinh": math.Asinh,
		"erfc": math.Erfc, "erfcx": erfcx64, "erfcinv": erfcinv64, "normcdf": normcdf64,
		"normcdfinv": func(p float64) float64 { return -math.Sqrt2 * erfcinv64(2*p) },
		"tgamma":     math.Gamma, "j0": math.J0, "j1": math.J1, "y0": math.Y0, "y1": math.Y1,
		"cyl_bessel_i0": func(x float64) float64 { return besselIBig(0, x) },
		"cyl_bessel_i1": func(x float64) float64 { return besselIBig(1, x) },
		"floor":         math.Floor, "ceil": math.Ceil, "trunc": math.Trunc, "round": math.Round,
		"rint": math.RoundToEven, "nearbyint": math.RoundToEven,
	})
}
