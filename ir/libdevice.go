package ir

// This file implements the table of libdevice, Triton's
// triton.language.extra.cuda.libdevice: every function, the dtype
// signatures it accepts (Triton's libdevice.py maps each to a __nv_
// symbol) and the largest error CUDA documents for it. One op,
// OpLibdevice, carries any of them: Value.Extern names the overload's
// symbol, and sema, the verifier, the interpreter, cudagen and the
// tolerance of `tri run --check` all read this table.

import (
	"fmt"
	"slices"
	"sort"
)

// LibdeviceFunc is one function of libdevice, reached as libdevice.<Name>.
type LibdeviceFunc struct {
	Name      string
	Overloads []*LibdeviceOverload
	// ToBool: Triton converts the int32 result to int1 (isnan, isinf).
	ToBool bool
}

// LibdeviceOverload is one dtype signature of a libdevice function.
type LibdeviceOverload struct {
	Func   string // the function's Name
	Args   []Kind
	Result Kind
	Symbol string // the libdevice symbol Triton calls (__nv_asinf)
	// CUDA is the function of the CUDA math API that computes the same
	// thing and that NVRTC provides without headers; "" where cudagen
	// writes the function itself (bit tests, powi).
	CUDA string
	// ULP is the largest error CUDA documents for the function, in units
	// in the last place of Result (0: exact or correctly rounded); Abs is
	// a documented absolute error that applies instead where it is larger
	// (the Bessel functions, the fast intrinsics near their zeros).
	ULP int64
	Abs float64
	// Doc is CUDA's statement of the error where it is not a plain ULP
	// (a range or a formula), for the documentation table.
	Doc string
	// FTZIn and FTZOut: fp32 operands (In) and results (Out) that are
	// subnormal are flushed to zero of the same sign. Triton links
	// libdevice with nvvm-reflect-ftz (enable_reflect_ftz, on by default),
	// which selects libdevice's flush-to-zero code for every fp32 function
	// but the bit-level ones; what that code does differs per function and
	// was measured against real Triton (see ftzExceptions).
	FTZIn, FTZOut bool
	// Subnormal is what Triton's flush-to-zero code makes of a subnormal
	// fp32 first operand where that is neither the function of the
	// flushed operand nor of the operand itself.
	Subnormal SubnormalRule
}

// FTZ reports whether any fp32 operand or result is flushed or treated
// specially.
func (o *LibdeviceOverload) FTZ() bool {
	return o.FTZIn || o.FTZOut || o.Subnormal != SubnormalPlain
}

// SubnormalRule is a libdevice overload's treatment of a subnormal fp32
// first operand, measured on real Triton.
type SubnormalRule uint8

const (
	// SubnormalPlain: the operand is flushed where FTZIn says so.
	SubnormalPlain SubnormalRule = iota
	// SubnormalNaN: the result is NaN (cbrtf, rcbrtf).
	SubnormalNaN
	// SubnormalLogb: the result is -150 (logbf).
	SubnormalLogb
	// SubnormalTwice: the result is twice the operand, whatever the
	// exponent (ldexpf, scalbnf).
	SubnormalTwice
	// SubnormalPow: the operand counts as 2^-127 of its sign (powf).
	SubnormalPow
	// SubnormalPositive: positive subnormals are flushed, negative ones
	// kept, so the functions defined for x >= 0 give NaN (y0f, y1f, ynf).
	SubnormalPositive
	// SubnormalNext: nextafterf steps on the flush-to-zero number line:
	// from zero to the smallest normal, from it to zero.
	SubnormalNext
)

