package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeferredDataIsMadeToRun: a launch prepared with DeferData leaves its
// --let tensors unmade, and interpreting it makes them first, with the
// elements a launch prepared without it has: the same output, bound or
// made in the launch line itself.
func TestDeferredDataIsMadeToRun(t *testing.T) {
	line := "add_kernel[(2,)](x, randn(n) * 0.5, output, n, BLOCK_SIZE=64)"
	lets := []string{"n=100", "x=randn(n, dtype='float16')", "output=empty(n)"}
	outputs := map[bool][]byte{}
	for _, deferred := range []bool{false, true} {
		p, err := Prepare("../samples/add.tri", line, &Options{Lets: lets, DeferData: deferred, Seed: 3})
		require.NoError(t, err)
		out, _ := p.Env.Lookup("output")
		assert.Equal(t, deferred, out.Tensor.IsDeferred())
		require.NoError(t, p.Interpret(0))
		assert.False(t, out.Tensor.IsDeferred())
		outputs[deferred] = out.Tensor.Data
	}
	assert.Len(t, outputs[false], 400)
	assert.Equal(t, outputs[false], outputs[true])
}
