package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommentSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"x = 1", "x = 1"},
		{"x = a + \\", "x = a + \\ (ends in a backslash)"},
		{"x = 1  # \\  ", "x = 1  # \\ (ends in a backslash)"},
		{"a\nb\rc", "a?b?c"},
		{"tab\there", "tab here"},
		{"bad \xff byte", "bad ? byte"},
		{"ünï \uFFFD", "ünï \uFFFD"},
		{"/* not closed", "/* not closed"},
	} {
		assert.Equal(t, c.want, commentSafe(c.in), "%q", c.in)
	}
}

func TestCString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"add.tri", `"add.tri"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"x\ny", `"x\012y"`},
		{"\x00" + "12", `"\00012"`},
		{"é", `"\303\251"`},
		{"??/", `"\?\?/"`},
	} {
		assert.Equal(t, c.want, cString(c.in), "%q", c.in)
	}
}
