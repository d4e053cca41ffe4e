package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckAliasedBindingsGPU runs --check on a launch whose output is
// bound under two names (out=o, as tutorial 06 binds desc_o=o): both names
// must compare the GPU's result, not the input put back for the
// interpreter. Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestCheckAliasedBindingsGPU(t *testing.T) {
	needGPU(t)
	src := `# launch: k[(1,)](x, out, BLOCK=64)
# let: x=rand(64)
# let: o=empty(64)
# let: out=o
# check: o out
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs) * 2.0)
`
	path := filepath.Join(t.TempDir(), "alias.tri")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	var out bytes.Buffer
	require.NoError(t, RunFile(path, "", &Options{Check: true, Stdout: &out, Config: -1}), out.String())
	require.Contains(t, out.String(), "check out")
}
