package bind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/hosteval"
)

// Nil kernels, launches and environments, and a Binding built as a zero
// struct, give errors or empty results (each stopped on a nil pointer
// before).
func TestNilArguments(t *testing.T) {
	_, err := Args(nil, nil, nil)
	assert.ErrorContains(t, err, "one is nil")
	_, err = WithConfig(nil, &hosteval.Launch{}, hosteval.NewEnv(0), nil)
	assert.ErrorContains(t, err, "one is nil")
	assert.Nil(t, ParamNames(nil))
	var b Binding
	assert.Empty(t, b.Named())
	assert.ErrorIs(t, b.Set("x", hosteval.IntValue(1)), errNoBinding)
	assert.ErrorIs(t, b.Fill(map[string]hosteval.Value{"x": hosteval.IntValue(1)}), errNoBinding)
	assert.NoError(t, b.Fill(nil))
}
