package interp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
)

var (
	tiny32 = float64(math.SmallestNonzeroFloat32)
	max32  = float64(math.MaxFloat32)
	negz   = math.Copysign(0, -1)
)

// TestRoundedEdges: IEEE's signed zeros, overflow to the largest finite
// value or infinity by direction, underflow to 0 or the smallest
// subnormal, exact results left alone.
func TestRoundedEdges(t *testing.T) {
	f32, f64 := ir.Float32, ir.Float64
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"add_rn(1, -1) is +0", roundedAdd(f32, modeRN, 1, -1), 0},
		{"add_rd(1, -1) is -0", roundedAdd(f32, modeRD, 1, -1), negz},
		{"add_ru(-0, -0) is -0", roundedAdd(f32, modeRU, negz, negz), negz},
		{"add_rz(+0, -0) is +0", roundedAdd(f64, modeRZ, 0, negz), 0},
		{"mul_rz overflow", roundedMul(f32, modeRZ, max32, 2), max32},
		{"mul_rn overflow", roundedMul(f32, modeRN, max32, 2), math.Inf(1)},
		{"mul_rd overflow, negative", roundedMul(f32, modeRD, -max32, 2), math.Inf(-1)},
		{"mul_ru overflow, negative", roundedMul(f32, modeRU, -max32, 2), -max32},
		{"mul_ru underflow", roundedMul(f32, modeRU, tiny32, 0.5), tiny32},
		{"mul_rn underflow", roundedMul(f32, modeRN, tiny32, 0.5), 0},
		{"mul_rd underflow, negative", roundedMul(f32, modeRD, -tiny32, 0.25), -tiny32},
		{"mul_rz underflow, negative", roundedMul(f32, modeRZ, -tiny32, 0.25), negz},
		{"div_rz(1, 3)", roundedDiv(f32, modeRZ, 1, 3), float64(float32(0.3333333))},
		{"div_ru(1, 3)", roundedDiv(f32, modeRU, 1, 3), float64(math.Nextafter32(float32(0.3333333), 1))},
		{"div_rd(-1, 3)", roundedDiv(f32, modeRD, -1, 3), -float64(math.Nextafter32(float32(0.3333333), 1))},
		{"div_rz exact", roundedDiv(f64, modeRZ, 1, 4), 0.25},
		{"div_ru overflow from finite", roundedDiv(f32, modeRU, max32, 0.5), math.Inf(1)},
		{"div_rz overflow from finite", roundedDiv(f32, modeRZ, max32, 0.5), max32},
		{"div_rz by zero", roundedDiv(f32, modeRZ, 1, 0), math.Inf(1)},
		{"div_ru underflow", roundedDiv(f64, modeRU, math.SmallestNonzeroFloat64, 3), math.SmallestNonzeroFloat64},
		{"sqrt_rd exact square", roundedSqrt(f32, modeRD, 1e10), 1e5},
		// The double nearest sqrt(2) lies above it.
		{"sqrt_ru(2)", roundedSqrt(f64, modeRU, 2), math.Sqrt2},
		{"sqrt_rz(2)", roundedSqrt(f64, modeRZ, 2), math.Nextafter(math.Sqrt2, 0)},
		{"sqrt_rd(-0) is -0", roundedSqrt(f32, modeRD, negz), negz},
		{"rcp_rz(3)", roundedRcp(f64, modeRZ, 3), 1.0 / 3},
		{"rcp_ru(3)", roundedRcp(f64, modeRU, 3), math.Nextafter(1.0/3, 1)},
		// a*b = 2^-24 + 2^-60: the float64 fma rounds 1 + a*b to the fp32
		// midpoint 1 + 2^-24, which would then round to even (1); the
		// exact value lies above it.
		{"fma_rn double rounding", roundedFma(f32, modeRN, 8390656*0x1p-35, 16773121*0x1p-36, 1), 1 + 0x1p-23},
		{"fma32 double rounding", fma32(8390656*0x1p-35, 16773121*0x1p-36, 1), 1 + 0x1p-23},
		{"fma_rd cancelling to -0", roundedFma(f64, modeRD, 2, 3, -6), negz},
		{"fma_rn of -0 product and -0", roundedFma(f64, modeRN, negz, 3, negz), negz},
		{"rsqrt_rn(4)", roundedRsqrt(4), 0.5},
		{"double2float_rz", roundFloatMode(1+0x1p-30, f32, modeRZ), 1},
		{"double2float_ru", roundFloatMode(1+0x1p-30, f32, modeRU), 1 + 0x1p-23},
		{"double2float_rd subnormal", roundFloatMode(-1e-46, f32, modeRD), -tiny32},
		{"int2float_rz(2^24+1)", roundInt(big.NewInt(1<<24+1), f32, modeRZ), 1 << 24},
		{"int2float_ru(2^24+1)", roundInt(big.NewInt(1<<24+1), f32, modeRU), 1<<24 + 2},
	} {
		assert.Equal(t, math.Float64bits(tc.want), math.Float64bits(tc.got), "%s: got %v, want %v", tc.name, tc.got, tc.want)
	}
	// tl.fma on fp32 rounds once too.
	scalar := func(x float64) *tile { s := newTile(f32, nil); s.flts[0] = x; return s }
	got := fma(f32, scalar(8390656*0x1p-35), scalar(16773121*0x1p-36), scalar(1)).flts[0]
	assert.Equal(t, 1+0x1p-23, got, "tl.fma double rounding")
	assert.True(t, math.IsNaN(roundedSqrt(f32, modeRU, -1)))
	assert.True(t, math.IsNaN(roundedAdd(f32, modeRD, math.Inf(1), math.Inf(-1))))
}

