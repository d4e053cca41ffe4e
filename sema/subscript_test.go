package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestSubscriptScalarSlice: Triton's tensor.__getitem__ passes over a full
// slice without checking it against the rank, so a scalar's s[:, None] is
// s splat to [1] (torchao's float8 kernels index program_id(0) so), and a
// 1-D x[:, :] is x; a None past the end of a tensor is still an error.
func TestSubscriptScalarSlice(t *testing.T) {
	src := header + "@triton.jit\ndef k(p):\n    e = tl.program_id(0)\n" +
		"    offs = e[:, None] * 4 + tl.arange(0, 4)[None, :]\n" +
		"    x = tl.arange(0, 4)[:, :]\n" +
		"    tl.store(p + offs, x[None, :])\n"
	k := compile(t, src, "k", sig(ptr(ir.Int32)))
	require.NoError(t, ir.Verify(k))
	text := printed(k)
	assert.Contains(t, text, "splat")
	assert.Contains(t, text, "[1]")

	bad := header + "@triton.jit\ndef k(p):\n    x = tl.arange(0, 4)[:, :, None]\n    tl.store(p + x, 1)\n"
	_, err := tryCompile(t, bad, "k", sig(ptr(ir.Int32)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:6:31: too many indices for a tensor of shape [4]")
}
