package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheCommand: tri cache where, size and clean under $TRI_CACHE_DIR:
// entries of both caches are counted and removed, a file of the user's in
// a cache folder is neither, and a cache not named stays.
func TestCacheCommand(t *testing.T) {
	root := t.TempDir()
	t.Setenv("TRI_CACHE_DIR", root)
	t.Setenv("TRI_AUTOTUNE_CACHE", "")
	key := strings.Repeat("ab", 32)
	for path, text := range map[string]string{
		"cubin/" + key + ".cubin":   "0123456789",
		"cubin/" + key + ".log":     "ok",
		"cubin/notes.txt":           "the user's",
		"autotune/" + key + ".json": "{}",
	} {
		p := filepath.Join(root, filepath.FromSlash(path))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}

	out, _, code := tri(t, "cache", "where", "cubin")
	require.Equal(t, 0, code)
	assert.Equal(t, filepath.Join(root, "cubin")+"\n", out)
	out, _, _ = tri(t, "cache", "where")
	assert.Contains(t, out, filepath.Join(root, "autotune"))

	out, _, code = tri(t, "cache", "size")
	require.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^cubin +2 files +12 B `, out)
	assert.Regexp(t, `(?m)^autotune +1 file +2 B `, out)
	assert.Regexp(t, `(?m)^total +3 files +14 B$`, out)

	out, _, code = tri(t, "cache", "clean", "cubin")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "cubin: removed 2 files (12 B)")
	assert.FileExists(t, filepath.Join(root, "cubin", "notes.txt"))
	assert.FileExists(t, filepath.Join(root, "autotune", key+".json"), "not named, so kept")
	out, _, _ = tri(t, "cache", "clean")
	assert.Contains(t, out, "autotune: removed 1 file (2 B)")
	out, _, _ = tri(t, "cache", "size")
	assert.Regexp(t, `(?m)^total +0 files +0 B$`, out)

	_, stderr, code := tri(t, "cache", "clean", "cubins")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no cache named "cubins"`)
	_, stderr, code = tri(t, "cache", "sise")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "did you mean size?")
}
