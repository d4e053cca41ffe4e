package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/hosteval"
)

// TestTunePlanDescriptor: without restore_value, tuning restores the base
// tensor of a tensor descriptor argument as it does tensor arguments, and
// the descriptor's part parameters take its base, shape and strides.
func TestTunePlanDescriptor(t *testing.T) {
	src := decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'])")
	p, err := prepareTuned(t, src, "k[(1,)](TensorDescriptor.from_tensor(x, [16]), out, n)", 100, 0)
	require.NoError(t, err)
	_, restore, err := autotune.Plan(p.Tuning.Autotune, p.Bound)
	require.NoError(t, err)
	assert.Equal(t, []string{"x_ptr", "out_ptr"}, restore)
	args, err := p.runtimeArgs()
	require.NoError(t, err)
	require.Len(t, args, 4, "x_ptr's base and shape (a 1-D descriptor has no stride parameter), out_ptr, n")
	assert.Equal(t, hosteval.VTensor, args[0].value.Kind)
	assert.Equal(t, int64(100), args[1].scalar.Int)
}
