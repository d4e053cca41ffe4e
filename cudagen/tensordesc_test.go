package cudagen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTensorDescMatmulPipelined checks that tutorial 08/09's K loop over
// tensor descriptors, whose b is loaded [N, K] and used as b.T, is
// pipelined on sm_90a with b K-major in shared memory: 16-byte cp.async
// copies, and wgmma without its transpose bit on b.
func TestTensorDescMatmulPipelined(t *testing.T) {
	src, err := build(t, "../conformance/constructs/tensor_desc_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "tri_wgmma_m64n64k16_f16_kb(tri_d0")
	assert.Contains(t, src, "p, 1, 1, 0, 0; }")
	assert.Contains(t, src, "// b: 16-byte copies into the stage")
	assert.NotContains(t, src, "ldmatrix.sync")
}

// TestHostTensorDescMatmulCopies checks that a K loop through host
// descriptors is pipelined with 16-byte copies: the strides are known
// multiples of 16 bytes and the shapes are specialized by divisibility.
func TestHostTensorDescMatmulCopies(t *testing.T) {
	src, err := build(t, "testdata/tensordesc/host_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "tensordesc<fp16[128, 64]>:shape(16,16)")
	assert.Contains(t, src, "tri_wgmma_m64n128k16_f16_kb(")
	assert.Contains(t, src, "// a: 16-byte copies into the stage")
	assert.Contains(t, src, "// b: 16-byte copies into the stage")
}
