package cudagen

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
)

func TestGenerateNilKernel(t *testing.T) {
	res, err := Generate(nil, Options{})
	assert.Nil(t, res)
	assert.ErrorContains(t, err, "no kernel (nil)")
	assert.ErrorContains(t, DumpLayouts(nil, &ir.Kernel{}, ""), "one is nil")
	assert.ErrorContains(t, DumpLayouts(&bytes.Buffer{}, nil, ""), "one is nil")
}

// A kernel built as a zero struct is lowered or refused, not a panic.
func TestZeroKernel(t *testing.T) {
	assert.NotPanics(t, func() { _, _ = Generate(&ir.Kernel{}, Options{}) })
	assert.NotPanics(t, func() { _ = DumpLayouts(&bytes.Buffer{}, &ir.Kernel{}, "") })
}
