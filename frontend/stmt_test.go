package frontend

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernel wraps body lines (indented by four spaces) in a @triton.jit def.
func kernel(body string) string {
	var b strings.Builder
	b.WriteString("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, y, BLOCK: tl.constexpr):\n")
	for _, l := range strings.Split(strings.Trim(body, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// dumpBody parses a kernel and dumps its body statements without
// positions.
func dumpBody(t *testing.T, body string) string {
	t.Helper()
	f, dl := Parse("t.py", []byte(kernel(body)))
	require.NoError(t, dl.Err())
	require.Len(t, f.Funcs, 1)
	var b bytes.Buffer
	d := &dumper{w: &b}
	d.stmts(f.Funcs[0].Body)
	var out []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if i := strings.Index(l, "  @"); i >= 0 {
			rest := l[i+3:]
			if j := strings.Index(rest, "  "); j >= 0 {
				l = l[:i] + rest[j:]
			} else {
				l = l[:i]
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestStatements(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"assign", "a = x + 1", "a = (x + 1)"},
		{"multi target", "a = b = 0", "a = b = 0"},
		{"tuple target", "a, b = x, y", "(a, b) = (x, y)"},
		{"aug", "x += 1\ny //= 2\nx <<= 3", "x += 1\ny //= 2\nx <<= 3"},
		{"expr stmt", "tl.store(x, y, mask=m)", "tl.store(x, y, mask=m)"},
		{"if elif else", "if x:\n    pass\nelif y:\n    a = 1\nelse:\n    a = 2",
			"if x:\n  pass\nelse:\n  if y:\n    a = 1\n  else:\n    a = 2"},
		{"for", "for i in range(0, 10, 2):\n    x += i", "for i in range(0, 10, 2):\n  x += i"},
		{"for else", "for i in tl.static_range(4):\n    break\nelse:\n    continue",
			"for i in tl.static_range(4):\n  break\nelse:\n  continue"},
		{"while", "while x < 10:\n    x = x * 2", "while (x < 10):\n  x = (x * 2)"},
		{"return", "return", "return"},
		{"return tuple", "return x, y", "return (x, y)"},
		{"assert", "assert x > 0, 'msg'", "assert (x > 0), \"msg\""},
		{"with", "with x:\n    pass", "<unsupported with statement>"},
		{"try", "try:\n    pass\nexcept Exception:\n    pass", "<unsupported try statement>"},
		{"raise", "raise ValueError('x')", "<unsupported raise statement>"},
		{"global", "global G", "<unsupported global statement>"},
		{"nested def", "def g():\n    pass", "<unsupported nested def>"},
		{"class", "class C:\n    pass", "<unsupported class definition>"},
		{"del", "del x", "<unsupported del statement>"},
		{"import", "import math", "<unsupported import inside a function>"},
		{"from import", "from math import sqrt", "<unsupported import inside a function>"},
		{"nonlocal", "nonlocal y", "<unsupported nonlocal statement>"},
		{"annotated constexpr", "BM: tl.constexpr = x.shape[0]", "BM = x.shape[0]  [annotated tl.constexpr]  [constexpr]"},
		{"annotated other", "n: int = 4", "n = 4  [annotated int]"},
		{"annotated bare constexpr", "N: constexpr = 4", "N = 4  [annotated constexpr]  [constexpr]"},
		{"comment at column 0", "a = 1\n# note\nb = 2", "a = 1\nb = 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, dumpBody(t, tt.body))
		})
	}
}

func TestAnnotatedLocalKeepsColumns(t *testing.T) {
	f, dl := Parse("t.py", []byte(kernel("acc = tl.zeros((BLOCK,), tl.float32)\nBM: tl.constexpr = acc.shape[0]\nz = BM")))
	require.NoError(t, dl.Err())
	a := f.Funcs[0].Body[1].(*Assign)
	assert.True(t, a.Constexpr)
	assert.Equal(t, 7, a.Pos.Line)
	assert.Equal(t, 5, a.Pos.Col)
	assert.Equal(t, 24, a.Value.Position().Col, "value keeps its column")
	require.NotNil(t, a.Annotation)
	assert.Equal(t, 9, a.Annotation.Position().Col)
	assert.Equal(t, 7, a.Annotation.Position().Line)
}
