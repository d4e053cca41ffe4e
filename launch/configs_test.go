package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// tunedSrc is an autotuned kernel whose configs come from host functions,
// pruned by a host function, with a heuristic under the autotuner.
const tunedSrc = `import triton
import triton.language as tl

BLOCKS = [32, 64]


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def cuda_configs():
    return [triton.Config({'BLOCK': b}, num_warps=w, num_stages=2) for b in BLOCKS for w in (1, 2)]


def get_configs():
    if is_cuda():
        return cuda_configs()
    return undefined_hip_configs()


def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs['BLOCK'] <= named_args['n']]


@triton.autotune(configs=get_configs(), key=['n'], prune_configs_by={'early_config_prune': prune},
                 reset_to_zero=['out_ptr'])
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * 2, mask=offs < n)
`

const tunedLaunch = "k[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, out, n)"

// writeKernel writes a kernel file into a temporary folder.
func writeKernel(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "k.tri")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// prepareTuned prepares a launch of src's kernel k with n elements.
func prepareTuned(t *testing.T, src, line string, n int, config int) (*Prepared, error) {
	t.Helper()
	o := &Options{Config: config, Arch: "sm_90", Lets: []string{"n=" + strconv.Itoa(n), "x=randn(n)", "out=empty(n)"}}
	return Prepare(writeKernel(t, src), line, o)
}

// meta returns the value bound to parameter name.
func meta(t *testing.T, p *Prepared, name string) hosteval.Value {
	t.Helper()
	v, ok := p.Bound.Meta[name]
	require.True(t, ok, "no parameter %s", name)
	return v
}

func TestConfigsFromHostFunctions(t *testing.T) {
	p, err := prepareTuned(t, tunedSrc, tunedLaunch, 100, 0)
	require.NoError(t, err)
	a := p.Tuning.Autotune
	require.Len(t, a.Configs, 4)
	var got []string
	for _, c := range a.Configs {
		got = append(got, c.Describe(p.Bound.Func))
	}
	assert.Equal(t, []string{
		"BLOCK=32, num_warps=1, num_stages=2",
		"BLOCK=32, num_warps=2, num_stages=2",
		"BLOCK=64, num_warps=1, num_stages=2",
		"BLOCK=64, num_warps=2, num_stages=2",
	}, got)
	assert.Equal(t, []string{"n"}, a.Key)
	assert.Equal(t, []string{"out_ptr"}, a.ResetToZero)
	assert.Nil(t, a.RestoreValue)
	assert.Equal(t, 25*time.Millisecond, a.Warmup)
	assert.Equal(t, 100*time.Millisecond, a.Rep)
}

func TestConfigSelection(t *testing.T) {
	for _, tt := range []struct {
		config, block, warps int
		even                 bool
		grid                 int
	}{
		{0, 32, 1, false, 4},
		{3, 64, 2, false, 2},
	} {
		p, err := prepareTuned(t, tunedSrc, tunedLaunch, 100, tt.config)
		require.NoError(t, err)
		assert.Equal(t, tt.config, p.Config)
		assert.Equal(t, hosteval.IntValue(int64(tt.block)), meta(t, p, "BLOCK"))
		assert.Equal(t, hosteval.BoolValue(tt.even), meta(t, p, "EVEN"), "the heuristic sees the config's BLOCK")
		assert.Equal(t, tt.warps, p.Kernel.NumWarps)
		assert.Equal(t, 2, p.Kernel.NumStages)
		assert.Equal(t, [3]int{tt.grid, 1, 1}, p.Grid, "the grid lambda sees the config's BLOCK")
	}

	p, err := prepareTuned(t, tunedSrc, tunedLaunch, 64, 2)
	require.NoError(t, err)
	assert.Equal(t, hosteval.BoolValue(true), meta(t, p, "EVEN"))

	// The launch line overrides the config's meta-parameters and launch
	// options.
	p, err = prepareTuned(t, tunedSrc, "k[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, out, n, BLOCK=128, num_warps=8)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(128), meta(t, p, "BLOCK"))
	assert.Equal(t, 8, p.Kernel.NumWarps)
	assert.Equal(t, 2, p.Kernel.NumStages)

	// -1 (tune) prepares the first config until Autotune picks one.
	p, err = prepareTuned(t, tunedSrc, tunedLaunch, 100, -1)
	require.NoError(t, err)
	assert.Equal(t, 0, p.Config)
}

func TestConfigErrors(t *testing.T) {
	plain := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 32, EVEN: tl.constexpr = False):\n    pass\n"
	tests := []struct {
		name, src string
		config    int
		want      string
	}{
		{"out of range", tunedSrc, 4, "--config 4 is out of range: k has 4 autotune configs (0 to 3)"},
		{"negative", tunedSrc, -2, "--config -2: want the index of an autotune config"},
		{"not autotuned", plain, 1, "--config 1: k has no @triton.autotune configs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := prepareTuned(t, tt.src, tunedLaunch, 100, tt.config)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, 2, hosteval.ExitCode(err))
		})
	}
	p, err := prepareTuned(t, plain, tunedLaunch, 100, 0)
	require.NoError(t, err, "--config 0 is the default, also without autotune")
	assert.Equal(t, -1, p.Config)
}

