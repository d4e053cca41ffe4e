package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLimits (the "=" of the assignment counts as the first operator): inputs that would exhaust the stack or the memory of the
// parsers and later passes get a placed error, fast; a kernel just under
// the limits parses.
func TestLimits(t *testing.T) {
	const head = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr):\n    y = "
	for _, c := range []struct {
		name, expr, want string
	}{
		{"unary minuses", strings.Repeat("-", 500000) + "1", "k.tri:6:10008: expression too long: more than 10000 operators in one statement"},
		{"parentheses", strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), "k.tri:6:209: too many nested parentheses: the most is 200, as in Python"},
		{"long sum", strings.Repeat("1+", 1500000) + "1", "k.tri:6:20008: expression too long"},
		{"nots", strings.Repeat("not ", 20000) + "x_ptr", "k.tri:6:40005: expression too long"},
		{"attributes", "tl" + strings.Repeat(".x", 20000), "k.tri:6:20009: expression too long"},
		{"over lines", "(1 +\n" + strings.Repeat("    1 +\n", 10005) + "1)", "expression too long"},
	} {
		src := head + c.expr + "\n    tl.store(x_ptr, y)\n"
		_, diags := Parse("k.tri", []byte(src))
		require.True(t, diags.HasErrors(), c.name)
		assert.Contains(t, diags.Items[0].Error(), c.want, c.name)

		_, diags = ParseExpr("launch", c.expr)
		require.True(t, diags.HasErrors(), c.name)
		assert.Contains(t, diags.Items[0].Error(), "launch:", c.name)
	}
	ok := head + strings.Repeat("-", 9000) + "1 + " + strings.Repeat("(", 150) + "1" + strings.Repeat(")", 150) + "\n    tl.store(x_ptr, y)\n"
	_, diags := Parse("k.tri", []byte(ok))
	assert.False(t, diags.HasErrors(), "%v", diags)
	// Operators inside strings and comments do not count.
	strs := head + "1  # " + strings.Repeat("-", 20000) + "\n    z = '" + strings.Repeat("(", 1000) + "'\n    tl.store(x_ptr, y)\n"
	_, diags = Parse("k.tri", []byte(strs))
	assert.False(t, diags.HasErrors(), "%v", diags)
}
