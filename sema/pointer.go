package sema

// This file implements what Triton says of pointer values beyond pointer
// arithmetic: the pointer dtype aliases triton.language defines, and the
// refusal of comparisons between pointers, which Triton rejects too
// (semantic.py checks comparison operands with pointers disallowed).

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// pointerAliases are the pointer dtypes triton.language names (core.py:
// pi32_t = pointer_type(int32)).
var pointerAliases = map[string]ir.DType{
	"pi32_t": ir.PtrTo(ir.Int32),
}

// pointerCompare reports a comparison with a pointer operand as Triton
// does, with the spelling that works instead.
func (c *compiler) pointerCompare(op string, xd, yd ir.DType, pos diag.Pos) *val {
	d := c.errorAt(pos, diag.CodeType, "comparison %s of %s and %s: Triton does not compare pointers", op, xd, yd)
	d.WithSuggestion("compare their addresses as integers, p.to(tl.int64) %s q.to(tl.int64)", op)
	return invalid
}
