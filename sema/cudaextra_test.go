package sema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// TestCudaSpecialRegisters: tl.extra.cuda.globaltimer() and smid() read
// their register by inline asm, an int64 and an int32 scalar, as Triton
// 3.6 defines them (tritonbench's profiling helpers).
func TestCudaSpecialRegisters(t *testing.T) {
	src := header + `
@triton.jit
def k(out_ptr):
    t = tl.extra.cuda.globaltimer()
    s = tl.extra.cuda.smid()
    tl.static_assert(t.dtype == tl.int64)
    tl.static_assert(s.dtype == tl.int32)
    tl.store(out_ptr, t + s)
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	require.NoError(t, Check(f).Err())
	k, ds := Specialize(f, "k", sig(ptr(ir.Int64)))
	require.NoError(t, ds.Err())
	var b strings.Builder
	ir.Print(&b, k)
	assert.Contains(t, b.String(), "%globaltimer")
	assert.Contains(t, b.String(), "%smid")
}
