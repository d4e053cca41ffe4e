package sema

// This file implements f-strings, which Triton evaluates at compile time:
// every replacement field must be a compile-time constant.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// fstring evaluates an f-string to a constant string.
func (c *compiler) fstring(fr *frame, e *frontend.FString) *val {
	var s []byte
	for _, pt := range e.Parts {
		if pt.X == nil {
			s = append(s, pt.Lit...)
			continue
		}
		v := c.expr(fr, pt.X)
		if v.k == kInvalid {
			return v
		}
		switch v.k {
		case kInt, kFloat, kBool, kStr, kNone:
		default:
			return c.errorf(pt.X.Position(), diag.CodeValue,
				"an f-string replacement field must be a compile-time constant, got %s", v.describe())
		}
		if pt.Spec != "" {
			return c.errorf(pt.X.Position(), diag.CodeUnsupported, "format specs in f-strings (:%s) are not supported", pt.Spec)
		}
		if pt.Conv == "r" || pt.Conv == "a" || v.k != kStr {
			s = append(s, v.repr()...)
		} else {
			s = append(s, v.s...)
		}
	}
	return strVal(string(s))
}
