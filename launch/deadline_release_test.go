package launch

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHostOutlivesReleasedDeadline: RunFile releases the deadline of
// parsing and binding once Prepare returns, and then tunes with the same
// host session, whose heuristics read tensor arguments again for each
// config. Releasing the deadline is not reaching it: host code after it
// runs (it was stopped at random, and the stop escaped as a panic from a
// tensor argument's conversion, on the GPU's tuning path).
func TestHostOutlivesReleasedDeadline(t *testing.T) {
	src := decorated("@triton.autotune(configs=[Config({'BLOCK': 32}), Config({'BLOCK': 64})], key=['n'])\n" +
		"@triton.heuristics({'EVEN': lambda args: args['x_ptr'].shape[0] % 16 == 0})")
	o := (&Options{Arch: "sm_90", Timeout: 30e9, Lets: []string{"n=100", "x=randn(n)", "out=empty(n)"}}).orDefault()
	po, stop := o.withDeadline()
	p, err := Prepare(writeKernel(t, src), "k[(1,)](x, out, n)", po)
	stop()
	require.NoError(t, err)
	for range 20 {
		for i := range 2 {
			_, err := p.setup.prepare(i, o)
			require.NoError(t, err, "config %d after the deadline was released", i)
		}
	}
}
