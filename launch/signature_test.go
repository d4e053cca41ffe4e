package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

func sigFunc(constexpr ...bool) *frontend.Func {
	fn := &frontend.Func{Name: "k"}
	for i, c := range constexpr {
		fn.Params = append(fn.Params, &frontend.Param{Name: string(rune('a' + i)), Constexpr: c})
	}
	return fn
}

func TestParseSignature(t *testing.T) {
	fn := sigFunc(false, false, false, false, false, true, true)
	sig, err := ParseSignature(fn, "*fp32:16, *fp16, i32:1, i64:16, fp32, 1024, 'relu'")
	require.NoError(t, err)
	a := sig.Args
	assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.PtrTo(ir.Float32), DivisibleBy16: true}, a[0])
	assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.PtrTo(ir.Float16)}, a[1])
	assert.Equal(t, sema.ArgOne, a[2].Kind)
	assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt64, DivisibleBy16: true}, a[3])
	assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.TFloat32}, a[4])
	// A literal remembers its place, for the errors its value causes.
	assert.Equal(t, sema.Arg{Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CInt, Int: 1024}, At: diag.Pos{File: "--signature", Line: 1, Col: 39}}, a[5])
	assert.Equal(t, sema.Constexpr{Kind: sema.CStr, Str: "relu"}, a[6].Value)
}

func TestParseSignatureLiteralMakesConstexpr(t *testing.T) {
	sig, err := ParseSignature(sigFunc(false, true), "256, fp16")
	require.NoError(t, err)
	assert.Equal(t, sema.ArgConstexpr, sig.Args[0].Kind)
	assert.Equal(t, sema.Constexpr{Kind: sema.CDType, DType: ir.TFloat16}, sig.Args[1].Value)
}

func TestParseSignatureErrors(t *testing.T) {
	for _, tc := range []struct{ sig, want string }{
		{"*fp32, i32", "--signature:1:1: k has 3 parameters (a, b, c) but the signature has 2 entries"},
		{"*fp32, i32:7, i32", "--signature:1:8: parameter b: unknown hint :7 (want :16 or :1)"},
		{"*fp32, bogus, i32", "--signature:1:8: parameter b: \"bogus\" is neither a type (*fp32, i32, fp16, ...) nor a literal"},
		{"*fp32, fp32:1, i32", "--signature:1:8: parameter b: :1 applies to integers only"},
	} {
		_, err := ParseSignature(sigFunc(false, false, false), tc.sig)
		require.Error(t, err, tc.sig)
		assert.Equal(t, tc.want, err.Error())
		assert.Equal(t, 2, hosteval.ExitCode(err))
	}
}
