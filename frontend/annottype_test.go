package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParamAnnotationType checks the type each parameter annotation gives,
// as Triton's jit.py normalizes it (_normalize_ty, annotation_type):
// dtypes of triton.language by any alias, strings (only "tl." is dropped),
// the builtins int, float and bool, pointers; torch's names and unknown
// strings give none, and tl.constexpr stays a constexpr.
func TestParamAnnotationType(t *testing.T) {
	const src = `import torch
import triton
import triton.language as tl
from triton import language as lang
from triton.language import bfloat16

@triton.jit
def k(a: tl.float16, b: lang.uint8, c: bfloat16, d: "tl.int64", e: "fp8e4nv", f: "*fp32", g: int, h: float,
      i: bool, j: "int32_t", k: torch.float16, l: torch.Tensor, m: "triton.language.float16", n: "tensor",
      o: tl.constexpr, p, q: tl.int1):
    pass
`
	f, diags := Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	fn := f.Func("k")
	require.NotNil(t, fn)
	got := map[string]string{}
	for _, p := range fn.Params {
		got[p.Name] = p.Type
	}
	assert.Equal(t, map[string]string{
		"a": "fp16", "b": "u8", "c": "bf16", "d": "i64", "e": "fp8e4nv", "f": "*fp32", "g": "i32", "h": "fp32",
		"i": "u1", "j": "i32", "k": "", "l": "", "m": "", "n": "", "o": "", "p": "", "q": "u1",
	}, got)
	assert.True(t, fn.Params[14].Constexpr)
}
