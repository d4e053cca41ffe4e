package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An unknown decorator is reported once per file, at its first use, and
// skipped wherever it wraps a @jit function.
func TestUnknownDecoratorOnce(t *testing.T) {
	src := "import triton\nfrom lib import libentry\n\n\n" +
		"@libentry()\n@triton.jit\ndef a(x):\n    pass\n\n\n" +
		"@libentry()\n@triton.jit\ndef b(x):\n    pass\n"
	f, dl := Parse("m.py", []byte(src))
	require.NoError(t, dl.Err())
	require.Len(t, dl.Items, 1)
	assert.Equal(t, "m.py:5:1: warning: unknown decorator lib.libentry skipped (wherever this file uses it)", dl.Items[0].Error())
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("a")))
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("b")))
}
