package cudagen_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSourceComments: the kernel's file is named once, at the kernel's
// head; a statement's comment gives its line of that file and the line's
// text ("// N: text"), and a statement from a @jit function of another
// module names that file ("// file:N:").
func TestSourceComments(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pkg/__init__.py": "",
		"pkg/helpers.py":  "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef plus_one(x):\n    return x + 1\n",
		"pkg/k.py": `# launch: k[(1,)](x, n)
# let: n=16
# let: x=rand(n)
import triton
import triton.language as tl
from .helpers import plus_one


@triton.jit
def k(x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, plus_one(x), mask=offs < n)
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	kfile := filepath.Join(dir, "pkg", "k.py")
	src, err := build(t, kfile, "sm_80")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(src, "// Source "+kfile+": "), "the kernel's file is named once")
	assert.Contains(t, src, "\n  // 11: offs = tl.arange(0, 16)\n")
	assert.Contains(t, src, "// 13: tl.store(x_ptr + offs, plus_one(x), mask=offs < n)\n")
	helper := filepath.Join(dir, "pkg", "helpers.py")
	assert.Regexp(t, `\n\s*// `+regexp.QuoteMeta(helper)+`:7:\n`, src, "the helper's line names its file")
	// No statement's comment names the kernel's file: only the file's
	// header and the kernel's head do.
	named := 0
	for _, l := range strings.Split(src, "\n") {
		if strings.Contains(l, kfile) {
			named++
		}
	}
	assert.Equal(t, 2, named)
}
