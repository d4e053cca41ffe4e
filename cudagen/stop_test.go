package cudagen

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
)

// endsAfter is a context that reports itself done from its n-th Err call
// on: a deadline that passes at a known point of the emission.
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

// TestGenerateStops checks that Generate stops once Options.Context is
// done, with an error placed at the statement it was printing, in the
// words of the context's cause; a later end stops at a later statement.
func TestGenerateStops(t *testing.T) {
	k := softmaxKernel(t, 1024, 4)
	_, err := Generate(k, Options{Context: &endsAfter{Context: context.Background()}})
	var first *diag.Diagnostic
	require.True(t, errors.As(err, &first), "%v", err)
	assert.Equal(t, diag.CodeTimeout, first.Code)
	assert.Contains(t, first.Message, "context deadline exceeded while generating CUDA for kernel "+k.Name)
	require.True(t, first.Pos.IsValid(), "the stop is placed: %v", err)

	_, err = Generate(k, Options{Context: &endsAfter{Context: context.Background(), n: 6}})
	var later *diag.Diagnostic
	require.True(t, errors.As(err, &later), "%v", err)
	assert.True(t, first.Pos.Before(later.Pos), "%v is not after %v", later.Pos, first.Pos)

	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped at --timeout 5s"))
	_, err = Generate(k, Options{Context: ctx})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stopped at --timeout 5s while generating CUDA for kernel "+k.Name)
}
