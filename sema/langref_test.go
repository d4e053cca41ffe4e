package sema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDifferencesNamed: every note on how tri differs from Triton is on a
// name of the op table, so a renamed or removed builtin cannot leave a
// note behind; every tensor method calls a builtin; and Names lists each
// table's names once.
func TestDifferencesNamed(t *testing.T) {
	known := map[string]bool{}
	for p := range builtins {
		known[p] = true
	}
	for p := range modules {
		known[p] = true
	}
	for name := range pyDtypes {
		known["triton.language."+name] = true
	}
	for name := range unsupportedNames {
		known["triton.language."+name] = true
	}
	for m, p := range members {
		assert.True(t, known[p] && len(builtins[p].params) > 0, "method %s calls %s, a builtin with the tensor as first parameter", m, p)
	}
	for p := range differences {
		assert.True(t, known[p], "differences names %s, which is not in the op table", p)
	}

	seen := map[string]bool{}
	supported := 0
	for _, n := range Names() {
		assert.False(t, seen[n.Path], "%s listed twice", n.Path)
		seen[n.Path] = true
		if n.Supported {
			supported++
		} else {
			assert.NotEmpty(t, n.Differs, "%s is refused: its note says so", n.Path)
		}
	}
	assert.True(t, seen["tl.load"] && seen["x.sum"] && seen["desc.load"] && seen["tl.float8e4nv"] && seen["tl.extra.libdevice.asin"] && seen["triton.cdiv"])
	assert.GreaterOrEqual(t, supported, len(builtins), "every builtin, and the methods and dtypes")
	for _, n := range Names() {
		assert.False(t, strings.HasPrefix(n.Path, "triton.language"), "%s is written tl.", n.Path)
	}
}