// decorated is a kernel file with the given decorators over k.
func decorated(decos string) string {
	return "import triton\nimport triton.language as tl\nfrom triton import Config\n\n\n" + decos +
		"\n@triton.jit\ndef k(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr = False):\n    pass\n"
}

func TestDecoratorErrors(t *testing.T) {
	tests := []struct {
		name, decos string
		want        string // the error, file:line:col: message
	}{
		{"unknown name in a config function", "def configs():\n    return [Config({'BLOCK': 32})] + hip_configs()\n\n@triton.autotune(configs=configs(), key=['n'])",
			"k.tri:7:5: @triton.autotune: NameError: name 'hip_configs' is not defined"},
		{"not a parameter", "@triton.autotune(configs=[Config({'BLOKC': 32})], key=['n'])",
			"k.tri:6:1: @triton.autotune: config 0 sets 'BLOKC', which is not a parameter of k()"},
		{"not a config", "@triton.autotune(configs=[Config({'BLOCK': 32}), {'BLOCK': 64}], key=['n'])",
			"k.tri:6:1: @triton.autotune: config 1: want a triton.Config, not a dict"},
		{"empty", "@triton.autotune(configs=[], key=['n'])", "the list of configs is empty"},
		{"bad warps", "@triton.autotune(configs=[Config({'BLOCK': 32}, num_warps=3)], key=['n'])",
			"config 0: num_warps must be a power of two from 1 to 32, not 3"},
		{"bad reset_to_zero", "@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'], reset_to_zero=['N'])",
			"@triton.autotune: reset_to_zero names 'N', which is not a parameter of k()"},
		{"missing key", "@triton.autotune(configs=[Config({'BLOCK': 32})])",
			"TypeError"},
		{"bad heuristic", "@triton.heuristics({'EVEN': 3})\n@triton.autotune(configs=[Config({'BLOCK': 32})], key=[])",
			"the value for 'EVEN' must be a function of the arguments"},
		{"heuristic of a non-parameter", "@triton.heuristics({'ODD': lambda args: True})\n@triton.autotune(configs=[Config({'BLOCK': 32})], key=[])",
			"@triton.heuristics sets 'ODD', which is not a parameter of k()"},
		{"failing heuristic", "@triton.autotune(configs=[Config({'BLOCK': 32})], key=[])\n@triton.heuristics({'EVEN': lambda args: args['m'] > 0})",
			"k.tri:7:1: @triton.heuristics for 'EVEN': KeyError"},
		{"no arguments", "@triton.autotune", "@triton.autotune needs its arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := prepareTuned(t, decorated(tt.decos), "k[(1,)](x, out, n)", 100, 0)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, 2, hosteval.ExitCode(err))
		})
	}
}

func TestNameErrorNotes(t *testing.T) {
	src := decorated("def configs():\n    return [Config({'BLOCK': 32})] + hip_configs()\n\n@triton.autotune(configs=configs(), key=['n'])")
	_, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	var buf bytes.Buffer
	hosteval.PrintError(&buf, err)
	out := buf.String()
	assert.Contains(t, out, "return [Config({'BLOCK': 32})] + hip_configs()")
	assert.Contains(t, out, "while evaluating this")
	assert.Contains(t, out, "other imports are not available")
}

func TestHeuristicsOrder(t *testing.T) {
	// Above the autotuner, a heuristic runs first and sees no config; the
	// later entries of one dict see the earlier ones. (A config that sets
	// BLOCK too is refused: TestHeuristicConflictsWithAutotune.)
	src := decorated("@triton.heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['n']), 'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})\n" +
		"@triton.autotune(configs=[Config({}, num_warps=2)], key=['n'])")
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(128), meta(t, p, "BLOCK"), "the heuristic sets what the config leaves out")
	assert.Equal(t, hosteval.BoolValue(false), meta(t, p, "EVEN"))
	assert.Equal(t, 2, p.Kernel.NumWarps)

	p, err = prepareTuned(t, src, "k[(1,)](x, out, n, BLOCK=64)", 128, 0)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(128), meta(t, p, "BLOCK"), "as in Triton, a heuristic overrides the launch")
	assert.Equal(t, hosteval.BoolValue(true), meta(t, p, "EVEN"))
}

