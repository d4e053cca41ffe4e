package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// evalOp evaluates one op of result kind res over scalar constants of kind
// argk, through the interpreter's dispatch.
func evalOp(op ir.Op, res, argk ir.Kind, flags ir.Flags, args ...ir.Const) (*tile, error) {
	m := &machine{k: &ir.Kernel{Name: "t", File: "k.tri", NumValues: len(args) + 1}, grid: [3]int{1, 1, 1}, mem: &memory{}}
	p := m.newProgram()
	v := &ir.Value{ID: len(args), Op: op, Type: ir.ScalarType(ir.Scalar(res)), Flags: flags}
	for i, c := range args {
		v.Args = append(v.Args, &ir.Value{ID: i, Op: ir.OpConst, Type: ir.ScalarType(ir.Scalar(argk)), Const: c})
		p.vals[i] = constTile(argk, c)
	}
	return p.eval(v)
}

func ic(x int64) ir.Const   { return ir.IntConst(x) }
func fc(x float64) ir.Const { return ir.FloatConst(x) }

const (
	minI32 = math.MinInt32
	maxU64 = -1 // the bit pattern of math.MaxUint64 in canonical form
)

func TestIntOps(t *testing.T) {
	tests := []struct {
		name string
		op   ir.Op
		k    ir.Kind
		args []int64
		want int64
	}{
		{"i8 add wraps", ir.OpAdd, ir.Int8, []int64{127, 1}, -128},
		{"u8 add wraps", ir.OpAdd, ir.Uint8, []int64{255, 1}, 0},
		{"i16 sub wraps", ir.OpSub, ir.Int16, []int64{-32768, 1}, 32767},
		{"u32 sub wraps", ir.OpSub, ir.Uint32, []int64{0, 1}, 4294967295},
		{"i32 mul wraps", ir.OpMul, ir.Int32, []int64{65536, 65536}, 0},
		{"i64 add wraps", ir.OpAdd, ir.Int64, []int64{math.MaxInt64, 1}, math.MinInt64},
		{"u64 mul wraps", ir.OpMul, ir.Uint64, []int64{maxU64, 2}, -2},
		{"bool add is xor", ir.OpAdd, ir.Bool, []int64{1, 1}, 0},
		{"i32 div truncates", ir.OpDiv, ir.Int32, []int64{-7, 2}, -3},
		{"i32 div negative divisor", ir.OpDiv, ir.Int32, []int64{7, -2}, -3},
		{"i32 rem sign of dividend", ir.OpRem, ir.Int32, []int64{-7, 2}, -1},
		{"i32 rem positive dividend", ir.OpRem, ir.Int32, []int64{7, -2}, 1},
		{"i32 MIN / -1 wraps", ir.OpDiv, ir.Int32, []int64{minI32, -1}, minI32},
		{"i8 MIN / -1 wraps", ir.OpDiv, ir.Int8, []int64{-128, -1}, -128},
		{"i64 MIN / -1 wraps", ir.OpDiv, ir.Int64, []int64{math.MinInt64, -1}, math.MinInt64},
		{"u32 div", ir.OpDiv, ir.Uint32, []int64{4294967295, 2}, 2147483647},
		{"u64 div unsigned", ir.OpDiv, ir.Uint64, []int64{maxU64, 2}, math.MaxInt64},
		{"u64 rem unsigned", ir.OpRem, ir.Uint64, []int64{maxU64, 10}, 5},
		{"i8 neg MIN", ir.OpNeg, ir.Int8, []int64{-128}, -128},
		{"u8 neg", ir.OpNeg, ir.Uint8, []int64{1}, 255},
		{"i32 abs", ir.OpAbs, ir.Int32, []int64{-5}, 5},
		{"i32 abs MIN", ir.OpAbs, ir.Int32, []int64{minI32}, minI32},
		{"i32 max", ir.OpMax, ir.Int32, []int64{-1, 1}, 1},
		{"i32 min", ir.OpMin, ir.Int32, []int64{-1, 1}, -1},
		{"u64 max unsigned", ir.OpMax, ir.Uint64, []int64{maxU64, 1}, maxU64},
		{"u64 min unsigned", ir.OpMin, ir.Uint64, []int64{maxU64, 1}, 1},
		{"u32 max", ir.OpMax, ir.Uint32, []int64{4294967295, 1}, 4294967295},
		{"i8 and", ir.OpAnd, ir.Int8, []int64{-1, 0x5a}, 0x5a},
		{"u16 or", ir.OpOr, ir.Uint16, []int64{0xf000, 0x000f}, 0xf00f},
		{"i32 xor", ir.OpXor, ir.Int32, []int64{-1, 1}, -2},
		{"i8 not", ir.OpNot, ir.Int8, []int64{0}, -1},
		{"u8 not", ir.OpNot, ir.Uint8, []int64{0}, 255},
		{"bool not", ir.OpNot, ir.Bool, []int64{1}, 0},
		{"i32 shl into sign", ir.OpShl, ir.Int32, []int64{1, 31}, minI32},
		{"i32 shl by width", ir.OpShl, ir.Int32, []int64{1, 32}, 0},
		{"i32 shl by negative", ir.OpShl, ir.Int32, []int64{1, -1}, 0},
		{"u8 shl drops bits", ir.OpShl, ir.Uint8, []int64{0xff, 4}, 0xf0},
		{"i64 shl 63", ir.OpShl, ir.Int64, []int64{1, 63}, math.MinInt64},
		{"i32 ashr", ir.OpShr, ir.Int32, []int64{-8, 1}, -4},
		{"i32 ashr by width fills sign", ir.OpShr, ir.Int32, []int64{-8, 40}, -1},
		{"i32 ashr positive by width", ir.OpShr, ir.Int32, []int64{8, 40}, 0},
		{"i8 ashr", ir.OpShr, ir.Int8, []int64{-128, 7}, -1},
		{"u32 lshr", ir.OpShr, ir.Uint32, []int64{0x80000000, 31}, 1},
		{"u32 lshr by width", ir.OpShr, ir.Uint32, []int64{0x80000000, 32}, 0},
		{"u64 lshr", ir.OpShr, ir.Uint64, []int64{math.MinInt64, 63}, 1},
		{"u64 lshr huge amount", ir.OpShr, ir.Uint64, []int64{maxU64, maxU64}, 0},
		{"u8 lshr", ir.OpShr, ir.Uint8, []int64{0x80, 7}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := make([]ir.Const, len(tc.args))
			for i, a := range tc.args {
				args[i] = ic(a)
			}
			got, err := evalOp(tc.op, tc.k, tc.k, 0, args...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.ints[0])
		})
	}
}

