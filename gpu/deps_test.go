package gpu

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/internal/deptest"
)

// TestDependencies: the GPU runtime links neither the host side of tri
// (launch lines, sema, the frontend) nor gpython nor gonum/plot, so a Go
// program that only compiles and launches an ir.Kernel stays small.
func TestDependencies(t *testing.T) {
	for _, d := range deptest.Deps(t, "github.com/tri-lang/tri/nvrtc") {
		for _, bad := range []string{"github.com/tri-lang/tri/launch", "github.com/tri-lang/tri/sema", "github.com/tri-lang/tri/frontend", "github.com/go-python/", "gonum.org/"} {
			assert.False(t, strings.HasPrefix(d, bad), "gpu links %s", d)
		}
	}
}
