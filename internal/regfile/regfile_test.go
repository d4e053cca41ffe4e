package regfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadSource: a regular file within the bound is read whole; one over
// it is refused before it is read, and a directory or a missing path is
// refused with an error that names no path (the callers place it).
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "k.py")
	require.NoError(t, os.WriteFile(small, []byte("x = 1\n"), 0o644))
	text, err := ReadSource(small, 6)
	require.NoError(t, err)
	assert.Equal(t, "x = 1\n", string(text))

	_, err = ReadSource(small, 5)
	assert.EqualError(t, err, "6 bytes is too large for a source file (at most 0 MiB)")

	big := filepath.Join(dir, "big.py")
	require.NoError(t, os.WriteFile(big, nil, 0o644))
	require.NoError(t, os.Truncate(big, MaxSourceBytes+1)) // sparse: no disk used
	_, err = ReadSource(big, MaxSourceBytes)
	assert.EqualError(t, err, "67108865 bytes is too large for a source file (at most 64 MiB)")

	_, err = ReadSource(dir, MaxSourceBytes)
	assert.EqualError(t, err, "not a regular file (a directory)")

	_, err = ReadSource(filepath.Join(dir, "missing.py"), MaxSourceBytes)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.NotContains(t, err.Error(), dir)
}

// TestOpen: Open hands back the open regular file and its size, and
// refuses a device.
func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.npy")
	require.NoError(t, os.WriteFile(path, []byte("abc"), 0o644))
	f, fi, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, int64(3), fi.Size())

	if _, err := os.Stat(os.DevNull); err == nil {
		_, _, err := Open(os.DevNull)
		assert.EqualError(t, err, "not a regular file (a device)")
	}
}

// TestKind names each kind of file that is not a regular file.
func TestKind(t *testing.T) {
	assert.Equal(t, "a directory", Kind(fs.ModeDir|0o755))
	assert.Equal(t, "a named pipe", Kind(fs.ModeNamedPipe|0o644))
	assert.Equal(t, "a socket", Kind(fs.ModeSocket|0o644))
	assert.Equal(t, "a device", Kind(fs.ModeDevice|fs.ModeCharDevice|0o666))
	assert.Equal(t, "mode Lrwxrwxrwx", Kind(fs.ModeSymlink|0o777))
}
