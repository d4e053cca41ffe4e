package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// TestConstexprHelperParamTakesTensor: a tl.constexpr annotation on a
// parameter of a @jit helper does not refuse a tensor, as in Triton
// (tutorial 06 passes offs_m, a tensor, for offs_m: tl.constexpr).
func TestConstexprHelperParamTakesTensor(t *testing.T) {
	src := header + `
@triton.jit
def helper(x, offs: tl.constexpr):
    return x + offs

@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 16)
    tl.store(x_ptr + offs, helper(1, offs))
`
	_, err := tryCompile(t, src, "k", sig(ptr(ir.Int32)))
	require.NoError(t, err)
}

// TestHostDescParams checks the parameters a host tensor descriptor
// argument becomes: base, shape (i32) and strides but the last (i64).
func TestHostDescParams(t *testing.T) {
	src := header + `
@triton.jit
def k(d):
    d.store([0, 0], d.load([0, 0]) * 2)
`
	desc := Arg{Kind: ArgDesc, DType: ir.PtrTo(ir.Float16), Block: []int{16, 64}, Padding: "zero"}
	k := compile(t, src, "k", sig(desc))
	var got []string
	for _, p := range k.Params {
		got = append(got, p.Name+":"+p.DType.String()+":"+p.Of+":"+p.Part)
	}
	assert.Equal(t, []string{"d_base:*fp16:d:base", "d_shape0:i32:d:shape0", "d_shape1:i32:d:shape1", "d_stride0:i64:d:stride0"}, got)
	assert.Equal(t, "tensordesc<fp16[16, 64]>", k.Spec[0].Value)
	_, err := tryCompile(t, src, "k", sig(Arg{Kind: ArgDesc, DType: ir.PtrTo(ir.Float16), Block: []int{16, 4}, Padding: "zero"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes")
}
