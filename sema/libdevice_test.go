package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
)

// libdeviceCalls lists the symbols of a kernel's OpLibdevice values and
// the dtypes they produce, in order.
func libdeviceCalls(k *ir.Kernel) (syms []string, types []string) {
	ir.Inspect(k.Body, func(v *ir.Value) {
		if v.Op == ir.OpLibdevice {
			syms = append(syms, v.Extern)
			types = append(types, v.Type.String())
		}
	})
	return syms, types
}

// TestLibdeviceDispatch: Triton's extern_elementwise dispatch: an exact
// dtype match first (pow(fp32, int32) is powi), else promotion of every
// operand to one type; Python numbers as int32 and fp32 tensors; results
// typed by the overload; isnan and isinf converted to int1; every import
// spelling reaching the same table.
func TestLibdeviceDispatch(t *testing.T) {
	for _, tc := range []struct {
		name, expr string
		syms       []string
		types      []string
	}{
		{"asin", "libdevice.asin(x)", []string{"__nv_asinf"}, []string{"fp32[16]"}},
		{"fp64", "libdevice.asin(d)", []string{"__nv_asin"}, []string{"fp64[16]"}},
		{"exp is expf", "libdevice.exp(x)", []string{"__nv_expf"}, []string{"fp32[16]"}},
		{"powi", "libdevice.pow(x, 2)", []string{"__nv_powif"}, []string{"fp32[16]"}},
		{"powi tensor", "libdevice.pow(x, i)", []string{"__nv_powif"}, []string{"fp32[16]"}},
		{"powf", "libdevice.pow(x, 2.0)", []string{"__nv_powf"}, []string{"fp32[16]"}},
		{"promoted", "libdevice.pow(d, x)", []string{"__nv_pow"}, []string{"fp64[16]"}},
		{"int64 exponent promotes", "libdevice.pow(x, l)", []string{"__nv_powf"}, []string{"fp32[16]"}},
		{"scalar", "libdevice.erf(1.0) + x", []string{"__nv_erff"}, []string{"fp32"}},
		{"isnan", "libdevice.isnan(x).to(tl.float32)", []string{"__nv_isnanf"}, []string{"i32[16]"}},
		{"popc int64", "libdevice.popc(l).to(tl.float32)", []string{"__nv_popcll"}, []string{"i32[16]"}},
		{"umulhi", "libdevice.mulhi(i.to(tl.uint32), 7).to(tl.float32)", []string{"__nv_umulhi"}, []string{"u32[16]"}},
		{"ldexp", "libdevice.ldexp(x, i)", []string{"__nv_ldexpf"}, []string{"fp32[16]"}},
		{"float2uint is int32", "libdevice.float2uint_rz(x).to(tl.float32)", []string{"__nv_float2uint_rz"}, []string{"i32[16]"}},
		{"tl.extra.libdevice", "tl.extra.libdevice.tanh(x)", []string{"__nv_tanhf"}, []string{"fp32[16]"}},
		{"tl.extra.cuda.libdevice", "tl.extra.cuda.libdevice.fast_expf(x)", []string{"__nv_fast_expf"}, []string{"fp32[16]"}},
		{"cuda import", "cl.log1p(x)", []string{"__nv_log1pf"}, []string{"fp32[16]"}},
		{"div_rn", "tl.div_rn(x, 3)", []string{"tri_div_rn"}, []string{"fp32[16]"}},
		{"sqrt_rn", "tl.math.sqrt_rn(x)", []string{"__nv_fsqrt_rn"}, []string{"fp32[16]"}},
		{"fdiv is /", "tl.fdiv(x, x, ieee_rounding=True)", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := header + "from triton.language.extra import libdevice\nfrom triton.language.extra.cuda import libdevice as cl\n\n" + `
@triton.jit
def k(x_ptr, d_ptr, i_ptr, l_ptr, o_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r)
    d = tl.load(d_ptr + r)
    i = tl.load(i_ptr + r)
    l = tl.load(l_ptr + r)
    tl.store(o_ptr + r, ` + tc.expr + `)
`
			k := compile(t, src, "k", sig(ptr(ir.Float32), ptr(ir.Float64), ptr(ir.Int32), ptr(ir.Int64), ptr(ir.Float32)))
			syms, types := libdeviceCalls(k)
			assert.Equal(t, tc.syms, syms)
			assert.Equal(t, tc.types, types)
		})
	}
}
