package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNFKCIdentifiers: identifiers are read in NFKC form, as Python reads
// them: OHM SIGN (U+2126) binds GREEK CAPITAL OMEGA (U+03A9), a def named
// with the ligature U+FB01 is "fi...", in kernel bodies too; strings keep
// their characters.
func TestNFKCIdentifiers(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n\u2126 = 5\n\n\n" +
		"@triton.jit\ndef \ufb01ll(out):\n    \ufb01x = 2\n    tl.store(out, fix + \u03a9)\n    s = \"\ufb01\"\n"
	f, diags := Parse("k.py", []byte(src))
	require.Empty(t, diags.Items)
	s, d := f.Lookup("\u03a9")
	require.Nil(t, d)
	assert.Equal(t, SymGlobal, s.Kind, "the omega the kernel names is the ohm sign's binding")
	fn := f.Func("fill")
	require.NotNil(t, fn, "the ligature in the def's name reads as fi")
	as := fn.Body[0].(*Assign)
	assert.Equal(t, "fix", as.Targets[0].(*Name).ID)
	str := fn.Body[2].(*Assign).Value.(*Const)
	assert.Equal(t, "\ufb01", str.Str, "a string literal is not an identifier")
}
