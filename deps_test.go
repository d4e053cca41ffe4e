package tri

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/internal/deptest"
)

// TestLeanDependencies: a Go program built on this package links neither
// the command line (cobra), nor the plotting library, nor gpython's
// interpreter (its compiler, VM and standard library, which package
// hostpy brings).
func TestLeanDependencies(t *testing.T) {
	for _, d := range deptest.Deps(t, "github.com/tri-lang/tri/launch") {
		for _, heavy := range []string{"github.com/spf13/cobra", "gonum.org/v1/plot", "github.com/tri-lang/tri/benchplot", "github.com/tri-lang/tri/hostpy"} {
			assert.False(t, strings.HasPrefix(d, heavy), "tri links %s", d)
		}
		for _, vm := range []string{"vm", "compile", "stdlib", "symtable"} {
			assert.False(t, strings.HasPrefix(d, "github.com/go-python/gpython/"+vm), "tri links %s", d)
		}
	}
}
