package frontend

// This file implements decorators: their conversion and the resolution of
// their names through the import aliases.

import (
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// knownDecorators are the decorators tri understands, by resolved name.
var knownDecorators = map[string]bool{
	"triton.jit":        true,
	"triton.autotune":   true,
	"triton.heuristics": true,
}

// decoratorName resolves the dotted name of a decorator. triton.runtime's
// spellings and a bare jit that no import binds count as triton's own.
func (p *fileParser) decoratorName(dotted string) string {
	return resolveDecorator(p.file.Aliases, dotted)
}

// resolveDecorator resolves a decorator's dotted name through aliases.
func resolveDecorator(aliases map[string]string, dotted string) string {
	if dotted == "" {
		return ""
	}
	if _, ok := aliases[dotted]; !ok {
		switch dotted {
		case "jit", "autotune", "heuristics":
			return "triton." + dotted
		}
	}
	r := resolveName(aliases, dotted)
	switch r {
	case "triton.runtime.jit", "triton.runtime.jit.jit":
		return "triton.jit"
	case "triton.runtime.autotune", "triton.runtime.autotuner.autotune":
		return "triton.autotune"
	case "triton.runtime.heuristics", "triton.runtime.autotuner.heuristics":
		return "triton.heuristics"
	case "triton.runtime.jit.constexpr_function", "triton.runtime.constexpr_function", "triton.language.constexpr_function",
		"triton.language.constexpr": // tl.constexpr(f) calls f when called
		return constexprFunction
	}
	return r
}

// decorators converts a def's decorator list, outermost first.
func (c *converter) decorators(list []ast.Expr) []*Decorator {
	var out []*Decorator
	for _, d := range list {
		out = append(out, c.decorator(c.expr(d)))
	}
	return out
}

// decorator describes one decorator expression.
func (c *converter) decorator(e Expr) *Decorator {
	dc := &Decorator{Pos: e.Position()}
	if call, ok := e.(*Call); ok {
		dc.Call = true
		dc.Args = call.Args
		dc.Keywords = call.Keywords
		e = call.Func
	}
	dc.Name = resolveDecorator(c.aliases, dottedName(e))
	return dc
}

// constexprFunction is the resolved name of @triton.constexpr_function.
const constexprFunction = "triton.constexpr_function"

// hasDecorator reports whether one of decos has the resolved name.
func hasDecorator(decos []*Decorator, name string) bool {
	for _, d := range decos {
		if d.Name == name {
			return true
		}
	}
	return false
}

// hasJit reports whether one of decos is triton.jit.
func hasJit(decos []*Decorator) bool {
	for _, d := range decos {
		if d.Name == "triton.jit" {
			return true
		}
	}
	return false
}

// setArgsText fills ArgsText and ArgsPos of the call decorators among decos
// from text, the source they were parsed from, whose first line is line
// line0+1 of the file.
func setArgsText(decos []*Decorator, text string, line0 int) {
	for _, d := range decos {
		if !d.Call || !d.Pos.IsValid() {
			continue
		}
		off, ok := offsetOf(text, d.Pos.Line-line0, d.Pos.Col)
		if !ok {
			continue
		}
		if text[off] == '@' { // gpython places a decorator at its "@"
			off++
		}
		open, end, ok := callArgsSpan(text, off)
		if !ok {
			continue
		}
		d.ArgsText = text[open:end]
		d.ArgsPos = diag.Pos{File: d.Pos.File, Line: line0 + 1 + strings.Count(text[:open], "\n")}
		d.ArgsPos.Col = open - strings.LastIndexByte(text[:open], '\n')
	}
}

// offsetOf returns the byte offset of a 1-based line and column in text.
func offsetOf(text string, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	off += col - 1
	return off, off < len(text)
}

// callArgsSpan finds, after the dotted callee that starts at off, the
// argument list of the call: the offsets of its "(" and just after the
// matching ")". Strings and comments are skipped; line continuations and
// line breaks inside the brackets are allowed.
func callArgsSpan(text string, off int) (open, end int, ok bool) {
	i := off
	for i < len(text) && (isIdentByte(text[i], true) || strings.IndexByte(". \t\\\n", text[i]) >= 0) {
		i++
	}
	if i == off || i >= len(text) || text[i] != '(' {
		return 0, 0, false
	}
	open = i
	depth := 0
	for i < len(text) {
		switch c := text[i]; c {
		case '(', '[', '{':
			depth++
			i++
		case ')', ']', '}':
			depth--
			i++
			if depth == 0 {
				return open, i, c == ')'
			}
		case '\'', '"':
			i, _ = skipString(text, i, 0)
		case '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			i++
		}
	}
	return 0, 0, false
}
