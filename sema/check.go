package sema

// This file implements Check, name resolution of every @jit function
// without a signature (tri check).

import (
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// Check resolves every @jit function of f without a signature: unknown
// names and unknown tl attributes are errors, known-but-unsupported
// constructs warnings. Types are not checked: that needs a signature.
func Check(f *frontend.File) (diags *diag.List) {
	diags = &diag.List{}
	defer func() {
		if r := recover(); r != nil {
			diags.Errorf(diag.Pos{File: fileName(f)}, diag.CodeInternal, "internal error while checking %s: %v", fileName(f), r)
		}
	}()
	if f == nil {
		return diags
	}
	calls := map[*frontend.Func][]callSite{}
	seen := map[string]bool{}
	for _, fn := range f.Funcs {
		if !f.Runs(fn) {
			continue
		}
		ck := &checker{file: f, diags: diags, locals: map[string]bool{}, fn: fn, calls: calls, seen: seen}
		for _, p := range fn.Params {
			ck.locals[p.Name] = true
			if p.Default != nil {
				ck.expr(p.Default)
			}
		}
		if fn.Vararg != "" {
			ck.locals[fn.Vararg] = true
		}
		assignedNames(fn.Body, ck.locals)
		ck.stmts(fn.Body)
	}
	checkRecursion(f, calls, diags)
	for _, d := range f.ImportErrors() {
		diags.Add(d)
	}
	diags.Sort()
	return diags
}

type checker struct {
	file   *frontend.File
	diags  *diag.List
	locals map[string]bool
	fn     *frontend.Func                // the function being checked
	calls  map[*frontend.Func][]callSite // the @jit calls of each function
	seen   map[string]bool               // import errors already reported
}

// callSite is a call of one @jit function from another.
type callSite struct {
	callee *frontend.Func
	pos    diag.Pos
}

// checkRecursion reports every cycle of @jit calls, as specializing a
// kernel that reaches one would: Triton inlines calls and has no recursion.
// Each cycle is reported once, at the call that closes it, with a note for
// each other call on it.
func checkRecursion(f *frontend.File, calls map[*frontend.Func][]callSite, diags *diag.List) {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[*frontend.Func]int{}
	var path []callSite // the calls from the root to the function being visited
	var visit func(fn *frontend.Func)
	visit = func(fn *frontend.Func) {
		state[fn] = onPath
		for _, c := range calls[fn] {
			switch state[c.callee] {
			case onPath:
				d := diag.Errorf(c.pos, diag.CodeUnsupported, "recursive call to %s: Triton does not support recursion", c.callee.Name)
				for i := len(path) - 1; i >= 0 && path[i].callee != c.callee; i-- {
					d.Notes = append(d.Notes, diag.Related{Pos: path[i].pos, Message: "called from here"})
				}
				diags.Add(d)
			case unvisited:
				path = append(path, c)
				visit(c.callee)
				path = path[:len(path)-1]
			}
		}
		state[fn] = done
	}
	for _, fn := range f.Funcs {
		if state[fn] == unvisited {
			visit(fn)
		}
	}
}

func (ck *checker) stmts(list []frontend.Stmt) {
	for _, s := range list {
		ck.stmt(s)
	}
}

func (ck *checker) stmt(s frontend.Stmt) {
	switch s := s.(type) {
	case *frontend.Assign:
		ck.expr(s.Value)
		for _, t := range s.Targets {
			ck.target(t)
		}
	case *frontend.AugAssign:
		ck.expr(s.Target)
		ck.expr(s.Value)
	case *frontend.ExprStmt:
		ck.expr(s.X)
	case *frontend.If:
		ck.expr(s.Cond)
		ck.stmts(s.Then)
		ck.stmts(s.Else)
	case *frontend.For:
		ck.expr(s.Iter)
		ck.stmts(s.Body)
		if len(s.Else) > 0 {
			ck.diags.Warnf(s.Pos, diag.CodeUnsupported, "for ... else is not supported in Triton")
		}
	case *frontend.While:
		ck.expr(s.Cond)
		ck.stmts(s.Body)
		if len(s.Else) > 0 {
			ck.diags.Warnf(s.Pos, diag.CodeUnsupported, "while ... else is not supported in Triton")
		}
	case *frontend.Return:
		if s.Value != nil {
			ck.expr(s.Value)
		}
	case *frontend.Assert:
		ck.expr(s.Test)
		if s.Msg != nil {
			ck.expr(s.Msg)
		}
	case *frontend.Break:
		ck.diags.Warnf(s.Pos, diag.CodeUnsupported, "break is not supported in Triton")
	case *frontend.Continue:
		ck.diags.Warnf(s.Pos, diag.CodeUnsupported, "continue is not supported in Triton")
	case *frontend.Unsupported:
		ck.diags.Warnf(s.Pos, diag.CodeUnsupported, "%s is not supported in Triton kernels", s.What)
	}
}

func (ck *checker) target(t frontend.Expr) {
	switch t := t.(type) {
	case *frontend.Name:
	case *frontend.Tuple:
		for _, e := range t.Elts {
			ck.target(e)
		}
	case *frontend.List:
		for _, e := range t.Elts {
			ck.target(e)
		}
	default:
		ck.diags.Warnf(t.Position(), diag.CodeUnsupported, "only names and tuples of names can be assigned in Triton kernels")
	}
}

// path returns the dotted module path e stands for, if it is an attribute
// chain rooted at a name that stands for a path outside the project (an
// import of Triton).
func (ck *checker) path(e frontend.Expr) (string, bool) {
	s, ok := ck.symbol(e)
	if !ok || s.Kind != frontend.SymPath {
		return "", false
	}
	return s.Path, true
}

// symbol returns what a name or attribute chain that is not local stands
// for, following imports and modules of the project; false if e is not
// such a chain or a lookup on the way failed (that error is reported).
func (ck *checker) symbol(e frontend.Expr) (frontend.Symbol, bool) {
	switch e := e.(type) {
	case *frontend.Name:
		if ck.locals[e.ID] {
			return frontend.Symbol{}, false
		}
		if f := closureFunc(ck.fn, e.ID); f != nil {
			return frontend.Symbol{Kind: frontend.SymFunc, Func: f, File: f.File, Pos: e.Pos}, true
		}
		s, d := ck.file.Lookup(e.ID)
		if d != nil {
			ck.importError(d, e.Pos)
			return frontend.Symbol{}, false
		}
		if s.Kind != frontend.SymNone {
			ck.used(s, e.ID, e.Pos)
		}
		return s, s.Kind != frontend.SymNone
	case *frontend.Attribute:
		x, ok := ck.symbol(e.X)
		if !ok {
			return frontend.Symbol{}, false
		}
		switch x.Kind {
		case frontend.SymPath:
			return frontend.Symbol{Kind: frontend.SymPath, Path: x.Path + "." + e.Name, Pos: x.Pos}, true
		case frontend.SymModule:
			s, d := x.File.Attr(e.Name, e.Pos)
			if d != nil {
				ck.importError(d, e.Pos)
				return frontend.Symbol{}, false
			}
			if s.Kind == frontend.SymNone {
				d := ck.diags.Errorf(e.Pos, diag.CodeUndefined, "module %s (%s) has no attribute %s", moduleName(x.File), x.File.Name, e.Name)
				if sg := suggest(e.Name, scopeNames(x.File)); sg != "" {
					d.WithSuggestion("did you mean %s?", sg)
				}
				return frontend.Symbol{}, false
			}
			return s, true
		}
	}
	return frontend.Symbol{}, false
}

// importError reports a failed import once, with a note at the first use.
func (ck *checker) importError(d *diag.Diagnostic, use diag.Pos) {
	e := *d
	if use.IsValid() && use != d.Pos {
		e.Notes = append(append([]diag.Related(nil), d.Notes...), diag.Related{Pos: use, Message: "needed here"})
	}
	ck.once(&e)
}

func (ck *checker) resolvePath(p string, pos diag.Pos) {
	p = normalizePath(p)
	if _, ok := constPaths[p]; ok || modules[p] {
		return
	}
	if _, ok := dtypeByPath(p); ok {
		return
	}
	if _, ok := builtins[p]; ok {
		return
	}
	if unsupported(p) {
		ck.diags.Warnf(pos, diag.CodeUnsupported, "%s is not supported by tri yet", shortPath(p))
		return
	}
	parent, name := p, ""
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		parent, name = p[:i], p[i+1:]
	}
	if !modules[parent] {
		return // reported at the parent
	}
	d := ck.diags.Errorf(pos, diag.CodeUndefined, "%s has no attribute %s%s", shortPath(parent), name, tritonLacks(parent, name))
	if s := suggestMember(parent, name); s != "" {
		d.WithSuggestion("did you mean %s.%s?", shortPath(parent), s)
	}
}

