package autotune

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-python/gpython/py"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	_ "github.com/tri-lang/tri/hostpy" // the interpreter that host Python runs in
)

func TestExpandFStrings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"'a{b}' + f", "'a{b}' + f"},
		{"f'C{i+1}{j}'", "('C' + __tri_fmt__((i+1), '', '') + __tri_fmt__((j), '', ''))"},
		{"rf'\\d{{{x!r:>4}}}'", "(r'\\d{' + __tri_fmt__((x), 'r', '>4') + r'}')"},
		{"f'''a\n{x=}'''  # f'{y}'", "('''a\nx=''' + __tri_fmt__((x), 'r', ''))  # f'{y}'"},
		{"f'{x:{w}.2f}'", "(__tri_fmt__((x), '', (__tri_fmt__((w), '', '') + '.2f')))"},
		{"F\"{d['k']}\"", "(__tri_fmt__((d['k']), '', ''))"},
		{"f''", "''"},
	} {
		assert.Equal(t, c.want, expandFStrings(c.in), c.in)
	}
}

// The rewritten f-strings, str.format and str.join give what CPython
// gives.
func TestHostStringFormatting(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"f'C{i+1}{j+1}'", "C23"},
		{"f'{x!r:>6}|{s:<4}|{s!r}'", "   2.5|ab  |'ab'"},
		{"f'{n:05d} {n:,} {-n:+} {n:x} {n:#^9}'", "01234 1,234 -1234 4d2 ##1234###"},
		{"f'{x:.3f} {x:e} {x:.1%} {x=}'", "2.500 2.500000e+00 250.0% x=2.5"},
		{"'{0} {name} {0[1]}'.format(l, name=s)", "[1, 2] ab 2"},
		{"'{out_reg}:{in_reg:>3}'.format(out_reg=i, in_reg=j)", "1:  2"},
		{"' '.join('a\\nb'.split('\\n')).upper()", "A B"},
	} {
		t.Run(c.expr, func(t *testing.T) {
			ctx := py.NewContext(py.ContextOpts{})
			defer ctx.Close()
			g := py.StringDict{fmtName: py.MustNewMethod(fmtName, (&guard{}).fmtField, 0, ""),
				"i": py.Int(1), "j": py.Int(2), "n": py.Int(1234), "x": py.Float(2.5), "s": py.String("ab"),
				"l": py.NewListFromItems([]py.Object{py.Int(1), py.Int(2)})}
			code, err := py.Compile(forGpython(c.expr), "<test>", py.EvalMode, 0, true)
			require.NoError(t, err)
			got, err := ctx.RunCode(code, g, g, nil)
			require.NoError(t, err)
			assert.Equal(t, py.String(c.want), got)
		})
	}
}

// A host function with an f-string builds configs (xformers' gen_config
// names pre-hook arguments with one).
func TestFStringHostFunction(t *testing.T) {
	src := strings.Join([]string{
		"import triton",
		"def cfg(bm, split=1):",
		"    names = [f'C{i+1}{j+1}' for i in range(2) for j in range(2)] if split > 1 else []",
		"    return triton.Config({'BM': bm, 'TAG': len(f'{names}')}, num_warps=4)",
		"CONFIGS = [cfg(32), cfg(64, split=2)]",
		"",
	}, "\n")
	f, diags := frontend.Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	require.Contains(t, f.Host, "cfg", "a host function with f-strings is offered to the interpreter")
	sf := &Source{Path: "k.py", Text: []byte(src), File: f}
	h, err := newHostPython(sf, func() string { return "sm_90" }, Host{Timeout: time.Second}, io.Discard)
	require.NoError(t, err)
	v, err := h.eval("[c.kwargs['TAG'] for c in CONFIGS]", f.Host["CONFIGS"].Pos, "test")
	require.NoError(t, err)
	r, err := py.Repr(v)
	require.NoError(t, err)
	assert.Equal(t, py.String("[2, 28]"), r)
}
