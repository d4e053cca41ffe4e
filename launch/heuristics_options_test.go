package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
