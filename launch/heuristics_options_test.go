package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// TestHeuristicsSetLaunchOptions: a heuristic may set num_warps or
// num_stages, which are not parameters: Triton passes them on as the
// launch's options, over the launch's and the config's.
func TestHeuristicsSetLaunchOptions(t *testing.T) {
	src := decorated("@triton.autotune(configs=[Config({'BLOCK': 32}, num_warps=2, num_stages=2)], key=['n'])\n" +
		"@triton.heuristics({'num_warps': lambda args: 8 if args['n'] > 64 else 1, 'num_stages': lambda args: max(1, args['num_warps'] // 2)})")
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n, num_warps=4)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, 8, p.Kernel.NumWarps)
	assert.Equal(t, 4, p.Kernel.NumStages, "a later heuristic sees the earlier one's num_warps")

	p, err = prepareTuned(t, src, "k[(1,)](x, out, n)", 10, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, p.Kernel.NumWarps)

	bad := decorated("@triton.heuristics({'num_warps': lambda args: 3})")
	_, err = prepareTuned(t, bad, "k[(1,)](x, out, n, BLOCK=32)", 10, 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "@triton.heuristics for 'num_warps' returned 3: num_warps must be a power of two")
}

// TestDictUnpacking: a heuristics dict that unpacks another ({..., **more})
// and a pruning function that merges dicts ({**a, **b}) are read as Python
// reads them, though gpython's grammar predates the syntax.
func TestDictUnpacking(t *testing.T) {
	src := `import triton
import triton.language as tl
from triton import Config

_MORE = {'HAS_OUT': lambda args: args['out_ptr'] is not None}


def prune(configs, nargs, **kwargs):
    g = {**(nargs or {}), **kwargs}.get('G', 2)
    return [c for c in configs if c.kwargs['BLOCK'] * g <= 64]


@triton.autotune(configs=[Config({'BLOCK': 64}), Config({'BLOCK': 32})], key=['n'], prune_configs_by={'early_config_prune': prune})
@triton.heuristics({
    'EVEN': lambda args: args['n'] % 16 == 0,  # a comment, with a comma
    **_MORE,
})
@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr, HAS_OUT: tl.constexpr):
    pass
`
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, hosteval.BoolValue(true), meta(t, p, "HAS_OUT"))
	assert.Equal(t, hosteval.BoolValue(false), meta(t, p, "EVEN"))
	kept, err := p.Tuning.Prune(func() (map[string]hosteval.Value, map[string]hosteval.Value, error) {
		return map[string]hosteval.Value{"n": hosteval.IntValue(100)}, nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1}, kept, "BLOCK * 2 <= 64 keeps the second config only")
}
