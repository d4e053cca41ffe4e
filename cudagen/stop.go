package cudagen

// This file implements the early stop of Generate when Options.Context
// ends (tri's --timeout): the emitter checks the context before each
// statement and unwinds with a stopped panic, which Generate turns into an
// error placed at that statement.

import (
	"context"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// stopped is the panic value that unwinds the emitter when the context
// has ended; pos is the statement about to be printed.
type stopped struct{ pos ir.Pos }

// stopError is the error Generate returns for a stop at pos: the
// context's cause (tri's "stopped at --timeout 5s") and where it was.
func stopError(ctx context.Context, k *ir.Kernel, pos ir.Pos) error {
	if !pos.IsValid() {
		pos = ir.Pos{File: k.File}
	}
	return diag.Errorf(diag.Pos(pos), diag.CodeTimeout, "%v while generating CUDA for kernel %s", context.Cause(ctx), k.Name)
}
