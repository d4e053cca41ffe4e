package cudagen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWhyNotPipelined checks that a dot on wgmma whose loop no pipeliner
// takes says why in its comment: here a b that other code reads too, and
// an if in the body.
func TestWhyNotPipelined(t *testing.T) {
	src, err := build(t, "testdata/wgdot/why.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "not pipelined (b of the dot at line 22 is not a load in the body that only dots read)")
	assert.Contains(t, src, "not pipelined (its body holds a loop, an if or a return)")
	assert.NotContains(t, src, "not one the pipeliners take")
}
