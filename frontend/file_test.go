package frontend

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
)

// parseFile parses a file under testdata.
func parseFile(t *testing.T, name string) (*File, *diag.List) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return Parse(name, src)
}

// funcNames lists the names of f's @jit functions.
func funcNames(f *File) []string {
	var out []string
	for _, fn := range f.Funcs {
		out = append(out, fn.Name)
	}
	return out
}

// decoratorNames lists the resolved names of fn's decorators.
func decoratorNames(fn *Func) []string {
	var out []string
	for _, d := range fn.Decorators {
		out = append(out, d.Name)
	}
	return out
}

func TestTutorialFiles(t *testing.T) {
	tests := []struct {
		file  string
		funcs []string
		host  []string
	}{
		{"vector_add.py", []string{"add_kernel"}, []string{"add", "benchmark"}},
		{"fused_softmax.py", []string{"softmax_kernel"}, []string{"is_cdna", "is_hip", "naive_softmax", "softmax", "benchmark"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, dl := parseFile(t, tt.file)
			assert.Empty(t, dl.Items)
			assert.Equal(t, tt.funcs, funcNames(f))
			var host []string
			for name, h := range f.Host {
				if !h.Assign {
					host = append(host, name)
				}
			}
			assert.ElementsMatch(t, tt.host, host)
			for _, fn := range f.Funcs {
				assert.Equal(t, []string{"triton.jit"}, decoratorNames(fn))
			}
		})
	}
}

func TestDecorators(t *testing.T) {
	f, dl := parseFile(t, "decorators.py")
	require.NoError(t, dl.Err())
	assert.Equal(t, []string{"tuned", "helper", "dns", "cached"}, funcNames(f))

	tuned := f.Func("tuned")
	assert.Equal(t, []string{"triton.autotune", "triton.heuristics", "triton.jit"}, decoratorNames(tuned))
	auto := tuned.Decorators[0]
	assert.True(t, auto.Call)
	require.Len(t, auto.Keywords, 2)
	assert.Equal(t, "configs", auto.Keywords[0].Name)
	assert.Equal(t, "key", auto.Keywords[1].Name)
	assert.False(t, tuned.Decorators[2].Call)
	assert.Equal(t, 25, auto.Pos.Line)

	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("helper")))
	dns := f.Func("dns")
	assert.Equal(t, []string{"n", "m"}, dns.DoNotSpecialize)
	require.Len(t, dns.Params, 4)
	assert.True(t, dns.Params[3].Constexpr)
	assert.Equal(t, "64", FormatExpr(dns.Params[3].Default))

	cached := f.Func("cached")
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(cached))
	require.Len(t, dl.Items, 1)
	assert.Equal(t, diag.Warning, dl.Items[0].Severity)
	assert.Contains(t, dl.Items[0].Message, "unknown decorator functools.lru_cache skipped")

	assert.Contains(t, f.Host, "get_configs")
	assert.Contains(t, f.Host, "host_helper")
	assert.NotContains(t, f.Host, "uses_fstring", "host code that gpython rejects is skipped")
	assert.True(t, strings.HasPrefix(f.Host["host_helper"].Source, "def host_helper():\n"))
	assert.Equal(t, 61, f.Host["host_helper"].Pos.Line)
}

func TestGlobals(t *testing.T) {
	f, _ := parseFile(t, "decorators.py")
	type g struct {
		name, value string
		constexpr   bool
		line        int
	}
	var got []g
	for _, gl := range f.Globals {
		got = append(got, g{gl.Name, FormatExpr(gl.Value), gl.Constexpr, gl.Pos.Line})
	}
	assert.Equal(t, []g{
		{"BLOCK", "128", true, 8},
		{"HALF", "64", true, 9},
		{"EPS", "1e-05", false, 10},
		{"NAME", "\"rows\"", false, 11},
		{"NEG", "(-3)", false, 12},
	}, got)
}

