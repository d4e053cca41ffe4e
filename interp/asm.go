package interp

// This file implements the interpreter's answer to inline assembly: it
// cannot run PTX, so a kernel that calls tl.inline_asm_elementwise is
// refused before any program runs, with an error placed at the call.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// inlineAsmMessage says why the interpreter stops and what to do instead.
const inlineAsmMessage = "tl.inline_asm_elementwise runs PTX, which the interpreter cannot execute; run the kernel on the GPU (tri run without --interpret)"

// CanRun reports whether the interpreter can run k: nil, or the error
// placed at the first operation it cannot execute (inline assembly).
func CanRun(k *ir.Kernel) error {
	var at *ir.Value
	ir.Inspect(k.Body, func(v *ir.Value) {
		if at == nil && v.Op == ir.OpInlineAsm {
			at = v
		}
	})
	if at == nil {
		return nil
	}
	return diag.Errorf(diag.Pos(at.Pos), diag.CodeUnsupported, "interpreting %s: %s", k.Name, inlineAsmMessage)
}

// evalInlineAsm is never reached through Run, which refuses such kernels
// up front; it keeps the op table whole.
func evalInlineAsm(p *program, v *ir.Value, _ []*tile) (*tile, error) {
	return nil, p.errorf(v.Pos, diag.CodeUnsupported, "%s", inlineAsmMessage)
}
