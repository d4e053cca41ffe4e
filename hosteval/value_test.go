package hosteval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

func TestValueString(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{None, "None"},
		{IntValue(-3), "-3"},
		{FloatValue(2), "2.0"},
		{FloatValue(1e-5), "1e-05"},
		{BoolValue(false), "False"},
		{StrValue("relu"), `"relu"`},
		{DTypeValue(ir.TBF16), "tl.bfloat16"},
		{TensorValue(tensor.New(ir.Float16, 2, 3)), "tensor float16[2 3]"},
		{TupleValue(IntValue(4)), "(4,)"},
		{TupleValue(IntValue(4), IntValue(5)), "(4, 5)"},
		{Value{Kind: VTensor, Tensor: tensor.New(ir.Int64, 2), Ptrs: []string{"a", "b"}}, "ptrs(a, b)"},
	} {
		assert.Equal(t, tc.want, tc.v.String())
	}
}

func TestTensorScalarArithmetic(t *testing.T) {
	e := lets(t, "i=arange(-3, 3)", "f=arange(-3, 3, dtype='float32')",
		"a=i // 2", "b=7 - i", "c=i * 0.5", "d=f / 2", "g=-f", "h=2 // (i + 4)", "k=f // 2")
	for _, tc := range []struct {
		name string
		want []float64
	}{
		{"a", []float64{-2, -1, -1, 0, 0, 1}},
		{"b", []float64{10, 9, 8, 7, 6, 5}},
		{"c", []float64{-1, -1, 0, 0, 0, 1}}, // int tensor keeps int32: truncated
		{"d", []float64{-1.5, -1, -0.5, 0, 0.5, 1}},
		{"g", []float64{3, 2, 1, 0, -1, -2}},
		{"h", []float64{2, 1, 0, 0, 0, 0}},
		{"k", []float64{-2, -1, -1, 0, 0, 1}},
	} {
		v := lookup(t, e, tc.name)
		assert.Equal(t, tc.want, elems(v.Tensor), tc.name)
	}
	assert.Equal(t, ir.Int32, lookup(t, e, "c").Tensor.Kind)
	assert.Error(t, e.Let("z=i / 2"), "/ would change an int tensor's dtype")
	assert.Error(t, e.Let("z=2 // (i + 3)"), "integer division by zero")
	assert.NotContains(t, e.Names(), "z", "a failed binding binds nothing")
}