func (ck *checker) name(n *frontend.Name) {
	if ck.locals[n.ID] || closureFunc(ck.fn, n.ID) != nil {
		return
	}
	s, d := ck.file.Lookup(n.ID)
	if d != nil {
		ck.importError(d, n.Pos)
		return
	}
	if s.Kind != frontend.SymNone {
		ck.used(s, n.ID, n.Pos)
		return
	}
	if pyBuiltins[n.ID] {
		return
	}
	var cands []string
	for l := range ck.locals {
		cands = append(cands, l)
	}
	cands = append(cands, scopeNames(ck.file)...)
	d = ck.diags.Errorf(n.Pos, diag.CodeUndefined, "undefined name %s", n.ID)
	if s := suggest(n.ID, cands); s != "" {
		d.WithSuggestion("did you mean %s?", s)
	}
}

func (ck *checker) expr(e frontend.Expr) {
	switch e.(type) {
	case *frontend.Attribute, *frontend.Call:
		local := func(n string) bool { return ck.locals[n] || closureFunc(ck.fn, n) != nil }
		if _, ok := foreignConst(ck.file, e, local); ok {
			return // torch.finfo(torch.float32).max: hostconst.go
		}
	}
	switch e := e.(type) {
	case *frontend.Name:
		ck.name(e)
	case *frontend.Attribute:
		if s, ok := ck.symbol(e.X); ok {
			if s.Kind == frontend.SymPath && modulePrefix(s.Path+"."+e.Name) {
				ck.resolvePath(s.Path+"."+e.Name, e.Pos)
			}
			if s.Kind == frontend.SymModule {
				ck.symbol(e)
			}
			return
		}
		ck.expr(e.X)
	case *frontend.Binary:
		ck.expr(e.X)
		ck.expr(e.Y)
	case *frontend.Unary:
		ck.expr(e.X)
	case *frontend.BoolOp:
		for _, v := range e.Values {
			ck.expr(v)
		}
	case *frontend.Compare:
		ck.expr(e.Left)
		for _, r := range e.Rights {
			ck.expr(r)
		}
	case *frontend.Call:
		ck.call(e)
		ck.expr(e.Func)
		for _, a := range e.Args {
			ck.expr(a)
		}
		for _, kw := range e.Keywords {
			ck.expr(kw.Value)
		}
	case *frontend.Subscript:
		ck.expr(e.X)
		ck.expr(e.Index)
	case *frontend.Slice:
		for _, x := range []frontend.Expr{e.Lo, e.Hi, e.Step} {
			if x != nil {
				ck.expr(x)
			}
		}
	case *frontend.Tuple:
		for _, x := range e.Elts {
			ck.expr(x)
		}
	case *frontend.List:
		for _, x := range e.Elts {
			ck.expr(x)
		}
	case *frontend.IfExp:
		ck.expr(e.Cond)
		ck.expr(e.Then)
		ck.expr(e.Else)
	case *frontend.Lambda:
		ck.diags.Warnf(e.Pos, diag.CodeUnsupported, "lambda is not supported in Triton kernels")
	case *frontend.Dict:
		ck.diags.Warnf(e.Pos, diag.CodeUnsupported, "dicts are not supported in Triton kernels")
	case *frontend.FString:
		for _, pt := range e.Parts {
			if pt.X != nil {
				ck.expr(pt.X)
			}
		}
	case *frontend.Starred:
		ck.diags.Warnf(e.Pos, diag.CodeUnsupported, "*args is not supported in Triton kernels")
	case *frontend.BadExpr:
		if lc := e.Comp; lc != nil && !lc.More {
			// The comprehension's target is local to it.
			ck.expr(lc.Iter)
			names := map[string]bool{}
			targetNames(lc.Target, names)
			var added []string
			for n := range names {
				if !ck.locals[n] {
					ck.locals[n] = true
					added = append(added, n)
				}
			}
			ck.expr(lc.Elt)
			for _, x := range lc.Ifs {
				ck.expr(x)
			}
			for _, n := range added {
				delete(ck.locals, n)
			}
			return
		}
		ck.diags.Warnf(e.Pos, diag.CodeUnsupported, "%s is not supported in Triton kernels", e.What)
	}
}

