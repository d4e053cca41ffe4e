package gpu

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDependencies: the GPU runtime links neither the host side of tri
// (launch lines, sema, the frontend) nor gpython nor gonum/plot, so a Go
// program that only compiles and launches an ir.Kernel stays small.
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/tri-lang/tri/nvrtc", "the listing holds the package's dependencies")
	for _, d := range deps {
		for _, bad := range []string{"github.com/tri-lang/tri/launch", "github.com/tri-lang/tri/sema", "github.com/tri-lang/tri/frontend", "github.com/go-python/", "gonum.org/"} {
			assert.False(t, strings.HasPrefix(d, bad), "gpu links %s", d)
		}
	}
}
