package sema

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestTupleSlice: slices of constexpr tuples follow Python's rules; each
// case asserts, at compile time, the tuple the slice must give.
func TestTupleSlice(t *testing.T) {
	for _, c := range []struct{ slice, want string }{
		{"[:-1]", "(2, 3, 5)"},
		{"[1:]", "(3, 5, 7)"},
		{"[:]", "(2, 3, 5, 7)"},
		{"[::2]", "(2, 5)"},
		{"[::-1]", "(7, 5, 3, 2)"},
		{"[-2:]", "(5, 7)"},
		{"[1:-1]", "(3, 5)"},
		{"[3:1:-1]", "(7, 5)"},
		{"[-100:100]", "(2, 3, 5, 7)"},
		{"[5:]", "()"},
		{"[None:2]", "(2, 3)"},
	} {
		src := fmt.Sprintf(`
@triton.jit
def k(X):
    t = (2, 3, 5, 7)
    tl.static_assert(t%s == %s)
    tl.store(X, 1.0)
`, c.slice, c.want)
		_, err := tryCompile(t, src, "k", sig(ptr(ir.Float32)))
		assert.NoError(t, err, c.slice)
		wrong := fmt.Sprintf(`
@triton.jit
def k(X):
    t = (2, 3, 5, 7)
    tl.static_assert(t%s == (1,))
    tl.store(X, 1.0)
`, c.slice)
		_, err = tryCompile(t, wrong, "k", sig(ptr(ir.Float32)))
		assert.Error(t, err, c.slice)
	}
}

// TestTupleSliceShape: a shape without its last axis, extended, reshapes a
// tensor (x.shape[:-1] + [32]).
func TestTupleSliceShape(t *testing.T) {
	src := `
@triton.jit
def k(X):
    x = tl.zeros([4, 8, 32], dtype=tl.float32)
    y = tl.reshape(tl.sum(x, 2), x.shape[:-1] + [1])
    tl.static_assert(y.shape == (4, 8, 1))
    tl.store(X + tl.arange(0, 32), tl.reshape(y, [32]))
`
	_, err := tryCompile(t, src, "k", sig(ptr(ir.Float32)))
	assert.NoError(t, err)
	bad := `
@triton.jit
def k(X):
    t = (2, 3)
    tl.static_assert(t[::0] == ())
`
	_, err = tryCompile(t, bad, "k", sig(ptr(ir.Float32)))
	assert.ErrorContains(t, err, "slice step cannot be zero")
}