// targetNames adds the names an assignment target binds to names.
func targetNames(t frontend.Expr, names map[string]bool) {
	switch t := t.(type) {
	case *frontend.Name:
		names[t.ID] = true
	case *frontend.Tuple:
		for _, e := range t.Elts {
			targetNames(e, names)
		}
	case *frontend.List:
		for _, e := range t.Elts {
			targetNames(e, names)
		}
	}
}

// modulePrefix reports whether the parent of p is a module, so that p
// itself should resolve.
func modulePrefix(p string) bool {
	p = normalizePath(p)
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return modules[p[:i]]
	}
	return false
}

// call checks the argument count and keyword names of calls to @jit
// functions and to builtins.
func (ck *checker) call(e *frontend.Call) {
	var name string
	var params []string
	switch {
	case ck.jitCallee(e.Func) != nil:
		fn := ck.jitCallee(e.Func)
		name, params = fn.Name, ParamNames(fn)
		ck.calls[ck.fn] = append(ck.calls[ck.fn], callSite{fn, e.Pos})
		if fn.Vararg != "" {
			return // any number of positional arguments; bindVarargs checks the rest
		}
	default:
		p, ok := ck.path(e.Func)
		if !ok {
			return
		}
		b := builtins[normalizePath(p)]
		if b == nil || len(b.params) > 0 && b.params[len(b.params)-1] == "arg7" {
			return // not a builtin, or a variadic one
		}
		name, params = shortPath(normalizePath(p)), b.params
	}
	for _, a := range e.Args {
		if _, ok := a.(*frontend.Starred); ok {
			return
		}
	}
	if len(e.Args) > len(params) {
		ck.diags.Errorf(e.Pos, diag.CodeArgs, "%s takes at most %d arguments, got %d", name, len(params), len(e.Args))
	}
	for _, kw := range e.Keywords {
		if indexOf(params, kw.Name) < 0 {
			d := ck.diags.Errorf(kw.Pos, diag.CodeArgs, "%s has no parameter named %s", name, kw.Name)
			if s := suggest(kw.Name, params); s != "" {
				d.WithSuggestion("did you mean %s=?", s)
			}
		}
	}
}

// jitCallee returns the @jit function a call's callee names, if any.
func (ck *checker) jitCallee(e frontend.Expr) *frontend.Func {
	s, ok := ck.quietSymbol(e)
	if !ok || s.Kind != frontend.SymFunc {
		return nil
	}
	return s.Func
}

// quietSymbol is symbol for a chain already checked: no error reported.
func (ck *checker) quietSymbol(e frontend.Expr) (frontend.Symbol, bool) {
	q := *ck
	q.diags, q.seen = &diag.List{}, map[string]bool{}
	return q.symbol(e)
}
