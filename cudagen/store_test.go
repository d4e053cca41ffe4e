package cudagen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDotStoreConverted checks the store of a tl.dot result whose pointers
// cannot be vectorized (a runtime row stride of unknown divisibility, as
// tutorial 03's and 08's c): it gets the pointers' own layout, a warp's
// lanes along a row, and the value moves there through shared memory,
// written in the accumulators' pairs. A store that can be vectorized in
// the accumulators' layout (dot_acc's, through 16-byte aligned fp32 rows)
// keeps it.
func TestDotStoreConverted(t *testing.T) {
	src, err := build(t, "../conformance/constructs/matmul_persistent.tri", "sm_80")
	require.NoError(t, err)
	assert.Contains(t, src, "//   #L10 = Blocked(sizePerThread=[1, 1], threadsPerWarp=[1, 32], warpsPerCTA=[4, 1], order=[1, 0]) for [64, 64] tiles")
	assert.Contains(t, src, "// To the pointers' layout #L10 through shared memory (from #L3), so that each store is coalesced.")
	assert.Contains(t, src, "*reinterpret_cast<unsigned int*>(&reinterpret_cast<tri_half*>(tri_smem)[(L3_base0 + (e / 8) * 16) * 72 + ")
	assert.Contains(t, src, "if (c_mask[e]) *c_ptrs_1[e] = tri_st168[e];")
	src, err = build(t, "../conformance/constructs/dot_acc.tri", "sm_80")
	require.NoError(t, err)
	assert.NotContains(t, src, "To the pointers' layout")
	assert.Contains(t, src, "// 8-byte vector stores")
}
