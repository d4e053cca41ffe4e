package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// TestParseSignatureDesc reads host tensor descriptor entries, whose block
// shapes hold commas.
func TestParseSignatureDesc(t *testing.T) {
	sig, err := ParseSignature(sigFunc(false, false, false, false), "tensordesc<fp16[64, 32]>, tensordesc<fp32[16, 8, 4]>:nan, i32, tensordesc<bf16[16, 16]>:nan:shape(16,_)")
	require.NoError(t, err)
	assert.Equal(t, sema.Arg{Kind: sema.ArgDesc, DType: ir.PtrTo(ir.Float16), Block: []int{64, 32}, Padding: "zero"}, sig.Args[0])
	assert.Equal(t, sema.Arg{Kind: sema.ArgDesc, DType: ir.PtrTo(ir.Float32), Block: []int{16, 8, 4}, Padding: "nan"}, sig.Args[1])
	assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32}, sig.Args[2])
	assert.Equal(t, sema.Arg{Kind: sema.ArgDesc, DType: ir.PtrTo(ir.BFloat16), Block: []int{16, 16}, Padding: "nan", ShapeDiv16: []bool{true, false}}, sig.Args[3])
	for _, tc := range []struct{ sig, want string }{
		{"tensordesc<fp16[64, 24]>", "parameter a: Shape element 1 must be a power of 2"},
		{"tensordesc<fp17[64, 32]>", "parameter a: unknown element type \"fp17\" of a tensor descriptor"},
		{"tensordesc<fp16>", "parameter a: want tensordesc<TYPE[B0, B1, ...]>, got tensordesc<fp16>"},
		{"tensordesc<fp16[64, x]>", "parameter a: the block shape of a tensor descriptor needs integers, got \" x\""},
		{"tensordesc<fp16[64, 32]>:inf", "parameter a: unknown hint :inf of a tensor descriptor (want :nan or :shape(16,_))"},
		{"tensordesc<fp16[64, 32]>:shape(16)", "parameter a: :shape(...) names 1 dimensions of a descriptor of rank 2"},
	} {
		_, err := ParseSignature(sigFunc(false), tc.sig)
		require.Error(t, err, tc.sig)
		assert.Contains(t, err.Error(), tc.want, tc.sig)
	}
}
