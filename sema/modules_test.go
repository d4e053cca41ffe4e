package sema

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// modTree is a package whose modules a kernel imports from.
var modTree = map[string]string{
	"pkg/__init__.py": "",
	"pkg/consts.py":   "import triton.language as tl\nBASE = 4\nBLOCK = 2 * BASE\nWIDE = tl.constexpr(BLOCK * 2)\nSELF = SELF + 1\n",
	"pkg/helpers.py": "import torch\nimport triton\nimport triton.language as tl\nfrom .consts import BASE\n\nmy_exp = tl.exp\nDEV = torch.device('cuda')\n\n" +
		"@triton.jit\ndef plus_base(x):\n    return x + BASE\n\ndef host(x):\n    return x\n\n@triton.jit\ndef store_one(p):\n    tl.store(p, 1.0)\n",
}

// openKernel writes modTree and a kernel module pkg/k.py with body and
// opens it as sema's callers do.
func openKernel(t *testing.T, body string) *frontend.File {
	t.Helper()
	dir := t.TempDir()
	for name, text := range modTree {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	src := "import triton\nimport triton.language as tl\nfrom . import consts\nfrom .consts import BLOCK, WIDE, SELF\nfrom .helpers import my_exp, plus_base, DEV, host, store_one\n\n" + body
	path := filepath.Join(dir, "pkg", "k.py")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	f, d := frontend.NewLoader(nil, KnownPath).Open(path, []byte(src))
	require.NoError(t, d.Err())
	return f
}

// TestImportedNames: helpers, computed constexpr globals and aliases from
// other modules compile as if written in the kernel's file; each one's
// names resolve in its own module.
func TestImportedNames(t *testing.T) {
	f := openKernel(t, "@triton.jit\ndef k(p):\n    offs = tl.arange(0, BLOCK + consts.BLOCK)\n    x = tl.load(p + offs)\n    y = plus_base(my_exp(x)) + WIDE\n    tl.store(p + offs, y)\n")
	k, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
	require.NoError(t, diags.Err())
	require.NoError(t, ir.Verify(k))
	text := printed(k)
	assert.Contains(t, text, "arange 0, 16")
	assert.Contains(t, text, "exp")
}

// TestImportedNameErrors: what a kernel cannot take from another module,
// with the place of each error.
func TestImportedNameErrors(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"    tl.store(p, DEV)\n", "helpers.py:7:7: torch is not Triton, a module that kernels cannot use"},
		{"    tl.store(p, host(1.0))\n", "k.py:9:17: host is defined by host code"},
		{"    tl.store(p, SELF)\n", "consts.py:5:8: global SELF is defined in terms of itself"},
		{"    tl.store(p, consts.NOPE)\n", "k.py:9:17: module pkg.consts ("},
	} {
		f := openKernel(t, "@triton.jit\ndef k(p):\n"+tt.body)
		_, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
		require.Error(t, diags.Err(), tt.body)
		assert.Contains(t, diags.Err().Error(), tt.want, tt.body)
	}
}

