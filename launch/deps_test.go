package launch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/internal/deptest"
)

// TestNoPlotLibrary: a Go program that compiles and launches kernels
// through this package links neither gonum/plot (tri bench --plot draws
// through benchplot, handed in as BenchOptions.DrawPlot) nor gpython's
// interpreter (its compiler, VM and standard library come with package
// hostpy; autotune, which launch imports, uses only gpython's parser and
// object model).
func TestNoPlotLibrary(t *testing.T) {
	for _, d := range deptest.Deps(t, "github.com/tri-lang/tri/nvrtc") {
		assert.False(t, strings.HasPrefix(d, "gonum.org/v1/plot"), "launch links %s", d)
		for _, vm := range []string{"vm", "compile", "stdlib", "symtable"} {
			assert.False(t, strings.HasPrefix(d, "github.com/go-python/gpython/"+vm), "launch links %s", d)
		}
	}
}
