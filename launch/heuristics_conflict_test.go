package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// TestHeuristicConflictsWithAutotune: a @triton.heuristics outside
// @triton.autotune that sets a meta-parameter the configs set is refused
// in Triton's words; inside the autotune, the heuristic's value wins over
// the config's, as in Triton.
func TestHeuristicConflictsWithAutotune(t *testing.T) {
	tune := "@triton.autotune(configs=[Config({'BLOCK': 32}), Config({'BLOCK': 16})], key=['n'])"
	heur := "@triton.heuristics({'BLOCK': lambda args: 64})"
	_, err := prepareTuned(t, decorated(heur+"\n"+tune), "k[(1,)](x, out, n)", 100, 0)
	require.Error(t, err)
	assert.Equal(t, 2, hosteval.ExitCode(err))
	assert.Contains(t, err.Error(), "k.tri:6:1: Conflicting meta-parameters: BLOCK. Make sure that you don't re-define auto-tuned symbols.")

	p, err := prepareTuned(t, decorated(tune+"\n"+heur), "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(64), meta(t, p, "BLOCK"))
}
