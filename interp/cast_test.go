package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

func TestCastToInt(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name     string
		src, dst ir.Kind
		in       ir.Const
		want     int64
	}{
		{"f32 to i32 truncates", ir.Float32, ir.Int32, fc(3.9), 3},
		{"f32 to i32 truncates negative", ir.Float32, ir.Int32, fc(-3.9), -3},
		{"f32 NaN to i32", ir.Float32, ir.Int32, fc(nan), 0},
		{"f32 overflow saturates", ir.Float32, ir.Int32, fc(1e10), math.MaxInt32},
		{"f32 underflow saturates", ir.Float32, ir.Int32, fc(-1e10), math.MinInt32},
		{"f32 inf saturates", ir.Float32, ir.Int32, fc(inf), math.MaxInt32},
		{"f32 to u8 negative", ir.Float32, ir.Uint8, fc(-1), 0},
		{"f32 to u8 overflow", ir.Float32, ir.Uint8, fc(300), 255},
		{"f32 to u8", ir.Float32, ir.Uint8, fc(255.9), 255},
		{"f32 to i8 overflow", ir.Float32, ir.Int8, fc(-200), -128},
		{"f64 to i64 overflow", ir.Float64, ir.Int64, fc(1e19), math.MaxInt64},
		{"f64 to i64 underflow", ir.Float64, ir.Int64, fc(-1e19), math.MinInt64},
		{"f64 to i64 MIN", ir.Float64, ir.Int64, fc(-0x1p63), math.MinInt64},
		{"f32 to u64 overflow", ir.Float32, ir.Uint64, fc(1e20), maxU64},
		{"f32 to u64 high bit", ir.Float32, ir.Uint64, fc(0x1p63), math.MinInt64},
		{"f32 to u32", ir.Float32, ir.Uint32, fc(4e9), 4000000000},
		{"f16 to i16", ir.Float16, ir.Int16, fc(-2.5), -2},
		{"f32 NaN to bool", ir.Float32, ir.Bool, fc(nan), 1},
		{"f32 zero to bool", ir.Float32, ir.Bool, fc(0), 0},
		{"f32 -0 to bool", ir.Float32, ir.Bool, fc(math.Copysign(0, -1)), 0},
		{"f32 half to bool", ir.Float32, ir.Bool, fc(0.5), 1},
		{"i32 to i8 wraps", ir.Int32, ir.Int8, ic(300), 44},
		{"i32 to i8 wraps negative", ir.Int32, ir.Int8, ic(-129), 127},
		{"u8 to i8", ir.Uint8, ir.Int8, ic(200), -56},
		{"i8 to u32", ir.Int8, ir.Uint32, ic(-1), 4294967295},
		{"i8 to i64 sign-extends", ir.Int8, ir.Int64, ic(-1), -1},
		{"u32 to i64 zero-extends", ir.Uint32, ir.Int64, ic(4294967295), 4294967295},
		{"i32 to bool", ir.Int32, ir.Bool, ic(2), 1},
		{"i32 zero to bool", ir.Int32, ir.Bool, ic(0), 0},
		{"bool to i32", ir.Bool, ir.Int32, ic(1), 1},
		{"i64 to ptr", ir.Int64, ir.Ptr, ic(1 << 40), 1 << 40},
		{"ptr to i64", ir.Ptr, ir.Int64, ic(1<<41 + 8), 1<<41 + 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalOp(ir.OpCast, tc.dst, tc.src, 0, tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.ints[0])
		})
	}
}

