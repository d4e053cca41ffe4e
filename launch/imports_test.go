package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// interpretOut runs the launch recorded in a file's header in the
// interpreter and returns the values of its tensor "out".
func interpretOut(t *testing.T, path string) []float64 {
	t.Helper()
	p, err := Prepare(path, "", &Options{Interpret: true})
	require.NoError(t, err, path)
	require.NoError(t, p.Interpret(time.Minute), path)
	v, ok := p.Env.Lookup("out")
	require.True(t, ok)
	require.NotNil(t, v.Tensor)
	out := make([]float64, v.Tensor.NumElements())
	for i := range out {
		out[i] = v.Tensor.Float(i)
	}
	return out
}

// TestPackageMatchesSingleFile: a kernel whose helpers, constants and
// aliases come from the modules of its package (a sibling module, relative
// imports up two levels, a module alias, a try/except import, an
// __init__.py re-export, a @jit function chosen by a module-level if)
// computes what the same kernel written in one file computes.
func TestPackageMatchesSingleFile(t *testing.T) {
	dir := filepath.Join("testdata", "imports")
	pkg := interpretOut(t, filepath.Join(dir, "triimp", "ops", "kernel.py"))
	single := interpretOut(t, filepath.Join(dir, "single.py"))
	require.Len(t, pkg, 300)
	assert.Equal(t, single, pkg)
	distinct := map[float64]bool{}
	for _, v := range pkg {
		distinct[v] = true
	}
	assert.Greater(t, len(distinct), 50, "the outputs vary with the inputs")
}

// TestMissingImportSameInCheckAndBuild: a name imported from a sibling
// module that lacks it fails tri check as it fails tri build: one error at
// the importing line naming the module and its file, with a note where the
// kernel uses the name.
func TestMissingImportSameInCheckAndBuild(t *testing.T) {
	path := filepath.Join("testdata", "imports", "broken", "pkg", "kernel.py")
	render := func(err error) string {
		require.Error(t, err)
		assert.Equal(t, 2, hosteval.ExitCode(err))
		var b bytes.Buffer
		hosteval.PrintError(&b, err)
		return b.String()
	}
	var out bytes.Buffer
	checked := render(CheckFile(path, &Options{Stdout: &out}))
	built := render(BuildFile(path, "", &Options{Stdout: &out}))
	assert.Equal(t, checked, built)
	want := path + ":6:1: cannot import name thrice from pkg.helpers (" + filepath.Join("testdata", "imports", "broken", "pkg", "helpers.py") + ")"
	assert.True(t, strings.HasPrefix(checked, want+"\n"), checked)
	assert.Contains(t, checked, path+":13:28: note: needed here")
	assert.NotContains(t, out.String(), "no errors")
}

// TestAutotuneConfigsFromAnotherModule: @triton.autotune's configs built
// by a function of another module of the package (annotated with typing's
// names, calling a helper of its own module) are evaluated.
func TestAutotuneConfigsFromAnotherModule(t *testing.T) {
	path := filepath.Join("testdata", "imports", "triimp", "ops", "tuned.py")
	var out bytes.Buffer
	require.NoError(t, CheckFile(path, &Options{Stdout: &out}))
	for cfg, want := range map[int]string{0: "32", 3: "64"} {
		p, err := Prepare(path, "", &Options{Interpret: true, Config: cfg})
		require.NoError(t, err)
		var block string
		for _, s := range p.Kernel.Spec {
			if s.Name == "BLOCK" {
				block = s.Value
			}
		}
		assert.Equal(t, want, block, "config %d", cfg)
		assert.Equal(t, []int{1, 2}[cfg%2], p.Kernel.NumWarps, "config %d", cfg)
	}
}

// TestCheckRunsNoHostCode: tri check of a kernel that imports from a module
// full of host code runs none of it: only the decorator's arguments and the
// host definitions they name are evaluated.
func TestCheckRunsNoHostCode(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	files := map[string]string{
		"__init__.py": "print('package imported')\n",
		"util.py": "import torch\nimport triton\nprint('util imported')\nDEVICE = torch.device('cuda')\nBOOM = 1 / 0\n\n" +
			"def configs():\n    print('configs built')\n    return [triton.Config({'B': 16})]\n\n" +
			"def unused():\n    print('unused ran')\n\n@triton.jit\ndef one(x):\n    return x * 0 + 1\n",
		"k.py": "import triton\nimport triton.language as tl\nfrom .util import configs, one, unused\n\n" +
			"@triton.autotune(configs=configs(), key=[])\n@triton.jit\ndef k(p, B: tl.constexpr):\n    tl.store(p + tl.arange(0, B), one(1.0))\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644))
	}
	var out, stderr bytes.Buffer
	require.NoError(t, CheckFile(filepath.Join(pkg, "k.py"), &Options{Stdout: &out, Stderr: &stderr}))
	assert.Contains(t, out.String(), "no errors")
	assert.Equal(t, "configs built\n", stderr.String(), "only the decorator's config builder ran")
}

