package launch

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

func TestCloseEnough(t *testing.T) {
	ref := floats(ir.Float32, 100, 0.5, 1e-3)
	near := floats(ir.Float32, 100.0005, 0.500004, 1e-3)
	assert.NoError(t, closeEnough("x", near, ref, false))
	far := floats(ir.Float32, 100, 0.5, 1.2e-3)
	assert.ErrorContains(t, closeEnough("x", far, ref, false), "1 of 3 elements differ")
	// A kernel that sums: the small element may be off by rtol of the
	// tensor's largest magnitude (1e-5 * 100), no more.
	assert.NoError(t, closeEnough("x", far, ref, true))
	assert.Error(t, closeEnough("x", floats(ir.Float32, 100, 0.5, 3e-3), ref, true))
	assert.Error(t, closeEnough("i", floats(ir.Int32, 1, 2), floats(ir.Int32, 1, 3), true))
}

func TestSumsFloats(t *testing.T) {
	for _, tc := range []struct {
		sample string
		want   bool
	}{
		{"add", false}, {"row_chunks", false}, {"softmax", true}, {"colsum", true}, {"layernorm_dwdb", true},
		{"matmul_ieee", true}, {"matmul_naive", true},
	} {
		s, err := ReadSample(filepath.Join("..", "samples", tc.sample+".tri"))
		require.NoError(t, err)
		p, err := Prepare(s.Path, s.Launch, &Options{Lets: s.Lets})
		require.NoError(t, err, tc.sample)
		assert.Equal(t, tc.want, sumsFloats(p.Kernel), tc.sample)
	}
}

func TestGridString(t *testing.T) {
	assert.Equal(t, "(97,)", gridString([3]int{97, 1, 1}))
	assert.Equal(t, "(11, 16)", gridString([3]int{11, 16, 1}))
	assert.Equal(t, "(2, 1, 3)", gridString([3]int{2, 1, 3}))
	assert.Equal(t, "(1,)", gridString([3]int{1, 1, 1}))
}
