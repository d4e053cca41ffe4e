package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const nestedSrc = `import triton
import triton.language as tl

BLOCK = 16


def test_copy(n):
    scale = 2.0

    @triton.jit
    def copy_kernel(x_ptr, y_ptr, n, B: tl.constexpr = BLOCK):
        offs = tl.arange(0, B)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(y_ptr + offs, x, mask=offs < n)

    @triton.jit
    def scale_kernel(x_ptr, B: tl.constexpr):
        offs = tl.arange(0, B)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * scale)

    def inner(m):
        @triton.jit
        def deep_kernel(x_ptr):
            tl.store(x_ptr, 1.0)

        @triton.jit
        def uses_m(x_ptr):
            tl.store(x_ptr, m)

        @triton.jit
        def own_scale(x_ptr, scale):
            tl.store(x_ptr, scale)
`

// TestNestedJit: @jit functions inside host functions are read when they
// use no local of an enclosing function, at their def line, and are not
// bound in the module's scope.
func TestNestedJit(t *testing.T) {
	f, d := Parse("nested.py", []byte(nestedSrc))
	require.NoError(t, d.Err())
	lines := map[string]int{}
	for _, fn := range f.Funcs {
		lines[fn.Name] = fn.Pos.Line
	}
	assert.Equal(t, map[string]int{"copy_kernel": 11, "deep_kernel": 23, "own_scale": 31}, lines)
	s, ld := f.Lookup("copy_kernel")
	require.Nil(t, ld)
	assert.Equal(t, SymNone, s.Kind, "a nested @jit function is not a module-level name")
	require.NotNil(t, f.Func("copy_kernel"))
	assert.Len(t, f.Func("copy_kernel").Params, 4)
}

const closureSrc = `import triton
import triton.language as tl


def test_map():
    @triton.jit
    def compare(x, y):
        return x < y

    @triton.jit
    def kernel(X, Y):
        tl.store(Y, compare(tl.load(X), 1.0))

    @triton.jit
    def reads(x_ptr):
        tl.store(x_ptr, bad(1.0))

    @triton.jit
    def bad(x):
        return x * factor

    factor = 2.0
    helper = 1

    @triton.jit
    def helper(x):
        return x

    @triton.jit
    def k2(x_ptr):
        tl.store(x_ptr, helper(1.0))
`

// TestNestedJitClosure: a nested kernel may call the other @jit functions
// its host function defines (Func.Closure), unless one reads a local, also
// through a call, or its name is bound another way too.
func TestNestedJitClosure(t *testing.T) {
	f, d := Parse("closure.py", []byte(closureSrc))
	require.NoError(t, d.Err())
	var names []string
	for _, fn := range f.Funcs {
		names = append(names, fn.Name)
	}
	assert.Equal(t, []string{"compare", "kernel", "helper"}, names)
	k := f.Func("kernel")
	require.NotNil(t, k)
	assert.Equal(t, f.Func("compare"), k.Closure["compare"])
	assert.NotContains(t, k.Closure, "helper")
	assert.NotContains(t, k.Closure, "bad")
}
