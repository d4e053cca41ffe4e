package cachedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoot(t *testing.T) {
	t.Setenv(Env, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	assert.Equal(t, filepath.Join("/tmp/xdg", "tri"), Root(), "XDG_CACHE_HOME, as os.UserCacheDir reads it")
	assert.Equal(t, filepath.Join("/tmp/xdg", "tri", "cubin"), Dir("cubin"))
	t.Setenv(Env, "/srv/tri-cache")
	assert.Equal(t, "/srv/tri-cache", Root(), "TRI_CACHE_DIR wins")
	assert.Equal(t, filepath.Join("/srv/tri-cache", "autotune"), Dir("autotune"))
}

func TestIsKeyFile(t *testing.T) {
	key := strings.Repeat("0123456789abcdef", 4)
	for name, want := range map[string]bool{
		key + ".cubin":                  true,
		key + ".log":                    true,
		".tmp-123":                      true,
		key + ".txt":                    false,
		key[1:] + ".cubin":              false,
		strings.ToUpper(key) + ".cubin": false,
		"notes.cubin":                   false,
		".tmp-":                         false,
		"":                              false,
	} {
		assert.Equal(t, want, IsKeyFile(name, ".tmp-", ".cubin", ".log"), name)
	}
}

// TestCleanOnlyOwnFiles: Usage counts and Clean removes the files the
// cache owns and nothing else; the folder stays while other files are in
// it, goes once it is empty, and a missing folder is empty and clean.
func TestCleanOnlyOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("a.entry", "12345")
	write("b.entry", "123")
	write("mine.txt", "the user's")
	owns := func(name string) bool { return strings.HasSuffix(name, ".entry") }

	n, b, err := Usage(dir, owns)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, int64(8), b)

	n, b, err = Clean(dir, owns)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, int64(8), b)
	assert.FileExists(t, filepath.Join(dir, "mine.txt"))
	assert.DirExists(t, filepath.Join(dir, "sub"))
	n, _, err = Usage(dir, owns)
	require.NoError(t, err)
	assert.Zero(t, n)

	require.NoError(t, os.Remove(filepath.Join(dir, "mine.txt")))
	require.NoError(t, os.Remove(filepath.Join(dir, "sub")))
	write("c.entry", "1")
	_, _, err = Clean(dir, owns)
	require.NoError(t, err)
	assert.NoDirExists(t, dir, "an emptied folder goes")

	n, _, err = Usage(dir, owns)
	assert.NoError(t, err)
	assert.Zero(t, n)
	_, _, err = Clean(dir, owns)
	assert.NoError(t, err)
}
