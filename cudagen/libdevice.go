package cudagen

// This file implements OpLibdevice: a call of a libdevice function becomes
// a call of a small wrapper, printed among the helpers only in kernels that
// use it. Under NVRTC (and nvcc) the wrapper calls the function of the CUDA
// math API that ir's table names for the overload (asinf for __nv_asinf,
// __fdiv_rz for __nv_fdiv_rz), which NVRTC provides without headers and
// compiles to libdevice's code; the few overloads the API does not export
// are written out here (the classification bits, rcp64h) or call the
// libdevice symbol declared (powi, which NVRTC links from libdevice).
// Under clang without the CUDA headers every wrapper calls the libdevice
// symbol itself, declared, as Triton does. The fp32 wrappers flush
// subnormals as Triton's flush-to-zero libdevice does, per overload
// (ir.LibdeviceOverload's FTZIn, FTZOut and Subnormal).

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
	"__nv_rcp64h":    "tri_rcp_approx_f64(a0)",
}

// declaredOnly are the overloads whose wrapper calls the libdevice symbol,
// declared, under every compiler: NVRTC and nvcc link libdevice, and the
// CUDA math API has no function computing what these compute (powi
// multiplies by repeated squaring; pow(x, (float)n) rounds otherwise).
var declaredOnly = map[string]bool{"__nv_powif": true, "__nv_powi": true}

// libdeviceSupport are definitions the wrappers use, added to the helpers
// where a wrapper's text names them.
var libdeviceSupport = map[string]string{
	"tri_ftz_f32": `// fp32 subnormals flushed to zero of their sign, as libdevice's flush-to-zero code (Triton links it so) does.
TRI_DEV float tri_ftz_f32(float x) { unsigned int u = tri_bits_f32(x); return (u & 0x7f800000u) == 0u ? tri_f32_bits(u & 0x80000000u) : x; }
`,
	"tri_sub_f32": `// whether x is an fp32 subnormal, which libdevice's flush-to-zero code sees as a zero.
TRI_DEV bool tri_sub_f32(float x) { unsigned int u = tri_bits_f32(x) & 0x7fffffffu; return u != 0u && u < 0x00800000u; }
`,
	"tri_ftz_next_f32": `// nextafterf's result r from x on the flush-to-zero number line: from zero the next
// value is the smallest normal of r's sign, and a subnormal step is zero.
TRI_DEV float tri_ftz_next_f32(float x, float r) {
  if (!tri_sub_f32(r)) return r;
  return x == 0.0f ? tri_f32_bits((tri_bits_f32(r) & 0x80000000u) | 0x00800000u) : tri_f32_bits(tri_bits_f32(r) & 0x80000000u);
}
`,
	"tri_rcp_approx_f64": `// rcp.approx.ftz.f64: the reciprocal from the upper 32 bits of the operand (libdevice's rcp64h).
TRI_DEV double tri_rcp_approx_f64(double x) { double r; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
`,
}

// lowersLibdevice reports whether cudagen can call the overload.
func lowersLibdevice(o *ir.LibdeviceOverload) bool {
	return o.CUDA != "" || ownBodies[o.Symbol] != "" || declaredOnly[o.Symbol]
}

