package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildAOT: tri build --aot writes NAME.h and NAME.c and says so;
// --out-name names them; a bad --grid is placed in its text with a caret;
// build's help tells of --aot.
func TestBuildAOT(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := tri(t, "build", "../../samples/add.tri", "-k", "add_kernel", "--signature", "*fp32:16, *fp32:16, *fp32:16, i32, 1024",
		"--grid", "cdiv(n_elements, BLOCK_SIZE)", "--aot", dir, "--out-name", "vadd", "--embed", "source", "--arch", "sm_80")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+filepath.Join(dir, "vadd.h")+" and "+filepath.Join(dir, "vadd.c"))
	h, err := os.ReadFile(filepath.Join(dir, "vadd.h"))
	require.NoError(t, err)
	assert.Contains(t, string(h), "CUresult vadd(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr output_ptr, int32_t n_elements);")

	_, stderr, code = tri(t, "build", "../../samples/add.tri", "-k", "add_kernel", "--signature", "*fp32:16, *fp32:16, *fp32:16, i32, 1024",
		"--grid", "cdiv(n, 1024)", "--aot", dir, "--embed", "source")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--grid:1:6: unknown name n in the grid")
	assert.Contains(t, stderr, "    cdiv(n, 1024)\n         ^\n", "the source line and a caret under n")

	stdout, _, _ = tri(t, "build", "--help")
	assert.Contains(t, stdout, "--aot DIR")
	assert.Contains(t, stdout, "--grid string")
}
