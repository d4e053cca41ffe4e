package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReview writes a page with -o and to stdout, refuses to overwrite
// the kernel file, and places a bad launch's error as tri build does.
func TestReview(t *testing.T) {
	out := filepath.Join(t.TempDir(), "add.html")
	_, stderr, code := tri(t, "review", "../../samples/add.tri", "-o", out, "--arch", "sm_80", "--no-nvrtc")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "wrote "+out)
	page, err := os.ReadFile(out)
	require.NoError(t, err)
	for _, want := range []string{"<svg class=\"layout\"", `id="linemap"`, "add_kernel", "No ptxas report: not asked for"} {
		assert.True(t, strings.Contains(string(page), want), want)
	}
	for _, net := range []string{"http:", "https:", "src=", "@import"} {
		assert.False(t, strings.Contains(string(page), net), "the page names %q: it must load nothing", net)
	}

	stdout, _, code := tri(t, "review", "../../samples/copy.tri", "-o", "-", "--no-nvrtc")
	assert.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(stdout, "<!DOCTYPE html>"))

	_, stderr, code = tri(t, "review", "../../samples/add.tri", "-o", "../../samples/add.tri")
	assert.Equal(t, 2, code, stderr)

	_, stderr, code = tri(t, "review", "../../samples/add.tri", "add_kernel[(1,)](x, y, out, n, BLOCK_SIZE=1000)",
		"--let", "n=4", "--let", "x=rand(n)", "--let", "y=rand(n)", "--let", "out=empty(n)", "-o", filepath.Join(t.TempDir(), "x.html"))
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "1000")
}