func TestAliases(t *testing.T) {
	tests := []struct {
		src  string
		want map[string]string
	}{
		{"import triton.language as tl", map[string]string{"tl": "triton.language"}},
		{"from triton import language as tl", map[string]string{"tl": "triton.language"}},
		{"import triton", map[string]string{"triton": "triton"}},
		{"import triton.language", map[string]string{"triton": "triton"}},
		{"import triton.language as language", map[string]string{"language": "triton.language"}},
		{"from triton.language.extra import libdevice", map[string]string{"libdevice": "triton.language.extra.libdevice"}},
		{"from triton.language.extra.cuda import libdevice", map[string]string{"libdevice": "triton.language.extra.libdevice"}},
		{"from triton.language import core", map[string]string{"core": "triton.language"}},
		{"from triton.language import arange, program_id as pid", map[string]string{"arange": "triton.language.arange", "pid": "triton.language.program_id"}},
		{"import torch, numpy as np", map[string]string{"torch": "torch", "np": "numpy"}},
		{"from triton import jit", map[string]string{"jit": "triton.jit"}},
		{"from . import x", map[string]string{}},
		{"from triton.language import *", map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, dl := Parse("t.py", []byte(tt.src+"\n"))
			assert.Empty(t, dl.Items)
			assert.Equal(t, tt.want, f.Aliases)
		})
	}
}

func TestResolve(t *testing.T) {
	f, _ := Parse("t.py", []byte("import triton.language as tl\nfrom triton.language import core\nfrom triton.language.extra.cuda import libdevice\n"))
	assert.Equal(t, "triton.language.arange", f.Resolve("tl.arange"))
	assert.Equal(t, "triton.language.constexpr", f.Resolve("core.constexpr"))
	assert.Equal(t, "triton.language.extra.libdevice.exp", f.Resolve("libdevice.exp"))
	assert.Equal(t, "torch.empty", f.Resolve("torch.empty"))
}

func TestWrappers(t *testing.T) {
	f, dl := parseFile(t, "wrappers.py")
	require.Empty(t, dl.Items)
	assert.Equal(t, []string{"_body", "body_kernel", "tuned", "same", "plain"}, funcNames(f))
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("body_kernel")))
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("_body")))
	assert.Equal(t, []string{"triton.autotune", "triton.jit"}, decoratorNames(f.Func("tuned")))
	assert.Equal(t, []string{"triton.jit"}, decoratorNames(f.Func("same")))
	assert.Equal(t, []string{"triton.heuristics", "triton.jit"}, decoratorNames(f.Func("plain")))
	assert.Len(t, f.Func("body_kernel").Body, 2)
	assert.Equal(t, 5, f.Func("body_kernel").Pos.Line)
	assert.NotContains(t, f.Host, "_body")
	assert.NotContains(t, f.Host, "same")
}

var markerRE = regexp.MustCompile(`(ERROR|WARNING) "((?:[^"\\]|\\.)*)"`)

func TestErrorMarkers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "errors", "*.py"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			type marker struct {
				sev  diag.Severity
				re   *regexp.Regexp
				used bool
			}
			markers := map[int][]*marker{}
			for i, line := range strings.Split(string(src), "\n") {
				for _, m := range markerRE.FindAllStringSubmatch(line, -1) {
					sev := diag.Error
					if m[1] == "WARNING" {
						sev = diag.Warning
					}
					markers[i+1] = append(markers[i+1], &marker{sev: sev, re: regexp.MustCompile(m[2])})
				}
			}
			_, dl := Parse(path, src)
			for _, d := range dl.Items {
				found := false
				for _, m := range markers[d.Pos.Line] {
					if !m.used && m.sev == d.Severity && m.re.MatchString(d.Message) {
						m.used, found = true, true
						break
					}
				}
				assert.True(t, found, "unexpected diagnostic %v", d)
			}
			for line, ms := range markers {
				for _, m := range ms {
					assert.True(t, m.used, "line %d: no %v matching %q", line, m.sev, m.re)
				}
			}
		})
	}
}