func TestHeuristicsWithoutAutotune(t *testing.T) {
	src := decorated("@triton.heuristics(values={'BLOCK': lambda args: max(16, triton.next_power_of_2(args['x_ptr'].shape[0] // 4))," +
		" 'EVEN': lambda args: args['x_ptr'].dtype == torch.float32 and args['num_warps'] == 4})")
	src = strings.Replace(src, "import triton\n", "import torch\nimport triton\n", 1)
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, -1, p.Config)
	assert.Nil(t, p.Tuning.Autotune)
	assert.Equal(t, hosteval.IntValue(32), meta(t, p, "BLOCK"))
	assert.Equal(t, hosteval.BoolValue(true), meta(t, p, "EVEN"))
}

func TestWrappedAutotune(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n\ndef _body(x_ptr, BLOCK: tl.constexpr):\n    pass\n\n\n" +
		"tuned = triton.autotune(configs=[triton.Config({'BLOCK': b}, num_warps=b // 32) for b in (32, 64)], key=[])(triton.jit(_body))\n"
	p, err := prepareTuned(t, src, "tuned[(1,)](x)", 4, 1)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(64), meta(t, p, "BLOCK"))
	assert.Equal(t, 2, p.Kernel.NumWarps)
}

func TestTutorial03Configs(t *testing.T) {
	// Tutorial 03's shape: configs from a function that asks is_cuda(),
	// HIP configs with keys the CUDA kernel lacks, never evaluated.
	src := `import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def get_cuda_autotune_config():
    return [
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'GROUP_SIZE_M': 8}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 64, 'GROUP_SIZE_M': 8}, num_stages=5, num_warps=2),
    ]


def get_hip_autotune_config():
    return [triton.Config({'BLOCK_SIZE_M': 128, 'waves_per_eu': 2}, num_warps=4, num_stages=2)]


def get_autotune_config():
    if is_cuda():
        return get_cuda_autotune_config()
    else:
        return get_hip_autotune_config()


@triton.autotune(configs=get_autotune_config(), key=['n'])
@triton.jit
def k(x_ptr, out_ptr, n, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pass


x = torch.randn(4, device=DEVICE)
print(f"{x}")
`
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 4, 1)
	require.NoError(t, err)
	assert.Len(t, p.Tuning.Autotune.Configs, 2)
	assert.Equal(t, hosteval.IntValue(32), meta(t, p, "BLOCK_SIZE_M"))
	assert.Equal(t, 2, p.Kernel.NumWarps)
	assert.Equal(t, 5, p.Kernel.NumStages)
}

func TestUnsupportedWarnings(t *testing.T) {
	src := decorated("def perf(**kw):\n    return 1.0\n\n@triton.autotune(configs=[Config({'BLOCK': 32}, maxnreg=128)], key=['n', 'BT'], " +
		"prune_configs_by={'perf_model': perf, 'top_k': 2}, pre_hook=lambda args: None, use_cuda_graph=True, cache_results=True)")
	var stderr bytes.Buffer
	o := &Options{Arch: "sm_90", Lets: []string{"n=4", "x=randn(n)", "out=empty(n)"}, Stderr: &stderr}
	p, err := Prepare(writeKernel(t, src), "k[(1,)](x, out, n)", o)
	require.NoError(t, err)
	assert.Equal(t, 128, p.Kernel.MaxNReg, "a config's maxnreg reaches the kernel (NVRTC's --maxrregcount)")
	out := stderr.String()
	assert.NotContains(t, out, "maxnreg is not supported")
	for _, want := range []string{
		"prune_configs_by's perf_model is not supported",
		"prune_configs_by's top_k is not supported",
		"pre_hook is not supported; ignored",
		"use_cuda_graph is not supported",
		"key names 'BT', which is not a parameter of k(); Triton ignores it",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "cache_results is")
}

