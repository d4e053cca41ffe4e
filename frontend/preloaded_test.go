package frontend

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocalOSDoesNotShadow: an os.py under a source root does not stand
// for os, which Python has loaded before it searches the path, so
// os.getenv keeps its meaning in a module-level condition; a local
// module of another name (helpers) is still read from the root.
func TestLocalOSDoesNotShadow(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, "-- root/os.py --\ndef getenv(key, default=None):\n    return 'local'\n"+
		"-- root/helpers.py --\nN = 3\n"+
		"-- k.py --\nimport os\nfrom helpers import N\n\nif os.getenv('TRI_TEST_UNSET', '1') == '1':\n    V = 1\nelse:\n    V = 2\n")
	path := filepath.Join(dir, "k.py")
	src := "import os\nfrom helpers import N\n\nif os.getenv('TRI_TEST_UNSET', '1') == '1':\n    V = 1\nelse:\n    V = 2\n"
	f, _ := NewLoader([]string{filepath.Join(dir, "root")}, nil).Open(path, []byte(src))
	s, d := f.Lookup("os")
	require.Nil(t, d)
	assert.Equal(t, SymPath, s.Kind, "the standard os")
	assert.Equal(t, "os", s.Path)
	s, d = f.Lookup("V")
	require.Nil(t, d)
	assert.Equal(t, "1", FormatExpr(s.Global.Value), "os.getenv gives its default, as the standard os does")
	s, d = f.Lookup("N")
	require.Nil(t, d)
	assert.Equal(t, SymGlobal, s.Kind, "helpers.py is read from the root")
}
