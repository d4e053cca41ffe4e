package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// TestDtypeSuggestions: a tl dtype written as signatures, torch or MLIR
// spell it is answered with tl's name, by tri check and when a kernel is
// specialized; other misspellings keep the nearest member.
func TestDtypeSuggestions(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"fp32", "did you mean tl.float32?"},
		{"f16", "did you mean tl.float16?"},
		{"bf16", "did you mean tl.bfloat16?"},
		{"i32", "did you mean tl.int32?"},
		{"u8", "did you mean tl.uint8?"},
		{"half", "did you mean tl.float16?"},
		{"fp8e4nv", "did you mean tl.float8e4nv?"},
		{"flaot32", "did you mean tl.float32?"},
		{"lodd", "did you mean tl.load?"},
		{"f", ""},
	} {
		src := header + `
@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr).to(tl.` + c.name + `)
    tl.store(x_ptr, x)
`
		f, d := frontend.Parse("k.tri", []byte(src))
		require.NoError(t, d.Err())
		for phase, diags := range map[string]*diag.List{
			"check":      Check(f),
			"specialize": func() *diag.List { _, ds := Specialize(f, "k", sig(ptr(ir.Float32))); return ds }(),
		} {
			require.Error(t, diags.Err(), "%s %s", phase, c.name)
			first := diags.Items[0]
			assert.Equal(t, "tl has no attribute "+c.name+" (Triton 3.6 rejects it too)", first.Message, "%s %s", phase, c.name)
			assert.Equal(t, c.want, first.Suggestion, "%s %s", phase, c.name)
		}
	}
}
