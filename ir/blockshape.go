package ir

import "fmt"

// MaxTensorNumel is Triton's TRITON_MAX_TENSOR_NUMEL, the most elements a
// tensor may have.
const MaxTensorNumel = 1 << 20

// BlockShapeError makes Triton's validate_block_shape checks of a block
// shape (of a block pointer or tensor descriptor): every dimension a power
// of 2, and no more than MaxTensorNumel elements. It returns nil for a
// valid shape, else an error in Triton's words.
func (s Shape) BlockShapeError() error {
	numel := 1
	for i, n := range s {
		if n <= 0 || n&(n-1) != 0 {
			return fmt.Errorf("Shape element %d must be a power of 2", i)
		}
		if numel *= n; numel > MaxTensorNumel {
			return fmt.Errorf("numel (%d) exceeds triton maximum tensor numel (%d)", numel, MaxTensorNumel)
		}
	}
	return nil
}
