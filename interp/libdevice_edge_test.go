package interp

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// libCall evaluates the libdevice overload sym on one element; integer
// operands are given as float64 and converted, fp32 ones rounded.
func libCall(t *testing.T, sym string, args ...float64) float64 {
	t.Helper()
	o, ok := ir.LibdeviceSymbol(sym)
	require.True(t, ok, sym)
	v := &ir.Value{Op: ir.OpLibdevice, Extern: sym, Type: ir.ScalarType(ir.Scalar(o.Result))}
	var tiles []*tile
	for i, k := range o.Args {
		x := newTile(k, nil)
		switch {
		case k == ir.Float32:
			x.flts[0] = float64(float32(args[i]))
		case k.IsFloat():
			x.flts[0] = args[i]
		default:
			x.ints[0] = int64(args[i])
		}
		tiles = append(tiles, x)
	}
	r, err := evalLibdevice(nil, v, tiles)
	require.NoError(t, err)
	if r.flts != nil {
		return r.flts[0]
	}
	return float64(r.ints[0])
}

// ulps is the distance of a and b in float64 units in the last place.
func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	return max(d, -d)
}

// TestLibdeviceTritonEdges: the results real Triton 3.6 (and, for fp64,
// CUDA on the GPU) gave on an H100 (log's -92.10341, powi's 0.90479404,
// sin's -0.023678459894696413 are its printed values) where a plain model of libdevice
// (flush every fp32 operand and result, Go's math) gave something else.
func TestLibdeviceTritonEdges(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		name string
		sym  string
		args []float64
		want float64
		ulp  int64 // allowed distance in float64 ulps (0: bit for bit)
	}{
		{"exp keeps a subnormal result", "__nv_expf", []float64{-100}, float64(float32(math.Exp(-100))), 0},
		{"log of a subnormal is not flushed", "__nv_logf", []float64{1e-40}, float64(float32(-92.10341)), 0},
		{"log10 of a subnormal is not flushed", "__nv_log10f", []float64{1e-40}, float64(float32(-40.000004)), 0},
		{"logb of a subnormal is -150", "__nv_logbf", []float64{1e-40}, -150, 0},
		{"logb of a negative subnormal is -150", "__nv_logbf", []float64{-1e-40}, -150, 0},
		{"logb of a normal", "__nv_logbf", []float64{10}, 3, 0},
		{"cbrt of a subnormal is NaN", "__nv_cbrtf", []float64{1e-40}, nan, 0},
		{"rcbrt of a subnormal is NaN", "__nv_rcbrtf", []float64{-1e-40}, nan, 0},
		{"cbrt of zero", "__nv_cbrtf", []float64{0}, 0, 0},
		{"ldexp of a subnormal doubles it", "__nv_ldexpf", []float64{1e-40, -1}, 2 * float64(float32(1e-40)), 0},
		{"scalbn of a subnormal doubles it", "__nv_scalbnf", []float64{1e-40, 7}, 2 * float64(float32(1e-40)), 0},
		{"ldexp to a subnormal flushes", "__nv_ldexpf", []float64{1, -130}, 0, 0},
		{"nextafter from zero is the smallest normal", "__nv_nextafterf", []float64{0, 2}, 0x1p-126, 0},
		{"nextafter from -0 down", "__nv_nextafterf", []float64{math.Copysign(0, -1), -3}, -0x1p-126, 0},
		{"nextafter(-0, +0) is +0 as C99 says", "__nv_nextafterf", []float64{math.Copysign(0, -1), 0}, 0, 0},
		{"nextafter of a flushed -1e-40 toward +0 is +0", "__nv_nextafterf", []float64{-1e-40, 0}, 0, 0},
		{"nextafter fp64 equal operands give y", "__nv_nextafter", []float64{math.Copysign(0, -1), 0}, 0, 0},
		{"nextafter from the smallest normal to zero", "__nv_nextafterf", []float64{0x1p-126, 0}, 0, 0},
		{"rhypot keeps a subnormal result", "__nv_rhypotf", []float64{3e38, 1.5}, float64(float32(1 / 3e38)), 0},
		{"rnorm3d keeps a subnormal result", "__nv_rnorm3df", []float64{3e38, 1.5, 2}, float64(float32(1 / 3e38)), 0},
		{"pow of a subnormal base reads 2^-127", "__nv_powf", []float64{1e-40, -1}, 0x1p127, 0},
		{"pow overflowing otherwise is inf", "__nv_powf", []float64{10, 1e30}, inf, 0},
		{"powi squares in fp32", "__nv_powif", []float64{float64(float32(0.999)), 100}, float64(float32(0.90479404)), 0},
		{"y0 of a positive subnormal is y0(0)", "__nv_y0f", []float64{1e-40}, math.Inf(-1), 0},
		{"y0 of a negative subnormal is NaN", "__nv_y0f", []float64{-1e-40}, nan, 0},
		{"yn of a negative subnormal is NaN", "__nv_ynf", []float64{2, -1e-40}, nan, 0},
		{"jnf(2, 0) is NaN", "__nv_jnf", []float64{2, 0}, nan, 0},
		{"jnf(2, 1e-30) is NaN", "__nv_jnf", []float64{2, 1e-30}, nan, 0},
		{"jnf(2, 1e-5) is finite", "__nv_jnf", []float64{2, 1e-5}, float64(float32(math.Jn(2, float64(float32(1e-5))))), 0},
		{"lgamma(-inf) is +inf", "__nv_lgammaf", []float64{math.Inf(-1)}, inf, 0},
		{"lgamma(-inf) fp64", "__nv_lgamma", []float64{math.Inf(-1)}, inf, 0},
		{"tl.div_rn keeps a subnormal", ir.PreciseDivSymbol, []float64{1e-38, 3}, float64(float32(1e-38) / 3), 0},
		{"libdevice div_rn flushes it", "__nv_fdiv_rn", []float64{1e-38, 3}, 0, 0},
		// The GPU's CUDA values (within CUDA's 2 ulp), Go's math 11 and 15 ulp off.
		{"sin(3e38)", "__nv_sin", []float64{3e38}, -0.023678459894696413, 1},
		{"tan(3e38)", "__nv_tan", []float64{3e38}, -0.023685100581946568, 2},
		{"cos(-3e38)", "__nv_cos", []float64{-3e38}, math.Sqrt(1 - 0.023678459894696413*0.023678459894696413), 2},
		{"pow(3e38, 1.5)", "__nv_pow", []float64{3e38, 1.5}, 5.196152422706632e+57, 1},
		{"pow exact integer power", "__nv_pow", []float64{3, 3}, 27, 0},
		{"pow(2, 0.5)", "__nv_pow", []float64{2, 0.5}, math.Sqrt2, 1},
	} {
		got := libCall(t, tc.sym, tc.args...)
		if math.IsNaN(tc.want) {
			assert.True(t, math.IsNaN(got), "%s: got %v", tc.name, got)
			continue
		}
		assert.LessOrEqual(t, ulps(got, tc.want), tc.ulp, "%s: got %v, want %v", tc.name, got, tc.want)
		if tc.want == 0 {
			assert.Equal(t, math.Signbit(tc.want), math.Signbit(got), tc.name)
		}
	}
}

