package hosteval

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Nil launches, expressions, nodes and error pointers, and an Env built as
// a zero struct, give errors or do nothing (each stopped on a nil pointer
// or a nil map before).
func TestNilArguments(t *testing.T) {
	var e Env
	e.Set("n", IntValue(3))
	v, ok := e.Lookup("n")
	assert.True(t, ok)
	assert.Equal(t, int64(3), v.Int)
	_, err := e.Eval(nil, nil)
	assert.ErrorIs(t, err, errNoLaunch)
	_, err = e.Grid(nil, nil)
	assert.ErrorIs(t, err, errNoLaunch)
	assert.ErrorIs(t, e.ExpandKwargs(nil), errNoLaunch)
	AttachSource(nil, "x", "y")
	assert.EqualError(t, Errf(nil, "bad %d", 1), "bad 1")
	var buf bytes.Buffer
	PrintError(&buf, nil)
	assert.Empty(t, buf.String())
	PrintError(&buf, errors.New("boom"))
	assert.Equal(t, "tri: boom\n", buf.String())
}
