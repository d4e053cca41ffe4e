package frontend

// This file reads the @jit functions defined inside a host function (test
// files define their kernels inside test functions). Triton evaluates the
// decorator when the def runs and compiles the body with the module's
// globals, so such a kernel is a kernel of the module as long as it uses
// no name of the function around it: tri reads those, and leaves out the
// ones that read a local of an enclosing function (a closure), whose
// values only running the host code would give, except the other @jit
// functions defined there (Func.Closure), which tri knows. They are not
// bound in the module's scope: the survey finds them by position, tri
// build by name.

import (
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// nestedJit adds the @jit functions found in the body of host function fd.
// outer holds the names local to the functions around fd, and closure the
// @jit functions of those that kernels here may call. A @jit function of
// fd that fd binds no other way is not a local that hides a kernel: it
// is in the closure of the others, unless it reads a local itself.
func (p *fileParser) nestedJit(fd *ast.FunctionDef, conv *converter, text string, line0 int, outer map[string]bool, closure map[string]*Func) {
	locals := boundNames(fd)
	for n := range outer {
		locals[n] = true
	}
	var jits []*ast.FunctionDef
	for _, s := range fd.Body {
		ast.Walk(s, func(n ast.Ast) bool {
			switch g := n.(type) {
			case *ast.FunctionDef:
				if hasJit(conv.decorators(g.DecoratorList)) {
					jits = append(jits, g)
				} else {
					p.nestedJit(g, conv, text, line0, locals, closure)
				}
				return false
			case *ast.ClassDef, *ast.Lambda:
				return false
			}
			return true
		})
	}
	// The candidates for the closure: the @jit functions fd binds once
	// and by their def alone; those that read a local are dropped until
	// none is left to drop, as calling one reads that local too.
	inClosure := closureCandidates(fd, jits)
	for changed := true; changed; {
		changed = false
		reads := map[string]bool{}
		for n := range locals {
			reads[n] = !inClosure[n]
		}
		for _, g := range jits {
			if inClosure[string(g.Name)] && usesAny(g, reads) {
				delete(inClosure, string(g.Name))
				changed = true
			}
		}
	}
	visible := map[string]*Func{}
	for n, f := range closure {
		if !locals[n] {
			visible[n] = f
		}
	}
	var made []*Func
	for _, g := range jits {
		reads := map[string]bool{}
		for n := range locals {
			reads[n] = !inClosure[n]
		}
		if usesAny(g, reads) {
			continue
		}
		decos := conv.decorators(g.DecoratorList)
		setArgsText(decos, text, line0)
		f := p.makeFunc(g, conv, p.defPos(conv.pos(g.Pos)), string(g.Name), decos)
		p.file.Funcs = append(p.file.Funcs, f)
		made = append(made, f)
		if inClosure[f.Name] {
			visible[f.Name] = f
		}
	}
	if len(visible) > 0 {
		for _, f := range made {
			f.Closure = visible
		}
	}
}

// closureCandidates are the names of the @jit functions jits (defined in
// fd) that fd binds once, by that def.
func closureCandidates(fd *ast.FunctionDef, jits []*ast.FunctionDef) map[string]bool {
	count := map[string]int{}
	for _, g := range jits {
		count[string(g.Name)]++
	}
	other := boundNames(&ast.FunctionDef{Args: fd.Args, Body: withoutDefs(fd.Body, jits)})
	out := map[string]bool{}
	for n, c := range count {
		if c == 1 && !other[n] {
			out[n] = true
		}
	}
	return out
}

// withoutDefs is body without the statements of defs, at any depth of
// compound statements that boundNames walks (an if's body keeps its
// other statements).
func withoutDefs(body []ast.Stmt, defs []*ast.FunctionDef) []ast.Stmt {
	skip := map[ast.Stmt]bool{}
	for _, g := range defs {
		skip[g] = true
	}
	var out []ast.Stmt
	for _, st := range body {
		if skip[st] {
			continue
		}
		switch x := st.(type) {
		case *ast.If:
			c := *x
			c.Body, c.Orelse = withoutDefs(x.Body, defs), withoutDefs(x.Orelse, defs)
			st = &c
		}
		out = append(out, st)
	}
	return out
}

// defPos is the position of the def line of a function whose node starts
// at pos (gpython places a decorated def at its first decorator).
func (p *fileParser) defPos(pos diag.Pos) diag.Pos {
	lines := strings.Split(p.text, "\n")
	for l := pos.Line; l >= 1 && l <= len(lines); l++ {
		s := strings.TrimLeft(lines[l-1], " \t")
		if strings.HasPrefix(s, "def ") || strings.HasPrefix(s, "async def ") {
			return diag.Pos{File: pos.File, Line: l, Col: len(lines[l-1]) - len(s) + 1}
		}
	}
	return pos
}

// boundNames are the names a function binds: its parameters, the targets
// of its assignments, loops and imports, and the functions and classes it
// defines (not the names bound inside those).
func boundNames(fd *ast.FunctionDef) map[string]bool {
	out := map[string]bool{}
	if a := fd.Args; a != nil {
		for _, x := range append(append([]*ast.Arg{a.Vararg, a.Kwarg}, a.Args...), a.Kwonlyargs...) {
			if x != nil {
				out[string(x.Arg)] = true
			}
		}
	}
	for _, s := range fd.Body {
		ast.Walk(s, func(n ast.Ast) bool {
			switch x := n.(type) {
			case *ast.Name:
				if x.Ctx == ast.Store || x.Ctx == ast.Del {
					out[string(x.Id)] = true
				}
			case *ast.Alias:
				name := string(x.AsName)
				if name == "" {
					name, _, _ = strings.Cut(string(x.Name), ".")
				}
				out[name] = true
			case *ast.FunctionDef:
				out[string(x.Name)] = true
				return false
			case *ast.ClassDef:
				out[string(x.Name)] = true
				return false
			case *ast.Lambda:
				return false
			}
			return true
		})
	}
	return out
}

// usesAny reports whether the @jit function g reads a name of locals that
// it does not bind itself, in its body, its decorators or its defaults.
func usesAny(g *ast.FunctionDef, locals map[string]bool) bool {
	own := boundNames(g)
	found := false
	visit := func(n ast.Ast) bool {
		if x, ok := n.(*ast.Name); ok && x.Ctx == ast.Load && locals[string(x.Id)] {
			found = true
		}
		return !found
	}
	for _, d := range g.DecoratorList {
		ast.Walk(d, visit)
	}
	if a := g.Args; a != nil {
		for _, d := range append(append([]ast.Expr(nil), a.Defaults...), a.KwDefaults...) {
			if d != nil {
				ast.Walk(d, visit)
			}
		}
	}
	for _, s := range g.Body {
		ast.Walk(s, func(n ast.Ast) bool {
			if x, ok := n.(*ast.Name); ok && x.Ctx == ast.Load && locals[string(x.Id)] && !own[string(x.Id)] {
				found = true
			}
			return !found
		})
	}
	return found
}