// TestCheckFollowsImports: tri check resolves imported names and module
// attributes like a build does.
func TestCheckFollowsImports(t *testing.T) {
	f := openKernel(t, "@triton.jit\ndef k(p):\n    tl.store(p, plus_base(consts.BLOCK) + my_exp(1.0) + consts.NOPE)\n")
	err := Check(f).Err()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.py:9:57: module pkg.consts (")
	assert.Contains(t, err.Error(), "has no attribute NOPE")
	f = openKernel(t, "@triton.jit\ndef k(p):\n    tl.store(p, plus_base(consts.BLOCK) + my_exp(1.0))\n")
	assert.NoError(t, Check(f).Err())
}

// TestConstexprFunction: a @triton.constexpr_function (also spelled
// tl.constexpr_function, or tl.constexpr applied to a def) computes a compile-time value from compile-time
// arguments; a runtime argument is an error at the call.
func TestConstexprFunction(t *testing.T) {
	const src = header + "@triton.constexpr_function\ndef block_for(n):\n    if n > 64:\n        return 64\n    return triton.next_power_of_2(n)\n\n" +
		"@tl.constexpr\ndef same(x):\n    return x\n\n@tl.constexpr_function\ndef twice_c(x):\n    return 2 * x\n\n" +
		"@triton.jit\ndef k(p, N: tl.constexpr):\n    B: tl.constexpr = block_for(twice_c(N) // 2)\n    offs = tl.arange(0, B)\n    tl.store(p + offs, offs + same(N))\n\n" +
		"@triton.jit\ndef bad(p):\n    tl.store(p, same(tl.load(p)))\n"
	for n, want := range map[int64]string{33: "arange 0, 64", 17: "arange 0, 32", 500: "arange 0, 64"} {
		k := compile(t, src, "k", sig(ptr(ir.Int32), cInt(n)))
		assert.Contains(t, printed(k), want, n)
	}
	_, err := tryCompile(t, src, "bad", sig(ptr(ir.Int32)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:26:17: same is a @triton.constexpr_function: its argument x must be a compile-time value")
}

// TestImportedKernel: a kernel that the file imports is compiled with its
// own file's name and lines.
func TestImportedKernel(t *testing.T) {
	f := openKernel(t, "")
	k, diags := Specialize(f, "store_one", sig(ptr(ir.Float32)))
	require.NoError(t, diags.Err())
	assert.Equal(t, "helpers.py", filepath.Base(k.File))
	assert.Contains(t, k.Source, "def store_one(p):")
}

// TestCheckMatchesSpecialize: a kernel's use of a host function, of a
// module outside Triton, or of a global whose value uses one, is the same
// error under Check as under Specialize.
func TestCheckMatchesSpecialize(t *testing.T) {
	for _, body := range []string{
		"    tl.store(p, host(1.0))\n",
		"    tl.store(p, DEV)\n",
		"    tl.store(p, torch.float16)\n",
	} {
		f := openKernel(t, "import torch\n\n@triton.jit\ndef k(p):\n"+body)
		_, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
		built := diags.Err()
		require.Error(t, built, body)
		checked := Check(f).Err()
		require.Error(t, checked, body)
		assert.Equal(t, built.Error(), checked.Error(), body)
	}
}

// TestGlobalsComputedAtImport: module-level flags computed with hasattr
// and os.environ.get take the values Python computes at import.
func TestGlobalsComputedAtImport(t *testing.T) {
	const src = "import os\nimport triton\nimport triton.language as tl\n\nHAS_EXP = hasattr(tl, 'exp')\nHAS_NOPE = hasattr(triton.language, 'no_such_op')\n" +
		"FAST = os.environ.get('FAST', '0') == '1'\nSPLITS = int(os.environ.get('SPLITS', '32'))\nHALF = float(os.getenv('HALF', 0))\n\n" +
		"@triton.jit\ndef k(p):\n    if HAS_EXP and not HAS_NOPE and not FAST:\n        tl.store(p, 7 + SPLITS + HALF)\n    else:\n        tl.store(p, 9)\n"
	f, d := frontend.NewLoader(nil, KnownPath).Open("k.tri", []byte(src))
	require.NoError(t, d.Err())
	k, diags := Specialize(f, "k", sig(ptr(ir.Int32)))
	require.NoError(t, diags.Err())
	text := printed(k)
	assert.Contains(t, text, "39")
	assert.NotContains(t, text, "const 9")
	assert.NoError(t, Check(f).Err())
}

// TestGlobalErrorNotesUse: an error in another module's global notes the
// kernel's use of it.
func TestGlobalErrorNotesUse(t *testing.T) {
	f := openKernel(t, "@triton.jit\ndef k(p):\n    tl.store(p, DEV)\n")
	_, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
	require.True(t, diags.HasErrors())
	d := diags.Items[0]
	assert.Equal(t, "helpers.py", filepath.Base(d.Pos.File))
	require.Len(t, d.Notes, 1)
	assert.Equal(t, "the kernel uses DEV here", d.Notes[0].Message)
	assert.Equal(t, "k.py:9:17", filepath.Base(d.Notes[0].Pos.String()))
}

// TestHostValueFallback: a global sema cannot compute takes the loader's
// host evaluator's value, and its errors go; without a value they stay.
func TestHostValueFallback(t *testing.T) {
	const src = "import triton\nimport triton.language as tl\n\ndef _block():\n    return 64\n\nBLOCK = tl.constexpr(_block())\n\n" +
		"@triton.jit\ndef k(p):\n    tl.store(p + tl.arange(0, BLOCK), 1.0)\n"
	for _, tt := range []struct {
		value *frontend.Const
		want  string
	}{
		{&frontend.Const{Kind: frontend.ConstInt, Int: big.NewInt(64)}, ""},
		{nil, "k.tri:7:22: _block is defined by host code"},
	} {
		l := frontend.NewLoader(nil, KnownPath)
		f, d := l.Open("k.tri", []byte(src))
		require.NoError(t, d.Err())
		var asked []string
		l.SetHost(func(_ *frontend.File, name string) (*frontend.Const, error) {
			asked = append(asked, name)
			if tt.value == nil {
				return nil, errors.New("no value")
			}
			return tt.value, nil
		})
		k, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
		checked := Check(f).Err()
		assert.Equal(t, []string{"BLOCK", "BLOCK"}, asked)
		if tt.want == "" {
			require.NoError(t, diags.Err())
			assert.Contains(t, printed(k), "arange 0, 64")
			assert.NoError(t, checked)
			continue
		}
		require.Error(t, diags.Err())
		assert.Contains(t, diags.Err().Error(), tt.want)
		require.Error(t, checked)
		assert.Contains(t, checked.Error(), tt.want)
	}
}

// TestHostValueCause: where the host code of a global fails too, sema's
// error carries the host code's own error at its line (here a loop
// stopped at --timeout), not only "defined by host code".
func TestHostValueCause(t *testing.T) {
	const src = "import triton\nimport triton.language as tl\n\ndef _block():\n    while True:\n        pass\n\nBLOCK = tl.constexpr(_block())\n\n" +
		"@triton.jit\ndef k(p):\n    tl.store(p + tl.arange(0, BLOCK), 1.0)\n"
	for _, tt := range []struct {
		err  error
		want string
		note string // where the host code failed, if it says
	}{
		{diag.Errorf(diag.Pos{File: "k.tri", Line: 5, Col: 5}, diag.CodeTimeout, "the value of BLOCK: host code ran longer than --timeout 1s"),
			"; tri ran the host code for BLOCK and got no value: k.tri:5:5: the value of BLOCK: host code ran longer than --timeout 1s", "k.tri:5:5"},
		{errors.New("no interpreter"), "; tri ran the host code for BLOCK and got no value: k.tri:8:1: no interpreter", ""},
	} {
		l := frontend.NewLoader(nil, KnownPath)
		f, d := l.Open("k.tri", []byte(src))
		require.NoError(t, d.Err())
		l.SetHost(func(*frontend.File, string) (*frontend.Const, error) { return nil, tt.err })
		_, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
		require.Error(t, diags.Err())
		assert.Contains(t, diags.Err().Error(), "k.tri:8:22: _block is defined by host code")
		assert.Contains(t, diags.Err().Error(), tt.want)
		if tt.note != "" {
			d := diags.Items[0]
			require.NotEmpty(t, d.Notes)
			assert.Equal(t, tt.note, d.Notes[0].Pos.String())
		}
		checked := Check(f).Err()
		require.Error(t, checked)
		assert.Contains(t, checked.Error(), tt.want)
	}
}
