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

// ownBodies are the wrapper bodies of the overloads without a CUDA API
// function, over the parameters a0, a1.
var ownBodies = map[string]string{
	"__nv_isnanf":    "return (tri_bits_f32(a0) & 0x7fffffffu) > 0x7f800000u;",
	"__nv_isnand":    "return (tri_bits_f64(a0) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;",
	"__nv_isinff":    "return (tri_bits_f32(a0) & 0x7fffffffu) == 0x7f800000u;",
	"__nv_isinfd":    "return (tri_bits_f64(a0) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;",
	"__nv_finitef":   "return (tri_bits_f32(a0) & 0x7fffffffu) < 0x7f800000u;",
	"__nv_isfinited": "return (tri_bits_f64(a0) & 0x7fffffffffffffffull) < 0x7ff0000000000000ull;",
	"__nv_signbitf":  "return (int)(tri_bits_f32(a0) >> 31);",
	"__nv_signbitd":  "return (int)(tri_bits_f64(a0) >> 63);",
	"__nv_powif":     "return powf(a0, (float)a1);",
	"__nv_powi":      "return pow(a0, (double)a1);",
	"__nv_rcp64h":    `double r; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(a0)); return r;`,
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
// adding the wrapper to the helpers.
func (e *emitter) libdeviceCall(v *ir.Value, args []string) string {
	o, ok := ir.LibdeviceSymbol(v.Extern)
	if !ok || !lowersLibdevice(o) {
		panic(fmt.Sprintf("libdevice %s has no lowering", v.Extern))
	}
	name := "tri_" + strings.TrimPrefix(o.Symbol, "__")
	ret := regType(o.Result)
	params := make([]string, len(o.Args))
	types := make([]string, len(o.Args))
	names := make([]string, len(o.Args))
	for i, k := range o.Args {
		types[i] = regType(k)
		names[i] = fmt.Sprintf("a%d", i)
		params[i] = types[i] + " " + names[i]
	}
	body := ownBodies[o.Symbol]
	if body == "" {
		body = fmt.Sprintf("return %s(%s);", o.CUDA, strings.Join(names, ", "))
	}
	e.helpers.add(name, fmt.Sprintf(`#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
extern "C" __device__ %[1]s %[2]s(%[3]s);
TRI_DEV %[1]s %[4]s(%[5]s) { return %[2]s(%[6]s); }
#else
TRI_DEV %[1]s %[4]s(%[5]s) { %[7]s }
#endif
`, ret, o.Symbol, strings.Join(types, ", "), name, strings.Join(params, ", "), strings.Join(names, ", "), body))
	return name + "(" + strings.Join(args, ", ") + ")"
}
