package cudagen_test

import (
	"strings"
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
// keeps it, and its 8-byte stores: fp32 runs of 2 need no transpose within
// quads (TestDotStoreNotTransposed).
func TestDotStoreConverted(t *testing.T) {
	src, err := build(t, "../conformance/constructs/matmul_persistent.tri", "sm_80")
	require.NoError(t, err)
	assert.Contains(t, src, "//   #L10 = Blocked(sizePerThread=[1, 1], threadsPerWarp=[1, 32], warpsPerCTA=[4, 1], order=[1, 0]) for [64, 64] tiles")
	assert.Contains(t, src, "// To the pointers' layout #L10 through shared memory (from #L3), so that each store is coalesced.")
	assert.Contains(t, src, "const int tri_at = (L3_base0 + (e / 8) * 16) * 72 + ")
	assert.Contains(t, src, "*reinterpret_cast<unsigned int*>(&reinterpret_cast<tri_half*>(tri_smem)[tri_at]) = tri_v;")
	assert.Contains(t, src, "if (c_mask[e]) *c_ptrs_1[e] = tri_st168[e];")
	src, err = build(t, "../conformance/constructs/dot_acc.tri", "sm_80")
	require.NoError(t, err)
	assert.NotContains(t, src, "To the pointers' layout")
	assert.Contains(t, src, "// 8-byte vector stores")
}

// TestDotStoreTransposed checks the full-tile store of a wgmma accumulator
// converted to fp16 (the grouped matmul sample at sm_90a, as tutorial 09's
// matmul_kernel): each thread holds 2 columns in each of 4 consecutive
// 8-column groups, the 4 lanes of a quad trade them with shuffles, and
// each lane stores 8 consecutive columns at once, from its own pointer of
// the group moved 6 columns on per lane. The partial tile keeps its masked
// stores element by element.
func TestDotStoreTransposed(t *testing.T) {
	src, err := build(t, "../samples/matmul_autotuned.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "wgmma.mma_async")
	assert.Contains(t, src, "//   #L9 = Blocked(sizePerThread=[1, 2], threadsPerWarp=[8, 4], warpsPerCTA=[4, 1], order=[1, 0]) for [64, 64] tiles")
	assert.Contains(t, src, "TRI_DEV void tri_transpose4(unsigned int& w0, unsigned int& w1, unsigned int& w2, unsigned int& w3, int lane) {")
	assert.Contains(t, src, "TRI_DEV unsigned int tri_shfl_xor_b32(")
	assert.NotContains(t, src, "tri_transpose2", "only the helpers used are printed")
	assert.Contains(t, src, `    // 16-byte vector stores: in 4 consecutive repetitions along axis 1, the 4 lanes of a quad (lane_id % 4) hold a 4-byte run each;
    // tri_transpose4 trades the runs through shuffles so that each lane holds one repetition's 8 consecutive elements.
    #pragma unroll
    for (int e = 0; e < 32; e += 8) {
      unsigned int w0 = (unsigned int)(tri_half)t124[e + 0] | (unsigned int)(tri_half)t124[e + 1] << 16;
      unsigned int w1 = (unsigned int)(tri_half)t124[e + 2] | (unsigned int)(tri_half)t124[e + 3] << 16;
      unsigned int w2 = (unsigned int)(tri_half)t124[e + 4] | (unsigned int)(tri_half)t124[e + 5] << 16;
      unsigned int w3 = (unsigned int)(tri_half)t124[e + 6] | (unsigned int)(tri_half)t124[e + 7] << 16;
      tri_transpose4(w0, w1, w2, w3, lane_id);
      *reinterpret_cast<tri_u32x4*>(c[e] + (lane_id % 4) * 6) = tri_u32x4{w0, w1, w2, w3};
    }
  } else {`)
	assert.Contains(t, src, "for (int e = 0; e < 32; ++e) if (t133[e]) *c[e] = t124[e];")
	assert.NotContains(t, src, "4-byte vector stores")
}

// TestDotStoreNotTransposed checks stores of dot results that keep their
// vector stores: fp32 accumulators, whose quads already write 32-byte
// runs of a row (the transpose would only halve the stores, for 8
// shuffles per 2); and fp16 accumulators with 2 repetitions along a row,
// fewer than the 4 lanes of a quad (a 32x32 tile over 2x2 warps).
func TestDotStoreNotTransposed(t *testing.T) {
	for _, tc := range []struct{ file, arch, kept string }{
		{"../conformance/constructs/dot_tf32_mma.tri", "sm_80", "for (int e = 0; e < 32; e += 2) {  // 8-byte vector stores"},
		{"../samples/matmul_grouped.tri", "sm_90a", "for (int e = 0; e < 8; e += 2) {  // 4-byte vector stores"},
	} {
		src, err := build(t, tc.file, tc.arch)
		require.NoError(t, err)
		assert.Contains(t, src, tc.kept, tc.file)
		assert.NotContains(t, src, "tri_transpose", tc.file)
	}
}

// TestDotStoreQuadsConstruct checks the stores of dot_store_quads, on
// wgmma at sm_90a and on mma.sync at sm_80 (2 warps along a row there,
// so that a quad's repetitions lie 16 columns apart): c and h's full tile
// are transposed; g, contiguous over 16 columns only, and f, 4-byte
// aligned, keep 4-byte stores; h's partial tile is stored element by
// element.
func TestDotStoreQuadsConstruct(t *testing.T) {
	for _, tc := range []struct{ arch, at string }{
		{"sm_90a", "(lane_id % 4) * 6)"},
		{"sm_80", "(lane_id % 4) * 14)"},
	} {
		src, err := build(t, "../conformance/constructs/dot_store_quads.tri", tc.arch)
		require.NoError(t, err)
		assert.Equal(t, 2, strings.Count(src, "// 16-byte vector stores: in 4 consecutive repetitions along axis 1"), tc.arch)
		assert.Equal(t, 2, strings.Count(src, tc.at+" = tri_u32x4{w0, w1, w2, w3};"), tc.arch)
		assert.Equal(t, 2, strings.Count(src, "// 4-byte vector stores"), tc.arch)
		assert.Contains(t, src, "// Partial tile: masked accesses, element by element.", tc.arch)
		assert.Contains(t, src, "]) *t103[e] = c[e];", tc.arch)
	}
}
