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

// ownBody is a wrapper's expression, over the parameters a0, a1, and the
// definitions it names.
type ownBody struct {
	expr string
	uses []string
}

// ownBodies are the wrapper expressions of the overloads without a CUDA
// API function.
var ownBodies = map[string]ownBody{
	"__nv_isnanf":    {"(tri_bits_f32(a0) & 0x7fffffffu) > 0x7f800000u", []string{"tri_bits_f32"}},
	"__nv_isnand":    {"(tri_bits_f64(a0) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull", []string{"tri_bits_f64"}},
	"__nv_isinff":    {"(tri_bits_f32(a0) & 0x7fffffffu) == 0x7f800000u", []string{"tri_bits_f32"}},
	"__nv_isinfd":    {"(tri_bits_f64(a0) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull", []string{"tri_bits_f64"}},
	"__nv_finitef":   {"(tri_bits_f32(a0) & 0x7fffffffu) < 0x7f800000u", []string{"tri_bits_f32"}},
	"__nv_isfinited": {"(tri_bits_f64(a0) & 0x7fffffffffffffffull) < 0x7ff0000000000000ull", []string{"tri_bits_f64"}},
	"__nv_signbitf":  {"(int)(tri_bits_f32(a0) >> 31)", []string{"tri_bits_f32"}},
	"__nv_signbitd":  {"(int)(tri_bits_f64(a0) >> 63)", []string{"tri_bits_f64"}},
	"__nv_rcp64h":    {"tri_rcp_approx_f64(a0)", []string{"tri_rcp_approx_f64"}},
}

// declaredOnly are the overloads whose wrapper calls the libdevice symbol,
// declared, under every compiler: NVRTC and nvcc link libdevice, and the
// CUDA math API has no function computing what these compute (powi
// multiplies by repeated squaring; pow(x, (float)n) rounds otherwise).
var declaredOnly = map[string]bool{"__nv_powif": true, "__nv_powi": true}

// libdeviceSupport are definitions the wrappers use, each added to the
// helpers, in this order, where a wrapper names it (or names one that
// does).
var libdeviceSupport = []cgroup{
	cgroup{`// whether x is an fp32 subnormal, which libdevice's flush-to-zero code sees as a zero.`, []cdef{
		{"tri_sub_f32", []string{"tri_bits_f32"}, `TRI_DEV bool tri_sub_f32(float x) { unsigned int u = tri_bits_f32(x) & 0x7fffffffu; return u != 0u && u < 0x00800000u; }`},
	}},
	cgroup{`// fp32 subnormals flushed to zero of their sign, as libdevice's flush-to-zero code (Triton links it so) does.`, []cdef{
		{"tri_ftz_f32", []string{"tri_bits_f32", "tri_f32_bits"}, `TRI_DEV float tri_ftz_f32(float x) { unsigned int u = tri_bits_f32(x); return (u & 0x7f800000u) == 0u ? tri_f32_bits(u & 0x80000000u) : x; }`},
	}},
	cgroup{`// nextafterf's result r from x on the flush-to-zero number line: from zero the next
// value is the smallest normal of r's sign, and a subnormal step is zero.`, []cdef{
		{"tri_ftz_next_f32", []string{"tri_bits_f32", "tri_f32_bits", "tri_sub_f32"}, `TRI_DEV float tri_ftz_next_f32(float x, float r) {
  if (!tri_sub_f32(r)) return r;
  return x == 0.0f ? tri_f32_bits((tri_bits_f32(r) & 0x80000000u) | 0x00800000u) : tri_f32_bits(tri_bits_f32(r) & 0x80000000u);
}`},
	}},
	cgroup{`// rcp.approx.ftz.f64: the reciprocal from the upper 32 bits of the operand (libdevice's rcp64h).`, []cdef{
		{"tri_rcp_approx_f64", nil, `TRI_DEV double tri_rcp_approx_f64(double x) { double r; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }`},
	}},
}

