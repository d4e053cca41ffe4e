package frontend

// This file implements the conversion of f-strings, which modernize turned
// into plain strings for gpython: the recorded tokens are split into
// literal text and replacement fields, and each field is parsed on its own
// with its real position.

import (
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// fstring returns the recorded run of string tokens that starts at p, if
// one of them was an f-string.
func (r *rewrites) fstring(p ast.Pos) ([]strToken, bool) {
	if r == nil {
		return nil, false
	}
	run, ok := r.fstrings[[2]int{p.Lineno, p.ColOffset}]
	return run, ok
}

// isWalrus reports whether a comparison at p was an assignment expression.
func (r *rewrites) isWalrus(p ast.Pos) bool {
	return r != nil && r.walrus[[2]int{p.Lineno, p.ColOffset}]
}

// isStarred reports whether a call argument lost its '*'.
func (r *rewrites) isStarred(e ast.Expr) bool {
	if r == nil {
		return false
	}
	l, ok1 := e.(interface{ GetLineno() int })
	o, ok2 := e.(interface{ GetColOffset() int })
	return ok1 && ok2 && r.stars[[2]int{l.GetLineno(), o.GetColOffset()}]
}

// isUnpack reports whether a dict display's key stands for the '**' of an
// unpacked dict.
func (r *rewrites) isUnpack(e ast.Expr) bool {
	if r == nil {
		return false
	}
	l, ok1 := e.(interface{ GetLineno() int })
	o, ok2 := e.(interface{ GetColOffset() int })
	return ok1 && ok2 && r.unpacks[[2]int{l.GetLineno(), o.GetColOffset()}]
}

// fstring converts a run of string tokens holding an f-string.
func (c *converter) fstring(run []strToken, at diag.Pos) Expr {
	out := &FString{At: At{at}}
	lit := func(s string) {
		if n := len(out.Parts); n > 0 && out.Parts[n-1].X == nil {
			out.Parts[n-1].Lit += s
			return
		}
		out.Parts = append(out.Parts, FStringPart{Lit: s})
	}
	for _, tok := range run {
		q := strings.IndexAny(tok.text, `'"`)
		prefix, quote := tok.text[:q], tok.text[q:q+1]
		if strings.HasPrefix(tok.text[q:], strings.Repeat(quote, 3)) {
			quote = strings.Repeat(quote, 3)
		}
		body := strings.TrimSuffix(tok.text[q+len(quote):], quote)
		if !tok.f {
			s, ok := c.decodeString(prefix, quote, body)
			if !ok {
				return &BadExpr{At: At{at}, What: "a string literal that does not decode"}
			}
			lit(s)
			continue
		}
		line, col := tok.line, tok.col+q+len(quote) // of body[0]
		for i := 0; i < len(body); {
			switch {
			case strings.HasPrefix(body[i:], "{{"):
				lit("{")
				i += 2
				col += 2
				continue
			case strings.HasPrefix(body[i:], "}}"):
				lit("}")
				i += 2
				col += 2
				continue
			case body[i] == '{':
				end := fieldEnd(body, i+1)
				if end < 0 {
					return &BadExpr{At: At{at}, What: "an f-string with an unclosed replacement field"}
				}
				pt, ok := c.field(body[i+1:end], line, col+1)
				if !ok {
					return &BadExpr{At: At{c.pos(ast.Pos{Lineno: line, ColOffset: col})}, What: "an f-string replacement field that does not parse"}
				}
				if pt.Lit != "" {
					lit(pt.Lit)
					pt.Lit = ""
				}
				out.Parts = append(out.Parts, pt)
				for _, ch := range body[i : end+1] {
					col++
					if ch == '\n' {
						line++
						col = 0
					}
				}
				i = end + 1
				continue
			}
			j := i
			for j < len(body) && body[j] != '{' && body[j] != '}' {
				j++
			}
			if j == i {
				// A lone '}'.
				return &BadExpr{At: At{c.pos(ast.Pos{Lineno: line, ColOffset: col})}, What: "a single '}' in an f-string"}
			}
			s, ok := c.decodeString(prefix, quote, body[i:j])
			if !ok {
				return &BadExpr{At: At{at}, What: "a string literal that does not decode"}
			}
			lit(s)
			for _, ch := range body[i:j] {
				col++
				if ch == '\n' {
					line++
					col = 0
				}
			}
			i = j
		}
	}
	return out
}

// fieldEnd returns the offset of the '}' that closes a replacement field
// whose text starts at body[from], or -1.
func fieldEnd(body string, from int) int {
	depth := 0
	for i := from; i < len(body); {
		switch c := body[i]; {
		case c == '\'' || c == '"':
			i, _ = skipString(body, i, 0)
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
		i++
	}
	return -1
}

// field parses the text of one replacement field, which starts at the
// given gpython position of the parsed text.
func (c *converter) field(text string, line, col int) (FStringPart, bool) {
	var pt FStringPart
	depth := 0
	exprEnd := len(text)
scan:
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case ch == '\'' || ch == '"':
			j, _ := skipString(text, i, 0)
			i = j - 1
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case depth == 0 && ch == '!' && (i+1 >= len(text) || text[i+1] != '='):
			exprEnd = i
			rest := text[i+1:]
			pt.Conv, pt.Spec, _ = strings.Cut(rest, ":")
			break scan
		case depth == 0 && ch == ':':
			exprEnd = i
			pt.Spec = text[i+1:]
			break scan
		}
	}
	expr := text[:exprEnd]
	if t := strings.TrimRight(expr, " \t"); strings.HasSuffix(t, "=") && !strings.HasSuffix(t, "==") && !strings.HasSuffix(t, "!=") &&
		!strings.HasSuffix(t, "<=") && !strings.HasSuffix(t, ">=") {
		// {x=} shows the text and the value's repr.
		pt.Lit = expr
		expr = strings.TrimSuffix(t, "=")
		if pt.Conv == "" && pt.Spec == "" {
			pt.Conv = "r"
		}
	}
	if pt.Conv != "" && pt.Conv != "r" && pt.Conv != "s" && pt.Conv != "a" {
		return pt, false
	}
	trimmed := strings.TrimLeft(expr, " \t\n")
	lead := len(expr) - len(trimmed)
	if strings.TrimSpace(trimmed) == "" {
		return pt, false
	}
	// Parse the field as its own text; line and col place its first byte.
	sub := &converter{file: c.file, line0: c.line0 + line - 1, aliases: c.aliases}
	sub.col0 = col + lead
	if line == 1 {
		sub.col0 += c.col0
	}
	m, d := gpyParse("("+strings.TrimRight(trimmed, " \t\n")+")\n", c.file, sub.line0, py.EvalMode, c.pos(ast.Pos{Lineno: line, ColOffset: col}))
	if d != nil {
		return pt, false
	}
	ex, ok := m.(*ast.Expression)
	if !ok || ex.Body == nil {
		return pt, false
	}
	// The field was wrapped in parentheses (Python does the same), which
	// moves its first line right by one.
	sub.col0--
	pt.X = sub.expr(ex.Body)
	return pt, true
}

// decodeString decodes the body of a string literal (escapes, raw prefix)
// by parsing it as a literal on its own.
func (c *converter) decodeString(prefix, quote, body string) (string, bool) {
	if !strings.ContainsRune(body, '\\') || strings.ContainsAny(prefix, "rR") {
		return body, true
	}
	m, d := gpyParse(strings.TrimSpace(prefix)+quote+body+quote+"\n", c.file, 0, py.EvalMode, diag.Pos{File: c.file})
	if d != nil {
		return "", false
	}
	ex, ok := m.(*ast.Expression)
	if !ok {
		return "", false
	}
	s, ok := ex.Body.(*ast.Str)
	if !ok {
		return "", false
	}
	return string(s.S), true
}
