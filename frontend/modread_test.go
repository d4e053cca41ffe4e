//go:build unix

package frontend

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mkfifo makes a named pipe at path, skipping the test where none can be
// made.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// within runs f, which must not call FailNow, and fails the test if it
// has not returned after a while: reading a FIFO no one writes would never
// return.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// TestModuleFIFO: a FIFO named like a module under a --root (m.py, or a
// package's __init__.py) is not read, and nothing waits on it: the import
// search passes over it as Python's does (m is not found; pkg is a
// namespace package). A module file replaced by a FIFO after the search
// chose it is refused with a placed error, not opened for reading.
func TestModuleFIFO(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mkfifo(t, filepath.Join(root, "m.py"))
	mkfifo(t, filepath.Join(root, "pkg", "__init__.py"))
	src := "from m import N\nfrom pkg import Q\n"
	path := filepath.Join(dir, "k.py")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	l := NewLoader([]string{root}, testKnown)
	f, dl := l.Open(path, []byte(src))
	require.NoError(t, dl.Err())
	within(t, "importing a FIFO module", func() {
		s, d := f.Lookup("N")
		assert.Nil(t, d)
		assert.Equal(t, SymPath, s.Kind, "m is not found, as Python finds no module m")
		assert.Equal(t, "m.N", s.Path)
		_, _ = f.Lookup("Q")
	})
	assert.Empty(t, f.ImportErrors())

	within(t, "reading a FIFO module", func() {
		assert.NotNil(t, l.read(filepath.Join(root, "m.py"), "m", false, root))
	})
	errs := f.ImportErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, filepath.Join(root, "m.py")+": cannot read module m: not a regular file (a named pipe)", errs[0].Error())
}

// TestModuleTooLarge: a module file over maxModuleBytes is refused, with
// an error placed in it, before it is read.
func TestModuleTooLarge(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeTree(t, root, "-- big.py --\nX = 1\n")
	big := filepath.Join(root, "big.py")
	require.NoError(t, os.Truncate(big, maxModuleBytes+1)) // sparse: no disk used
	src := "from big import X\n"
	path := filepath.Join(dir, "k.py")
	f, dl := NewLoader([]string{root}, testKnown).Open(path, []byte(src))
	require.NoError(t, dl.Err())
	_, _ = f.Lookup("X")
	errs := f.ImportErrors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), big+": cannot read module big: 67108865 bytes is too large for a source file (at most 64 MiB)")
}
