package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTree writes the files of a txtar archive (lines "-- name --" start
// each file; the text before the first is a comment) under dir.
func writeTree(t *testing.T, dir, archive string) {
	t.Helper()
	var name string
	var body strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(body.String()), 0o644))
	}
	for _, line := range strings.SplitAfter(archive, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			body.Reset()
			continue
		}
		body.WriteString(line)
	}
	flush()
}

// testKnown stands for sema's table of Triton names.
func testKnown(p string) bool {
	switch p {
	case "triton", "triton.language", "triton.language.exp", "triton.language.maximum",
		"triton.language.extra", "triton.language.extra.libdevice", "triton.language.extra.libdevice.rsqrt":
		return true
	}
	return false
}

// openTree writes testdata/imports.txtar to a temporary folder and opens
// one of its files with a Loader searching roots (relative to the tree).
func openTree(t *testing.T, main string, roots ...string) *File {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "imports.txtar"))
	require.NoError(t, err)
	writeTree(t, dir, string(src))
	for i, r := range roots {
		roots[i] = filepath.Join(dir, r)
	}
	path := filepath.Join(dir, filepath.FromSlash(main))
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	f, dl := NewLoader(roots, testKnown).Open(path, text)
	require.NoError(t, dl.Err())
	return f
}

// TestLookup: each import form resolves to what Python would bind, and
// module-level if/try statements bind the arm that Python would run.
func TestLookup(t *testing.T) {
	f := openTree(t, "proj/ops/kernel.py", "extra")
	tests := []struct {
		name string
		want string // Symbol.Describe(), or the error's text after the file name
	}{
		{"proj", "module proj"},                            // import proj.ops.helpers binds proj
		{"h", "module proj.ops.helpers"},                   // import ... as
		{"helpers", "module proj.ops.helpers"},             // from . import helpers
		{"twice", "@jit function twice"},                   // from .helpers import
		{"my_exp", "global my_exp"},                        // a module-level alias
		{"rsqrt", "global rsqrt"},                          // an alias of a libdevice function
		{"clamp", "@jit function clamp"},                   // from a sibling
		{"BLOCK", "global BLOCK"},                          // from ..consts
		{"consts", "module proj.consts"},                   // from .. import consts
		{"reexported", "@jit function twice"},              // an __init__.py re-export
		{"by_hasattr", "@jit function by_hasattr"},         // if hasattr(tl, ...)
		{"fast_twice", "@jit function twice"},              // try: missing module, except: sibling
		{"best_max", "triton.language.maximum"},            // try: a name Triton lacks
		{"shared_helper", "@jit function shared_helper"},   // found through a search root
		{"host_only", "host code at"},                      // a def that is not @jit
		{"TABLE", "global TABLE"},                          // host values are globals too, read only if used
		{"myself", "module proj.ops.kernel"},               // a submodule of a package
		{"starred", "global ALL_OPS"},                      // from .ops import * in __init__.py
		{"hidden", "cannot import name _HIDDEN from proj"}, // * leaves out private names
		{"nothing_here", "nothing"},                        // not bound: no error, sema reports it
		{"missing_name", ":10:1: cannot import name missing_name from proj.ops.helpers ("},
		{"x", ":11:1: attempted relative import beyond top-level package: ...beyond from proj.ops.kernel"},
		{"loop", "cyc_a.py:1:1: import cycle: loop in proj.ops.cyc_a is defined through itself"},
		{"thing", ":14:1: no module named proj.ops.nosuch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := f.Lookup(tt.name)
			if d != nil {
				assert.Contains(t, d.Error(), tt.want)
				return
			}
			assert.Contains(t, s.Describe(), tt.want)
		})
	}
	s, d := f.Lookup("BLOCK")
	require.Nil(t, d)
	assert.Equal(t, "4", FormatExpr(s.Global.Value), "computed where it is defined")
	assert.True(t, strings.HasSuffix(s.File.Name, filepath.Join("proj", "consts.py")))
	s, d = f.Lookup("my_exp")
	require.Nil(t, d)
	assert.Equal(t, "tl.exp", FormatExpr(s.Global.Value))
	s, d = f.Lookup("myself")
	require.Nil(t, d)
	assert.Same(t, f, s.File, "the kernel file imported by name is the file itself, read once")
	h1, _ := f.Lookup("h")
	h2, _ := f.Lookup("helpers")
	assert.Same(t, h1.File, h2.File, "one module, however imported")
}

