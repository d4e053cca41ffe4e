package gpu

// This file implements what a launch needs when its kernel prints or
// asserts: flushing what the driver printed, and an error that says a
// device assertion failed.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// cudaErrorAssert is CUDA_ERROR_ASSERT, the error of a launch in which a
// thread called __assertfail (tl.device_assert compiled with debug).
const cudaErrorAssert = 710

// FlushOutput flushes what kernels printed (device printf, the messages of
// failed assertions), which the driver writes to the process's standard
// output when the host synchronizes. Call it after a synchronization.
func FlushOutput() { nvrtc.FlushOutput() }

// AssertionError explains err when it is the CUDA_ERROR_ASSERT of a
// failed device assertion of k: it names the assertions k has (the
// driver prints the one that failed, with its block and thread, on
// standard output) and says that the GPU context is lost. Other errors
// are returned as they are.
func AssertionError(k *ir.Kernel, err error) error {
	var ce *nvrtc.Error
	if !errors.As(err, &ce) || ce.Code != cudaErrorAssert {
		return err
	}
	var asserts []string
	ir.Inspect(k.Body, func(v *ir.Value) {
		if v.Op == ir.OpAssert && v.Msg != nil {
			asserts = append(asserts, fmt.Sprintf("%s:%d: %q", filepath.Base(k.File), v.Pos.Line, v.Msg.Text))
		}
	})
	what := "a device assertion failed"
	switch len(asserts) {
	case 0:
	case 1:
		what += " (" + asserts[0] + ")"
	default:
		what += " (one of " + strings.Join(asserts, ", ") + ")"
	}
	return fmt.Errorf("%s; the failing program (block) and thread are printed above; the GPU context is lost for this process: %w", what, err)
}
