package frontend

// This file implements module-level if statements whose arms only assign
// (if is_hip(): STAGES = [1] elif ...: STAGES = [2, 3] else: STAGES = [3]),
// and try statements that only assign and import Triton or torch
// (try: import triton; V = version.parse(triton.__version__) except
// ImportError: V = ...): Python runs them at import, so host code that
// reads the names they bind (a config list built from STAGES) runs the
// whole statement, condition and all, in gpython's interpreter. They are
// recorded as one host definition binding every name its arms assign.

import (
	"sort"
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// hostIfs records, as host definitions, the module-level if and try
// statements of top (the file's top-level chunks) whose arms hold only
// assignments to names (and pass or a docstring): not if __name__ ==
// "__main__": main(). Those directly in the arm of a top-level if
// has_triton(): are recorded too, as its assignments are (underTriton).
func (p *fileParser) hostIfs(top []*chunk) {
	for i := 0; i < len(top); i++ {
		c := top[i]
		if body := p.tritonGuardBody(c); body != nil {
			p.hostIfs(body)
			continue
		}
		if kw := leadingIdent(strings.TrimLeft(c.first(p.text), " \t")); kw != "if" && kw != "try" {
			continue
		}
		joined := *c
		joined.lines = append([]logicalLine(nil), c.lines...)
		for i+1 < len(top) && isContinuation(p.text, top[i+1]) {
			i++
			joined.end = top[i].end
			joined.lines = append(joined.lines, top[i].lines...)
		}
		p.guard(&joined, p.hostIf)
	}
}

// hostIf records one module-level if or try statement as a host
// definition if its arms only assign.
func (p *fileParser) hostIf(c *chunk) {
	s, conv, text, d := p.parseChunk(c)
	if d != nil || conv.rw.changesHostMeaning() {
		return
	}
	var names []string
	switch st := s.(type) {
	case *ast.If:
		if !assignsOnly(st, &names) {
			return
		}
	case *ast.Try:
		if !tryAssignsOnly(st, &names) {
			return
		}
	default:
		return
	}
	if len(names) == 0 {
		return
	}
	p.file.HostStmts = append(p.file.HostStmts, &HostFunc{Name: names[0], Binds: names,
		Pos: diag.Pos{File: p.file.Name, Line: c.line, Col: c.indent + 1}, Source: dedent(text, c.indent), Assign: true})
}

// assignsOnly reports whether every statement of an if chain is an
// assignment to plain names, a nested if chain of those, pass or a
// constant expression, adding the names assigned to names.
func assignsOnly(st *ast.If, names *[]string) bool {
	body := append(append([]ast.Stmt(nil), st.Body...), st.Orelse...)
	for _, s := range body {
		switch s := s.(type) {
		case *ast.If:
			if !assignsOnly(s, names) {
				return false
			}
		case *ast.Assign:
			for _, t := range s.Targets {
				if !targetNamesOf(t, names) {
					return false
				}
			}
		case *ast.AugAssign:
			n, ok := s.Target.(*ast.Name)
			if !ok {
				return false
			}
			addName(names, string(n.Id))
		case *ast.Pass:
		case *ast.ExprStmt: // a docstring or a constant; a call (main()) is not an assignment
			switch s.Value.(type) {
			case *ast.Str, *ast.Num, *ast.NameConstant, *ast.Ellipsis:
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// tryAssignsOnly is assignsOnly for a try statement: its body, handlers,
// else and finally only assign, or import triton or torch, which the host
// interpreter has as Python on a machine that runs Triton has them. An
// import of anything else could fail there and not in Python, and the
// except arm would give a value Python does not.
func tryAssignsOnly(st *ast.Try, names *[]string) bool {
	lists := [][]ast.Stmt{st.Body, st.Orelse, st.Finalbody}
	for _, h := range st.Handlers {
		lists = append(lists, h.Body)
	}
	for _, list := range lists {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.Import:
				for _, a := range s.Names {
					if !alwaysImported(string(a.Name)) {
						return false
					}
				}
			case *ast.ImportFrom:
				if s.Level != 0 || !alwaysImported(string(s.Module)) {
					return false
				}
			default:
				if !assignsOnly(&ast.If{Body: []ast.Stmt{s}}, names) {
					return false
				}
			}
		}
	}
	return true
}

// alwaysImported reports whether the module of a dotted name is Triton or
// torch.
func alwaysImported(dotted string) bool {
	top, _, _ := strings.Cut(dotted, ".")
	return top == "triton" || top == "torch"
}

// targetNamesOf adds the names an assignment target binds; false if it
// assigns anything but names (x[i] = ..., x.a = ...).
func targetNamesOf(t ast.Expr, names *[]string) bool {
	switch t := t.(type) {
	case *ast.Name:
		addName(names, string(t.Id))
		return true
	case *ast.Tuple:
		for _, e := range t.Elts {
			if !targetNamesOf(e, names) {
				return false
			}
		}
		return true
	case *ast.List:
		for _, e := range t.Elts {
			if !targetNamesOf(e, names) {
				return false
			}
		}
		return true
	}
	return false
}

func addName(names *[]string, n string) {
	for _, m := range *names {
		if m == n {
			return
		}
	}
	*names = append(*names, n)
}

// Bound lists the names a host definition binds.
func (h *HostFunc) Bound() []string {
	if len(h.Binds) > 0 {
		return h.Binds
	}
	return []string{h.Name}
}

// HostBindings returns, in source order, the host definitions of f that
// bind name on lines before line (every one where line <= 0): what Python
// has run of them when it reaches that line.
func (f *File) HostBindings(name string, line int) []*HostFunc {
	var out []*HostFunc
	for _, h := range f.HostStmts {
		if line > 0 && h.Pos.Line >= line {
			break
		}
		for _, n := range h.Bound() {
			if n == name {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// sortHostStmts puts the host statements in source order (chunks are
// visited by kind).
func (f *File) sortHostStmts() {
	sort.SliceStable(f.HostStmts, func(i, j int) bool { return f.HostStmts[i].Pos.Before(f.HostStmts[j].Pos) })
}

// dropHostDef forgets the host defs of name, which a wrapper assignment
// (k = triton.jit(k)) made a kernel.
func (f *File) dropHostDef(name string) {
	out := f.HostStmts[:0]
	for _, h := range f.HostStmts {
		if h.Name != name || h.Assign {
			out = append(out, h)
		}
	}
	f.HostStmts = out
}

// HostComputes reports whether running f's host statements for g's name,
// in order, gives g: g is the name's last top-level host binding, so the
// host evaluator (File.HostValue) computes its value.
func (f *File) HostComputes(g *Global) bool {
	defs := f.HostBindings(g.Name, 0)
	if len(defs) == 0 {
		return false
	}
	last := defs[len(defs)-1]
	// After an if tri cannot decide (guess.go), the host code's final
	// value is the name's, whichever binding tri would pick.
	end := last.Pos.Line + strings.Count(strings.TrimRight(last.Source, "\n"), "\n")
	return last.Pos.Line == g.Pos.Line || g.HostFinal && end >= g.Pos.Line
}
