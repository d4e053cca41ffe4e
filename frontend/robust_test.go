package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const smallKernel = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, N: tl.constexpr):\n    offs = tl.arange(0, N)\n    tl.store(x_ptr + offs, offs)\n"

func TestRobustInputs(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		funcs []string
	}{
		{"empty", "", nil},
		{"only comments", "# hello\n\n# world", nil},
		{"no kernels", "import torch\nx = torch.randn(3)\nprint(f'{x}')\n", nil},
		{"crlf", strings.ReplaceAll(smallKernel, "\n", "\r\n"), []string{"k"}},
		{"lone cr", strings.ReplaceAll(smallKernel, "\n", "\r"), []string{"k"}},
		{"bom", "\ufeff" + smallKernel, []string{"k"}},
		{"tabs", strings.ReplaceAll(smallKernel, "    ", "\t"), []string{"k"}},
		{"no final newline", strings.TrimSuffix(smallKernel, "\n"), []string{"k"}},
		{"modern host code", "import torch\nx: int = 1_000\ny = (z := 3)\nprint(f'{x}', *[1], sep='')\nm = a @ b\nasync def f():\n    await g()\nmatch x:\n    case 1:\n        pass\n" + smallKernel, []string{"k"}},
		{"try and if blocks", "try:\n    import foo\nexcept ImportError:\n    foo = None\nelse:\n    pass\nfinally:\n    pass\nif foo:\n    x = 1\nelif 2:\n    x = 2\nelse:\n    x = {\n        **a,\n        'b': 1,\n    }\n" + smallKernel, []string{"k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, dl := Parse("t.py", []byte(tt.src))
			require.NotNil(t, f)
			assert.NoError(t, dl.Err())
			assert.Equal(t, tt.funcs, funcNames(f))
		})
	}
}

// TestHostSyntaxErrors: a file Python could not import is an error even
// where the fault is outside every kernel.
func TestHostSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"non-utf8 host", "x = '\xff\xfe'\n" + smallKernel, "t.py:1:6: syntax error: Non-UTF-8 code starting with '\\xff'"},
		{"null byte", "x = 1\x00\n" + smallKernel, "t.py:1:6: syntax error: source code cannot contain null bytes"},
		{"indented junk first", "    x = 1\n" + smallKernel, "t.py:1:"},
		{"decorator at end of file", smallKernel + "@triton.jit\n", "t.py:8:"},
		{"double equals", "import triton\nx = = 3\n" + smallKernel, "t.py:2:"},
		{"import (", "import (\n" + smallKernel, "t.py:"},
		{"unclosed bracket in host", "x = foo(1,\n\n" + smallKernel, "t.py:"},
	} {
		_, dl := Parse("t.py", []byte(c.src))
		if assert.Error(t, dl.Err(), c.name) {
			assert.Contains(t, dl.Err().Error(), c.want, c.name)
		}
	}
}

func TestCRLFPositions(t *testing.T) {
	f, dl := Parse("t.py", []byte(strings.ReplaceAll(smallKernel, "\n", "\r\n")))
	require.NoError(t, dl.Err())
	st := f.Funcs[0].Body[1].(*ExprStmt)
	assert.Equal(t, "t.py:7:5", st.Pos.String())
	assert.Equal(t, "t.py:7:28", st.X.(*Call).Args[1].Position().String())
}

func TestSplit(t *testing.T) {
	src := `import triton
import triton.language as tl
DOC = """
def not_a_kernel():
    pass
"""
X = (1 +
2)
Y = 3 + \
4
@triton.jit
def k(a,
b):  # a parenthesized header spanning lines
    s = """text
at column 0
"""
# a comment at column 0 inside the body
    return s
@triton.jit
def k2():
    pass
`
	f, dl := Parse("t.py", []byte(src))
	require.NoError(t, dl.Err())
	assert.Equal(t, []string{"k", "k2"}, funcNames(f))
	require.Len(t, f.Funcs[0].Body, 2)
	assert.Equal(t, "t.py:18:5", f.Funcs[0].Body[1].Position().String())
	assert.Equal(t, "t.py:12:1", f.Funcs[0].Pos.String())
	assert.Equal(t, "t.py:13:1", f.Funcs[0].Params[1].Pos.String())
	var names []string
	for _, g := range f.Globals {
		names = append(names, g.Name+"="+FormatExpr(g.Value))
	}
	assert.Equal(t, []string{"DOC=\"\\ndef not_a_kernel():\\n    pass\\n\"", "X=(1 + 2)", "Y=(3 + 4)"}, names)
}

