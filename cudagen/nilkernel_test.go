package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGenerateNilKernel(t *testing.T) {
	res, err := Generate(nil, Options{})
	assert.Nil(t, res)
	assert.ErrorContains(t, err, "no kernel (nil)")
}
