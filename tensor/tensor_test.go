package tensor

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

func TestMakeRejectsBadShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  ir.Kind
		shape []int
		want  string
	}{
		{"negative", ir.Float32, []int{-5}, "negative dimension -5 in shape [-5]"},
		{"negative inner", ir.Int8, []int{3, -1}, "negative dimension -1"},
		// 2^80 elements: the product wrapped to 0 before.
		{"elements overflow", ir.Float32, []int{1 << 40, 1 << 40}, "more elements than an int counts"},
		{"bytes overflow", ir.Float64, []int{math.MaxInt / 4}, "more bytes than an int counts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Make(tc.kind, tc.shape...)
			require.Error(t, err)
			assert.Nil(t, got)
			assert.Contains(t, err.Error(), tc.want)
			assert.PanicsWithError(t, err.Error(), func() { New(tc.kind, tc.shape...) })
		})
	}
}

func TestMakeShapes(t *testing.T) {
	for _, tc := range []struct {
		shape    []int
		elements int
	}{
		{nil, 1}, {[]int{0}, 0}, {[]int{0, 1 << 62}, 0}, {[]int{3, 4}, 12},
	} {
		got, err := Make(ir.Float16, tc.shape...)
		require.NoError(t, err, "%v", tc.shape)
		assert.Equal(t, tc.elements, got.NumElements())
		assert.Len(t, got.Data, 2*tc.elements)
	}
}

func TestNilReadersAndTensors(t *testing.T) {
	_, err := ReadNPY(nil)
	assert.ErrorContains(t, err, "nil reader")
	assert.ErrorContains(t, WriteNPY(nil, New(ir.Int32, 2)), "nil writer")
	assert.ErrorContains(t, WriteNPY(&bytes.Buffer{}, nil), "no tensor to write")
	assert.ErrorContains(t, SaveNPY(t.TempDir()+"/x.npy", nil), "no tensor to write")
}
