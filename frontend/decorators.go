package frontend

// This file implements decorators: their conversion and the resolution of
// their names through the import aliases.

import (
	"github.com/go-python/gpython/ast"
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

// hasJit reports whether one of decos is triton.jit.
func hasJit(decos []*Decorator) bool {
	for _, d := range decos {
		if d.Name == "triton.jit" {
			return true
		}
	}
	return false
}