// TestPowAccurateSweep: powAccurate stays within 2 ulp of a 300-bit
// reference over sampled bases and quarter exponents (math.Pow does not).
func TestPowAccurateSweep(t *testing.T) {
	for _, x := range []float64{1e-300, 3e-20, 0.7, 1.3, 17, 3e38, 1e200} {
		for _, y := range []float64{0.25, 0.5, 0.75, 1.25, 1.5, 2.75, -0.5, -1.75} {
			want := quarterPow(x, y)
			if want == 0 || math.IsInf(want, 0) {
				continue
			}
			assert.LessOrEqual(t, ulps(powAccurate(x, y), want), int64(2), "pow(%g, %g)", x, y)
		}
	}
}

// quarterPow is x^y for y a multiple of 1/4: x^(4y) then two square roots
// with big floats.
func quarterPow(x, y float64) float64 {
	q := int(math.Abs(y * 4))
	b := new(big.Float).SetPrec(400).SetFloat64(x)
	if y < 0 {
		b.Quo(big.NewFloat(1).SetPrec(400), b)
	}
	r := big.NewFloat(1).SetPrec(400)
	for range q {
		r.Mul(r, b)
	}
	r.Sqrt(r)
	r.Sqrt(r)
	v, _ := r.Float64()
	return v
}
