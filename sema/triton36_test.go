package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// TestTritonLacks: a tl name that Triton 3.6 lacks too (tl.pow and
// tl.libdevice, which kernl's kernels read, were older Tritons') says that
// Triton rejects it as well, from tri check and when a kernel is
// specialized; one that Triton has and tri does not, does not.
func TestTritonLacks(t *testing.T) {
	src := header + `
@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.pow(x, 2.0))

@triton.jit
def k2(x_ptr):
    tl.store(x_ptr, tl.libdevice.exp(tl.load(x_ptr)))
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	var msgs []string
	for _, d := range Check(f).Items {
		msgs = append(msgs, d.Message)
	}
	assert.Contains(t, msgs, "tl has no attribute pow (Triton 3.6 rejects it too)")
	_, ds := Specialize(f, "k2", sig(ptr(ir.Float32)))
	require.Error(t, ds.Err())
	assert.Equal(t, "tl has no attribute libdevice (Triton 3.6 rejects it too)", ds.Items[0].Message)
	assert.Equal(t, "", tritonLacks("triton.language", "unsqueeze"))
	assert.Equal(t, "", tritonLacks("triton.language.extra", "pow"))
}
