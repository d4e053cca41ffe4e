package hosteval

// This file implements parsing of launch lines and --let expressions with
// the frontend's expression parser.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// ParseExpr parses one expression of a source called name. The error is the
// first error diagnostic, marked as bad input.
func ParseExpr(name, text string) (frontend.Expr, error) {
	x, diags := frontend.ParseExpr(name, text)
	if diags != nil && diags.HasErrors() {
		for _, d := range diags.Items {
			if d.Severity == diag.Error {
				return nil, Usage(d)
			}
		}
		return nil, Usage(diags)
	}
	if x == nil {
		return nil, Usage(ErrAt(name, 1, "syntax error: expected an expression"))
	}
	return x, nil
}
