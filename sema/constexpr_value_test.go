package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestDTypeValue: a dtype passed to a @jit helper's parameter, annotated
// tl.constexpr or not, is read through .value, as Triton wraps every
// non-tensor argument of a @jit call in tl.constexpr (FlagGems'
// get_dtype_min).
func TestDTypeValue(t *testing.T) {
	src := `
@triton.jit
def lowest(dtype):
    d = dtype.value
    if d.is_floating():
        return -1.5
    return -7


@triton.jit
def widest(dtype: tl.constexpr):
    return dtype.value.primitive_bitwidth


@triton.jit
def k(X, Y):
    x = tl.load(X)
    tl.store(Y, lowest(x.dtype) + lowest(tl.int32) + widest(tl.int64))
`
	k := compile(t, src, "k", sig(ptr(ir.Float32), ptr(ir.Float32)))
	assert.Contains(t, printed(k), "const 55.5")
}
