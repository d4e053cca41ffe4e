package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestVarargs: a @jit helper with *args takes its extra positional
// arguments as a tuple, also spread from a tuple (f(*dims)), as Triton's
// test_starred_varargs does; a file holding such a helper still compiles
// its other kernels; a launched kernel with *args is refused at its def.
func TestVarargs(t *testing.T) {
	src := `
@triton.jit
def consume_varargs(*dims):
    return dims[0]

@triton.jit
def first_plus(a, *rest, scale=1):
    return (a + rest[1]) * scale

@triton.jit
def k(out):
    dims: tl.constexpr = (3, 0)
    x = consume_varargs(*dims)
    y = first_plus(10, 20, 30, scale=2)
    tl.store(out, x + y)

@triton.jit
def other(out):
    tl.store(out, 1)

@triton.jit
def launched(*ptrs):
    tl.store(ptrs[0], 1)
`
	k := compile(t, src, "k", sig(ptr(ir.Int32)))
	assert.Contains(t, printed(k), "83") // 3 + (10 + 30) * 2
	compile(t, src, "other", sig(ptr(ir.Int32)))
	_, err := tryCompile(t, src, "launched", sig())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:25:1: launched takes *ptrs: a kernel that is launched needs named parameters")
}