// TestArms: the values of names bound in module-level if and try arms.
func TestArms(t *testing.T) {
	f := openTree(t, "proj/ops/kernel.py")
	h, d := f.Lookup("h")
	require.Nil(t, d)
	for _, tt := range []struct{ name, value string }{
		{"picked_missing", "2"},     // hasattr of a name Triton lacks is false
		{"env_choice", `"plain"`},   // os.environ.get sees an unset variable; BASE_FLAG is 0
		{"unknown_first", "tl.exp"}, // undecidable test: the first arm whose names resolve
		{"after_try", "1"},          // finally runs
	} {
		s, d := h.File.Lookup(tt.name)
		require.Nil(t, d, tt.name)
		require.Equal(t, SymGlobal, s.Kind, tt.name)
		assert.Equal(t, tt.value, FormatExpr(s.Global.Value), tt.name)
	}
	s, d := h.File.Lookup("never")
	require.Nil(t, d)
	assert.Equal(t, SymNone, s.Kind, "the else of a try whose body failed does not run")
	fn := h.File.Func("by_hasattr")
	require.NotNil(t, fn)
	assert.True(t, h.File.Runs(fn))
	assert.Equal(t, 29, fn.Pos.Line, "the if arm, not the else")
	var other *Func
	for _, g := range h.File.Funcs {
		if g.Name == "by_hasattr" && g != fn {
			other = g
		}
	}
	require.NotNil(t, other)
	assert.False(t, h.File.Runs(other))
	assert.Equal(t, 5, other.Pos.Col, "an indented def keeps its column")
}

// TestRelativeImportInScript: a file outside any package cannot import
// relatively, and finds absolute imports in its own folder.
func TestRelativeImportInScript(t *testing.T) {
	f := openTree(t, "script.py")
	_, d := f.Lookup("twice")
	require.NotNil(t, d)
	assert.Contains(t, d.Error(), "script.py:1:1: attempted relative import with no known parent package")
	s, d := f.Lookup("pc")
	require.Nil(t, d)
	assert.Equal(t, "module proj.consts", s.Describe())
}

// TestSearchPath: --root folders come before TRI_PATH's, empty entries are
// dropped.
func TestSearchPath(t *testing.T) {
	sep := string(os.PathListSeparator)
	assert.Equal(t, []string{"r1", "r2", "a", "b"}, SearchPath([]string{"r1", "r2"}, "a"+sep+sep+"b"))
	assert.Empty(t, SearchPath(nil, ""))
}

// TestLoneFile: a file parsed without a Loader sees its own names and
// Triton's, and imports of other modules stand for their paths.
func TestLoneFile(t *testing.T) {
	f, dl := Parse("k.py", []byte("import triton.language as tl\nfrom foo.bar import baz\nX = tl.constexpr(3)\n"))
	require.NoError(t, dl.Err())
	for name, want := range map[string]string{"tl": "triton.language", "baz": "foo.bar.baz", "X": "global X"} {
		s, d := f.Lookup(name)
		require.Nil(t, d)
		assert.Equal(t, want, s.Describe(), name)
	}
}

// TestLookupConcurrent: lookups of one file from many goroutines agree
// (run with -race: the loader's caches are guarded).
func TestLookupConcurrent(t *testing.T) {
	f := openTree(t, "proj/ops/kernel.py", "extra")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, name := range []string{"fast_twice", "h", "BLOCK", "best_max", "shared_helper", "loop"} {
				s, d := f.Lookup(name)
				if name == "loop" {
					assert.NotNil(t, d)
					continue
				}
				assert.Nil(t, d, name)
				assert.NotEqual(t, SymNone, s.Kind, name)
			}
		})
	}
	wg.Wait()
}

