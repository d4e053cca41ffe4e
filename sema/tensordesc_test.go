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
	div := compile(t, src, "k", sig(Arg{Kind: ArgDesc, DType: ir.PtrTo(ir.Float16), Block: []int{16, 64}, Padding: "nan", ShapeDiv16: []bool{true, false}}))
	assert.Equal(t, "tensordesc<fp16[16, 64]>:nan:shape(16,_)", div.Spec[0].Value)
	assert.True(t, div.Params[1].DivisibleBy16)
	assert.False(t, div.Params[2].DivisibleBy16)
	_, err := tryCompile(t, src, "k", sig(Arg{Kind: ArgDesc, DType: ir.PtrTo(ir.Float16), Block: []int{16, 4}, Padding: "zero"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes")
}

// TestDotAddFold: acc += tl.dot(a, b) is one dot accumulating into acc, as
// Triton's combine pass makes it; a dot bound to a name is left alone.
func TestDotAddFold(t *testing.T) {
	for _, tc := range []struct {
		body   string
		folded []bool
	}{
		{"    acc += tl.dot(a, b)\n", []bool{true}},
		{"    acc = tl.dot(a, b) + acc\n", []bool{true}},
		{"    d = tl.dot(a, b)\n    acc += d\n    acc += d\n", []bool{false}},
	} {
		src := header + `
@triton.jit
def k(a_ptr, b_ptr, c_ptr):
    i = tl.arange(0, 16)
    a = tl.load(a_ptr + i[:, None] * 16 + i[None, :])
    b = tl.load(b_ptr + i[:, None] * 16 + i[None, :])
    acc = tl.load(c_ptr + i[:, None] * 16 + i[None, :])
` + tc.body + `    tl.store(c_ptr + i[:, None] * 16 + i[None, :], acc)
`
		k := compile(t, src, "k", sig(ptr(ir.Float16), ptr(ir.Float16), ptr(ir.Float32)))
		var folded []bool
		ir.Inspect(k.Body, func(v *ir.Value) {
			if v.Op == ir.OpDot {
				folded = append(folded, v.Args[2].Op != ir.OpSplat)
			}
		})
		assert.Equal(t, tc.folded, folded, tc.body)
	}
}

// TestTensorDescStaticPrint checks how tl.static_print writes a descriptor
// and its attributes, as Triton's str() does.
func TestTensorDescStaticPrint(t *testing.T) {
	src := "@triton.jit\ndef k(p, n):\n    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [16, 32])\n" +
		"    tl.static_print(d, d.block_shape, d.dtype, d.block_type)\n"
	k := compile(t, src, "k", sig(ptr(ir.Float16), scalar(ir.Int32)))
	assert.Equal(t, []string{"tensor_descriptor<<(16, 32), fp16>> (16, 32) fp16 <(16, 32), fp16>\n"}, k.StaticPrints)
}
