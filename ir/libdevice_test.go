package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/ir"
)

// TestEveryLibdeviceOverload: every overload of the libdevice table is
// well formed, interpreted and lowered, so that a function added to the
// table and forgotten elsewhere fails here (OpLibdevice alone passes
// TestEveryOp).
func TestEveryLibdeviceOverload(t *testing.T) {
	names := ir.LibdeviceNames()
	assert.Greater(t, len(names), 150, "Triton's libdevice has about 170 functions")
	seen := map[string]bool{}
	for _, name := range names {
		f, ok := ir.LibdeviceFuncNamed(name)
		if !assert.True(t, ok, name) {
			continue
		}
		assert.NotEmpty(t, f.Overloads, name)
		arity := f.Overloads[0].Arity()
		for _, o := range f.Overloads {
			assert.False(t, seen[o.Symbol], "symbol %s twice", o.Symbol)
			seen[o.Symbol] = true
			assert.Equal(t, name, o.Func)
			assert.Equal(t, arity, o.Arity(), "%s: overloads of one arity", o.Symbol)
			assert.True(t, arity >= 1 && arity <= 4, o.Symbol)
			assert.True(t, o.Result.IsInt() || o.Result.IsFloat(), o.Symbol)
			for _, k := range o.Args {
				assert.True(t, k == ir.Int32 || k == ir.Int64 || k == ir.Uint32 || k == ir.Uint64 || k == ir.Float32 || k == ir.Float64, "%s takes %s", o.Symbol, k)
			}
			got, ok := ir.LibdeviceSymbol(o.Symbol)
			assert.True(t, ok && got == o, o.Symbol)
			assert.True(t, interp.SupportsLibdevice(o.Symbol), "the interpreter lacks %s", o.Symbol)
			assert.True(t, cudagen.LowersLibdevice(o.Symbol), "cudagen lacks %s", o.Symbol)
			assert.GreaterOrEqual(t, o.ULP, int64(0), o.Symbol)
		}
	}
	assert.Equal(t, len(seen), len(ir.LibdeviceSymbols()))
	// Flush to zero: fp32 arithmetic, not bits, not fp64; the measured
	// exceptions keep what the data showed.
	type ftz struct {
		in, out bool
		rule    ir.SubnormalRule
	}
	for sym, want := range map[string]ftz{
		"__nv_sqrtf": {true, true, ir.SubnormalPlain}, "__nv_fdiv_rz": {true, true, ir.SubnormalPlain},
		"__nv_double2float_rn": {true, true, ir.SubnormalPlain}, "__nv_float2int_ru": {true, true, ir.SubnormalPlain},
		"__nv_float_as_int": {}, "__nv_isnanf": {}, "__nv_copysignf": {}, "__nv_sqrt": {}, "__nv_popc": {},
		"__nv_expf": {in: true}, "__nv_logf": {out: true}, "__nv_rhypotf": {in: true},
		"__nv_logbf": {out: true, rule: ir.SubnormalLogb}, "__nv_cbrtf": {true, true, ir.SubnormalNaN},
		"__nv_ldexpf": {out: true, rule: ir.SubnormalTwice}, "__nv_nextafterf": {in: true, rule: ir.SubnormalNext},
		"__nv_powf": {out: true, rule: ir.SubnormalPow}, "__nv_ynf": {out: true, rule: ir.SubnormalPositive},
		ir.PreciseDivSymbol: {},
	} {
		o, ok := ir.LibdeviceSymbol(sym)
		if assert.True(t, ok, sym) {
			assert.Equal(t, want, ftz{o.FTZIn, o.FTZOut, o.Subnormal}, sym)
		}
	}
	assert.NotContains(t, ir.LibdeviceSymbols(), ir.PreciseDivSymbol, "tl.div_rn is not a libdevice function")
	assert.False(t, interp.SupportsLibdevice("__nv_nothing"))
	assert.False(t, cudagen.LowersLibdevice("__nv_nothing"))
}