// oracle rounds op on fp32 operands with big.Float at 24 bits in mode m;
// only for results in the normal range (big.Float has no subnormals).
func oracle(op string, m big.RoundingMode, a, b, c float64) (float64, bool) {
	z := new(big.Float).SetPrec(24).SetMode(m)
	x, y := new(big.Float).SetFloat64(a), new(big.Float).SetFloat64(b)
	switch op {
	case "add":
		z.Add(x, y)
	case "mul":
		z.Mul(x, y)
	case "div":
		z.Quo(x, y)
	case "fma":
		p := new(big.Float).SetPrec(200).Mul(x, y)
		z.Add(p, new(big.Float).SetFloat64(c))
	}
	f, _ := z.Float64()
	return f, f != 0 && math.Abs(f) >= 0x1p-126 && math.Abs(f) <= max32
}

// TestRoundedSweep compares the four modes of add, mul, div and fma on
// random fp32 operands with big.Float's own directed rounding.
func TestRoundedSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	modes := map[roundMode]big.RoundingMode{modeRN: big.ToNearestEven, modeRZ: big.ToZero, modeRD: big.ToNegativeInf, modeRU: big.ToPositiveInf}
	f := func() float64 {
		return float64(math.Float32frombits(rng.Uint32()&0x807fffff | uint32(rng.IntN(60)+97)<<23))
	}
	funcs := map[string]func(roundMode, float64, float64, float64) float64{
		"add": func(m roundMode, a, b, _ float64) float64 { return roundedAdd(ir.Float32, m, a, b) },
		"mul": func(m roundMode, a, b, _ float64) float64 { return roundedMul(ir.Float32, m, a, b) },
		"div": func(m roundMode, a, b, _ float64) float64 { return roundedDiv(ir.Float32, m, a, b) },
		"fma": func(m roundMode, a, b, c float64) float64 { return roundedFma(ir.Float32, m, a, b, c) },
	}
	checked := 0
	for range 3000 {
		a, b, c := f(), f(), f()
		for op, fn := range funcs {
			for m, bm := range modes {
				want, ok := oracle(op, bm, a, b, c)
				if !ok {
					continue
				}
				checked++
				if got := fn(m, a, b, c); got != want {
					t.Fatalf("%s_%s(%v, %v, %v) = %v, want %v", op, roundModes[m], a, b, c, got, want)
				}
			}
		}
	}
	assert.Greater(t, checked, 30000)
}

