package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModernSyntax checks each construct newer than gpython's grammar, in
// a kernel (what the converter makes of it) and in host code (that the
// file is accepted).
func TestModernSyntax(t *testing.T) {
	tests := []struct {
		name   string
		stmt   string // a statement in the kernel k(x, N)
		want   string // FormatExpr of its value
		pos    string // position of the node inside the value that matters
		inner  func(Expr) Expr
		host   string // host code that must be accepted
		noHost bool   // the host def is not handed to gpython's interpreter
	}{
		{name: "f-string", stmt: `y = f"N={N}!"`, want: `f'N={N}!'`, pos: "m.py:8:14",
			inner: func(e Expr) Expr { return e.(*FString).Parts[1].X },
			host:  "def h(x):\n    return f'{x!r:>4} {{x}}'\n"},
		{name: "f-string joined", stmt: "y = ('a{' f'{N + 1}'\n         rf'\\{N=}')", want: `f'a{{{(N + 1)}\N={N!r}'`, pos: "m.py:9:19",
			inner: func(e Expr) Expr { return e.(*FString).Parts[3].X }},
		{name: "f-string in triple quotes", stmt: "y = f'''\n{N}'''", want: "f'\n    {N}'", pos: "m.py:9:6",
			inner: func(e Expr) Expr { return e.(*FString).Parts[1].X }},
		{name: "trailing comma after **kwargs in a call", stmt: "y = g(x, **kw,)", want: "g(x, <unsupported **kwargs argument>)",
			host: "def h(*a, **kw,):\n    return g(*a, **kw,)\n"},
		{name: "positional after *args", stmt: "y = g(*x, N)", want: "g(*x, N)", pos: "m.py:8:12",
			inner: func(e Expr) Expr { return e.(*Call).Args[0].(*Starred).X },
			host:  "def h(a, b):\n    return max(*a, *b, 0)\n", noHost: true},
		{name: "walrus", stmt: "y = (z := N)", want: "<unsupported the walrus operator :=>", pos: "m.py:8:10",
			inner: func(e Expr) Expr { return e },
			host:  "def h(a):\n    if (n := len(a)) > 3:\n        return n\n", noHost: true},
		{name: "keyword-only default with trailing comma", host: "def h(a, *, b=1,):\n    return a\n"},
		{name: "dict unpacking", stmt: "y = {'a': N, **d, 'b': x ** 2}", want: `{"a": N, **d, "b": (x ** 2)}`, pos: "m.py:8:20",
			inner: func(e Expr) Expr { return e.(*Dict).Values[1] },
			host:  "def h(a, **kw):\n    return {**(a or {}), **kw}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stmt != "" {
				src := smallKernel + "    " + strings.ReplaceAll(tt.stmt, "\n", "\n    ") + "\n"
				f, dl := Parse("m.py", []byte(src))
				require.NoError(t, dl.Err())
				require.Len(t, f.Funcs, 1)
				a := f.Funcs[0].Body[len(f.Funcs[0].Body)-1].(*Assign)
				assert.Equal(t, tt.want, FormatExpr(a.Value))
				if tt.inner != nil {
					assert.Equal(t, tt.pos, tt.inner(a.Value).Position().String())
				}
			}
			if tt.host != "" {
				f, dl := Parse("m.py", []byte(tt.host+smallKernel))
				require.NoError(t, dl.Err())
				assert.Equal(t, []string{"k"}, funcNames(f))
				_, ok := f.Host["h"]
				assert.Equal(t, !tt.noHost, ok, "h among the host functions")
			}
		})
	}
}

func TestModernizeKeepsColumns(t *testing.T) {
	src := "print(rf'a{x}', *a, b, **k,)\nif (n := 3) > 2:\n    pass\n"
	out, rw := modernize(src)
	assert.Equal(t, "print( r'a{x}',  a, b, **k )\nif (n == 3) > 2:\n    pass\n", out)
	assert.True(t, rw.changesHostMeaning())
	same, rw := modernize("f(a, *b, c=1)\nx = [*a, *b]\n(a,)\n")
	assert.Equal(t, "f(a, *b, c=1)\nx = [*a, *b]\n(a,)\n", same)
	assert.False(t, rw.changesHostMeaning())
	// An unpacked dict: "**" becomes a key, and comes back in the text that
	// Python reads; ** as a power is kept.
	unpacked, rw := modernize("h({'a': 1, **d, 'b': x ** 2}, {\n  **e})\n")
	assert.Equal(t, "h({'a': 1, 0:d, 'b': x ** 2}, {\n  0:e})\n", unpacked)
	assert.False(t, rw.changesHostMeaning(), "host code with it keeps its meaning")
	assert.Equal(t, "h({'a': 1, **d, 'b': x ** 2}, {\n  **e})\n", rw.restoreUnpacks(unpacked))
}

// The text that host code is read from gets its f-strings back, prefix
// and all, in their columns.
func TestRestoreFStrings(t *testing.T) {
	src := "x = (rf'a{b}' 'c'\n     F\"\"\"{d}\n\"\"\")\n"
	out, rw := modernize(src)
	assert.NotEqual(t, src, out)
	assert.False(t, rw.changesHostMeaning())
	assert.Equal(t, src, rw.restoreFStrings(out))
}

func TestTabError(t *testing.T) {
	tests := []struct {
		name, body string
		err        string // "" for none
	}{
		{"tab then 8 spaces", "\tif N > 0:\n\t\tpass\n        pass\n", "m.py:10:1: TabError: inconsistent use of tabs and spaces in indentation"},
		{"space and tab deeper", "\tif N > 0:\n\t        pass\n", ""},
		{"tabs only", "\tif N > 0:\n\t\tpass\n\tpass\n", ""},
		{"bad dedent", "    if N > 0:\n        pass\n      pass\n", "m.py:10:1: IndentationError: unindent does not match any outer indentation level"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, N: tl.constexpr):\n    pass\ndef k2(N):\n" + tt.body
			_, dl := Parse("m.py", []byte(src))
			if tt.err == "" {
				assert.NoError(t, dl.Err())
				return
			}
			require.Error(t, dl.Err())
			assert.Equal(t, tt.err, dl.Items[0].Error())
		})
	}
}
