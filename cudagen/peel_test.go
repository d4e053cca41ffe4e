package cudagen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// TestPeelUnroll: the RMS norm's first loop, which only reads 8 bytes a
// thread per tile (blocks of 1024 bf16 over 8 warps), runs 4 full tiles
// an iteration, each in a block of its own with the loop variable its
// tile's; its second loop, which stores, and the first at blocks of 8192
// (64 bytes a thread) do not.
func TestPeelUnroll(t *testing.T) {
	build := func(block string) string {
		var out bytes.Buffer
		line := "rms_norm_2pass[(M,)](x, w, y, x.stride(0), N, 1e-6, BLOCK_SIZE=" + block + ", num_warps=8)"
		err := launch.BuildFile("../samples/rmsnorm_bf16_2pass.tri", line, &launch.Options{Arch: "sm_90a", Stdout: &out,
			Lets: []string{"M=4", "N=8192", "x=empty(M, N, dtype='bfloat16')", "w=empty(N, dtype='bfloat16')", "y=empty(M, N, dtype='bfloat16')"}})
		require.NoError(t, err)
		return out.String()
	}
	src := build("1024")
	assert.Equal(t, 1, strings.Count(src, "    for (;; off += 4096) {\n      const int tri_u = off;\n"+
		"      { const int off = tri_u + 3072; if (!(off + 1023 < N)) break; }  // the last of them is a full tile too\n"),
		"the first loop takes 4 full tiles an iteration")
	for _, u := range []string{"1024", "2048", "3072"} {
		assert.Contains(t, src, "        const int off = tri_u + "+u+";\n")
	}
	assert.Equal(t, 1, strings.Count(src, "full tiles an iteration"), "the second loop, which stores, does not")
	assert.NotContains(t, build("8192"), "full tiles an iteration", "64 bytes a thread a tile are enough in flight")
}
