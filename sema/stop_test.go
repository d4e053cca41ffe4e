package sema

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// endsAfter is a context that reports itself done from its n-th Err call
// on: a deadline that passes at a known statement.
type endsAfter struct {
	context.Context
	n int
}

func (c *endsAfter) Err() error {
	if c.n <= 0 {
		return context.DeadlineExceeded
	}
	c.n--
	return nil
}

const unrolled = header + `@triton.jit
def k(x, y):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in tl.static_range(16384):
        acc += tl.load(x + i * 16 + tl.arange(0, 16))
    tl.store(y + tl.arange(0, 16), acc)
`

// TestSpecializeStops checks that specializing stops once the context is
// done, unrolling no further, with an error placed at the statement it was
// about to compile in the context cause's words.
func TestSpecializeStops(t *testing.T) {
	f, d := frontend.Parse("k.tri", []byte(unrolled))
	require.NoError(t, d.Err())
	fn := f.Func("k")
	args := sig(ptr(ir.Float32), ptr(ir.Float32))

	k, diags := SpecializeFuncContext(&endsAfter{Context: context.Background(), n: 100}, f, fn, args)
	assert.Nil(t, k)
	require.Len(t, diags.Items, 1, "%v", diags.Err())
	got := diags.Items[0]
	assert.Equal(t, diag.CodeTimeout, got.Code)
	assert.Equal(t, 8, got.Pos.Line, "the loop body's statement: %v", got)
	assert.Contains(t, got.Message, "context deadline exceeded while compiling kernel k (100 statements unrolled and inlined so far)")

	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped at --timeout 5s"))
	_, diags = SpecializeFuncContext(ctx, f, fn, args)
	require.Error(t, diags.Err())
	assert.Contains(t, diags.Err().Error(), "k.tri:6:5: stopped at --timeout 5s while compiling kernel k (0 statements")

	k, diags = SpecializeFunc(f, fn, args)
	require.NoError(t, diags.Err(), "without a context the same kernel compiles")
	assert.NotNil(t, k)
}
