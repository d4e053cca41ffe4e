package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// TestArchInstructions: each tensor-core instruction is emitted only for the
// targets that have it; targets below sm_80 and malformed names are bad
// input, and nothing is written for them.
func TestArchInstructions(t *testing.T) {
	build := func(arch string) (string, error) {
		var out bytes.Buffer
		err := BuildFile("../samples/matmul_tutorial03.tri", "", &Options{Arch: arch, Stdout: &out})
		return out.String(), err
	}
	for _, c := range []struct {
		arch      string
		has, lacs []string
	}{
		{"sm_80", []string{"mma.sync.aligned.m16n8k16", "ldmatrix"}, []string{"wgmma", "fence.proxy.async"}},
		{"sm_89", []string{"mma.sync.aligned.m16n8k16"}, []string{"wgmma"}},
		{"sm_90", []string{"mma.sync.aligned.m16n8k16"}, []string{"wgmma"}},
		{"sm_90a", []string{"wgmma.mma_async", "cp.async"}, nil},
		{"sm_120", []string{"mma.sync.aligned.m16n8k16"}, []string{"wgmma"}},
	} {
		src, err := build(c.arch)
		require.NoError(t, err, c.arch)
		for _, s := range c.has {
			assert.Contains(t, src, s, c.arch)
		}
		for _, s := range c.lacs {
			assert.NotContains(t, src, s, c.arch)
		}
	}
	for _, arch := range []string{"garbage", "sm_70", "sm_75"} {
		out := filepath.Join(t.TempDir(), "k.cu")
		err := BuildFile("../samples/add.tri", "", &Options{Arch: arch, Output: out})
		require.Error(t, err, arch)
		assert.Equal(t, 2, hosteval.ExitCode(err), arch)
		_, statErr := os.Stat(out)
		assert.True(t, os.IsNotExist(statErr), "%s wrote %s", arch, out)
	}
}