// libdeviceSymbolOf is the libdevice function the overload calls under
// clang: tl.div_rn's is libdevice's div_rn, which flushes nothing there.
func libdeviceSymbolOf(o *ir.LibdeviceOverload) string {
	if o.Symbol == ir.PreciseDivSymbol {
		return "__nv_fdiv_rn"
	}
	return o.Symbol
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
	sym := libdeviceSymbolOf(o)
	name := "tri_" + strings.TrimPrefix(strings.TrimPrefix(o.Symbol, "__"), "tri_")
	ret := regType(o.Result)
	params := make([]string, len(o.Args))
	types := make([]string, len(o.Args))
	uses := make([]string, len(o.Args))
	first := -1 // the first fp32 operand, which o.Subnormal is about
	for i, k := range o.Args {
		types[i] = regType(k)
		params[i] = fmt.Sprintf("%s a%d", types[i], i)
		uses[i] = fmt.Sprintf("a%d", i)
		if k != ir.Float32 {
			continue
		}
		if first < 0 {
			first = i
			if u := subnormalOperand(o.Subnormal, i); u != "" {
				uses[i] = u
				continue
			}
		}
		if o.FTZIn {
			uses[i] = fmt.Sprintf("tri_ftz_f32(a%d)", i)
		}
	}
	flushed := func(call string) string {
		if o.FTZOut && o.Result == ir.Float32 {
			call = "tri_ftz_f32(" + call + ")"
		}
		return subnormalResult(o.Subnormal, first, call)
	}
	native := ownBodies[o.Symbol]
	switch {
	case declaredOnly[o.Symbol]:
	case native == "":
		native = fmt.Sprintf("%s(%s)", o.CUDA, strings.Join(uses, ", "))
	default:
		var pairs []string
		for i, u := range uses {
			pairs = append(pairs, fmt.Sprintf("a%d", i), u)
		}
		native = strings.NewReplacer(pairs...).Replace(native)
	}
	format := `#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
extern "C" __device__ %[1]s %[2]s(%[3]s);
TRI_DEV %[1]s %[4]s(%[5]s) { return %[6]s; }
#else
TRI_DEV %[1]s %[4]s(%[5]s) { return %[7]s; }
#endif
`
	if declaredOnly[o.Symbol] {
		format = `extern "C" __device__ %[1]s %[2]s(%[3]s);
TRI_DEV %[1]s %[4]s(%[5]s) { return %[6]s; }
`
	}
	text := fmt.Sprintf(format, ret, sym, strings.Join(types, ", "), name, strings.Join(params, ", "),
		flushed(sym+"("+strings.Join(uses, ", ")+")"), flushed(native))
	// The helpers the wrapper names, and those they name, in order.
	helpers := []string{"tri_sub_f32", "tri_ftz_f32", "tri_ftz_next_f32", "tri_rcp_approx_f64"}
	scan := text
	for _, h := range helpers {
		if strings.Contains(text, h+"(") {
			scan += libdeviceSupport[h]
		}
	}
	for _, h := range helpers {
		if strings.Contains(scan, h+"(") {
			e.helpers.add(h, libdeviceSupport[h])
		}
	}
	e.helpers.add(name, text)
	return name + "(" + strings.Join(args, ", ") + ")"
}

// subnormalOperand is the expression that replaces the fp32 operand a<i>
// under rule r, or "" where the rule does not change the operand.
func subnormalOperand(r ir.SubnormalRule, i int) string {
	switch r {
	case ir.SubnormalPow:
		return fmt.Sprintf("(tri_sub_f32(a%[1]d) ? tri_f32_bits((tri_bits_f32(a%[1]d) & 0x80000000u) | 0x00400000u) : a%[1]d)", i)
	case ir.SubnormalPositive:
		return fmt.Sprintf("(a%[1]d > 0.0f ? tri_ftz_f32(a%[1]d) : a%[1]d)", i)
	}
	return ""
}

// subnormalResult wraps call, the wrapper's result, in what rule r makes
// of a subnormal first fp32 operand a<first>.
func subnormalResult(r ir.SubnormalRule, first int, call string) string {
	switch r {
	case ir.SubnormalNaN:
		return fmt.Sprintf("(tri_sub_f32(a%d) ? tri_f32_bits(0x7fffffffu) : %s)", first, call)
	case ir.SubnormalLogb:
		return fmt.Sprintf("(tri_sub_f32(a%d) ? -150.0f : %s)", first, call)
	case ir.SubnormalTwice:
		return fmt.Sprintf("(tri_sub_f32(a%[1]d) ? a%[1]d * 2.0f : %s)", first, call)
	case ir.SubnormalNext:
		return fmt.Sprintf("tri_ftz_next_f32(tri_ftz_f32(a%d), %s)", first, call)
	}
	return call
}
