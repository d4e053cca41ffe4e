package launch

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoPlotLibrary: a Go program that compiles and launches kernels
// through this package links neither gonum/plot (tri bench --plot draws
// through benchplot, handed in as BenchOptions.DrawPlot) nor gpython's
// interpreter (its compiler, VM and standard library come with package
// hostpy; autotune, which launch imports, uses only gpython's parser and
// object model).
func TestNoPlotLibrary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/tri-lang/tri/nvrtc", "the listing holds the package's dependencies")
	for _, d := range deps {
		assert.False(t, strings.HasPrefix(d, "gonum.org/v1/plot"), "launch links %s", d)
		for _, vm := range []string{"vm", "compile", "stdlib", "symtable"} {
			assert.False(t, strings.HasPrefix(d, "github.com/go-python/gpython/"+vm), "launch links %s", d)
		}
	}
}
