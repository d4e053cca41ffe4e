package cudagen

// This file implements OpLibdevice: a call of a libdevice function becomes
// a call of a small wrapper, printed among the helpers only in kernels that
// use it. Under NVRTC (and nvcc) the wrapper calls the function of the CUDA
// math API that ir's table names for the overload (asinf for __nv_asinf,
// __fdiv_rz for __nv_fdiv_rz), which NVRTC provides without headers and
// compiles to libdevice's code; the few overloads the API does not export
// (the classification bits, powi, rcp64h) are written out here. Under
// clang without the CUDA headers the wrapper calls the libdevice symbol
// itself, declared, as Triton does.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// ownBodies are the wrapper expressions of the overloads without a CUDA
// API function, over the parameters a0, a1.
var ownBodies = map[string]string{
	"__nv_isnanf":    "(tri_bits_f32(a0) & 0x7fffffffu) > 0x7f800000u",
	"__nv_isnand":    "(tri_bits_f64(a0) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull",
	"__nv_isinff":    "(tri_bits_f32(a0) & 0x7fffffffu) == 0x7f800000u",
	"__nv_isinfd":    "(tri_bits_f64(a0) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull",
	"__nv_finitef":   "(tri_bits_f32(a0) & 0x7fffffffu) < 0x7f800000u",
	"__nv_isfinited": "(tri_bits_f64(a0) & 0x7fffffffffffffffull) < 0x7ff0000000000000ull",
	"__nv_signbitf":  "(int)(tri_bits_f32(a0) >> 31)",
	"__nv_signbitd":  "(int)(tri_bits_f64(a0) >> 63)",
	"__nv_powif":     "powf(a0, (float)a1)",
	"__nv_powi":      "pow(a0, (double)a1)",
	"__nv_rcp64h":    "tri_rcp_approx_f64(a0)",
}

// libdeviceSupport are definitions the wrappers use, added to the helpers
// where a wrapper's text names them.
var libdeviceSupport = map[string]string{
	"tri_ftz_f32": `// fp32 subnormals flushed to zero of their sign, as libdevice's flush-to-zero code (Triton links it so) does.
TRI_DEV float tri_ftz_f32(float x) { unsigned int u = tri_bits_f32(x); return (u & 0x7f800000u) == 0u ? tri_f32_bits(u & 0x80000000u) : x; }
`,
	"tri_rcp_approx_f64": `// rcp.approx.ftz.f64: the reciprocal from the upper 32 bits of the operand (libdevice's rcp64h).
TRI_DEV double tri_rcp_approx_f64(double x) { double r; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
`,
}

// lowersLibdevice reports whether cudagen can call the overload.
func lowersLibdevice(o *ir.LibdeviceOverload) bool {
	return o.CUDA != "" || ownBodies[o.Symbol] != ""
}

// LowersLibdevice reports whether cudagen lowers the libdevice overload of
// the given symbol.
func LowersLibdevice(symbol string) bool {
	o, ok := ir.LibdeviceSymbol(symbol)
	return ok && lowersLibdevice(o)
}

// libdeviceCall is the call of v's wrapper on the operands args, after
// adding the wrapper to the helpers. The wrapper flushes fp32 subnormal
// operands and results where the overload is FTZ, under both compilers.
func (e *emitter) libdeviceCall(v *ir.Value, args []string) string {
	o, ok := ir.LibdeviceSymbol(v.Extern)
	if !ok || !lowersLibdevice(o) {
		panic(fmt.Sprintf("libdevice %s has no lowering", v.Extern))
	}
	name := "tri_" + strings.TrimPrefix(o.Symbol, "__")
	ret := regType(o.Result)
	params := make([]string, len(o.Args))
	types := make([]string, len(o.Args))
	uses := make([]string, len(o.Args))
	for i, k := range o.Args {
		types[i] = regType(k)
		params[i] = fmt.Sprintf("%s a%d", types[i], i)
		uses[i] = fmt.Sprintf("a%d", i)
		if o.FTZ && k == ir.Float32 {
			uses[i] = fmt.Sprintf("tri_ftz_f32(a%d)", i)
		}
	}
	flushed := func(call string) string {
		if o.FTZ && o.Result == ir.Float32 {
			return "tri_ftz_f32(" + call + ")"
		}
		return call
	}
	native := ownBodies[o.Symbol]
	if native == "" {
		native = fmt.Sprintf("%s(%s)", o.CUDA, strings.Join(uses, ", "))
	} else {
		var pairs []string
		for i, u := range uses {
			pairs = append(pairs, fmt.Sprintf("a%d", i), u)
		}
		native = strings.NewReplacer(pairs...).Replace(native)
	}
	text := fmt.Sprintf(`#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
extern "C" __device__ %[1]s %[2]s(%[3]s);
TRI_DEV %[1]s %[4]s(%[5]s) { return %[6]s; }
#else
TRI_DEV %[1]s %[4]s(%[5]s) { return %[7]s; }
#endif
`, ret, o.Symbol, strings.Join(types, ", "), name, strings.Join(params, ", "),
		flushed(o.Symbol+"("+strings.Join(uses, ", ")+")"), flushed(native))
	for _, h := range []string{"tri_ftz_f32", "tri_rcp_approx_f64"} {
		if strings.Contains(text, h+"(") {
			e.helpers.add(h, libdeviceSupport[h])
		}
	}
	e.helpers.add(name, text)
	return name + "(" + strings.Join(args, ", ") + ")"
}
