package cudagen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// TestEngineFromShapes: on sm_90a a matmul whose dot has no wgmma shape
// (32 rows, or 2 warps) runs on mma.sync, software-pipelined with
// cp.async as on sm_80, where it used to stay unpipelined with its
// operands staged through shared memory; 128 rows over 4 warps keep
// wgmma. Triton's AccelerateMatmul makes the same choice.
func TestEngineFromShapes(t *testing.T) {
	build := func(bm, bn, warps string) string {
		var out bytes.Buffer
		line := "grouped_matmul_k[(triton.cdiv(m, " + bm + "), triton.cdiv(n, " + bn + "))](a, b, c, m, n, k, a.stride(0), a.stride(1), " +
			"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=" + bm + ", bn=" + bn + ", bk=32, group_sz=8, num_warps=" + warps + ", num_stages=4)"
		err := launch.BuildFile("../samples/matmul_grouped.tri", line, &launch.Options{Arch: "sm_90a", Stdout: &out,
			Lets: []string{"m=256", "n=256", "k=256", "a=empty(m, k, dtype='float16')", "b=empty(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"}})
		require.NoError(t, err)
		return out.String()
	}
	const mma = "No dot has a wgmma shape"
	for _, c := range [][3]string{{"32", "64", "4"}, {"64", "32", "2"}} {
		src := build(c[0], c[1], c[2])
		assert.Contains(t, src, mma, "%v", c)
		assert.Contains(t, src, "// Software-pipelined: the loads feeding tl.dot stream into 4 shared-memory stages with cp.async", "%v", c)
		assert.Contains(t, src, "mma.sync.aligned.m16n8k16", "%v", c)
		assert.NotContains(t, src, "wgmma.mma_async", "%v", c)
	}
	src := build("128", "128", "4")
	assert.NotContains(t, src, mma)
	assert.Contains(t, src, "wgmma.mma_async")
}

// TestReloadRowStat: a row statistic loaded in a loop and read only
// through [None, :] against a dot's result is loaded again in the dot's
// layout, with no move through shared memory and its barriers; not where
// a store stands between the load and its use.
func TestReloadRowStat(t *testing.T) {
	for _, arch := range []string{"sm_90a", "sm_80"} {
		src, err := build(t, "../conformance/constructs/dot_reload_rowstat.tri", arch)
		require.NoError(t, err)
		assert.Contains(t, src, "// s is loaded in #L11, the layout of its user at line 29, rather than moved.", arch)
		assert.NotContains(t, src, "Layout conversion", arch)
		// It is issued where the source loads it, before the dot, so that
		// it is in flight while the dot runs; its pointer tile, which only
		// the load read, is not printed.
		assert.Less(t, strings.Index(src, "// s is loaded in #"), strings.Index(src, "// tl.dot fp16[64,32]"), arch)
		assert.NotContains(t, src, "s_ptrs_1", arch)
	}
	// A store between the load and its use: the load stays where it is.
	src, err := build(t, "testdata/reload_store.tri", "sm_90a")
	require.NoError(t, err)
	assert.NotContains(t, src, "// s is loaded in #")
	assert.Contains(t, src, "Layout conversion")
}
