package frontend

// This file implements the calls into gpython's parser, which may return a
// SyntaxError or panic on odd input; both become diagnostics.

import (
	"fmt"
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/parser"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// gpyParse parses text with gpython in the given mode. On failure it
// returns an error diagnostic placed at the syntax error, or at fallback if
// gpython gave no usable place; line0 is added to the lines gpython reports.
// (Offsetting lines, rather than padding text with blank lines, keeps the
// work linear in the size of the file.)
func gpyParse(text, file string, line0 int, mode py.CompileMode, fallback diag.Pos) (mod ast.Mod, d *diag.Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			mod = nil
			d = diag.Errorf(fallback, diag.CodeSyntax, "syntax error: the parser failed on this statement (%v)", r)
		}
	}()
	m, err := parser.Parse(strings.NewReader(text), file, mode)
	if err != nil {
		d := clampToText(syntaxDiag(err, file, fallback), text)
		if d.Pos != fallback {
			d.Pos.Line += line0
		}
		return nil, d
	}
	if m == nil {
		return nil, diag.Errorf(fallback, diag.CodeSyntax, "syntax error")
	}
	normalizeIdents(m)
	return m, nil
}

// syntaxDiag converts a gpython error (usually a SyntaxError exception
// carrying lineno and a 0-based offset) to a diagnostic.
func syntaxDiag(err error, file string, fallback diag.Pos) *diag.Diagnostic {
	pos := fallback
	msg := err.Error()
	if e, ok := err.(*py.Exception); ok {
		if t, ok := e.Args.(py.Tuple); ok && len(t) > 0 {
			if s, ok := t[0].(py.String); ok {
				msg = string(s)
			}
		}
		line, lok := e.Dict["lineno"].(py.Int)
		off, ook := e.Dict["offset"].(py.Int)
		if lok && line > 0 {
			pos = diag.Pos{File: file, Line: int(line), Col: 1}
			if ook && off >= 0 {
				pos.Col = int(off) + 1
			}
		}
	}
	if pos.File == "" {
		pos.File = file
	}
	return diag.Errorf(pos, diag.CodeSyntax, "syntax error: %s", msg)
}

// clampToText moves a diagnostic that gpython placed past the end of text
// (an unexpected end of input) to the end of text's last line.
func clampToText(d *diag.Diagnostic, text string) *diag.Diagnostic {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if d.Pos.Line > len(lines) {
		d.Pos.Line = len(lines)
		d.Pos.Col = len(lines[len(lines)-1]) + 1
	}
	return d
}

// describe names a gpython node kind for messages.
func describe(n any) string { return strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.") }