// ftzExceptions are the fp32 overloads whose flush-to-zero behaviour under
// Triton is not "flush operands and result": measured on an H100 against
// real Triton 3.6 (the construct kernels conformance/constructs/libdevice_*).
var ftzExceptions = map[string]struct {
	in, out bool
	rule    SubnormalRule
}{
	"__nv_expf":       {in: true},  // exp(-100) is a subnormal result, kept
	"__nv_logf":       {out: true}, // log(1e-40) = -92.1: the operand is not flushed
	"__nv_log2f":      {out: true}, //
	"__nv_log10f":     {out: true}, //
	"__nv_logbf":      {out: true, rule: SubnormalLogb},
	"__nv_cbrtf":      {in: true, out: true, rule: SubnormalNaN},
	"__nv_rcbrtf":     {in: true, out: true, rule: SubnormalNaN},
	"__nv_ldexpf":     {out: true, rule: SubnormalTwice},
	"__nv_scalbnf":    {out: true, rule: SubnormalTwice},
	"__nv_nextafterf": {in: true, rule: SubnormalNext},
	"__nv_rhypotf":    {in: true},                      // 1/hypot(3e38, 1.5) = 3.3e-39 is kept
	"__nv_rnorm3df":   {in: true},                      //
	"__nv_rnorm4df":   {in: true},                      //
	"__nv_powf":       {out: true, rule: SubnormalPow}, // pow(-1, 1e-40) is NaN: the exponent is not flushed
	"__nv_y0f":        {out: true, rule: SubnormalPositive},
	"__nv_y1f":        {out: true, rule: SubnormalPositive},
	"__nv_ynf":        {out: true, rule: SubnormalPositive},
}

// bitLevel are the fp32 overloads that read or write bits and so flush
// nothing: bit casts, classification, copysign.
var bitLevel = map[string]bool{
	"__nv_float_as_int": true, "__nv_float_as_uint": true, "__nv_int_as_float": true, "__nv_uint_as_float": true,
	"__nv_isnanf": true, "__nv_isinff": true, "__nv_signbitf": true, "__nv_finitef": true, "__nv_copysignf": true,
}

// Arity is the number of operands.
func (o *LibdeviceOverload) Arity() int { return len(o.Args) }

// sig builds an overload; the arguments after the symbol are the CUDA
// function and the documented ulps.
func sig(args []Kind, res Kind, sym, cuda string, ulp int64) *LibdeviceOverload {
	return &LibdeviceOverload{Args: args, Result: res, Symbol: sym, CUDA: cuda, ULP: ulp}
}

func ks(k ...Kind) []Kind { return k }

// fd is a float function of n operands with an fp32 form (__nv_<name>f,
// CUDA <name>f) and an fp64 form (__nv_<name>, CUDA <name>).
func fd(name string, n int, ulpF, ulpD int64) LibdeviceFunc {
	f32, f64 := make([]Kind, n), make([]Kind, n)
	for i := range n {
		f32[i], f64[i] = Float32, Float64
	}
	return LibdeviceFunc{Name: name, Overloads: []*LibdeviceOverload{
		sig(f32, Float32, "__nv_"+name+"f", name+"f", ulpF),
		sig(f64, Float64, "__nv_"+name, name, ulpD),
	}}
}

// fn is a function with the given overloads.
func fn(name string, o ...*LibdeviceOverload) LibdeviceFunc {
	return LibdeviceFunc{Name: name, Overloads: o}
}

// rounded is a correctly rounded fp32/fp64 operation of n operands in the
// four rounding modes: libdevice.<op>_rn ... <op>_ru, symbols
// __nv_<f><mode> and __nv_<d><mode>, CUDA __<f><mode> and __<d><mode>.
func rounded(op string, n int, f, d string) []LibdeviceFunc {
	var out []LibdeviceFunc
	for _, m := range []string{"rn", "rz", "rd", "ru"} {
		fs, ds := f+m, d+m
		f32, f64 := make([]Kind, n), make([]Kind, n)
		for i := range n {
			f32[i], f64[i] = Float32, Float64
		}
		out = append(out, fn(op+"_"+m, sig(f32, Float32, "__nv_"+fs, "__"+fs, 0), sig(f64, Float64, "__nv_"+ds, "__"+ds, 0)))
	}
	return out
}

// conv is a conversion in the four rounding modes (or only the given
// ones): libdevice.<name>_<mode>, __nv_<name>_<mode>, CUDA __<name>_<mode>.
func conv(name string, from, to Kind, modes ...string) []LibdeviceFunc {
	if len(modes) == 0 {
		modes = []string{"rn", "rz", "rd", "ru"}
	}
	var out []LibdeviceFunc
	for _, m := range modes {
		s := name + "_" + m
		out = append(out, fn(s, sig(ks(from), to, "__nv_"+s, "__"+s, 0)))
	}
	return out
}

