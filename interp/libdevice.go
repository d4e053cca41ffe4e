package interp

// This file implements OpLibdevice: every overload of ir's libdevice table
// has a Go implementation here, keyed by its symbol. Float functions are
// computed in float64 (Go's math, or libdevice_special.go) and rounded
// once to the result's kind, which keeps fp32 results within an ulp of the
// exact value; CUDA's own error, which the GPU adds, is the table's ULP.
// Correctly rounded operations are exact (libdevice_round.go), integer and
// bit functions bit for bit, and the fast intrinsics reproduce the fp32
// roundings of their instruction sequences.

import (
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// libElem is one operand or result element: floats in f, integers (their
// canonical int64 form) in i.
type libElem struct {
	f float64
	i int64
}

// libFunc computes one element.
type libFunc func(a []libElem) libElem

func fl1(f func(float64) float64) libFunc {
	return func(a []libElem) libElem { return libElem{f: f(a[0].f)} }
}

func fl2(f func(float64, float64) float64) libFunc {
	return func(a []libElem) libElem { return libElem{f: f(a[0].f, a[1].f)} }
}

func fl3(f func(float64, float64, float64) float64) libFunc {
	return func(a []libElem) libElem { return libElem{f: f(a[0].f, a[1].f, a[2].f)} }
}

func in1(f func(int64) int64) libFunc {
	return func(a []libElem) libElem { return libElem{i: f(a[0].i)} }
}

func in2(f func(int64, int64) int64) libFunc {
	return func(a []libElem) libElem { return libElem{i: f(a[0].i, a[1].i)} }
}

func in3(f func(int64, int64, int64) int64) libFunc {
	return func(a []libElem) libElem { return libElem{i: f(a[0].i, a[1].i, a[2].i)} }
}

// toInt: a float argument, an integer result.
func toInt(f func(float64) int64) libFunc {
	return func(a []libElem) libElem { return libElem{i: f(a[0].f)} }
}

// fromInt: an integer argument, a float result.
func fromInt(f func(int64) float64) libFunc {
	return func(a []libElem) libElem { return libElem{f: f(a[0].i)} }
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// bothKinds registers f under the fp32 and fp64 symbols of name
// (__nv_<name>f, __nv_<name>).
func bothKinds(t map[string]libFunc, name string, f libFunc) {
	t["__nv_"+name+"f"], t["__nv_"+name] = f, f
}

// libdeviceFuncs holds the implementation of every libdevice symbol; built
// once, never changed.
var libdeviceFuncs = libdeviceImpls()

// libdeviceImpls returns the implementation of every libdevice symbol.
func libdeviceImpls() map[string]libFunc {
	t := map[string]libFunc{}
	f32, f64 := ir.Float32, ir.Float64
	r32 := func(x float64) float64 { return float64(float32(x)) }

	// Integer and bit functions.
	t["__nv_clz"] = in1(func(x int64) int64 { return int64(bits.LeadingZeros32(uint32(x))) })
	t["__nv_clzll"] = in1(func(x int64) int64 { return int64(bits.LeadingZeros64(uint64(x))) })
	t["__nv_popc"] = in1(func(x int64) int64 { return int64(bits.OnesCount32(uint32(x))) })
	t["__nv_popcll"] = in1(func(x int64) int64 { return int64(bits.OnesCount64(uint64(x))) })
	t["__nv_brev"] = in1(func(x int64) int64 { return int64(int32(bits.Reverse32(uint32(x)))) })
	t["__nv_brevll"] = in1(func(x int64) int64 { return int64(bits.Reverse64(uint64(x))) })
	t["__nv_ffs"] = in1(func(x int64) int64 {
		if uint32(x) == 0 {
			return 0
		}
		return int64(bits.TrailingZeros32(uint32(x))) + 1
	})
	t["__nv_ffsll"] = in1(func(x int64) int64 {
		if x == 0 {
			return 0
		}
		return int64(bits.TrailingZeros64(uint64(x))) + 1
	})
	t["__nv_byte_perm"] = in3(func(x, y, s int64) int64 {
		in := uint64(uint32(x)) | uint64(uint32(y))<<32
		var r uint32
		for n := range 4 {
			sel := (uint32(s) >> (4 * n)) & 7
			r |= uint32(in>>(8*sel)&0xff) << (8 * n)
		}
		return int64(int32(r))
	})
	t["__nv_mulhi"] = in2(func(a, b int64) int64 { return (a * b) >> 32 })
	t["__nv_umulhi"] = in2(func(a, b int64) int64 { return int64(uint64(uint32(a)) * uint64(uint32(b)) >> 32) })
	t["__nv_mul64hi"] = in2(func(a, b int64) int64 {
		hi, _ := bits.Mul64(uint64(a), uint64(b))
		if a < 0 {
			hi -= uint64(b)
		}
		if b < 0 {
			hi -= uint64(a)
		}
		return int64(hi)
	})
	t["__nv_umul64hi"] = in2(func(a, b int64) int64 {
		hi, _ := bits.Mul64(uint64(a), uint64(b))
		return int64(hi)
	})
	t["__nv_mul24"] = in2(func(a, b int64) int64 {
		return int64(int32(int64(int32(a<<8)>>8) * int64(int32(b<<8)>>8)))
	})
	t["__nv_umul24"] = in2(func(a, b int64) int64 { return int64(uint32(a&0xffffff) * uint32(b&0xffffff)) })
	t["__nv_sad"] = in3(func(a, b, c int64) int64 {
		d := a - b
		if d < 0 {
			d = -d
		}
		return int64(int32(uint32(d) + uint32(c)))
	})
	t["__nv_usad"] = in3(func(a, b, c int64) int64 {
		d := a - b
		if d < 0 {
			d = -d
		}
		return int64(uint32(d) + uint32(c))
	})
	t["__nv_hadd"] = in2(func(a, b int64) int64 { return (a + b) >> 1 })
	t["__nv_uhadd"] = in2(func(a, b int64) int64 { return (a + b) >> 1 })
	t["__nv_rhadd"] = in2(func(a, b int64) int64 { return (a + b + 1) >> 1 })
	t["__nv_urhadd"] = in2(func(a, b int64) int64 { return (a + b + 1) >> 1 })
	t["__nv_abs"] = in1(func(x int64) int64 { return int64(int32(max(x, -x))) })
	t["__nv_llabs"] = in1(func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	})

	// Classification and bits of floats.
	isnan := toInt(func(x float64) int64 { return b2i64(math.IsNaN(x)) })
	isinf := toInt(func(x float64) int64 { return b2i64(math.IsInf(x, 0)) })
	isfinite := toInt(func(x float64) int64 { return b2i64(finite(x)) })
	signbit := toInt(func(x float64) int64 { return b2i64(math.Signbit(x)) })
	t["__nv_isnanf"], t["__nv_isnand"] = isnan, isnan
	t["__nv_isinff"], t["__nv_isinfd"] = isinf, isinf
	t["__nv_finitef"], t["__nv_isfinited"] = isfinite, isfinite
	t["__nv_signbitf"], t["__nv_signbitd"] = signbit, signbit
	t["__nv_int_as_float"] = fromInt(func(x int64) float64 { return float64(math.Float32frombits(uint32(x))) })
	t["__nv_uint_as_float"] = t["__nv_int_as_float"]
	t["__nv_float_as_int"] = toInt(func(x float64) int64 { return int64(int32(math.Float32bits(float32(x)))) })
	t["__nv_float_as_uint"] = t["__nv_float_as_int"]
	t["__nv_longlong_as_double"] = fromInt(func(x int64) float64 { return math.Float64frombits(uint64(x)) })
	t["__nv_double_as_longlong"] = toInt(func(x float64) int64 { return int64(math.Float64bits(x)) })
	t["__nv_double2loint"] = toInt(func(x float64) int64 { return int64(int32(math.Float64bits(x))) })
	t["__nv_double2hiint"] = toInt(func(x float64) int64 { return int64(int32(math.Float64bits(x) >> 32)) })
	t["__nv_hiloint2double"] = func(a []libElem) libElem {
		return libElem{f: math.Float64frombits(uint64(uint32(a[0].i))<<32 | uint64(uint32(a[1].i)))}
	}

	// Plain float functions, computed in float64.
	for name, f := range map[string]func(float64) float64{
		"floor": math.Floor, "ceil": math.Ceil, "trunc": math.Trunc, "round": math.Round,
		"rint": math.RoundToEven, "nearbyint": math.RoundToEven, "exp2": math.Exp2, "sqrt": math.Sqrt,
		"rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) }, "sin": sinAccurate, "cos": cosAccurate,
		"tan": tanAccurate, "sinpi": sinpi, "cospi": cospi, "log2": math.Log2, "exp": math.Exp,
		"exp10": func(x float64) float64 { return math.Pow(10, x) }, "cosh": math.Cosh, "sinh": math.Sinh,
		"tanh": math.Tanh, "atan": math.Atan, "asin": math.Asin, "acos": math.Acos, "log": math.Log,
		"log10": math.Log10, "log1p": math.Log1p, "acosh": math.Acosh, "asinh": math.Asinh,
		"atanh": math.Atanh, "expm1": math.Expm1, "cbrt": math.Cbrt,
		"rcbrt": func(x float64) float64 { return 1 / math.Cbrt(x) }, "j0": math.J0, "j1": math.J1,
		"y0": math.Y0, "y1": math.Y1, "cyl_bessel_i0": func(x float64) float64 { return besselI(0, x) },
		"cyl_bessel_i1": func(x float64) float64 { return besselI(1, x) }, "erf": math.Erf,
		"erfinv": erfinv, "erfc": math.Erfc, "erfcx": erfcx, "erfcinv": erfcinv,
		"normcdfinv": normcdfinv, "normcdf": normcdf,
		"lgamma": lgamma,
		"tgamma": math.Gamma, "logb": math.Logb, "fabs": math.Abs,
	} {
		bothKinds(t, name, fl1(f))
	}
	t["__nv_fabsf"], t["__nv_fabs"] = fl1(math.Abs), fl1(math.Abs)
	for name, f := range map[string]func(float64, float64) float64{
		"copysign": math.Copysign, "atan2": math.Atan2, "hypot": math.Hypot,
		"rhypot": func(a, b float64) float64 { return 1 / math.Hypot(a, b) },
		"fmod":   math.Mod, "remainder": math.Remainder, "pow": powAccurate,
		"fdim": func(a, b float64) float64 {
			if a > b {
				return a - b
			}
			if math.IsNaN(a) || math.IsNaN(b) {
				return math.NaN()
			}
			return 0
		},
	} {
		bothKinds(t, name, fl2(f))
	}
	norm := func(xs ...float64) float64 {
		r := 0.0
		for _, x := range xs {
			r = math.Hypot(r, x)
		}
		return r
	}
	bothKinds(t, "norm3d", fl3(func(a, b, c float64) float64 { return norm(a, b, c) }))
	bothKinds(t, "rnorm3d", fl3(func(a, b, c float64) float64 { return 1 / norm(a, b, c) }))
	norm4 := func(a []libElem) libElem { return libElem{f: norm(a[0].f, a[1].f, a[2].f, a[3].f)} }
	t["__nv_norm4df"], t["__nv_norm4d"] = norm4, norm4
	rnorm4 := func(a []libElem) libElem { return libElem{f: 1 / norm(a[0].f, a[1].f, a[2].f, a[3].f)} }
	t["__nv_rnorm4df"], t["__nv_rnorm4d"] = rnorm4, rnorm4
	t["__nv_nextafterf"] = fl2(func(a, b float64) float64 {
		return nextafterC99(float64(math.Nextafter32(float32(a), float32(b))), a, b)
	})
	t["__nv_nextafter"] = fl2(func(a, b float64) float64 { return nextafterC99(math.Nextafter(a, b), a, b) })
	t["__nv_fmaf"] = fl3(fma32)
	t["__nv_fma"] = fl3(math.FMA)
	ldexp := func(a []libElem) libElem { return libElem{f: math.Ldexp(a[0].f, int(a[1].i))} }
	t["__nv_ldexpf"], t["__nv_ldexp"], t["__nv_scalbnf"], t["__nv_scalbn"] = ldexp, ldexp, ldexp, ldexp
	t["__nv_powif"] = func(a []libElem) libElem { return libElem{f: powi(f32, a[0].f, a[1].i)} }
	t["__nv_powi"] = func(a []libElem) libElem { return libElem{f: powi(f64, a[0].f, a[1].i)} }
	jn, yn := besselN(math.Jn), besselN(math.Yn)
	t["__nv_jnf"] = func(a []libElem) libElem { return libElem{f: jnf(jn, a[0].i, a[1].f)} }
	t["__nv_jn"] = func(a []libElem) libElem { return libElem{f: jn(a[0].i, a[1].f)} }
	t["__nv_ynf"] = func(a []libElem) libElem { return libElem{f: yn(a[0].i, a[1].f)} }
	t["__nv_yn"] = t["__nv_ynf"]
	ilogbF := toInt(ilogb)
	t["__nv_ilogbf"], t["__nv_ilogb"] = ilogbF, ilogbF
	llrint := toInt(func(x float64) int64 { return saturate(math.RoundToEven(x), math.MinInt64, math.MaxInt64) })
	llround := toInt(func(x float64) int64 { return saturate(math.Round(x), math.MinInt64, math.MaxInt64) })
	t["__nv_llrintf"], t["__nv_llrint"], t["__nv_llroundf"], t["__nv_llround"] = llrint, llrint, llround, llround
	t["__nv_saturatef"] = fl1(func(x float64) float64 {
		if !(x > 0) {
			return 0
		}
		return math.Min(x, 1)
	})
	t["__nv_rcp64h"] = fl1(rcp64h)
	t["__nv_frsqrt_rn"] = fl1(roundedRsqrt)

	// Fast fp32 intrinsics: their instruction sequences, with each fp32
	// rounding between the instructions.
	log2e, log2ten := r32(math.Log2E), r32(math.Log2(10))
	ln2, log10two := r32(math.Ln2), r32(math.Log10(2))
	t["__nv_fast_expf"] = fl1(func(x float64) float64 { return math.Exp2(r32(x * log2e)) })
	t["__nv_fast_exp10f"] = fl1(func(x float64) float64 { return math.Exp2(r32(x * log2ten)) })
	t["__nv_fast_log2f"] = fl1(math.Log2)
	t["__nv_fast_logf"] = fl1(func(x float64) float64 { return r32(math.Log2(x)) * ln2 })
	t["__nv_fast_log10f"] = fl1(func(x float64) float64 { return r32(math.Log2(x)) * log10two })
	t["__nv_fast_sinf"] = fl1(math.Sin)
	t["__nv_fast_cosf"] = fl1(math.Cos)
	t["__nv_fast_tanf"] = fl1(func(x float64) float64 { return r32(math.Sin(x)) / r32(math.Cos(x)) })
	t["__nv_fast_powf"] = fl2(func(x, y float64) float64 { return math.Exp2(r32(y * r32(math.Log2(x)))) })
	t["__nv_fast_fdividef"] = fl2(func(x, y float64) float64 {
		if a := math.Abs(y); a > 0x1p126 && !math.IsInf(a, 0) {
			return 0 * x
		}
		return x / y
	})

	// Correctly rounded arithmetic in the four modes.
	for m, ms := range roundModes {
		m := roundMode(m)
		for _, k := range []ir.Kind{f32, f64} {
			f := "f"
			if k == f64 {
				f = "d"
			}
			t["__nv_"+f+"add_"+ms] = fl2(func(a, b float64) float64 { return roundedAdd(k, m, a, b) })
			t["__nv_"+f+"sub_"+ms] = fl2(func(a, b float64) float64 { return roundedAdd(k, m, a, -b) })
			t["__nv_"+f+"mul_"+ms] = fl2(func(a, b float64) float64 { return roundedMul(k, m, a, b) })
			t["__nv_"+f+"div_"+ms] = fl2(func(a, b float64) float64 { return roundedDiv(k, m, a, b) })
			t["__nv_"+f+"rcp_"+ms] = fl1(func(x float64) float64 { return roundedRcp(k, m, x) })
			t["__nv_"+f+"sqrt_"+ms] = fl1(func(x float64) float64 { return roundedSqrt(k, m, x) })
		}
		t["__nv_fmaf_"+ms] = fl3(func(a, b, c float64) float64 { return roundedFma(f32, m, a, b, c) })
		if m == modeRN {
			t["__nv_fmaf_rn"] = fl3(fma32)
		}
		t["__nv_fma_"+ms] = fl3(func(a, b, c float64) float64 { return roundedFma(f64, m, a, b, c) })
		t["__nv_double2float_"+ms] = fl1(func(x float64) float64 { return roundFloatMode(x, f32, m) })
		fromI := func(k ir.Kind, unsigned bool) libFunc {
			return fromInt(func(x int64) float64 {
				i := big.NewInt(x)
				if unsigned {
					i.SetUint64(uint64(x))
				}
				return roundInt(i, k, m)
			})
		}
		t["__nv_int2float_"+ms], t["__nv_uint2float_"+ms] = fromI(f32, false), fromI(f32, false)
		t["__nv_ll2float_"+ms], t["__nv_ull2float_"+ms] = fromI(f32, false), fromI(f32, true)
		t["__nv_ll2double_"+ms], t["__nv_ull2double_"+ms] = fromI(f64, false), fromI(f64, true)
		if m == modeRN {
			t["__nv_int2double_rn"], t["__nv_uint2double_rn"] = fromI(f64, false), fromI(f64, false)
		}
		toI := func(lo, hi int64) libFunc {
			return toInt(func(x float64) int64 { return saturate(toIntMode(x, m), lo, hi) })
		}
		for _, src := range []string{"float", "double"} {
			t["__nv_"+src+"2int_"+ms] = toI(math.MinInt32, math.MaxInt32)
			t["__nv_"+src+"2uint_"+ms] = toI(0, math.MaxUint32)
			t["__nv_"+src+"2ll_"+ms] = toI(math.MinInt64, math.MaxInt64)
			t["__nv_"+src+"2ull_"+ms] = toInt(func(x float64) int64 { return saturateU64(toIntMode(x, m)) })
		}
	}
	// tl.div_rn is libdevice's div_rn without flushing (ir.PreciseDivSymbol).
	t[ir.PreciseDivSymbol] = t["__nv_fdiv_rn"]
	return t
}

// evalLibdevice computes an OpLibdevice value element by element, with
// the overload's flush-to-zero behaviour (ir.LibdeviceOverload.FTZIn,
// FTZOut, Subnormal) on fp32.
func evalLibdevice(p *program, v *ir.Value, a []*tile) (*tile, error) {
	f := libdeviceFuncs[v.Extern]
	o, _ := ir.LibdeviceSymbol(v.Extern)
	if f == nil || o == nil {
		return nil, p.errorf(v.Pos, diag.CodeInternal, "internal error: no implementation of libdevice %s", v.Extern)
	}
	first := slices.Index(o.Args, ir.Float32)
	r := newTile(v.Type.Kind, v.Type.Shape)
	buf := make([]libElem, len(a))
	for i := range r.shape.NumElements() {
		for j, x := range a {
			switch {
			case x.flts != nil && x.kind == ir.Float32 && j == first && o.Subnormal != ir.SubnormalPlain:
				buf[j] = libElem{f: subnormalOperand(o, x.flts[i])}
			case x.flts != nil && o.FTZIn && x.kind == ir.Float32:
				buf[j] = libElem{f: flushSubnormal32(x.flts[i])}
			case x.flts != nil:
				buf[j] = libElem{f: x.flts[i]}
			default:
				buf[j] = libElem{i: x.ints[i]}
			}
		}
		e := f(buf)
		if r.flts == nil {
			r.ints[i] = e.i
			continue
		}
		if r.kind == ir.Float32 {
			e.f = float64(float32(e.f))
			if o.FTZOut {
				e.f = flushSubnormal32(e.f)
			}
		}
		if first >= 0 {
			e.f = subnormalResult(o, a[first].flts[i], e.f)
		}
		r.flts[i] = e.f
	}
	if r.flts != nil {
		roundFloats(r.kind, r.flts)
	} else {
		wrapInts(r.kind, r.ints)
	}
	return r, nil
}

// flushSubnormal32 is x, or zero of its sign where x is an fp32 subnormal.
func flushSubnormal32(x float64) float64 {
	if x != 0 && math.Abs(x) < 0x1p-126 {
		return math.Copysign(0, x)
	}
	return x
}

// SupportsLibdevice reports whether the interpreter implements the
// libdevice overload of the given symbol.
func SupportsLibdevice(symbol string) bool { return libdeviceFuncs[symbol] != nil }
