package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Module-level if statements of assignments are host definitions binding
// every name their arms assign; HostBindings lists a name's bindings above
// a line in source order.
func TestHostIfs(t *testing.T) {
	src := `import os

def is_hip():
    return False

STAGES = [9]
if is_hip():
    STAGES = [1]
elif os.environ.get("X"):
    STAGES, WARPS = [2], 4
    if True:
        EXTRA = 1
else:
    "only the default"
    STAGES = [3]
    WARPS = 8

try:
    import foo
    HAVE = True
except ImportError:
    HAVE = False

if __name__ == "__main__":
    main()

STAGES = []
`
	f, diags := Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	var ifs []*HostFunc
	for _, h := range f.HostStmts {
		if len(h.Binds) > 0 {
			ifs = append(ifs, h)
		}
	}
	require.Len(t, ifs, 1, "the try and the main block are not host assignments")
	assert.Equal(t, 7, ifs[0].Pos.Line)
	assert.Equal(t, []string{"STAGES", "WARPS", "EXTRA"}, ifs[0].Bound())
	assert.Contains(t, ifs[0].Source, "WARPS = 8")

	lines := func(hs []*HostFunc) []int {
		var out []int
		for _, h := range hs {
			out = append(out, h.Pos.Line)
		}
		return out
	}
	assert.Equal(t, []int{6, 7, 27}, lines(f.HostBindings("STAGES", 0)))
	assert.Equal(t, []int{6, 7}, lines(f.HostBindings("STAGES", 27)), "what Python has run at line 27")
	assert.Equal(t, []int{7}, lines(f.HostBindings("WARPS", 0)))
	assert.Equal(t, []int{3}, lines(f.HostBindings("is_hip", 0)))
	assert.Empty(t, f.HostBindings("HAVE", 0))
	assert.Equal(t, 27, f.Host["STAGES"].Pos.Line, "Host keeps the last binding")
}
