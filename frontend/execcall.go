package frontend

// This file implements the parts of module evaluation (exec.go) that reach
// beyond one statement: host functions called at module level for the
// globals they set, star imports, and the bindings that stand for values
// (computed constants, errors).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// effects reports whether calling the module-level host function name sets
// a module-level name: it declares a global, or calls a function that does.
func (x *executor) effects(fr *frame, name string, depth int) bool {
	hd := x.defOf(fr, name)
	if hd == nil || depth > maxCallDepth {
		return false
	}
	found := false
	ast.Walk(hd.def, func(n ast.Ast) bool {
		switch n := n.(type) {
		case *ast.Global:
			found = true
		case *ast.FunctionDef, *ast.ClassDef, *ast.Lambda:
			return n == ast.Ast(hd.def) // a nested scope's globals are its own
		case *ast.Call:
			if callee, ok := n.Func.(*ast.Name); ok && string(callee.Id) != name && x.effects(fr, string(callee.Id), depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// defOf returns the host function that name is bound to in fr, if any.
func (x *executor) defOf(fr *frame, name string) *hostDefn {
	hd := x.m.defs[name]
	if hd == nil {
		return nil
	}
	if b, ok := x.get(fr, name); !ok || b != hd.b {
		return nil
	}
	return hd
}

// call runs a module-level host function for the module-level names it
// sets. Its arguments must be constants tri computes; otherwise, and
// wherever its body does what tri cannot follow, the names it sets are
// errors.
func (x *executor) call(fr *frame, name string, call *Call) {
	hd := x.defOf(fr, name)
	globals := map[string]bool{}
	ast.Walk(hd.def, func(n ast.Ast) bool {
		switch n := n.(type) {
		case *ast.Global:
			for _, g := range n.Names {
				globals[string(g)] = true
			}
		case *ast.FunctionDef, *ast.ClassDef, *ast.Lambda:
			return n == ast.Ast(hd.def)
		}
		return true
	})
	inner := &frame{locals: map[string]*Binding{}, globals: globals, depth: fr.depth + 1}
	body := hd.conv.stmts(hd.def.Body)
	fail := func(why string) {
		x.poison(inner, body, why)
	}
	if inner.depth > maxCallDepth {
		fail(fmt.Sprintf("the call of %s at line %d nests more than %d calls deep", name, call.Pos.Line, maxCallDepth))
		return
	}
	a := hd.def.Args
	params := a.Args
	if len(call.Keywords) > 0 || a.Vararg != nil || a.Kwarg != nil || len(a.Kwonlyargs) > 0 ||
		len(call.Args) > len(params) || len(call.Args) < len(params)-len(a.Defaults) || hasStarred(call.Args) {
		fail(fmt.Sprintf("tri does not follow the arguments of the call of %s at line %d", name, call.Pos.Line))
		return
	}
	for i, prm := range params {
		arg := Expr(nil)
		if i < len(call.Args) {
			arg = call.Args[i]
		} else {
			arg = hd.conv.expr(a.Defaults[i-(len(params)-len(a.Defaults))])
		}
		v, ok := x.eval(fr, arg)
		if !ok {
			fail(fmt.Sprintf("tri cannot compute the argument %s of the call of %s at line %d", string(prm.Arg), name, call.Pos.Line))
			return
		}
		n := &Name{At: At{call.Pos}, ID: string(prm.Arg)}
		inner.locals[n.ID] = computed(n, v, false)
	}
	x.stmts(inner, body, nil)
}

// calls gives an error binding to the globals of every host function that
// e calls where tri does not run it (inside an expression whose value it
// needs): the names it would set are not known.
func (x *executor) calls(fr *frame, e Expr) {
	walkExpr(e, func(e Expr) {
		call, ok := e.(*Call)
		if !ok {
			return
		}
		n, ok := call.Func.(*Name)
		if !ok || !x.effects(fr, n.ID, 0) {
			return
		}
		hd := x.defOf(fr, n.ID)
		inner := &frame{locals: map[string]*Binding{}, globals: map[string]bool{}}
		ast.Walk(hd.def, func(a ast.Ast) bool {
			if g, ok := a.(*ast.Global); ok {
				for _, name := range g.Names {
					inner.globals[string(name)] = true
				}
			}
			return true
		})
		x.poison(inner, hd.conv.stmts(hd.def.Body), fmt.Sprintf("%s is called at line %d inside an expression, which tri does not run for the names it sets", n.ID, call.Pos.Line))
	})
}

// poison makes every name that ss bind in fr's module namespace an error
// placed where they bind it.
func (x *executor) poison(fr *frame, ss []Stmt, why string) {
	for _, n := range stmtTargets(ss) {
		if fr.locals != nil && !fr.globals[n.ID] {
			continue
		}
		x.set(fr, n.ID, errorBinding(n, why))
	}
}

// poisonAll makes every global a function declares an error.
func (x *executor) poisonAll(fr *frame, why string) {
	if fr.locals == nil {
		return
	}
	names := make([]string, 0, len(fr.globals))
	for n := range fr.globals {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if b, ok := x.m.env[n]; !ok || b.Err == nil {
			x.m.env[n] = &Binding{Name: n, Err: diag.Errorf(x.m.pos(), diag.CodeValue, "tri cannot compute %s: %s", n, why)}
		}
	}
}

// pos is a position naming m's file, for errors with no better place.
func (m *module) pos() diag.Pos { return diag.Pos{File: m.file.Name, Line: 1, Col: 1} }

// starImport runs from M import *: every name M exports (those its
// __all__ lists, else those not starting with _) is bound to M's.
func (x *executor) starImport(im *Import) {
	src, d := x.m.importModule(im, im.Module)
	if d != nil || src.Kind != SymModule {
		return
	}
	sm := src.File.module()
	sm.run()
	for _, n := range sm.exports() {
		x.set(&frame{}, n, &Binding{Name: n, Pos: im.Pos, Import: &Import{Pos: im.Pos, Level: im.Level, Module: im.Module, Name: n, Local: n}})
	}
}

// exports lists the names from m import * binds, sorted.
func (m *module) exports() []string {
	if b, _, ok := m.binding("__all__"); ok && b.Global != nil {
		if items, ok := m.tupleOf(b.Global.Value); ok {
			var out []string
			for _, it := range items {
				if it.kind == ConstStr {
					out = append(out, it.s)
				}
			}
			sort.Strings(out)
			return out
		}
	}
	seen := map[string]bool{}
	for n := range m.env {
		seen[n] = true
	}
	for n := range m.sets {
		seen[n] = true
	}
	var out []string
	for n := range seen {
		if !strings.HasPrefix(n, "_") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// computed is the binding of a name to a constant.
func computed(n *Name, v constValue, constexpr bool) *Binding {
	g := &Global{Name: n.ID, Pos: n.Pos, Value: v.expr(n.Pos), Constexpr: constexpr}
	return &Binding{Name: n.ID, Pos: n.Pos, Global: g}
}

// computedTuple is the binding of a name to a tuple of constants.
func computedTuple(n *Name, items []constValue) *Binding {
	t := &Tuple{At: At{n.Pos}}
	for _, it := range items {
		t.Elts = append(t.Elts, it.expr(n.Pos))
	}
	return &Binding{Name: n.ID, Pos: n.Pos, Global: &Global{Name: n.ID, Pos: n.Pos, Value: t}}
}

// expr is the constant as an expression placed at pos.
func (v constValue) expr(pos diag.Pos) *Const {
	return &Const{At: At{pos}, Kind: v.kind, Int: v.i, Float: v.f, Str: v.s, Bool: v.b}
}

// errorBinding binds a name to an error placed where it is bound.
func errorBinding(n *Name, why string) *Binding {
	return &Binding{Name: n.ID, Pos: n.Pos, Err: diag.Errorf(n.Pos, diag.CodeValue, "tri cannot compute %s here: %s", n.ID, why)}
}

// isComputed reports whether e is a value the evaluation computed (a
// constant or a tuple of them).
func isComputed(e Expr) bool {
	switch e := e.(type) {
	case *Const:
		return true
	case *Tuple:
		for _, x := range e.Elts {
			if !isComputed(x) {
				return false
			}
		}
		return true
	}
	return false
}

// isConstexprCall reports whether e is tl.constexpr(...).
func isConstexprCall(f *File, e Expr) bool {
	call, ok := e.(*Call)
	return ok && isConstexprName(f.Aliases, dottedName(call.Func))
}

// elements returns the items of a tuple or list display, or nil.
func elements(e Expr) []Expr {
	switch e := e.(type) {
	case *Tuple:
		if e.Elts == nil {
			return []Expr{}
		}
		return e.Elts
	case *List:
		if e.Elts == nil {
			return []Expr{}
		}
		return e.Elts
	}
	return nil
}

func hasStarred(es []Expr) bool {
	for _, e := range es {
		if _, ok := e.(*Starred); ok {
			return true
		}
	}
	return false
}

// stmtTargets lists the names that statements bind (assignment and loop
// targets), first binding first.
func stmtTargets(ss []Stmt) []*Name {
	var out []*Name
	seen := map[string]bool{}
	add := func(t Expr) {
		for _, n := range targetNames(t) {
			if !seen[n.ID] {
				seen[n.ID] = true
				out = append(out, n)
			}
		}
	}
	var walk func([]Stmt)
	walk = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *Assign:
				for _, t := range s.Targets {
					add(t)
				}
			case *AugAssign:
				add(s.Target)
			case *For:
				add(s.Target)
				walk(s.Body)
				walk(s.Else)
			case *While:
				walk(s.Body)
				walk(s.Else)
			case *If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(ss)
	return out
}

// exprNames lists the names an expression reads, not attribute names.
func exprNames(e Expr) []string {
	var out []string
	walkExpr(e, func(e Expr) {
		if n, ok := e.(*Name); ok {
			out = append(out, n.ID)
		}
	})
	return out
}

// walkExpr calls visit on e and every expression inside it.
func walkExpr(e Expr, visit func(Expr)) {
	if e == nil {
		return
	}
	visit(e)
	switch e := e.(type) {
	case *Binary:
		walkExpr(e.X, visit)
		walkExpr(e.Y, visit)
	case *Unary:
		walkExpr(e.X, visit)
	case *BoolOp:
		for _, v := range e.Values {
			walkExpr(v, visit)
		}
	case *Compare:
		walkExpr(e.Left, visit)
		for _, v := range e.Rights {
			walkExpr(v, visit)
		}
	case *Call:
		walkExpr(e.Func, visit)
		for _, a := range e.Args {
			walkExpr(a, visit)
		}
		for _, k := range e.Keywords {
			walkExpr(k.Value, visit)
		}
	case *Attribute:
		walkExpr(e.X, visit)
	case *Subscript:
		walkExpr(e.X, visit)
		walkExpr(e.Index, visit)
	case *Tuple:
		for _, v := range e.Elts {
			walkExpr(v, visit)
		}
	case *List:
		for _, v := range e.Elts {
			walkExpr(v, visit)
		}
	case *IfExp:
		walkExpr(e.Cond, visit)
		walkExpr(e.Then, visit)
		walkExpr(e.Else, visit)
	case *Starred:
		walkExpr(e.X, visit)
	case *BadExpr:
		walkExpr(e.Value, visit)
	}
}
