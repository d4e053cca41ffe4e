package sema

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestComputationType checks computation_type_impl of semantic.py for
// pairs of tensors and for a tensor with a Python scalar.
func TestComputationType(t *testing.T) {
	var (
		b, i8, i16, i32, i64 = ir.TBool, ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64
		u8, u32, u64         = ir.TUint8, ir.TUint32, ir.TUint64
		f16, bf, f32, f64    = ir.TFloat16, ir.TBF16, ir.TFloat32, ir.TFloat64
	)
	tests := []struct {
		a        ir.DType
		aScalar  bool
		b        ir.DType
		bScalar  bool
		divOrMod bool
		want     ir.DType
	}{
		// Tensors of the same dtype keep it; wider wins within a kind.
		{i32, false, i32, false, false, i32},
		{i8, false, i16, false, false, i16},
		{i32, false, i64, false, false, i64},
		{b, false, b, false, false, b},
		{b, false, i8, false, false, i8},
		{f16, false, f16, false, false, f16},
		{bf, false, bf, false, false, bf},
		// Floats beat ints; fp16 beats bf16; bf16 with anything else is fp32.
		{i64, false, f16, false, false, f16},
		{f16, false, bf, false, false, f16},
		{bf, false, i8, false, false, f32},
		{bf, false, f32, false, false, f32},
		{f32, false, f64, false, false, f64},
		{i32, false, f32, false, false, f32},
		// / and % of half types compute in fp32.
		{f16, false, f16, false, true, f32},
		{bf, false, bf, false, true, f32},
		{f32, false, f32, false, true, f32},
		// Unsigned wins at equal or greater width.
		{u32, false, i32, false, false, u32},
		{i64, false, u32, false, false, i64},
		{u8, false, i8, false, false, u8},
		{u64, false, i64, false, false, u64},
		{u8, false, i16, false, false, i16},
		// Python scalars of lower or equal kind do not widen tensors.
		{f16, false, f32, true, false, f16},
		{i8, false, i32, true, false, i8},
		{u8, false, i32, true, false, u8},
		{bf, false, f32, true, false, bf},
		{f16, false, f32, true, true, f32},
		{i32, true, i8, false, false, i8},
		// A scalar of a higher kind does.
		{i32, false, f32, true, false, f32},
		{i8, false, f32, true, false, f32},
		{f16, false, i32, true, false, f16},
		{b, false, i32, true, false, i32},
		// Two scalars (as runtime literals) promote normally.
		{i32, true, f32, true, false, f32},
	}
	for _, tt := range tests {
		got, err := computationType(tt.a, tt.aScalar, tt.b, tt.bScalar, tt.divOrMod)
		require.NoError(t, err, "%v %v", tt.a, tt.b)
		assert.Equal(t, tt.want, got, "computationType(%v scalar=%v, %v scalar=%v, div=%v)", tt.a, tt.aScalar, tt.b, tt.bScalar, tt.divOrMod)
	}
	_, err := computationType(u32, false, i32, false, true)
	assert.Error(t, err, "mixed signedness in / is an error")
	_, err = computationType(b, false, i8, false, true)
	assert.Error(t, err, "int1 is unsigned in Triton")
}

func TestLiteralType(t *testing.T) {
	big2 := func(s string) *val { n, _ := new(big.Int).SetString(s, 10); return bigVal(n) }
	tests := []struct {
		v    *val
		want ir.DType
	}{
		{intVal(0), ir.TInt32},
		{intVal(-1 << 31), ir.TInt32},
		{intVal(1<<31 - 1), ir.TInt32},
		{intVal(1 << 31), ir.TUint32},
		{intVal(1<<32 - 1), ir.TUint32},
		{intVal(1 << 32), ir.TInt64},
		{intVal(-1<<31 - 1), ir.TInt64},
		{big2("9223372036854775808"), ir.TUint64},
		{floatVal(0.5), ir.TFloat32},
		{floatVal(1e300), ir.TFloat64},
		{floatVal(0), ir.TFloat32},
		{boolVal(true), ir.TBool},
	}
	for _, tt := range tests {
		got, err := literalType(tt.v)
		require.NoError(t, err, tt.v.repr())
		assert.Equal(t, tt.want, got, tt.v.repr())
	}
	_, err := literalType(big2("18446744073709551616"))
	assert.Error(t, err)
}

func TestPyArithmetic(t *testing.T) {
	tests := []struct {
		op   string
		a, b *val
		want string
	}{
		{"//", intVal(-7), intVal(2), "-4"},
		{"%", intVal(-7), intVal(2), "1"},
		{"%", intVal(7), intVal(-2), "-1"},
		{"//", intVal(7), intVal(-2), "-4"},
		{"/", intVal(7), intVal(2), "3.5"},
		{"**", intVal(2), intVal(100), "1267650600228229401496703205376"},
		{"**", intVal(2), intVal(-1), "0.5"},
		{"%", floatVal(-7), floatVal(2), "1.0"},
		{"//", floatVal(-7), floatVal(2), "-4.0"},
		{"<<", intVal(1), intVal(40), "1099511627776"},
		{">>", intVal(-8), intVal(1), "-4"},
		{"&", intVal(-1), intVal(255), "255"},
		{"+", boolVal(true), intVal(1), "2"},
		{"+", strVal("a"), strVal("b"), "'ab'"},
	}
	for _, tt := range tests {
		got, err := pyBinary(tt.op, tt.a, tt.b)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got.repr(), "%s %s %s", tt.a.repr(), tt.op, tt.b.repr())
	}
	_, err := pyBinary("//", intVal(1), intVal(0))
	assert.Error(t, err)
	_, err = pyBinary("**", intVal(10), intVal(1000000))
	assert.Error(t, err)
}

func TestWrapAndRound(t *testing.T) {
	assert.Equal(t, int64(-1), wrapInt(ir.Int8, big.NewInt(255)))
	assert.Equal(t, int64(255), wrapInt(ir.Uint8, big.NewInt(-1)))
	assert.Equal(t, int64(-1), wrapInt(ir.Uint64, big.NewInt(-1)))
	assert.Equal(t, 0.0999755859375, roundFloat(ir.Float16, 0.1))
	assert.Equal(t, 0.10009765625, roundFloat(ir.BFloat16, 0.1))
	assert.Equal(t, float64(float32(0.1)), roundFloat(ir.Float32, 0.1))
}