func TestErrorPositions(t *testing.T) {
	f, dl := parseFile(t, "errors/syntax.py")
	assert.Equal(t, []string{"good", "varargs", "fstring", "unknown_deco", "bad_dns"}, funcNames(f))
	var got []string
	for _, d := range dl.Items {
		if d.Severity == diag.Error {
			got = append(got, d.Pos.String())
		}
	}
	assert.Equal(t, []string{"errors/syntax.py:8:32", "errors/syntax.py:18:17", "errors/syntax.py:22:29"}, got)
}

func TestDecoratorArgsText(t *testing.T) {
	f, _ := parseFile(t, "decorators.py")
	tuned := f.Func("tuned")
	auto, heur := tuned.Decorators[0], tuned.Decorators[1]
	assert.True(t, strings.HasPrefix(auto.ArgsText, "(\n    configs=[\n"), auto.ArgsText)
	assert.True(t, strings.HasSuffix(auto.ArgsText, "key=['n_elements'],\n)"), auto.ArgsText)
	assert.Equal(t, "decorators.py:25:17", auto.ArgsPos.String())
	assert.Equal(t, "({'EVEN': lambda args: args['n_elements'] % args['BLOCK_SIZE'] == 0})", heur.ArgsText)
	assert.Equal(t, "decorators.py:32:19", heur.ArgsPos.String())
	assert.Empty(t, tuned.Decorators[2].ArgsText, "@triton.jit is not a call")
	assert.Equal(t, `(do_not_specialize=["n", 2], launch_metadata=None)`, f.Func("dns").Decorators[0].ArgsText)

	w, _ := parseFile(t, "wrappers.py")
	assert.Equal(t, "({'EVEN': lambda args: True})", w.Func("plain").Decorators[0].ArgsText)
	assert.Equal(t, "wrappers.py:25:26", w.Func("plain").Decorators[0].ArgsPos.String())
	assert.Equal(t, "(configs=[triton.Config({})], key=[])", w.Func("tuned").Decorators[0].ArgsText)
}

func TestCallArgsSpan(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"f(a, (b), [c])", "(a, (b), [c])"},
		{"a.b.c (x)", "(x)"},
		{"f(')', \"(\", '''\n)''') + 1", "(')', \"(\", '''\n)''')"},
		{"f(a,  # )\n  b)", "(a,  # )\n  b)"},
		{"f(a, b", ""},
		{"f[a]", ""},
		{"f(a]", ""},
		{"(a)", ""},
	}
	for _, tt := range tests {
		open, end, ok := callArgsSpan(tt.text, 0)
		got := ""
		if ok {
			got = tt.text[open:end]
		}
		assert.Equal(t, tt.want, got, tt.text)
	}
}

func TestHostAssignments(t *testing.T) {
	f, _ := parseFile(t, "decorators.py")
	for _, name := range []string{"BLOCK", "HALF", "EPS", "DEVICE", "a"} {
		require.Contains(t, f.Host, name)
		assert.True(t, f.Host[name].Assign, name)
	}
	assert.Equal(t, "HALF               = 64\n", f.Host["HALF"].Source, "the annotation is blanked")
	assert.Equal(t, 13, f.Host["DEVICE"].Pos.Line)
	assert.False(t, f.Host["get_configs"].Assign)

	src := "def f():\n    return 1\nf = 2\ng = 3\ndef g():\n    return 4\n"
	f2, dl := Parse("t.py", []byte(src))
	require.NoError(t, dl.Err())
	assert.True(t, f2.Host["f"].Assign, "the later binding wins")
	assert.False(t, f2.Host["g"].Assign, "the later binding wins")

	w, _ := parseFile(t, "wrappers.py")
	assert.NotContains(t, w.Host, "plain", "a wrapper is not host code")
	assert.NotContains(t, w.Host, "tuned")
}