// TestIntDivisionByZero: the lane is undefined, not an error (see
// TestUndefinedLanes for where using it is one).
func TestIntDivisionByZero(t *testing.T) {
	for _, op := range []ir.Op{ir.OpDiv, ir.OpRem} {
		for _, k := range []ir.Kind{ir.Int8, ir.Int32, ir.Uint32, ir.Int64, ir.Uint64} {
			got, err := evalOp(op, k, k, 0, ic(7), ic(0))
			require.NoError(t, err, "%s %s", op, k)
			require.NotNil(t, got.undef, "%s %s", op, k)
			assert.True(t, got.undef.at(0))
			assert.Contains(t, got.undef.cause.what, "integer division by zero")
			got, err = evalOp(op, k, k, 0, ic(7), ic(2))
			require.NoError(t, err)
			assert.Nil(t, got.undef, "%s %s", op, k)
		}
	}
}

func TestCompare(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		op   ir.Op
		k    ir.Kind
		a, b ir.Const
		want bool
	}{
		{"i32 lt", ir.OpLt, ir.Int32, ic(-1), ic(1), true},
		{"u32 gt", ir.OpGt, ir.Uint32, ic(4294967295), ic(1), true},
		{"u64 gt unsigned", ir.OpGt, ir.Uint64, ic(maxU64), ic(1), true},
		{"u64 le", ir.OpLe, ir.Uint64, ic(maxU64), ic(1), false},
		{"i64 ge", ir.OpGe, ir.Int64, ic(5), ic(5), true},
		{"i8 eq after wrap", ir.OpEq, ir.Int8, ic(255), ic(-1), true},
		{"f32 ne NaN", ir.OpNe, ir.Float32, fc(nan), fc(nan), true},
		{"f32 eq NaN", ir.OpEq, ir.Float32, fc(nan), fc(nan), false},
		{"f32 lt NaN", ir.OpLt, ir.Float32, fc(nan), fc(1), false},
		{"f32 ge NaN", ir.OpGe, ir.Float32, fc(1), fc(nan), false},
		{"f16 eq zeros", ir.OpEq, ir.Float16, fc(0), fc(math.Copysign(0, -1)), true},
		{"bf16 lt", ir.OpLt, ir.BFloat16, fc(1), fc(2), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalOp(tc.op, ir.Bool, tc.k, 0, tc.a, tc.b)
			require.NoError(t, err)
			assert.Equal(t, b2i(tc.want), got.ints[0])
		})
	}
}

