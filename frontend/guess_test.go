package frontend

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUndecidedIfFunction: a name bound to a Triton function under an if
// tri cannot decide (a device name from another module, as in unsloth's
// kernels/utils.py) keeps the arm that resolves, as an import does; a
// number bound in the same arms stays uncertain (Stale).
func TestUndecidedIfFunction(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, `-- pkg/__init__.py --
-- pkg/dev.py --
import os



def get_device_type():
    return os.environ.get("TRI_TEST_UNSET_DEVICE", "cuda")


DEVICE_TYPE = get_device_type()
-- pkg/k.py --
import triton
import triton.language as tl
from packaging.version import Version
from .dev import DEVICE_TYPE

if Version(triton.__version__) >= Version("3.0.0"):
    if DEVICE_TYPE == "xpu":
        act = tl.extra.intel.libdevice.rsqrt
    else:
        from triton.language.extra import libdevice
        act = libdevice.rsqrt
    cast = tl.exp
    N = 2
else:
    act = tl.exp
    N = 1
`)
	path := filepath.Join(dir, "pkg", "k.py")
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	f, dl := NewLoader(nil, testKnown).Open(path, text)
	require.NoError(t, dl.Err())
	s, d := f.Lookup("act")
	require.Nil(t, d)
	require.Equal(t, SymGlobal, s.Kind)
	assert.Equal(t, "libdevice.rsqrt", FormatExpr(s.Global.Value), "the arm whose names resolve")
	assert.Empty(t, s.Global.Stale, "a function is chosen as an import is")
	s, d = f.Lookup("N")
	require.Nil(t, d)
	require.Equal(t, SymGlobal, s.Kind)
	assert.Contains(t, s.Global.Stale, "tri cannot tell the value of N")
}
