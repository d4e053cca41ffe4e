package cudagen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlockPtrMatmulPipelined checks that a K loop over block pointers,
// whose body reads its loop counter without using it, is pipelined on
// sm_90a like a K loop over pointer tiles.
func TestBlockPtrMatmulPipelined(t *testing.T) {
	src, err := build(t, "../conformance/constructs/block_ptr_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "wgmma.mma_async")
	assert.Contains(t, src, "tri_cp_async")
}
