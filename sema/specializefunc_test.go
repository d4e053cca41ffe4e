package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// TestSpecializeFunc: of two @jit functions of one name, each is compiled
// as itself when given by itself.
func TestSpecializeFunc(t *testing.T) {
	src := header + `
def first():
    @triton.jit
    def k(X):
        tl.store(X, 1.0)
    return k

def second():
    @triton.jit
    def k(X, Y):
        tl.store(Y, tl.load(X) * 2.0)
    return k
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	var ks []*frontend.Func
	for _, fn := range f.Funcs {
		if fn.Name == "k" {
			ks = append(ks, fn)
		}
	}
	require.Len(t, ks, 2)
	k1, diags := SpecializeFunc(f, ks[0], sig(ptr(ir.Float32)))
	require.NoError(t, diags.Err())
	k2, diags := SpecializeFunc(f, ks[1], sig(ptr(ir.Float32), ptr(ir.Float32)))
	require.NoError(t, diags.Err())
	assert.Len(t, k1.Params, 1)
	assert.Len(t, k2.Params, 2)
	_, diags = SpecializeFunc(f, ks[0], sig(ptr(ir.Float32), ptr(ir.Float32)))
	assert.Error(t, diags.Err())
}
