package hosteval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescriptor checks what host tensor descriptors hold and what their
// attributes give.
func TestDescriptor(t *testing.T) {
	e := lets(t, "x=zeros(40, 24, dtype='float16')", "M=40")
	for _, tc := range []struct {
		text, want string
	}{
		{"TensorDescriptor.from_tensor(x, [16, 8])", "TensorDescriptor(base=tensor float16[40 24], shape=[40, 24], strides=[24, 1], block_shape=[16, 8], padding='zero')"},
		{"TensorDescriptor(x, [M, 24], [24, 1], [16, 8], 'nan')", "TensorDescriptor(base=tensor float16[40 24], shape=[40, 24], strides=[24, 1], block_shape=[16, 8], padding='nan')"},
		{"TensorDescriptor(x, shape=[20, 8], strides=[48, 1], block_shape=[1, 8], padding='zero')", "TensorDescriptor(base=tensor float16[40 24], shape=[20, 8], strides=[48, 1], block_shape=[1, 8], padding='zero')"},
		{"triton.tools.tensor_descriptor.TensorDescriptor.from_tensor(x, (32, 16)).block_shape", "(32, 16)"},
		{"TensorDescriptor.from_tensor(x, [16, 8]).strides", "(24, 1)"},
		{"TensorDescriptor.from_tensor(x, [16, 8]).shape[0]", "40"},
		{"TensorDescriptor.from_tensor(x, [16, 8]).dtype", "tl.float16"},
	} {
		v, err := evalText(t, e, tc.text)
		require.NoError(t, err, tc.text)
		assert.Equal(t, tc.want, v.String(), tc.text)
	}
}

// TestDescriptorErrors checks the checks of TensorDescriptor.__post_init__,
// in Triton's words.
func TestDescriptorErrors(t *testing.T) {
	e := lets(t, "x=zeros(40, 24, dtype='float16')", "i=zeros(40, 24, dtype='int32')")
	for _, tc := range []struct{ text, want string }{
		{"TensorDescriptor(x, [40, 24], [24], [16, 8])", "rank mismatch"},
		{"TensorDescriptor(x, [], [], [])", "rank must not be zero"},
		{"TensorDescriptor(x, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1])", "rank cannot be more than 5"},
		{"TensorDescriptor(x, [40, 24], [24, 1], [16, 6])", "Shape element 1 must be a power of 2"},
		{"TensorDescriptor(x, [40, 24], [24, 1], [2048, 1024])", "numel (2097152) exceeds triton maximum tensor numel (1048576)"},
		{"TensorDescriptor(x, [40, 12], [12, 1], [16, 8])", "strides must be 16-byte aligned"},
		{"TensorDescriptor(x, [0, 24], [24, 1], [16, 8])", "shape must be positive"},
		{"TensorDescriptor(x, [20, 12], [48, 2], [16, 8])", "Last dimension must be contiguous"},
		{"TensorDescriptor(x, [40, 24], [24, 1], [16, 8], 'inf')", "Illegal value for padding"},
		{"TensorDescriptor.from_tensor(i, [16, 8], padding='nan')", "Padding option `nan` is only supported for floating point tensors"},
		{"TensorDescriptor(x, [40, 24], [24, 1])", "TensorDescriptor() missing required argument 'block_shape'"},
		{"TensorDescriptor.from_tensor(3, [16, 8])", "wants a tensor, not an int"},
		{"TensorDescriptor.from_tensor(x, [16, 8]).base_ptr", "a TensorDescriptor has no attribute 'base_ptr'"},
	} {
		_, err := evalText(t, e, tc.text)
		require.Error(t, err, tc.text)
		assert.Contains(t, err.Error(), tc.want, tc.text)
	}
}