func TestCastToFloat(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name     string
		src, dst ir.Kind
		tz       bool
		in       ir.Const
		want     float64
	}{
		{"i32 to f16 rounds down", ir.Int32, ir.Float16, false, ic(65519), 65504},
		{"i32 to f16 overflows", ir.Int32, ir.Float16, false, ic(65520), inf},
		{"i32 to f16 ties to even", ir.Int32, ir.Float16, false, ic(2049), 2048},
		{"i32 to f16 ties up to even", ir.Int32, ir.Float16, false, ic(2051), 2052},
		{"i32 to f32", ir.Int32, ir.Float32, false, ic(16777217), 16777216},
		{"i64 to f32 large", ir.Int64, ir.Float32, false, ic(1<<53 + 1), 0x1p53},
		{"i64 to bf16 without double rounding", ir.Int64, ir.BFloat16, false, ic(1<<60 + 1<<52 + 1), 0x1p60 + 0x1p53},
		{"i64 to f16 huge", ir.Int64, ir.Float16, false, ic(math.MaxInt64), inf},
		{"i64 to f64 MIN", ir.Int64, ir.Float64, false, ic(math.MinInt64), -0x1p63},
		{"u64 to f32", ir.Uint64, ir.Float32, false, ic(maxU64), 0x1p64},
		{"u64 to f64", ir.Uint64, ir.Float64, false, ic(math.MinInt64), 0x1p63},
		{"u64 to bf16", ir.Uint64, ir.BFloat16, false, ic(maxU64), 0x1p64},
		{"u8 to f32", ir.Uint8, ir.Float32, false, ic(255), 255},
		{"i8 to f16", ir.Int8, ir.Float16, false, ic(-128), -128},
		{"bool to f32", ir.Bool, ir.Float32, false, ic(1), 1},
		{"f32 to f16 rounds to nearest", ir.Float32, ir.Float16, false, fc(1 + 0x1p-11 + 0x1p-20), 1 + 0x1p-10},
		{"f32 to f16 toward zero", ir.Float32, ir.Float16, true, fc(1 + 0x1p-11 + 0x1p-20), 1},
		{"f32 to f16 overflow", ir.Float32, ir.Float16, false, fc(65535), inf},
		{"f32 to f16 overflow toward zero", ir.Float32, ir.Float16, true, fc(65535), 65504},
		{"f32 to f16 inf toward zero", ir.Float32, ir.Float16, true, fc(inf), inf},
		{"f32 to f16 NaN", ir.Float32, ir.Float16, false, fc(nan), nan},
		{"f32 to f16 subnormal", ir.Float32, ir.Float16, false, fc(0x1p-24 * 1.5), 0x1p-23},
		{"f32 to f16 negative toward zero", ir.Float32, ir.Float16, true, fc(-(1 + 0x1p-11 + 0x1p-20)), -1},
		{"f32 to bf16 ties to even", ir.Float32, ir.BFloat16, false, fc(1 + 0x1p-8), 1},
		{"f32 to bf16 toward zero", ir.Float32, ir.BFloat16, true, fc(1 + 0x1p-7 - 0x1p-20), 1},
		{"f64 to f32", ir.Float64, ir.Float32, false, fc(0.1), float64(float32(0.1))},
		{"f64 to f32 toward zero", ir.Float64, ir.Float32, true, fc(1e40), math.MaxFloat32},
		{"f64 to f32 overflow", ir.Float64, ir.Float32, false, fc(1e40), inf},
		{"f64 to f16 directly", ir.Float64, ir.Float16, false, fc(1 + 0x1p-11 + 0x1p-40), 1 + 0x1p-10},
		{"f16 to f32 exact", ir.Float16, ir.Float32, false, fc(65504), 65504},
		{"bf16 to f64 exact", ir.BFloat16, ir.Float64, false, fc(0x1p100), 0x1p100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var flags ir.Flags
			if tc.tz {
				flags = ir.FlagRoundTZ
			}
			got, err := evalOp(ir.OpCast, tc.dst, tc.src, flags, tc.in)
			require.NoError(t, err)
			assertSameFloat(t, tc.want, got.flts[0])
		})
	}
}

func TestBitcast(t *testing.T) {
	tests := []struct {
		name     string
		src, dst ir.Kind
		in       ir.Const
		wantInt  int64
		wantFlt  float64
	}{
		{"f32 to i32", ir.Float32, ir.Int32, fc(1), 0x3f800000, 0},
		{"f32 -0 to u32", ir.Float32, ir.Uint32, fc(math.Copysign(0, -1)), 0x80000000, 0},
		{"f32 -2 to i32", ir.Float32, ir.Int32, fc(-2), -0x40000000, 0},
		{"f16 to i16", ir.Float16, ir.Int16, fc(1), 0x3c00, 0},
		{"bf16 to u16", ir.BFloat16, ir.Uint16, fc(-1), 0xbf80, 0},
		{"f64 to i64", ir.Float64, ir.Int64, fc(1), 0x3ff0000000000000, 0},
		{"u32 to i32", ir.Uint32, ir.Int32, ic(4294967295), -1, 0},
		{"i32 to f32", ir.Int32, ir.Float32, ic(0x40490fdb), 0, float64(float32(math.Pi))},
		{"i16 to f16", ir.Int16, ir.Float16, ic(-0x3c00), 0, -4},
		{"u16 to bf16", ir.Uint16, ir.BFloat16, ic(0x4049), 0, 3.140625},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalOp(ir.OpBitcast, tc.dst, tc.src, 0, tc.in)
			require.NoError(t, err)
			if tc.dst.IsFloat() {
				assertSameFloat(t, tc.wantFlt, got.flts[0])
			} else {
				assert.Equal(t, tc.wantInt, got.ints[0])
			}
		})
	}
}

// TestRoundingMatchesReferences checks the rounding of fp16, bf16 and fp32
// against x448/float16, tensor.BF16Bits and Go's float32 conversion on
// random bit patterns.
func TestRoundingMatchesReferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for range 100000 {
		f := math.Float32frombits(r.Uint32())
		if f != f {
			continue
		}
		if want := float64(float16.Fromfloat32(f).Float32()); !same(want, roundFloat(ir.Float16, float64(f), false)) {
			t.Fatalf("fp16 of %g: want %g, got %g", f, want, roundFloat(ir.Float16, float64(f), false))
		}
		if want := float64(tensor.BF16Float(tensor.BF16Bits(f))); !same(want, roundFloat(ir.BFloat16, float64(f), false)) {
			t.Fatalf("bf16 of %g: want %g, got %g", f, want, roundFloat(ir.BFloat16, float64(f), false))
		}
		d := math.Float64frombits(r.Uint64())
		if d != d {
			continue
		}
		if want := float64(float32(d)); !same(want, fp32Format.round(d, false)) {
			t.Fatalf("fp32 of %g: want %g, got %g", d, want, fp32Format.round(d, false))
		}
	}
}
