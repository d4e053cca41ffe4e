package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBlockShapeError(t *testing.T) {
	for _, tc := range []struct {
		shape Shape
		want  string
	}{
		{Shape{16, 32}, ""},
		{Shape{1, 1}, ""},
		{Shape{16, 24}, "Shape element 1 must be a power of 2"},
		{Shape{0}, "Shape element 0 must be a power of 2"},
		{Shape{1024, 2048}, "numel (2097152) exceeds triton maximum tensor numel (1048576)"},
	} {
		err := tc.shape.BlockShapeError()
		if tc.want == "" {
			assert.NoError(t, err, tc.shape)
			continue
		}
		assert.EqualError(t, err, tc.want, tc.shape)
	}
}