// TestOpenRelativePath: a kernel file named relative to the working
// folder, inside its package, still finds its package and root.
func TestOpenRelativePath(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "imports.txtar"))
	require.NoError(t, err)
	writeTree(t, dir, string(src))
	t.Chdir(filepath.Join(dir, "proj", "ops"))
	text, err := os.ReadFile("kernel.py")
	require.NoError(t, err)
	f, dl := NewLoader(nil, testKnown).Open("kernel.py", text)
	require.NoError(t, dl.Err())
	assert.Equal(t, "proj.ops.kernel", f.ModuleName())
	s, d := f.Lookup("BLOCK")
	require.Nil(t, d)
	assert.Equal(t, filepath.Join("..", "..", "proj", "consts.py"), s.File.Name)
}

// TestNestedArms: a try nested in an if arm, and an elif taken on
// hasattr, as in testdata/arms.py.
func TestNestedArms(t *testing.T) {
	f, dl := parseFile(t, "arms.py")
	require.NoError(t, dl.Err())
	s, d := f.Lookup("LIMIT")
	require.Nil(t, d)
	require.Equal(t, SymGlobal, s.Kind, "bound in the finally of a try inside an if")
	assert.Equal(t, "-4", FormatExpr(s.Global.Value))
	s, d = f.Lookup("torch")
	require.Nil(t, d)
	assert.Equal(t, "torch", s.Path, "the try body runs: torch is taken to exist")
	fn := f.Func("act")
	require.NotNil(t, fn)
	assert.Equal(t, 19, fn.Pos.Line, "the elif arm: FAST is unset, tl.exp exists")
	s, d = f.Lookup("libdevice")
	require.Nil(t, d)
	assert.Equal(t, "triton.language.extra.libdevice", s.Path)
}

// TestConstexprFunctionBinding: a @triton.constexpr_function is bound as a
// function kernels call, is not among the file's @jit functions, and host
// code (an autotune config builder) may call it too.
func TestConstexprFunctionBinding(t *testing.T) {
	f, dl := Parse("k.py", []byte("import triton\nimport triton.language as tl\n\n@triton.constexpr_function\ndef blk(n):\n    return n * 2\n\n@tl.constexpr\ndef old(n):\n    return n\n"))
	require.NoError(t, dl.Err())
	assert.Empty(t, f.Funcs)
	for _, name := range []string{"blk", "old"} {
		s, d := f.Lookup(name)
		require.Nil(t, d)
		require.Equal(t, SymFunc, s.Kind, name)
		assert.True(t, s.Func.ConstexprFunction, name)
		require.Contains(t, f.Host, name)
		assert.True(t, strings.HasPrefix(f.Host[name].Source, "def "+name), name)
	}
}

// TestValue: module-level values computed as at import: arithmetic with
// Python's floor division, tl.constexpr's wrapped value, conversions.
func TestValue(t *testing.T) {
	f, dl := Parse("k.py", []byte("import os\nimport triton.language as tl\nBASE = 8\nW = tl.constexpr(2 * BASE)\n"))
	require.NoError(t, dl.Err())
	for src, want := range map[string]string{
		"W + 1": "17", "-7 // 2": "-4", "-7 % 3": "2", "7 % -3": "-2", "2 ** 10": "1024", "1 << 4": "16",
		"BASE / 4": "2.0", "BASE * 0.5": "4.0", "'a' + 'b'": `"ab"`, "int(os.getenv('X', '3')) * BASE": "24",
		"float(BASE) > 7.5": "True", "BASE & 3 | 4": "4", "7 // -3": "-3", "-7 // -2": "3", "7.5 // 2": "3.0", "7.5 % -2": "-0.5",
	} {
		e, d := ParseExpr("x", src)
		require.NoError(t, d.Err(), src)
		k, ok := f.Value(e)
		require.True(t, ok, src)
		assert.Equal(t, want, FormatExpr(k), src)
	}
	for _, src := range []string{"1 // 0", "2 ** -1", "tl.arange(0, 4)", "BASE + 'a'", "1 << 100000"} {
		e, d := ParseExpr("x", src)
		require.NoError(t, d.Err(), src)
		_, ok := f.Value(e)
		assert.False(t, ok, src)
	}
}
