package nvrtc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCacheRoundTrip(t *testing.T) {
	c := &Cache{Dir: filepath.Join(t.TempDir(), "sub", "cubin")}
	_, ok := c.Get("k")
	assert.False(t, ok, "missing folder is a miss")

	cubin := []byte("\x7fELF fake cubin")
	require.NoError(t, c.Put("k", cubin))
	got, ok := c.Get("k")
	require.True(t, ok)
	assert.Equal(t, cubin, got)

	require.NoError(t, c.Put("k", []byte("other")), "overwrite")
	got, _ = c.Get("k")
	assert.Equal(t, []byte("other"), got)

	entries, err := os.ReadDir(c.Dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary files left behind")
}

func TestCacheCorruptEntriesMiss(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func(b []byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }},
		{"flipped byte", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }},
		{"wrong magic", func(b []byte) []byte { b[0] = 'X'; return b }},
		{"empty", func(b []byte) []byte { return nil }},
		{"header only", func(b []byte) []byte { return b[:10] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			require.NoError(t, c.Put("k", []byte("\x7fELF payload")))
			p := c.path("k", ".cubin")
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(p, tc.corrupt(b), 0o644))
			_, ok := c.Get("k")
			assert.False(t, ok)
		})
	}
}

func TestCacheUnwritableIsAnErrorNotAPanic(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	c := &Cache{Dir: filepath.Join(file, "cubin")}
	assert.Error(t, c.Put("k", []byte("x")))
	_, ok := c.Get("k")
	assert.False(t, ok)
}

func TestKey(t *testing.T) {
	opt := CompileOptions{Arch: "sm_90", Name: "add.cu"}
	base := Key("src", opt, "sm_90", "13.0", "0.1.0")
	assert.Len(t, base, 64)
	assert.Equal(t, base, Key("src", opt, "sm_90", "13.0", "0.1.0"), "deterministic")
	lineInfo := opt
	lineInfo.LineInfo = true
	verbose := opt
	verbose.Verbose = true
	extra := opt
	extra.Extra = []string{"-DX=1"}
	renamed := opt
	renamed.Name = "mul.cu"
	for name, k := range map[string]string{
		"source":       Key("src2", opt, "sm_90", "13.0", "0.1.0"),
		"arch":         Key("src", opt, "sm_80", "13.0", "0.1.0"),
		"nvrtc":        Key("src", opt, "sm_90", "12.8", "0.1.0"),
		"tri":          Key("src", opt, "sm_90", "13.0", "0.2.0"),
		"line info":    Key("src", lineInfo, "sm_90", "13.0", "0.1.0"),
		"verbose":      Key("src", verbose, "sm_90", "13.0", "0.1.0"),
		"extra":        Key("src", extra, "sm_90", "13.0", "0.1.0"),
		"name":         Key("src", renamed, "sm_90", "13.0", "0.1.0"),
		"field bounds": Key("sr", opt, "sm_90", "c13.0", "0.1.0"),
	} {
		assert.NotEqual(t, base, k, name)
	}
}

func TestDefaultCache(t *testing.T) {
	t.Setenv("TRI_CACHE_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	assert.Equal(t, filepath.Join("/tmp/xdg", "tri", "cubin"), DefaultCache().Dir)
	t.Setenv("TRI_CACHE_DIR", "/tmp/tri-cache")
	assert.Equal(t, filepath.Join("/tmp/tri-cache", "cubin"), DefaultCache().Dir, "TRI_CACHE_DIR moves it")
}

// TestIsCacheFile: the files a Cache writes are its own, for tri cache
// clean; a file of another name in its folder is not.
func TestIsCacheFile(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	key := Key("src", CompileOptions{}, "sm_90", "13.0", "0.1.0")
	require.NoError(t, c.Put(key, []byte("cubin")))
	require.NoError(t, c.write(c.path(key, ".log"), nil))
	require.NoError(t, os.WriteFile(filepath.Join(c.Dir, "notes.txt"), nil, 0o644))
	entries, err := os.ReadDir(c.Dir)
	require.NoError(t, err)
	owned := map[string]bool{}
	for _, e := range entries {
		owned[e.Name()] = IsCacheFile(e.Name())
	}
	assert.Equal(t, map[string]bool{key + ".cubin": true, key + ".log": true, "notes.txt": false}, owned)
	assert.True(t, IsCacheFile(tmpPrefix+"123"), "an interrupted write's file")
}
