package launch

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/gpu"
)

// groupedCUDA is the CUDA of the grouped matmul sample at 4096^3 with the
// given blocks, warps and stages, for arch.
func groupedCUDA(t *testing.T, arch string, bm, bn, bk, warps, stages int) (*cudagen.Result, string) {
	t.Helper()
	line := fmt.Sprintf("grouped_matmul_k[(triton.cdiv(m, %d), triton.cdiv(n, %d))](a, b, c, m, n, k, a.stride(0), a.stride(1), "+
		"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=%d, bn=%d, bk=%d, group_sz=8, num_warps=%d, num_stages=%d)", bm, bn, bm, bn, bk, warps, stages)
	p, err := Prepare("../samples/matmul_grouped.tri", line, &Options{Lets: []string{"m=4096", "n=4096", "k=4096",
		"a=empty(m, k, dtype='float16')", "b=empty(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"}})
	require.NoError(t, err)
	res, err := gpu.GenerateCUDA(p.Kernel, arch, false)
	require.NoError(t, err)
	var dump bytes.Buffer
	require.NoError(t, cudagen.DumpLayouts(&dump, p.Kernel, arch))
	return res, dump.String()
}

// On sm_90a the K loop of a matmul becomes a cp.async pipeline feeding
// wgmma, its stages in dynamic shared memory, and at num_stages=1 an
// unpipelined loop of wgmmas; elsewhere, and where the shape does not
// allow wgmma, the dot stays on mma.sync.
func TestPipelinedMatmul(t *testing.T) {
	res, dump := groupedCUDA(t, "sm_90a", 128, 256, 64, 8, 3)
	src := res.Source
	assert.Contains(t, src, "Software-pipelined: the loads feeding tl.dot stream into 4 shared-memory buffers")
	assert.Contains(t, src, "2 iteration(s) ahead of the wgmma")
	assert.Contains(t, src, "tri_wgmma_wait<1>();")
	assert.Contains(t, src, "tri_wgmma_m64n256k16_f16(tri_d0, ")
	assert.Contains(t, src, "// a: 16-byte copies into the stage, zero-filled where masked off")
	assert.Contains(t, src, "// b: 16-byte copies into the stage, zero-filled where masked off")
	assert.Contains(t, src, "__launch_bounds__(256)")
	assert.Equal(t, 4*(128*64+64*256)*2, res.SharedBytes) // num_stages + 1 buffers
	assert.Contains(t, dump, "wgmma m64n256k16), operands streamed by cp.async 2 iteration(s) ahead through 4 swizzled shared-memory buffers, one wgmma kept in flight")

	res, _ = groupedCUDA(t, "sm_90a", 128, 128, 32, 4, 4)
	src = res.Source
	assert.Contains(t, src, "tri_wgmma_m64n128k16_f16(tri_d1, ") // two m64 blocks per warpgroup
	assert.Contains(t, src, "64- and 128-byte swizzled rows")
	assert.Equal(t, 5*(128*32+32*128)*2, res.SharedBytes)

	// Where num_stages + 1 buffers do not fit, num_stages do, and each
	// iteration waits for its wgmma.
	res, dump = groupedCUDA(t, "sm_90a", 128, 256, 64, 8, 4)
	src = res.Source
	assert.Equal(t, 4*(128*64+64*256)*2, res.SharedBytes)
	assert.Contains(t, src, "tri_wgmma_wait<0>();")
	assert.NotContains(t, src, "tri_wgmma_wait<1>")
	assert.NotContains(t, dump, "in flight")

	for _, tc := range []struct {
		arch                      string
		bm, bn, bk, warps, stages int
	}{
		{"sm_90", 128, 128, 64, 4, 4}, // no wgmma without the "a" target
		{"sm_90a", 32, 32, 32, 4, 3},  // 32 rows: less than a warpgroup's m64
		{"sm_90a", 64, 64, 32, 2, 3},  // not whole warpgroups
	} {
		res, dump := groupedCUDA(t, tc.arch, tc.bm, tc.bn, tc.bk, tc.warps, tc.stages)
		src := res.Source
		assert.NotContains(t, src, "wgmma.mma_async", "%+v", tc)
		assert.Contains(t, dump, "mma.sync m16n8k16", "%+v", tc)
	}

	// One stage: nothing to pipeline, but the dot is still a wgmma, as
	// Triton issues one, its operands stored from registers each iteration.
	res, dump = groupedCUDA(t, "sm_90a", 128, 128, 64, 4, 1)
	src = res.Source
	assert.NotContains(t, src, "Software-pipelined")
	assert.Contains(t, src, "not pipelined (its loop runs at num_stages=1)")
	assert.Contains(t, src, "tri_wgmma_m64n128k16_f16(tri_d1, ")
	assert.NotContains(t, src, "mma.sync.aligned")
	assert.Contains(t, dump, "wgmma m64n128k16, a stored to shared memory), not pipelined: its loop runs at num_stages=1")
}

// Tutorial 03 wraps its rows and columns with % M and % N and masks K with
// offs_k < K - k * BLOCK_SIZE_K: with M, N and K divisible by 16 the
// analysis still proves 16-byte runs under one mask.
func TestTutorial03CopiesVectors(t *testing.T) {
	p, err := Prepare("../samples/matmul_tutorial03.tri", "", &Options{Lets: []string{"M=4096", "N=4096", "K=4096"}, Config: 0})
	require.NoError(t, err)
	res, err := gpu.GenerateCUDA(p.Kernel, "sm_90a", false)
	require.NoError(t, err)
	src := res.Source
	assert.Contains(t, src, "// a: 16-byte copies into the stage")
	assert.Contains(t, src, "// b: 16-byte copies into the stage")
	assert.Contains(t, src, "tri_wgmma_m64n256k16_f16(")
	assert.NotContains(t, src, "tri_fence_proxy_async();", "cp.async copies need no proxy fence")

	// At the sample's own sizes (K = 150) no 4-byte run is provable: the
	// stages are filled by plain stores, which wgmma sees after a fence.
	p, err = Prepare("../samples/matmul_tutorial03.tri", "", &Options{Config: 0})
	require.NoError(t, err)
	res, err = gpu.GenerateCUDA(p.Kernel, "sm_90a", false)
	require.NoError(t, err)
	src = res.Source
	assert.Contains(t, src, "element by element")
	assert.Contains(t, src, "tri_fence_proxy_async();")
}

// A launch line that sets meta-parameters over the configs' is tuned and
// cached apart from one that lets the configs choose.
func TestTuneKeyNamesOverrides(t *testing.T) {
	lets := []string{"M=512", "N=512", "K=512"}
	p, err := Prepare("../samples/matmul_tutorial03.tri", "", &Options{Lets: lets, Config: -1})
	require.NoError(t, err)
	k, err := p.overriddenKey("key")
	require.NoError(t, err)
	assert.Equal(t, "key", k)
	line := "matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), " +
		"BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION=\"leaky_relu\", num_warps=4)"
	s, err := ReadSample("../samples/matmul_tutorial03.tri")
	require.NoError(t, err)
	p, err = Prepare("../samples/matmul_tutorial03.tri", line, &Options{Lets: append(s.Lets, lets...), Config: -1})
	require.NoError(t, err)
	k, err = p.overriddenKey("key")
	require.NoError(t, err)
	assert.Equal(t, "key; launch sets BLOCK_SIZE_K=32, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, GROUP_SIZE_M=8, num_warps=4", k)
}