// own is an overload cudagen writes itself (CUDA "").
func own(args []Kind, res Kind, sym string) *LibdeviceOverload {
	return sig(args, res, sym, "", 0)
}

// withDoc sets the documented error of the overloads of f.
func withDoc(f LibdeviceFunc, ulpF int64, absF float64, docF string, ulpD int64, absD float64, docD string) LibdeviceFunc {
	f.Overloads[0].ULP, f.Overloads[0].Abs, f.Overloads[0].Doc = ulpF, absF, docF
	if len(f.Overloads) > 1 {
		f.Overloads[1].ULP, f.Overloads[1].Abs, f.Overloads[1].Doc = ulpD, absD, docD
	}
	return f
}

// fast is an fp32-only fast intrinsic: libdevice.<name>, __nv_<name>,
// CUDA __<base>.
func fast(name, cuda string, n int, ulp int64, abs float64, doc string) LibdeviceFunc {
	args := make([]Kind, n)
	for i := range args {
		args[i] = Float32
	}
	o := sig(args, Float32, "__nv_"+name, cuda, ulp)
	o.Abs, o.Doc = abs, doc
	return fn(name, o)
}

// libdeviceFuncs builds the table, in the order of Triton's libdevice.py.
// Errors are those of the CUDA Math API's appendix (CUDA 12); the check of
// GPU against interpreter allows them.
func libdeviceFuncs() []LibdeviceFunc {
	i32, i64, u32, u64, f32, f64 := Int32, Int64, Uint32, Uint64, Float32, Float64
	funcs := []LibdeviceFunc{
		fn("clz", sig(ks(i32), i32, "__nv_clz", "__clz", 0), sig(ks(i64), i32, "__nv_clzll", "__clzll", 0)),
		fn("popc", sig(ks(i32), i32, "__nv_popc", "__popc", 0), sig(ks(i64), i32, "__nv_popcll", "__popcll", 0)),
		fn("byte_perm", sig(ks(i32, i32, i32), i32, "__nv_byte_perm", "__byte_perm", 0)),
		fn("mulhi", sig(ks(i32, i32), i32, "__nv_mulhi", "__mulhi", 0), sig(ks(u32, u32), u32, "__nv_umulhi", "__umulhi", 0),
			sig(ks(i64, i64), i64, "__nv_mul64hi", "__mul64hi", 0), sig(ks(u64, u64), u64, "__nv_umul64hi", "__umul64hi", 0)),
		fn("mul24", sig(ks(i32, i32), i32, "__nv_mul24", "__mul24", 0), sig(ks(u32, u32), u32, "__nv_umul24", "__umul24", 0)),
		fn("brev", sig(ks(i32), i32, "__nv_brev", "__brev", 0), sig(ks(i64), i64, "__nv_brevll", "__brevll", 0)),
		fn("sad", sig(ks(i32, i32, u32), i32, "__nv_sad", "__sad", 0), sig(ks(u32, u32, u32), u32, "__nv_usad", "__usad", 0)),
		fn("abs", sig(ks(i32), i32, "__nv_abs", "abs", 0), sig(ks(i64), i64, "__nv_llabs", "llabs", 0),
			sig(ks(f32), f32, "__nv_fabsf", "fabsf", 0), sig(ks(f64), f64, "__nv_fabs", "fabs", 0)),
		fd("floor", 1, 0, 0),
		withDoc(fn("rcp64h", own(ks(f64), f64, "__nv_rcp64h")), 0, 0, "", 1<<33, 0, "approximate (rcp.approx.ftz.f64: about 20 bits)"),
		fd("rsqrt", 1, 2, 1),
		fd("ceil", 1, 0, 0),
		fd("trunc", 1, 0, 0),
		fd("exp2", 1, 2, 1),
		fn("saturatef", sig(ks(f32), f32, "__nv_saturatef", "__saturatef", 0)),
	}
	funcs = append(funcs, rounded("fma", 3, "fmaf_", "fma_")...)
	div := fast("fast_dividef", "__fdividef", 2, 2, 0, "2 ulp for |y| in [2^-126, 2^126]")
	div.Overloads[0].Symbol = "__nv_fast_fdividef"
	funcs = append(funcs, div)
	funcs = append(funcs, rounded("div", 2, "fdiv_", "ddiv_")...)
	funcs = append(funcs, rounded("rcp", 1, "frcp_", "drcp_")...)
	funcs = append(funcs, rounded("sqrt", 1, "fsqrt_", "dsqrt_")...)
	funcs = append(funcs, fd("sqrt", 1, 0, 0))
	funcs = append(funcs, rounded("add", 2, "fadd_", "dadd_")...)
	funcs = append(funcs, rounded("mul", 2, "fmul_", "dmul_")...)
	funcs = append(funcs, conv("double2float", f64, f32)...)
	funcs = append(funcs, conv("double2int", f64, i32)...)
	// Triton types the unsigned results of these conversions as int32.
	funcs = append(funcs, conv("double2uint", f64, i32)...)
	funcs = append(funcs, conv("int2double", i32, f64, "rn")...)
	funcs = append(funcs, conv("uint2double", u32, f64, "rn")...)
	funcs = append(funcs, conv("float2int", f32, i32)...)
	funcs = append(funcs, conv("float2uint", f32, i32)...)
	funcs = append(funcs, conv("int2float", i32, f32)...)
	funcs = append(funcs, conv("uint2float", u32, f32)...)
	funcs = append(funcs,
		fn("hiloint2double", sig(ks(i32, i32), f64, "__nv_hiloint2double", "__hiloint2double", 0)),
		fn("double2loint", sig(ks(f64), i32, "__nv_double2loint", "__double2loint", 0)),
		fn("double2hiint", sig(ks(f64), i32, "__nv_double2hiint", "__double2hiint", 0)))
	funcs = append(funcs, conv("float2ll", f32, i64)...)
	funcs = append(funcs, conv("float2ull", f32, i64)...)
	funcs = append(funcs, conv("double2ll", f64, i64)...)
	funcs = append(funcs, conv("double2ull", f64, i64)...)
	funcs = append(funcs, conv("ll2float", i64, f32)...)
	funcs = append(funcs, conv("ull2float", u64, f32)...)
	funcs = append(funcs, conv("ll2double", i64, f64)...)
	funcs = append(funcs, conv("ull2double", u64, f64)...)
	funcs = append(funcs,
		fn("int_as_float", sig(ks(i32), f32, "__nv_int_as_float", "__int_as_float", 0)),
		fn("float_as_int", sig(ks(f32), i32, "__nv_float_as_int", "__float_as_int", 0)),
		fn("uint_as_float", sig(ks(u32), f32, "__nv_uint_as_float", "__uint_as_float", 0)),
		fn("float_as_uint", sig(ks(f32), i32, "__nv_float_as_uint", "__float_as_uint", 0)),
		fn("longlong_as_double", sig(ks(i64), f64, "__nv_longlong_as_double", "__longlong_as_double", 0)),
		fn("double_as_longlong", sig(ks(f64), i64, "__nv_double_as_longlong", "__double_as_longlong", 0)),
		fast("fast_sinf", "__sinf", 1, 2, 0x1p-21, "abs 2^-21.41 in [-pi, pi], larger outside"),
		fast("fast_cosf", "__cosf", 1, 2, 0x1p-21, "abs 2^-21.19 in [-pi, pi], larger outside"),
		fast("fast_log2f", "__log2f", 1, 2, 0x1p-22, "abs 2^-22 in [0.5, 2], else 2 ulp"),
		fast("fast_logf", "__logf", 1, 3, 0x1p-21, "abs 2^-21.41 in [0.5, 2], else 3 ulp"),
		fast("fast_expf", "__expf", 1, 2, 0, "2 + floor(|1.173 x|) ulp (tri reproduces the x*log2(e) rounding; 2 ulp remain)"),
		fast("fast_tanf", "__tanf", 1, 64, 0x1p-20, "__sinf(x) / __cosf(x): relative error about 2^-21 / |sin x cos x|, unbounded near the poles"),
		fast("fast_exp10f", "__exp10f", 1, 2, 0, "2 + floor(|2.97 x|) ulp (tri reproduces the x*log2(10) rounding; 2 ulp remain)"),
		fast("fast_log10f", "__log10f", 1, 3, 0x1p-23, "abs 2^-24 in [0.5, 2], else 3 ulp"),
		fast("fast_powf", "__powf", 2, 16, 0x1p-20, "ex2.approx(y * lg2.approx(x)): the error grows with |y log2 x|; tri reproduces the product's rounding"),
		fn("hadd", sig(ks(i32, i32), i32, "__nv_hadd", "__hadd", 0), sig(ks(u32, u32), u32, "__nv_uhadd", "__uhadd", 0)),
		fn("rhadd", sig(ks(i32, i32), i32, "__nv_rhadd", "__rhadd", 0), sig(ks(u32, u32), u32, "__nv_urhadd", "__urhadd", 0)),
	)
	funcs = append(funcs, rounded("sub", 2, "fsub_", "dsub_")...)
	funcs = append(funcs,
		fn("rsqrt_rn", sig(ks(f32), f32, "__nv_frsqrt_rn", "__frsqrt_rn", 0)),
		fn("ffs", sig(ks(i32), i32, "__nv_ffs", "__ffs", 0), sig(ks(i64), i32, "__nv_ffsll", "__ffsll", 0)),
		fd("rint", 1, 0, 0),
		fn("llrint", sig(ks(f32), i64, "__nv_llrintf", "llrintf", 0), sig(ks(f64), i64, "__nv_llrint", "llrint", 0)),
		fd("nearbyint", 1, 0, 0),
		LibdeviceFunc{Name: "isnan", ToBool: true, Overloads: []*LibdeviceOverload{own(ks(f32), i32, "__nv_isnanf"), own(ks(f64), i32, "__nv_isnand")}},
		fn("signbit", own(ks(f32), i32, "__nv_signbitf"), own(ks(f64), i32, "__nv_signbitd")),
		fd("copysign", 2, 0, 0),
		fn("finitef", own(ks(f32), i32, "__nv_finitef")),
		LibdeviceFunc{Name: "isinf", ToBool: true, Overloads: []*LibdeviceOverload{own(ks(f32), i32, "__nv_isinff"), own(ks(f64), i32, "__nv_isinfd")}},
		fd("nextafter", 2, 0, 0),
		fd("sin", 1, 2, 2), fd("cos", 1, 2, 2), fd("sinpi", 1, 1, 2), fd("cospi", 1, 1, 2), fd("tan", 1, 4, 2),
		fd("log2", 1, 1, 1), fd("exp", 1, 2, 1), fd("exp10", 1, 2, 1),
		fd("cosh", 1, 2, 1), fd("sinh", 1, 3, 2), fd("tanh", 1, 2, 1),
		fd("atan2", 2, 3, 2), fd("atan", 1, 2, 2), fd("asin", 1, 2, 2), fd("acos", 1, 2, 2),
		fd("log", 1, 1, 1), fd("log10", 1, 2, 1), fd("log1p", 1, 1, 1),
		fd("acosh", 1, 4, 3), fd("asinh", 1, 3, 3), fd("atanh", 1, 3, 2), fd("expm1", 1, 1, 1),
		fd("hypot", 2, 3, 2), fd("rhypot", 2, 2, 1), fd("norm3d", 3, 3, 2), fd("rnorm3d", 3, 2, 1),
		fd("norm4d", 4, 3, 2), fd("rnorm4d", 4, 2, 1), fd("cbrt", 1, 1, 1), fd("rcbrt", 1, 1, 1),
		withDoc(fd("j0", 1, 9, 7), 9, 2.2e-6, "9 ulp for |x| < 8, else abs 2.2e-6", 7, 5e-12, "7 ulp for |x| < 8, else abs 5e-12"),
		withDoc(fd("j1", 1, 9, 7), 9, 2.2e-6, "9 ulp for |x| < 8, else abs 2.2e-6", 7, 5e-12, "7 ulp for |x| < 8, else abs 5e-12"),
		withDoc(fd("y0", 1, 9, 7), 9, 2.2e-6, "9 ulp for |x| < 8, else abs 2.2e-6", 7, 5e-12, "7 ulp for |x| < 8, else abs 5e-12"),
		withDoc(fd("y1", 1, 9, 7), 9, 2.2e-6, "9 ulp for |x| < 8, else abs 2.2e-6", 7, 5e-12, "7 ulp for |x| < 8, else abs 5e-12"),
		withDoc(fn("yn", sig(ks(i32, f32), f32, "__nv_ynf", "ynf", 0), sig(ks(i32, f64), f64, "__nv_yn", "yn", 0)),
			322, 2.2e-6, "ceil(2 + 2.5n) ulp for |x| < n, else abs 2.2e-6", 322, 5e-12, "abs 5e-12 for |x| > 1.5n"),
		withDoc(fn("jn", sig(ks(i32, f32), f32, "__nv_jnf", "jnf", 0), sig(ks(i32, f64), f64, "__nv_jn", "jn", 0)),
			0, 2.2e-6, "abs 2.2e-6 for n = 128", 0, 5e-12, "abs 5e-12 for n = 128"),
		fd("cyl_bessel_i0", 1, 6, 6), fd("cyl_bessel_i1", 1, 6, 6),
		fd("erf", 1, 2, 2), fd("erfinv", 1, 2, 5), fd("erfc", 1, 4, 5), fd("erfcx", 1, 4, 4),
		fd("erfcinv", 1, 4, 6), fd("normcdfinv", 1, 5, 8), fd("normcdf", 1, 5, 5),
		withDoc(fd("lgamma", 1, 6, 4), 6, 0, "6 ulp outside [-10.001, -2.264]; larger inside", 4, 0, "4 ulp outside [-11.0001, -2.2637]; larger inside"),
		fn("ldexp", sig(ks(f32, i32), f32, "__nv_ldexpf", "ldexpf", 0), sig(ks(f64, i32), f64, "__nv_ldexp", "ldexp", 0)),
		fn("scalbn", sig(ks(f32, i32), f32, "__nv_scalbnf", "scalbnf", 0), sig(ks(f64, i32), f64, "__nv_scalbn", "scalbn", 0)),
		fd("fmod", 2, 0, 0), fd("remainder", 2, 0, 0), fd("fma", 3, 0, 0),
		// pow with an int32 exponent is libdevice's powi, which CUDA's API
		// does not export: cudagen calls pow with the exponent converted.
		fn("pow", own(ks(f32, i32), f32, "__nv_powif"), own(ks(f64, i32), f64, "__nv_powi"),
			sig(ks(f32, f32), f32, "__nv_powf", "powf", 4), sig(ks(f64, f64), f64, "__nv_pow", "pow", 2)),
		withDoc(fd("tgamma", 1, 5, 10), 5, 0, "", 10, 0, ""),
		fd("round", 1, 0, 0),
		fn("llround", sig(ks(f32), i64, "__nv_llroundf", "llroundf", 0), sig(ks(f64), i64, "__nv_llround", "llround", 0)),
		fd("fdim", 2, 0, 0),
		fn("ilogb", sig(ks(f32), i32, "__nv_ilogbf", "ilogbf", 0), sig(ks(f64), i32, "__nv_ilogb", "ilogb", 0)),
		fd("logb", 1, 0, 0),
		fn("isfinited", own(ks(f64), i32, "__nv_isfinited")),
	)
	// powi follows powf and pow's documented errors.
	for _, f := range funcs {
		if f.Name == "pow" {
			f.Overloads[0].ULP, f.Overloads[1].ULP = 4, 2
		}
	}
	for _, f := range funcs {
		for _, o := range f.Overloads {
			o.Func = f.Name
			setFTZ(o)
		}
	}
	return funcs
}