// lowersLibdevice reports whether cudagen can call the overload.
func lowersLibdevice(o *ir.LibdeviceOverload) bool {
	return o.CUDA != "" || ownBodies[o.Symbol].expr != "" || declaredOnly[o.Symbol]
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
	deps := nameSet{}
	ret := deps.regType(o.Result)
	params := make([]string, len(o.Args))
	types := make([]string, len(o.Args))
	uses := make([]string, len(o.Args))
	first := -1 // the first fp32 operand, which o.Subnormal is about
	for i, k := range o.Args {
		types[i] = deps.regType(k)
		params[i] = fmt.Sprintf("%s a%d", types[i], i)
		uses[i] = fmt.Sprintf("a%d", i)
		if k != ir.Float32 {
			continue
		}
		if first < 0 {
			first = i
			if u := deps.subnormalOperand(o.Subnormal, i); u != "" {
				uses[i] = u
				continue
			}
		}
		if o.FTZIn {
			deps.use("tri_ftz_f32")
			uses[i] = fmt.Sprintf("tri_ftz_f32(a%d)", i)
		}
	}
	flushed := func(call string) string {
		if o.FTZOut && o.Result == ir.Float32 {
			deps.use("tri_ftz_f32")
			call = "tri_ftz_f32(" + call + ")"
		}
		return deps.subnormalResult(o.Subnormal, first, call)
	}
	own := ownBodies[o.Symbol]
	native := own.expr
	switch {
	case declaredOnly[o.Symbol]:
	case native == "":
		native = fmt.Sprintf("%s(%s)", o.CUDA, strings.Join(uses, ", "))
	default:
		deps.use(own.uses...)
		var pairs []string
		for i, u := range uses {
			pairs = append(pairs, fmt.Sprintf("a%d", i), u)
		}
		native = strings.NewReplacer(pairs...).Replace(native)
	}
	decl := fmt.Sprintf(`extern "C" __device__ %s %s(%s);`, ret, sym, strings.Join(types, ", "))
	def := func(body string) string {
		head := fmt.Sprintf("TRI_DEV %s %s(%s) {", ret, name, strings.Join(params, ", "))
		if one := fmt.Sprintf("%s return %s; }", head, body); len(one) <= lineWidth {
			return one
		}
		return fmt.Sprintf("%s\n  return %s;\n}", head, body)
	}
	// Under clang the wrapper calls the symbol, declared; under NVRTC and
	// nvcc the CUDA API's function (or the expression above).
	g := cgroup{clangOnly + "\n" + decl, []cdef{{name, nil,
		def(flushed(sym+"("+strings.Join(uses, ", ")+")")) + "\n#else\n" + def(flushed(native)) + "\n#endif"}}}
	if declaredOnly[o.Symbol] {
		g = cgroup{decl, []cdef{{name, nil, def(flushed(sym + "(" + strings.Join(uses, ", ") + ")"))}}}
	}
	g.defs[0].deps = deps.sorted()
	// The definitions the wrapper names, and those they name, in order.
	need := closure(deps, libdeviceSupport)
	for _, s := range libdeviceSupport {
		if need[s.defs[0].name] {
			e.helpers.add(s.defs[0].name, s)
		}
	}
	e.helpers.add(name, g)
	e.use(name)
	return name + "(" + strings.Join(args, ", ") + ")"
}

// subnormalOperand is the expression that replaces the fp32 operand a<i>
// under rule r, or "" where the rule does not change the operand.
func (s nameSet) subnormalOperand(r ir.SubnormalRule, i int) string {
	switch r {
	case ir.SubnormalPow:
		s.use("tri_sub_f32", "tri_f32_bits", "tri_bits_f32")
		return fmt.Sprintf("(tri_sub_f32(a%[1]d) ? tri_f32_bits((tri_bits_f32(a%[1]d) & 0x80000000u) | 0x00400000u) : a%[1]d)", i)
	case ir.SubnormalPositive:
		s.use("tri_ftz_f32")
		return fmt.Sprintf("(a%[1]d > 0.0f ? tri_ftz_f32(a%[1]d) : a%[1]d)", i)
	}
	return ""
}

// subnormalResult wraps call, the wrapper's result, in what rule r makes
// of a subnormal first fp32 operand a<first>.
func (s nameSet) subnormalResult(r ir.SubnormalRule, first int, call string) string {
	switch r {
	case ir.SubnormalNaN:
		s.use("tri_sub_f32", "tri_f32_bits")
		return fmt.Sprintf("(tri_sub_f32(a%d) ? tri_f32_bits(0x7fffffffu) : %s)", first, call)
	case ir.SubnormalLogb:
		s.use("tri_sub_f32")
		return fmt.Sprintf("(tri_sub_f32(a%d) ? -150.0f : %s)", first, call)
	case ir.SubnormalTwice:
		s.use("tri_sub_f32")
		return fmt.Sprintf("(tri_sub_f32(a%[1]d) ? a%[1]d * 2.0f : %s)", first, call)
	case ir.SubnormalNext:
		s.use("tri_ftz_next_f32", "tri_ftz_f32")
		return fmt.Sprintf("tri_ftz_next_f32(tri_ftz_f32(a%d), %s)", first, call)
	}
	return call
}