// TestDecoratorImportError: a decorator that needs a name its module
// imports from a sibling lacking it fails with the import's error.
func TestDecoratorImportError(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	files := map[string]string{
		"__init__.py": "",
		"util.py":     "WARPS = 4\n",
		"k.py": "import triton\nimport triton.language as tl\nfrom .util import WARPS, NOPE\n\nCONFIGS = [triton.Config({'B': 16}, num_warps=NOPE)]\n\n" +
			"@triton.autotune(configs=CONFIGS, key=[])\n@triton.jit\ndef k(p, B: tl.constexpr):\n    tl.store(p + tl.arange(0, B), 1.0)\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644))
	}
	path := filepath.Join(pkg, "k.py")
	err := CheckFile(path, &Options{Stdout: &bytes.Buffer{}})
	require.Error(t, err)
	assert.Equal(t, 2, hosteval.ExitCode(err))
	assert.Contains(t, err.Error(), path+":3:1: @triton.autotune: cannot import name NOPE from pkg.util (")
}

// TestGlobalComputedByHostCode: a constexpr global that a host function of
// another module computes is evaluated by running that function (and only
// it), for tri check and tri build alike.
func TestGlobalComputedByHostCode(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	files := map[string]string{
		"__init__.py": "",
		"sizes.py": "import triton.language as tl\n\nprint('sizes imported')\n\n" +
			"def _block(n):\n    return n * 32\n\nBLOCK = tl.constexpr(_block(2))\nNAME = '-'.join(['a', 'b'])\n",
		"k.py": "# launch: k[(1,)](out)\n# let: out=empty(64)\nimport triton\nimport triton.language as tl\nfrom .sizes import BLOCK\n\n" +
			"@triton.jit\ndef k(p):\n    offs = tl.arange(0, BLOCK)\n    tl.store(p + offs, offs * 1.0)\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644))
	}
	path := filepath.Join(pkg, "k.py")
	var out, stderr bytes.Buffer
	require.NoError(t, CheckFile(path, &Options{Stdout: &out, Stderr: &stderr}))
	assert.Contains(t, out.String(), "no errors")
	p, err := Prepare(path, "", &Options{Interpret: true, Stderr: &stderr})
	require.NoError(t, err)
	require.NoError(t, p.Interpret(time.Minute))
	v, ok := p.Env.Lookup("out")
	require.True(t, ok)
	assert.Equal(t, 63.0, v.Tensor.Float(63), "BLOCK is 64")
	assert.Empty(t, stderr.String(), "the module's top level did not run")
}

// TestDefaultsFromImportedGlobals: a parameter default that names a
// global of another module (a flag computed at import, a constant computed
// from others) takes the value Python computes.
func TestDefaultsFromImportedGlobals(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	files := map[string]string{
		"__init__.py": "",
		"flags.py":    "import triton.language as tl\n\nHAS_EXP = hasattr(tl, 'exp')\nBASE = 8\nWIDTH = tl.constexpr(2 * BASE)\n",
		"k.py": "# launch: k[(1,)](out)\n# let: out=empty(16)\nimport triton\nimport triton.language as tl\nfrom .flags import HAS_EXP, WIDTH\n\n" +
			"@triton.jit\ndef k(p, USE_EXP: tl.constexpr = HAS_EXP, B: tl.constexpr = WIDTH):\n    offs = tl.arange(0, B)\n    if USE_EXP:\n        tl.store(p + offs, tl.exp(offs * 0.0))\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644))
	}
	p, err := Prepare(filepath.Join(pkg, "k.py"), "", &Options{Interpret: true})
	require.NoError(t, err)
	spec := map[string]string{}
	for _, s := range p.Kernel.Spec {
		spec[s.Name] = s.Value
	}
	assert.Equal(t, map[string]string{"p": "*fp32:16", "USE_EXP": "True", "B": "16"}, spec)
}