func TestPositions(t *testing.T) {
	src := kernel("offs = tl.arange(0, BLOCK)[:, None] * 2\nif x > 0:\n    y = tl.load(x + offs, mask=offs < 4)")
	f, dl := Parse("p.py", []byte(src))
	require.NoError(t, dl.Err())
	fn := f.Funcs[0]
	assert.Equal(t, "p.py:5:1", fn.Pos.String())
	assert.Equal(t, "p.py:5:7", fn.Params[0].Pos.String())
	assert.Equal(t, "p.py:5:13", fn.Params[2].Pos.String())
	a := fn.Body[0].(*Assign)
	assert.Equal(t, "p.py:6:5", a.Pos.String())
	assert.Equal(t, "p.py:6:5", a.Targets[0].Position().String())
	mul := a.Value.(*Binary)
	assert.Equal(t, "p.py:6:12", mul.Pos.String())
	assert.Equal(t, "p.py:6:43", mul.Y.Position().String())
	sub := mul.X.(*Subscript)
	assert.Equal(t, "p.py:6:12", sub.Pos.String())
	assert.Equal(t, "p.py:6:12", sub.X.Position().String())
	ifs := fn.Body[1].(*If)
	assert.Equal(t, "p.py:7:5", ifs.Pos.String())
	assert.Equal(t, "p.py:7:8", ifs.Cond.Position().String())
	call := ifs.Then[0].(*Assign).Value.(*Call)
	assert.Equal(t, "p.py:8:13", call.Pos.String())
	assert.Equal(t, "p.py:8:31", call.Keywords[0].Pos.String())
	assert.Equal(t, "p.py:8:36", call.Keywords[0].Value.Position().String())
}

func TestDumpSmoke(t *testing.T) {
	f, _ := parseFile(t, "decorators.py")
	var b strings.Builder
	Dump(&b, f)
	out := b.String()
	for _, want := range []string{
		"alias tl = triton.language",
		"constexpr global BLOCK = 128  @8:1",
		"jit def tuned  @34:1",
		"decorator triton.heuristics(",
		"param BLOCK_SIZE: tl.constexpr  [constexpr]  @34:30",
		"if EVEN:  @37:5",
		"do_not_specialize n, m",
		"host def get_configs  @65",
	} {
		assert.Contains(t, out, want)
	}
}

func TestParamsAndConstexprSpellings(t *testing.T) {
	src := `import triton
from triton.language import constexpr
import triton.language as language

@triton.jit
def k(a, b: constexpr, c: language.constexpr = 4, d: triton.language.constexpr = 1, e: int = 2, *, f: constexpr = 8):
    pass
`
	f, dl := Parse("t.py", []byte(src))
	require.NoError(t, dl.Err())
	type p struct {
		name      string
		constexpr bool
		def       string
	}
	var got []p
	for _, prm := range f.Funcs[0].Params {
		def := ""
		if prm.Default != nil {
			def = FormatExpr(prm.Default)
		}
		got = append(got, p{prm.Name, prm.Constexpr, def})
	}
	assert.Equal(t, []p{{"a", false, ""}, {"b", true, ""}, {"c", true, "4"}, {"d", true, "1"}, {"e", false, "2"}, {"f", true, "8"}}, got)
}

func TestTlWithoutImport(t *testing.T) {
	f, dl := Parse("t.py", []byte("@jit\ndef k(N: tl.constexpr):\n    M: tl.constexpr = N\n"))
	require.NoError(t, dl.Err())
	require.Len(t, f.Funcs, 1)
	assert.True(t, f.Funcs[0].Params[0].Constexpr)
	assert.True(t, f.Funcs[0].Body[0].(*Assign).Constexpr)
}

func TestSkippedTopLevel(t *testing.T) {
	src := "async def a():\n    pass\n@dataclass\nclass C:\n    x: int = 1\nfor i in range(3):\n    print(i)\nwith open('f') as f:\n    pass\nx = (y := 3)\n" + smallKernel
	f, dl := Parse("t.py", []byte(src))
	require.NoError(t, dl.Err())
	assert.Equal(t, []string{"k"}, funcNames(f))
	assert.Empty(t, f.Globals)
	assert.Empty(t, f.Host)
}

func TestNonUTF8InKernel(t *testing.T) {
	src := smallKernel + "    s = '\xff'\n"
	f, dl := Parse("t.py", []byte(src))
	for _, d := range dl.Items {
		assert.True(t, d.Pos.IsValid(), "%v", d)
	}
	require.NotNil(t, f)
}

// TestNonASCIIIdentifiers: a kernel's name and locals may hold non-ASCII
// letters (Python 3); the name is read whole, not cut at the first one.
func TestNonASCIIIdentifiers(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef addé_kernel(x_ptr):\n    vé = tl.load(x_ptr)\n    tl.store(x_ptr, vé + 1.0)\n"
	f, dl := Parse("t.py", []byte(src))
	require.NoError(t, dl.Err())
	assert.Equal(t, []string{"addé_kernel"}, funcNames(f))
}

// TestHostWalrusJudged: the walrus operator is rewritten for gpython, so a
// host statement that uses it is checked like any other.
func TestHostWalrusJudged(t *testing.T) {
	_, dl := Parse("t.py", []byte("import triton\nif (n := 3) > = 2:\n    pass\n"+smallKernel))
	assert.Error(t, dl.Err())
	_, dl = Parse("t.py", []byte("import triton\nif (n := 3) >= 2:\n    pass\n"+smallKernel))
	assert.NoError(t, dl.Err())
}

// TestNestedSyntaxErrorOnce: a syntax error inside a module-level if is
// reported once, whether in host code or in a @jit def.
func TestNestedSyntaxErrorOnce(t *testing.T) {
	for _, src := range []string{
		"import triton\nif x:\n    y = = 1\n    @triton.jit\n    def k(p):\n        pass\n",
		"import triton\nif x:\n    @triton.jit\n    def k(p):\n        y = = 1\n",
	} {
		_, dl := Parse("t.py", []byte(src))
		require.Error(t, dl.Err())
		assert.Len(t, dl.Items, 1, src)
	}
}
