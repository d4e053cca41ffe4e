package cudagen

import (
	"fmt"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"strings"
	"testing"
	"unicode/utf8"

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

func TestCheckArch(t *testing.T) {
	for _, a := range []string{"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120", "sm_100f"} {
		assert.NoError(t, CheckArch(a), a)
	}
	for _, c := range []struct{ arch, want string }{
		{"garbage", `--arch "garbage": want a CUDA architecture`},
		{"", `want a CUDA architecture`},
		{"sm80", `want a CUDA architecture`},
		{"sm_90b", `want a CUDA architecture`},
		{"compute_90", `want a CUDA architecture`},
		{"sm_70", "--arch sm_70: tri generates code for sm_80 and newer"},
		{"sm_75", "sm_80 and newer"},
	} {
		err := CheckArch(c.arch)
		if assert.Error(t, err, c.arch) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
}

// TestArchVersion: a target's compute capability, as the interpreter takes
// it for --arch (launch), 0 where none is named or the name is not sm_XY.
func TestArchVersion(t *testing.T) {
	for arch, want := range map[string]int{"": 0, "sm_80": 80, "sm_86": 86, "sm_89": 89, "sm_90a": 90, "sm_100f": 100, "compute_80": 0} {
		assert.Equal(t, want, ArchVersion(arch), arch)
	}
}

// gen is Generate's source text, for tests that read only the text.
func gen(k *ir.Kernel, opt Options) (string, error) {
	res, err := Generate(k, opt)
	if err != nil {
		return "", err
	}
	return res.Source, nil
}

// TestResultLineMap: every line of the generated CUDA has an entry in the
// line map; the code of a statement maps to its source line, the prelude
// and helpers to none.
func TestResultLineMap(t *testing.T) {
	for _, tc := range testKernels(t) {
		res, err := Generate(tc.K, Options{})
		require.NoError(t, err, tc.Name)
		lines := strings.Split(strings.TrimSuffix(res.Source, "\n"), "\n")
		require.Len(t, res.Lines, len(lines), tc.Name)
		mapped := 0
		for i, l := range lines {
			p, ok := res.SourceLine(i + 1)
			if !ok {
				continue
			}
			mapped++
			if strings.HasPrefix(strings.TrimSpace(l), "// "+p.File+":") {
				assert.True(t, strings.HasPrefix(strings.TrimSpace(l), fmt.Sprintf("// %s:%d:", p.File, p.Line)), "%s line %d: %q mapped to %v", tc.Name, i+1, l, p)
			}
		}
		assert.Positive(t, mapped, tc.Name)
		_, ok := res.SourceLine(1)
		assert.False(t, ok, "the header maps to no source line")
		assert.Equal(t, 32*tc.K.NumWarps, res.Threads)
		assert.Len(t, res.Params, len(tc.K.Params))
	}
}

// A kernel whose name C or tri reserves gets another name in the CUDA,
// which the result gives so that a launch finds the function.
func TestResultNameOfRenamedKernel(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"copy_k", "copy_k"},
		{"printf", "printf_"},
		{"tri_add", "tri_add_"},
		{"e", "e_"},
		{"main", "main_"},
	} {
		k := copyKernel(t)
		k.Name = tc.name
		res, err := Generate(k, Options{})
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, res.Kernel)
		assert.Contains(t, res.Source, " "+tc.want+"(", tc.name)
	}
}

// TestCommentWrap: a comment wider than lineWidth goes onto several
// lines, none wider, broken after commas where it can be, at spaces where
// not, and inside a word only where a word fills a line; every line keeps
// the position of the statement it belongs to.
func TestCommentWrap(t *testing.T) {
	var w writer
	w.indent = 2
	w.at = ir.Pos{File: "k.tri", Line: 7}
	items := make([]string, 30)
	for i := range items {
		items[i] = fmt.Sprintf("item_%d (int)", i)
	}
	w.comment("Parameters: %s", strings.Join(items, ", "))
	w.comment("  #L1 = %s", strings.Repeat("word ", 40))
	w.comment("%s", strings.Repeat("é", 100))
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	require.Greater(t, len(lines), 3)
	var text []string
	for _, l := range lines {
		assert.LessOrEqual(t, len(l), lineWidth, l)
		assert.True(t, strings.HasPrefix(l, "    // "), l)
		assert.True(t, utf8.ValidString(l), l)
		text = append(text, strings.TrimSpace(strings.TrimPrefix(l, "    //")))
	}
	all := strings.Join(text, " ")
	assert.Contains(t, all, "Parameters: "+strings.Join(items, ", "))
	assert.Contains(t, all, strings.TrimSpace(strings.Repeat("word ", 40)))
	assert.Equal(t, strings.Repeat("é", 100), strings.Join(text[len(text)-2:], ""))
	for _, l := range lines {
		if strings.Contains(l, "item_") {
			assert.Regexp(t, `\(int\),?$`, l, "a list breaks after its items")
		}
	}
	assert.Regexp(t, `^    //     word`, lines[len(lines)-3], "a continuation is indented past the text's own indentation")
	assert.Len(t, w.lines, len(lines))
	for _, p := range w.lines {
		assert.Equal(t, 7, p.Line)
	}
	assert.Equal(t, []string{"short"}, wrapText("short", 10, 2))
}