func TestFloatOps(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	e16 := math.Ldexp(1, -11)
	e8 := math.Ldexp(1, -8)
	sq := 1 + math.Ldexp(1, -12)
	tests := []struct {
		name  string
		op    ir.Op
		k     ir.Kind
		flags ir.Flags
		args  []float64
		want  float64
	}{
		{"f16 add ties to even", ir.OpAdd, ir.Float16, 0, []float64{1, e16}, 1},
		{"f16 add ties up to even", ir.OpAdd, ir.Float16, 0, []float64{1, 3 * e16}, 1 + 4*e16},
		{"f16 add overflows", ir.OpAdd, ir.Float16, 0, []float64{65504, 16}, math.Inf(1)},
		{"f16 add below overflow", ir.OpAdd, ir.Float16, 0, []float64{65504, 15}, 65504},
		{"f16 mul subnormal", ir.OpMul, ir.Float16, 0, []float64{math.Ldexp(1, -14), 0.5}, math.Ldexp(1, -15)},
		{"f16 mul underflows", ir.OpMul, ir.Float16, 0, []float64{math.Ldexp(1, -24), 0.25}, 0},
		{"f16 div", ir.OpDiv, ir.Float16, 0, []float64{1, 3}, 0.333251953125},
		{"bf16 add ties to even", ir.OpAdd, ir.BFloat16, 0, []float64{1, e8}, 1},
		{"bf16 add rounds up", ir.OpAdd, ir.BFloat16, 0, []float64{1, 3 * e8}, 1 + 4*e8},
		{"f32 add rounds", ir.OpAdd, ir.Float32, 0, []float64{16777216, 1}, 16777216},
		{"f32 div", ir.OpDiv, ir.Float32, 0, []float64{1, 3}, float64(float32(1.0 / 3))},
		{"f32 div by zero", ir.OpDiv, ir.Float32, 0, []float64{-1, 0}, math.Inf(-1)},
		{"f64 add", ir.OpAdd, ir.Float64, 0, []float64{1, 1e-16}, 1 + 1e-16},
		{"f32 rem is fmod", ir.OpRem, ir.Float32, 0, []float64{-7, 2}, -1},
		{"f32 rem positive", ir.OpRem, ir.Float32, 0, []float64{7, -2}, 1},
		{"max ignores NaN", ir.OpMax, ir.Float32, 0, []float64{nan, 1}, 1},
		{"max ignores NaN right", ir.OpMax, ir.Float32, 0, []float64{1, nan}, 1},
		{"min ignores NaN", ir.OpMin, ir.Float16, 0, []float64{nan, 2}, 2},
		{"max propagates NaN", ir.OpMax, ir.Float32, ir.FlagPropagateNaN, []float64{1, nan}, nan},
		{"min propagates NaN", ir.OpMin, ir.BFloat16, ir.FlagPropagateNaN, []float64{nan, 1}, nan},
		{"max of two NaNs", ir.OpMax, ir.Float32, 0, []float64{nan, nan}, nan},
		{"max signed zeros", ir.OpMax, ir.Float32, 0, []float64{negZero, 0}, 0},
		{"max signed zeros swapped", ir.OpMax, ir.Float32, 0, []float64{0, negZero}, 0},
		{"min signed zeros", ir.OpMin, ir.Float32, 0, []float64{0, negZero}, negZero},
		{"min signed zeros propagating", ir.OpMin, ir.Float32, ir.FlagPropagateNaN, []float64{0, negZero}, negZero},
		{"neg", ir.OpNeg, ir.Float16, 0, []float64{1.5}, -1.5},
		{"abs", ir.OpAbs, ir.Float32, 0, []float64{negZero}, 0},
		{"exp", ir.OpExp, ir.Float32, 0, []float64{1}, float64(float32(math.E))},
		{"exp2", ir.OpExp2, ir.Float64, 0, []float64{10}, 1024},
		{"log of negative", ir.OpLog, ir.Float32, 0, []float64{-1}, nan},
		{"log2", ir.OpLog2, ir.Float32, 0, []float64{8}, 3},
		{"sqrt", ir.OpSqrt, ir.Float32, 0, []float64{2}, float64(float32(math.Sqrt2))},
		{"rsqrt", ir.OpRsqrt, ir.Float32, 0, []float64{4}, 0.5},
		{"rsqrt of zero", ir.OpRsqrt, ir.Float32, 0, []float64{0}, math.Inf(1)},
		{"sin", ir.OpSin, ir.Float64, 0, []float64{0.5}, math.Sin(0.5)},
		{"cos", ir.OpCos, ir.Float32, 0, []float64{0}, 1},
		{"floor", ir.OpFloor, ir.Float32, 0, []float64{-1.5}, -2},
		{"ceil", ir.OpCeil, ir.Float32, 0, []float64{-1.5}, -1},
		{"fma is fused", ir.OpFma, ir.Float32, 0, []float64{sq, sq, -(1 + math.Ldexp(1, -11))}, math.Ldexp(1, -24)},
		{"fma f16", ir.OpFma, ir.Float16, 0, []float64{2, 3, 1}, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := make([]ir.Const, len(tc.args))
			for i, a := range tc.args {
				args[i] = fc(a)
			}
			got, err := evalOp(tc.op, tc.k, tc.k, tc.flags, args...)
			require.NoError(t, err)
			assertSameFloat(t, tc.want, got.flts[0])
		})
	}
}

// assertSameFloat compares floats bit for bit up to NaN payloads, so signed
// zeros are told apart.
func assertSameFloat(t *testing.T, want, got float64) {
	t.Helper()
	if math.IsNaN(want) {
		assert.True(t, math.IsNaN(got), "want NaN, got %v", got)
		return
	}
	assert.Equal(t, math.Float64bits(want), math.Float64bits(got), "want %v, got %v", want, got)
}