// setFTZ sets o's flush-to-zero fields: none for fp64 and bit-level
// overloads, the measured exception, else operands and result flushed.
func setFTZ(o *LibdeviceOverload) {
	if bitLevel[o.Symbol] || (o.Result != Float32 && !slices.Contains(o.Args, Float32)) {
		return
	}
	if e, ok := ftzExceptions[o.Symbol]; ok {
		o.FTZIn, o.FTZOut, o.Subnormal = e.in, e.out, e.rule
		return
	}
	o.FTZIn, o.FTZOut = true, true
}

// PreciseDivSymbol is the symbol of tl.div_rn: fp32 division correctly
// rounded, as libdevice's div_rn, but flushing nothing (Triton emits
// div.rn.f32 for it, not a libdevice call; measured: 1e-38 / 3 is a
// subnormal there, 0 through libdevice.div_rn).
const PreciseDivSymbol = "tri_div_rn"

// preciseDiv is tl.div_rn's overload, kept out of the libdevice names.
func preciseDiv() *LibdeviceOverload {
	o := sig(ks(Float32, Float32), Float32, PreciseDivSymbol, "__fdiv_rn", 0)
	o.Func = "div_rn"
	return o
}

// libdeviceTable holds the functions by name and the overloads by symbol;
// built once, never changed.
type libdeviceTable struct {
	funcs   map[string]*LibdeviceFunc
	symbols map[string]*LibdeviceOverload // libdevice's and tl.div_rn's
	names   []string
	// libdevice are the symbols of libdevice's own overloads, sorted.
	libdevice []string
}

