package gpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// TestAssertionError: CUDA_ERROR_ASSERT from a synchronization becomes an
// error that names the kernel's assertions and keeps the driver's error;
// other errors pass unchanged.
func TestAssertionError(t *testing.T) {
	k := &ir.Kernel{Name: "k", File: "dir/k.tri", Body: &ir.Block{}}
	cond := &ir.Value{Op: ir.OpConst, Type: ir.ScalarType(ir.TBool)}
	for i, msg := range []string{"x >= 0", "y < n"} {
		k.Body.Stmts = append(k.Body.Stmts, &ir.Value{Op: ir.OpAssert, Args: []*ir.Value{cond}, Pos: ir.Pos{Line: 7 + i}, Msg: &ir.Message{Text: msg}})
	}
	assertErr := fmt.Errorf("sync: %w", &nvrtc.Error{Func: "cuCtxSynchronize", Code: 710, Name: "CUDA_ERROR_ASSERT"})
	err := AssertionError(k, assertErr)
	assert.Equal(t, `a device assertion failed (one of k.tri:7: "x >= 0", k.tri:8: "y < n"); the failing program (block) and thread are printed above; the GPU context is lost for this process: sync: cuCtxSynchronize: CUDA_ERROR_ASSERT (710)`, err.Error())
	var ce *nvrtc.Error
	assert.True(t, errors.As(err, &ce))

	other := &nvrtc.Error{Func: "cuCtxSynchronize", Code: 700, Name: "CUDA_ERROR_ILLEGAL_ADDRESS"}
	assert.Equal(t, error(other), AssertionError(k, other))
}
