package frontend

// This file implements ParseExpr, for launch lines and --let values.

import (
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// ParseExpr parses one Python expression (a launch line, a --let value)
// with positions in a source called name (e.g. "launch", "--let x"). It
// never panics; a syntax error is an error diagnostic placed in src.
func ParseExpr(name string, src string) (e Expr, diags *diag.List) {
	diags = &diag.List{}
	defer func() {
		if r := recover(); r != nil {
			e = nil
			diags.Add(diag.Errorf(diag.Pos{File: name, Line: 1, Col: 1}, diag.CodeInternal, "internal error while parsing: %v", r))
		}
	}()
	text := strings.TrimRight(normalizeSource([]byte(src)), " \t\n")
	trimmed := strings.TrimLeft(text, " \t")
	col0 := len(text) - len(trimmed)
	start := diag.Pos{File: name, Line: 1, Col: col0 + 1}
	if d := checkLimits(name, text); d != nil {
		diags.Add(d)
		return nil, diags
	}
	if trimmed == "" {
		diags.Add(diag.Errorf(start, diag.CodeSyntax, "syntax error: empty expression"))
		return nil, diags
	}
	modern, rw := modernize(trimmed + "\n")
	m, d := gpyParse(modern, name, 0, py.EvalMode, start)
	if d != nil {
		if d.Pos.Line == 1 {
			d.Pos.Col += col0
		}
		diags.Add(d)
		return nil, diags
	}
	ex, ok := m.(*ast.Expression)
	if !ok || ex.Body == nil {
		diags.Add(diag.Errorf(start, diag.CodeSyntax, "syntax error: expected an expression"))
		return nil, diags
	}
	c := &converter{file: name, col0: col0, rw: rw}
	return c.expr(ex.Body), diags
}