var libdevice = newLibdeviceTable()

func newLibdeviceTable() *libdeviceTable {
	l := &libdeviceTable{funcs: map[string]*LibdeviceFunc{}, symbols: map[string]*LibdeviceOverload{}}
	for _, f := range libdeviceFuncs() {
		f := f
		l.funcs[f.Name] = &f
		l.names = append(l.names, f.Name)
		for _, o := range f.Overloads {
			l.symbols[o.Symbol] = o
			l.libdevice = append(l.libdevice, o.Symbol)
		}
	}
	l.symbols[PreciseDivSymbol] = preciseDiv()
	sort.Strings(l.names)
	sort.Strings(l.libdevice)
	return l
}

// LibdeviceFuncNamed looks up a libdevice function by its Triton name.
func LibdeviceFuncNamed(name string) (*LibdeviceFunc, bool) {
	f, ok := libdevice.funcs[name]
	return f, ok
}

// LibdeviceSymbol looks up a libdevice overload by its symbol (or
// PreciseDivSymbol, tl.div_rn's).
func LibdeviceSymbol(symbol string) (*LibdeviceOverload, bool) {
	o, ok := libdevice.symbols[symbol]
	return o, ok
}

// LibdeviceNames lists the libdevice functions' names, sorted.
func LibdeviceNames() []string { return append([]string(nil), libdevice.names...) }

// LibdeviceSymbols lists every libdevice overload's symbol, sorted.
func LibdeviceSymbols() []string { return append([]string(nil), libdevice.libdevice...) }

// checkLibdevice checks an OpLibdevice value against its overload: the
// operands' kinds, one shape for all, and the result's type.
func checkLibdevice(v *Value) error {
	o, ok := LibdeviceSymbol(v.Extern)
	if !ok {
		return fmt.Errorf("unknown libdevice symbol %q", v.Extern)
	}
	if len(v.Args) != len(o.Args) {
		return fmt.Errorf("%s has %d operands, want %d", o.Symbol, len(v.Args), len(o.Args))
	}
	for i, a := range v.Args {
		if a.Type.Kind != o.Args[i] || !a.Type.Shape.Equal(v.Type.Shape) {
			return fmt.Errorf("%s operand %d of type %s giving %s", o.Symbol, i, a.Type, v.Type)
		}
	}
	if v.Type.Kind != o.Result {
		return fmt.Errorf("%s giving %s, want %s", o.Symbol, v.Type, o.Result)
	}
	return nil
}