// Configs from a module tri does not run: check and build warn, and build
// takes the launch's values; a name that nothing binds stays an error.
func TestForeignConfigs(t *testing.T) {
	src := "from somelib import make_configs\n" + decorated("@triton.autotune(configs=make_configs(), key=['n'])")
	path := writeKernel(t, src)
	var stderr, stdout bytes.Buffer
	require.NoError(t, CheckFile(path, &Options{Stdout: &stdout, Stderr: &stderr}))
	assert.Contains(t, stdout.String(), "no errors")
	want := "k.tri:7:1: warning: @triton.autotune: its arguments need make_configs (somelib.make_configs), which tri does not run"
	assert.Contains(t, stderr.String(), want)

	stderr.Reset()
	o := &Options{Arch: "sm_90", Lets: []string{"n=4", "x=randn(n)", "out=empty(n)"}, Stderr: &stderr}
	p, err := Prepare(path, "k[(1,)](x, out, n, BLOCK=16)", o)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(16), meta(t, p, "BLOCK"))
	assert.Contains(t, stderr.String(), want)
	_, err = Prepare(path, "k[(1,)](x, out, n)", &Options{Arch: "sm_90", Lets: o.Lets})
	require.Error(t, err, "BLOCK must come from the launch")
}

func TestCheckFileEvaluatesDecorators(t *testing.T) {
	var stdout bytes.Buffer
	require.NoError(t, CheckFile(writeKernel(t, tunedSrc), &Options{Stdout: &stdout}))
	assert.Contains(t, stdout.String(), "1 @jit function, no errors")

	src := decorated("def configs():\n    return [Config({'BLOCK': 32})] + hip_configs()\n\n@triton.autotune(configs=configs(), key=['n'])")
	err := CheckFile(writeKernel(t, src), &Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:7:5: @triton.autotune: NameError: name 'hip_configs' is not defined")
	assert.Equal(t, 2, hosteval.ExitCode(err))
}

// A warning that every config shares (tutorial 06's 36 configs with one
// pre_hook) is given once, naming the configs; maxnreg in the launch line
// overrides the config's.
func TestConfigWarningsOnce(t *testing.T) {
	src := decorated("def hook(nargs):\n    pass\n\n@triton.autotune(configs=[Config({'BLOCK': b}, pre_hook=hook, maxnreg=64) for b in (16, 32, 64)] + " +
		"[Config({'BLOCK': 128}, num_ctas=2)], key=['n'])")
	var stderr bytes.Buffer
	o := &Options{Arch: "sm_90", Lets: []string{"n=4", "x=randn(n)", "out=empty(n)"}, Stderr: &stderr}
	p, err := Prepare(writeKernel(t, src), "k[(1,)](x, out, n)", o)
	require.NoError(t, err)
	assert.Equal(t, 64, p.Kernel.MaxNReg)
	out := stderr.String()
	assert.Equal(t, 1, strings.Count(out, "pre_hook runs only"), out)
	assert.Contains(t, out, "@triton.autotune: configs 0, 1, 2: pre_hook runs only")
	assert.Contains(t, out, "@triton.autotune: config 3: num_ctas=2 is not supported")

	p, err = Prepare(writeKernel(t, src), "k[(1,)](x, out, n, maxnreg=200)", &Options{Arch: "sm_90", Lets: o.Lets})
	require.NoError(t, err)
	assert.Equal(t, 200, p.Kernel.MaxNReg)
	_, err = Prepare(writeKernel(t, src), "k[(1,)](x, out, n, maxnreg=3)", &Options{Arch: "sm_90", Lets: o.Lets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "maxnreg must be None or a number of registers of at least 16, not 3")
}

// A decorator's host code sees the module-level bindings above it, as
// Python does when it applies the decorator: a name rebound below (as
// tutorial 06 rebinds configs to [] for its benchmarks) keeps the value it
// had, and a module-level if/elif/else of assignments runs, condition and
// all.
func TestDecoratorSeesBindingsAbove(t *testing.T) {
	src := "import os\nimport torch\n" + decorated(`def is_hip():
    return False

if is_hip():
    STAGES = [1]
elif torch.cuda.get_device_capability()[0] >= 9:
    STAGES = [4, 5]
else:
    STAGES = [2]
BLOCKS = [16, 32]
configs = [Config({'BLOCK': b}, num_stages=s) for b in BLOCKS for s in STAGES]
if "PYTEST_VERSION" in os.environ:
    configs = configs[:1]
BLOCKS = [64]

@triton.autotune(configs=configs, key=['n'])`) + "\n\nconfigs = []\nSTAGES = [7]\n"
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 4, 3)
	require.NoError(t, err)
	a := p.Tuning.Autotune
	require.Len(t, a.Configs, 4)
	assert.Equal(t, hosteval.IntValue(32), a.Configs[3].Meta["BLOCK"])
	assert.Equal(t, 5, a.Configs[3].NumStages, "sm_90 takes the elif arm")
}