func TestLibdeviceSpecial(t *testing.T) {
	near := func(want, got, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }
	// erfcinv in the tail, where Go's Erfcinv(y) = Erfinv(1-y) gives +Inf.
	for _, y := range []float64{1e-20, 1e-100, 1e-300, 0.01} {
		x := erfcinv(y)
		assert.True(t, near(y, math.Erfc(x), 1e-13), "erfc(erfcinv(%g)) = %g", y, math.Erfc(x))
	}
	assert.Equal(t, math.Inf(1), erfcinv(0))
	// erfinv(0.1) rounds to 0.08885599049425769 (erf of it is 0.1 within
	// 1e-18, by a 60-digit series); Go's Erfinv gives ...766, 3 ulp off,
	// the refined one is within erf's own ulp.
	assert.InDelta(t, 0.08885599049425769, erfinv(0.1), 1.5e-17)
	assert.NotEqual(t, math.Erfinv(0.1), erfinv(0.1))
	assert.True(t, math.IsNaN(erfcinv(-1e-40)))
	// erfcx: 1/(x sqrt(pi)) asymptotically; continuous across its branches.
	assert.True(t, near(1/(1e6*math.SqrtPi), erfcx(1e6), 1e-12))
	assert.True(t, near(erfcx(math.Nextafter(25, 0)), erfcx(25), 1e-13))
	assert.True(t, near(math.Exp(1)*math.Erfc(1), erfcx(1), 1e-15))
	// I0 and I1: known values, and the branch at 30 continuous.
	assert.True(t, near(1.2660658777520082, besselI(0, 1), 1e-15))
	assert.True(t, near(0.5651591039924851, besselI(1, 1), 1e-15))
	assert.True(t, near(besselI(0, math.Nextafter(30, 0)), besselI(0, 30), 1e-14))
	assert.True(t, near(-besselI(1, 2), besselI(1, -2), 0))
	assert.Equal(t, math.Inf(1), besselI(0, 800))
	// sinpi, cospi: exact zeros and signs.
	assert.Equal(t, math.Float64bits(negz), math.Float64bits(sinpi(-2)))
	assert.Equal(t, 0.0, cospi(2.5))
	assert.Equal(t, -1.0, cospi(1e15+1))
	assert.Equal(t, 1.0, sinpi(0.5))
	assert.True(t, near(math.Sqrt2/2, sinpi(1e8+0.25), 1e-15))
	// normcdf far in the lower tail, through erfc's relative accuracy.
	assert.True(t, near(math.Erfc(30/math.Sqrt2)/2, normcdf(-30), 1e-13))
	assert.True(t, near(-30, normcdfinv(normcdf(-30)), 1e-13))
	assert.Equal(t, int64(math.MinInt32), ilogb(math.NaN()))
	assert.Equal(t, int64(-149), ilogb(tiny32))
}

// TestLibdeviceInts: the integer functions on the values where their
// definitions bite.
func TestLibdeviceInts(t *testing.T) {
	call := func(sym string, a ...int64) int64 {
		args := make([]libElem, len(a))
		for i, x := range a {
			args[i].i = x
		}
		return libdeviceFuncs[sym](args).i
	}
	assert.Equal(t, int64(0x44332211), call("__nv_byte_perm", 0x44332211, 0x88776655, 0x3210))
	assert.Equal(t, int64(0x11887766), call("__nv_byte_perm", 0x44332211, 0x88776655, 0x0765))
	assert.Equal(t, int64(-1), call("__nv_mulhi", -1, 1))
	assert.Equal(t, int64(-1), call("__nv_mul64hi", -1, 1))
	assert.Equal(t, int64(1<<62-1), call("__nv_mul64hi", math.MaxInt64, math.MaxInt64))
	assert.Equal(t, int64(-2), call("__nv_mul24", 0xffffff, 2), "the low 24 bits are signed")
	assert.Equal(t, int64(0x1fffffe), call("__nv_umul24", 0xffffff, 2))
	assert.Equal(t, int64(0), call("__nv_ffs", 0))
	assert.Equal(t, int64(32), call("__nv_ffs", math.MinInt32))
	assert.Equal(t, int64(64), call("__nv_ffsll", math.MinInt64))
	assert.Equal(t, int64(32), call("__nv_clz", 0))
	assert.Equal(t, int64(math.MinInt32), call("__nv_abs", math.MinInt32))
	assert.Equal(t, int64(-2), call("__nv_hadd", -1, -2), "floor((a+b)/2)")
	assert.Equal(t, int64(0xffffffff), call("__nv_uhadd", 0xffffffff, 0xffffffff), "no overflow")
	assert.Equal(t, int64(10), call("__nv_sad", -3, 7, 0))
}
