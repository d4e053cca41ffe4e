package frontend

// This file implements module-level assignments: constexpr globals
// (BLOCK = tl.constexpr(128), BLOCK: tl.constexpr = 128, EPS = 1e-5) and
// wrappers (k = triton.jit(f), k = triton.heuristics({...})(k)).

import (
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// wrapper is a module-level k = D1(...)(D2(...)(f)).
type wrapper struct {
	target string
	decos  []*Decorator // outermost first
	base   string
	pos    diag.Pos // of the target
	arm    *Arm
}

// assignChunk records a global or a wrapper; other assignments are host
// code and are skipped.
func (p *fileParser) assignChunk(c *chunk) {
	s, conv, text, d := p.parseChunk(c)
	if d != nil {
		p.hostError(c, d)
		return
	}
	as, ok := s.(*ast.Assign)
	if !ok {
		return
	}
	a, ok := conv.stmt(as).(*Assign)
	if !ok {
		return
	}
	for _, t := range a.Targets {
		name, ok := t.(*Name)
		if !ok {
			for _, n := range targetNames(t) {
				p.bind(&Binding{Name: n.ID, Pos: n.Pos}, c.arm)
			}
			continue
		}
		if decos, base, ok := p.unwrap(a.Value); ok && len(decos) > 0 {
			setArgsText(decos, text, c.line-1)
			p.wrappers = append(p.wrappers, &wrapper{target: name.ID, decos: decos, base: base, pos: name.Pos, arm: c.arm})
			if hasJit(decos) {
				p.wrapped[base] = true
				p.wrapped[name.ID] = true
			}
			continue
		}
		if (c.indent == 0 || p.underTriton(c)) && !conv.rw.changesHostMeaning() {
			p.addHost(&HostFunc{Name: name.ID, Pos: diag.Pos{File: p.file.Name, Line: c.line, Col: 1}, Source: dedent(text, c.indent), Assign: true})
		}
		g := p.global(name, a)
		if g != nil && c.arm == nil {
			p.file.Globals = append(p.file.Globals, g)
		}
		if g == nil {
			g = &Global{Name: name.ID, Pos: name.Pos, Value: a.Value}
		}
		p.bind(&Binding{Name: name.ID, Pos: name.Pos, Global: g}, c.arm)
	}
}

// targetNames lists the names a tuple or list target binds.
func targetNames(t Expr) []*Name {
	switch t := t.(type) {
	case *Name:
		return []*Name{t}
	case *Tuple:
		var out []*Name
		for _, e := range t.Elts {
			out = append(out, targetNames(e)...)
		}
		return out
	case *List:
		var out []*Name
		for _, e := range t.Elts {
			out = append(out, targetNames(e)...)
		}
		return out
	case *Starred:
		return targetNames(t.X)
	}
	return nil
}

// global returns the Global that a module-level assignment to name makes,
// or nil if it is not one.
func (p *fileParser) global(name *Name, a *Assign) *Global {
	if a.Constexpr {
		return &Global{Name: name.ID, Pos: name.Pos, Value: a.Value, Constexpr: true}
	}
	if call, ok := a.Value.(*Call); ok && len(call.Args) == 1 && len(call.Keywords) == 0 &&
		isConstexprName(p.file.Aliases, dottedName(call.Func)) {
		return &Global{Name: name.ID, Pos: name.Pos, Value: call.Args[0], Constexpr: true}
	}
	if isLiteral(a.Value) {
		return &Global{Name: name.ID, Pos: name.Pos, Value: a.Value}
	}
	return nil
}

// isLiteral reports whether e is built from literals and operators only.
func isLiteral(e Expr) bool {
	switch e := e.(type) {
	case *Const:
		return true
	case *Unary:
		return isLiteral(e.X)
	case *Binary:
		return isLiteral(e.X) && isLiteral(e.Y)
	case *Tuple:
		for _, x := range e.Elts {
			if !isLiteral(x) {
				return false
			}
		}
		return true
	}
	return false
}

// unwrap takes apart D1(...)(D2(f)) into its decorators, outermost first,
// and the name of the function at the core.
func (p *fileParser) unwrap(e Expr) ([]*Decorator, string, bool) {
	switch e := e.(type) {
	case *Name:
		return nil, e.ID, true
	case *Call:
		if len(e.Args) != 1 || len(e.Keywords) != 0 {
			return nil, "", false
		}
		var dc *Decorator
		switch f := e.Func.(type) {
		case *Call:
			dc = &Decorator{Pos: f.Pos, Call: true, Args: f.Args, Keywords: f.Keywords, Name: p.decoratorName(dottedName(f.Func))}
		default:
			dc = &Decorator{Pos: f.Position(), Name: p.decoratorName(dottedName(f))}
		}
		if !knownDecorators[dc.Name] {
			return nil, "", false
		}
		inner, base, ok := p.unwrap(e.Args[0])
		if !ok {
			return nil, "", false
		}
		return append([]*Decorator{dc}, inner...), base, true
	}
	return nil, "", false
}

// applyWrappers turns wrapped functions into @jit Funcs, in source order.
func (p *fileParser) applyWrappers() {
	for _, w := range p.wrappers {
		if base := p.lastFunc(w.base); base != nil {
			fn := *base
			fn.Name = w.target
			fn.Decorators = append(withoutJit(w.decos, hasJit(base.Decorators)), base.Decorators...)
			fn.DoNotSpecialize = p.doNotSpecialize(&fn)
			if w.target == w.base {
				*base = fn
			} else {
				p.file.Funcs = append(p.file.Funcs, &fn)
			}
			p.rebindWrapper(w, p.lastFunc(w.target))
			continue
		}
		hd, ok := p.hostDefs[w.base]
		if !ok || !hasJit(w.decos) {
			continue
		}
		own := hd.conv.decorators(hd.def.DecoratorList)
		setArgsText(own, hd.text, hd.line0)
		decos := append(append([]*Decorator(nil), w.decos...), own...)
		fn := p.makeFunc(hd.def, hd.conv, hd.pos, w.base, decos)
		p.file.Funcs = append(p.file.Funcs, fn)
		p.bind(&Binding{Name: w.base, Pos: hd.pos, Func: fn}, hd.arm)
		target := fn
		if w.target != w.base {
			alias := *fn
			alias.Name = w.target
			p.file.Funcs = append(p.file.Funcs, &alias)
			target = &alias
		}
		p.rebindWrapper(w, target)
		delete(p.hostDefs, w.base)
		delete(p.file.Host, w.base)
		p.file.dropHostDef(w.base)
	}
}

// rebindWrapper binds the target of a wrapper assignment to fn, in place of
// the Global its assignment made.
func (p *fileParser) rebindWrapper(w *wrapper, fn *Func) {
	if fn == nil {
		return
	}
	p.bind(&Binding{Name: w.target, Pos: w.pos, Func: fn}, w.arm)
}

// lastFunc returns the latest @jit Func named name, or nil.
func (p *fileParser) lastFunc(name string) *Func {
	for i := len(p.file.Funcs) - 1; i >= 0; i-- {
		if p.file.Funcs[i].Name == name {
			return p.file.Funcs[i]
		}
	}
	return nil
}

// withoutJit returns a copy of decos, leaving out triton.jit if drop is
// set: jitting a function that is already @jit changes nothing.
func withoutJit(decos []*Decorator, drop bool) []*Decorator {
	var out []*Decorator
	for _, d := range decos {
		if drop && d.Name == "triton.jit" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// isAugAssign reports, from its first line, whether a statement is
// NAME op= value.
func isAugAssign(first string) bool {
	word := leadingIdent(strings.TrimLeft(first, " \t"))
	if word == "" || pythonKeywords[word] {
		return false
	}
	rest := strings.TrimLeft(strings.TrimLeft(first, " \t")[len(word):], " \t")
	for _, op := range []string{"+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "@="} {
		if strings.HasPrefix(rest, op) {
			return true
		}
	}
	return false
}

// augAssignChunk records a top-level NAME op= value as host code binding
// NAME: the host evaluator runs it after the name's earlier bindings, as
// Python does, where the module's evaluation (exec.go) cannot compute it.
func (p *fileParser) augAssignChunk(c *chunk) {
	s, conv, text, d := p.parseChunk(c)
	if d != nil || conv.rw.changesHostMeaning() {
		return
	}
	as, ok := s.(*ast.AugAssign)
	if !ok {
		return
	}
	if n, ok := as.Target.(*ast.Name); ok {
		p.addHost(&HostFunc{Name: string(n.Id), Pos: p.at(c), Source: text, Assign: true})
	}
}
