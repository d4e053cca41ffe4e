package frontend

// This file implements the evaluation of a module's top level, statement by
// statement in source order, as Python runs it when the module is imported.
//
// What a kernel reads from a module is the value a name has after the
// whole module ran, so the order of bindings matters: V = 1 followed by
// `from .m import *` takes m's V; V *= 3 multiplies the value V has there;
// a for loop rebinds its body's names on each pass; a function called at
// module level sets the names it declares global; m.V = 11 rebinds the V
// of another module. The evaluation keeps, for every name, the Binding in
// effect (the module's env), and runs each top-level chunk whose if/try arm
// runs (branch.go decides arms, in the env as it is when the statement is
// reached).
//
// Values are computed where tri can compute them without running host code
// (numbers, strings, bools, None and tuples of those, through the same
// evaluation as module-level conditions: arithmetic with Python's rules,
// comparisons, tl.constexpr(...), hasattr on Triton, os.environ.get with
// the environment unset). Such a value becomes a Global holding its
// constant. Any other value keeps the parser's binding (a @jit function, an
// import, a host definition, or a Global whose expression sema computes
// later). That later evaluation sees the module's final names, so where
// the expression reads a name that the module binds again afterwards, the
// Global is marked Stale: its value is then asked of the host evaluator,
// which runs the module's statements in order, or is an error placed at
// the line that binds it. A loop or a call that tri cannot follow gives
// the names it binds an error, placed where it binds them: a kernel that
// reads one is told why, never given a value from before the loop.

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// maxExecSteps bounds the statements one module's top level runs (loop
// passes included); past it, the names a loop binds are errors.
const maxExecSteps = 100000

// maxCallDepth bounds the nesting of host functions run for the globals
// they set.
const maxCallDepth = 16

// execState says how far a module's top level has run.
type execState int

const (
	execNotRun execState = iota
	execRunning
	execDone
)

// override is a binding another module made by attribute assignment
// (mod.V = 11): it holds in the module it names, evaluated in from.
type override struct {
	from *module
	b    *Binding
}

// hostDefn is a module-level def that is not @jit, which module code may
// call for the globals it sets.
type hostDefn struct {
	def  *ast.FunctionDef
	conv *converter
	b    *Binding
}

// lazyValue is a value the evaluation kept as an expression, with the
// bindings of the names it read when it was bound.
type lazyValue struct {
	b     *Binding
	reads map[string]*Binding
}

// executor runs one module's top level.
type executor struct {
	m     *module
	p     *fileParser
	steps int
	lazy  []lazyValue
	// bindsAt indexes the parser's bindings by name, for the statements
	// whose value the evaluation does not compute.
	bindsAt map[string][]*Binding
}

// frame is the namespace statements bind in: the module's, or a host
// function's locals with the names it declares global.
type frame struct {
	locals  map[string]*Binding // nil at module level
	globals map[string]bool
	depth   int
}

// loopExit says how a block of statements ended.
type loopExit int

const (
	exitNormal loopExit = iota
	exitBreak
	exitContinue
	exitReturn
)

// run evaluates m's top level once. A lookup made while it runs (a
// condition, a star import of a module that imports m back) sees the names
// bound so far, as Python's partly imported module does.
func (m *module) run() {
	if m.state != execNotRun {
		return
	}
	m.state = execRunning
	m.env = map[string]*Binding{}
	f := m.file
	x := &executor{m: m, p: &fileParser{file: f, text: f.text, diags: &diag.List{}}, bindsAt: map[string][]*Binding{}}
	for _, b := range f.Scope {
		x.bindsAt[b.Name] = append(x.bindsAt[b.Name], b)
	}
	defer func() {
		if r := recover(); r != nil {
			// A bug in tri: the names bound so far stand, as before.
			m.state = execDone
		}
	}()
	g := &guesses{uncertain: map[string]*Cond{}, seen: map[*Cond]bool{}}
	for _, c := range f.body {
		runs := m.runs(c.arm)
		cond := m.guessedCond(c.arm)
		if cond != nil && !g.seen[cond] {
			g.seen[cond] = true
			g.enter(m, cond)
		}
		if !runs {
			continue
		}
		before := g.snapshot(m)
		x.chunk(c)
		if cond == nil {
			g.rebound(m, before)
		}
	}
	x.markStale()
	g.mark(m)
	m.state = execDone
	m.cache = map[string]lookupResult{}
}

// binding returns the binding of name after m's top level ran (or as far as
// it has run), attribute assignments from other modules first.
func (m *module) binding(name string) (*Binding, *module, bool) {
	m.run()
	if o, ok := m.sets[name]; ok {
		return o.b, o.from, true
	}
	b, ok := m.env[name]
	return b, m, ok
}

// chunk runs one top-level statement.
func (x *executor) chunk(c *chunk) {
	s, conv, _, d := x.p.parseChunk(c)
	if d != nil {
		return // host code gpython cannot parse; reported where it matters
	}
	top := &frame{}
	switch s := s.(type) {
	case *ast.Import:
		for _, a := range s.Names {
			local := string(a.AsName)
			if local == "" {
				local, _, _ = strings.Cut(string(a.Name), ".")
			}
			x.bindParsed(top, c, local, x.p.at(c))
		}
	case *ast.ImportFrom:
		for _, a := range s.Names {
			if string(a.Name) == "*" {
				x.starImport(&Import{Pos: x.p.at(c), Level: s.Level, Module: string(s.Module), Name: "*", Local: "*"})
				continue
			}
			local := string(a.AsName)
			if local == "" {
				local = string(a.Name)
			}
			x.bindParsed(top, c, local, x.p.at(c))
		}
	case *ast.FunctionDef:
		name := string(s.Name)
		b := x.bindParsed(top, c, name, conv.pos(s.Pos))
		if x.m.defs == nil {
			x.m.defs = map[string]*hostDefn{}
		}
		x.m.defs[name] = &hostDefn{def: s, conv: conv, b: b}
	case *ast.ClassDef:
		x.bindParsed(top, c, string(s.Name), conv.pos(s.Pos))
	case *ast.Delete:
		for _, t := range s.Targets {
			if n, ok := t.(*ast.Name); ok {
				delete(x.m.env, string(n.Id))
			}
		}
	case *ast.Global, *ast.Nonlocal:
	default:
		x.stmts(top, []Stmt{conv.stmt(s)}, c)
	}
}

// parsed returns the parser's binding of name inside chunk c, if any.
func (x *executor) parsed(c *chunk, name string) *Binding {
	if c == nil {
		return nil
	}
	first, last := c.line, x.endLine(c)
	var out *Binding
	for _, b := range x.bindsAt[name] {
		if b.Pos.Line >= first && b.Pos.Line <= last && (out == nil || b.Func != nil || out.Func == nil) {
			out = b
		}
	}
	return out
}

// endLine is the last physical line of a chunk.
func (x *executor) endLine(c *chunk) int {
	l := c.lines[len(c.lines)-1]
	return l.line + strings.Count(strings.TrimRight(x.p.text[l.start:l.end], "\n"), "\n")
}

// bindParsed binds name to the parser's binding in c, or to a host
// definition at pos where the parser recorded none.
func (x *executor) bindParsed(fr *frame, c *chunk, name string, pos diag.Pos) *Binding {
	b := x.parsed(c, name)
	if b == nil {
		b = &Binding{Name: name, Pos: pos}
	}
	x.set(fr, name, b)
	return b
}

// set binds name in fr.
func (x *executor) set(fr *frame, name string, b *Binding) {
	if fr.locals != nil && !fr.globals[name] {
		fr.locals[name] = b
		return
	}
	x.m.env[name] = b
	delete(x.m.cache, name)
}

// get returns what name is bound to in fr.
func (x *executor) get(fr *frame, name string) (*Binding, bool) {
	if fr.locals != nil && !fr.globals[name] {
		if b, ok := fr.locals[name]; ok {
			return b, true
		}
	}
	b, ok := x.m.env[name]
	return b, ok
}

// eval computes e in fr; false where tri cannot without running host code.
func (x *executor) eval(fr *frame, e Expr) (constValue, bool) {
	if fr.locals != nil {
		saved := x.m.locals
		x.m.locals = fr
		defer func() { x.m.locals = saved }()
	}
	return x.m.eval(e, 0)
}

// stmts runs a block.
func (x *executor) stmts(fr *frame, ss []Stmt, c *chunk) loopExit {
	for _, s := range ss {
		if ex := x.stmt(fr, s, c); ex != exitNormal {
			return ex
		}
	}
	return exitNormal
}

// stmt runs one statement; c is the top-level chunk it belongs to (nil
// inside a function).
func (x *executor) stmt(fr *frame, s Stmt, c *chunk) loopExit {
	x.steps++
	if x.steps > maxExecSteps {
		x.poison(fr, []Stmt{s}, fmt.Sprintf("the module's top level runs more than %d statements before this one", maxExecSteps))
		return exitNormal
	}
	switch s := s.(type) {
	case *Assign:
		x.calls(fr, s.Value)
		for _, t := range s.Targets {
			x.assign(fr, t, s.Value, s.Constexpr, c)
		}
	case *AugAssign:
		x.calls(fr, s.Value)
		x.augAssign(fr, s, c)
	case *ExprStmt:
		if call, ok := s.X.(*Call); ok {
			if n, ok := call.Func.(*Name); ok && x.effects(fr, n.ID, 0) {
				x.call(fr, n.ID, call)
				return exitNormal
			}
		}
		x.calls(fr, s.X)
	case *If:
		v, ok := x.eval(fr, s.Cond)
		if !ok {
			x.poison(fr, append(append([]Stmt(nil), s.Then...), s.Else...), "tri cannot compute the condition of the if statement at line "+strconv.Itoa(s.Pos.Line))
			return exitNormal
		}
		if v.truth() {
			return x.stmts(fr, s.Then, c)
		}
		return x.stmts(fr, s.Else, c)
	case *For:
		return x.forLoop(fr, s, c)
	case *While:
		return x.whileLoop(fr, s, c)
	case *Break:
		return exitBreak
	case *Continue:
		return exitContinue
	case *Return:
		return exitReturn
	case *Unsupported:
		if s.What != "global statement" && s.What != "nonlocal statement" {
			x.poisonAll(fr, "tri cannot follow the "+s.What+" at line "+strconv.Itoa(s.Pos.Line))
		}
	}
	return exitNormal
}

// assign binds target to value.
func (x *executor) assign(fr *frame, t, value Expr, constexpr bool, c *chunk) {
	switch t := t.(type) {
	case *Name:
		x.set(fr, t.ID, x.valueBinding(fr, t, value, constexpr, c))
	case *Tuple, *List:
		targets := elements(t)
		if vals := elements(value); vals != nil && len(vals) == len(targets) && !hasStarred(targets) && !hasStarred(vals) {
			// Python computes the whole right side before binding.
			bs := make([]*Binding, len(targets))
			for i, v := range vals {
				if n, ok := targets[i].(*Name); ok {
					bs[i] = x.valueBinding(fr, n, v, false, nil)
				}
			}
			for i, tt := range targets {
				if bs[i] != nil {
					x.set(fr, tt.(*Name).ID, bs[i])
				} else {
					x.assign(fr, tt, vals[i], false, c)
				}
			}
			return
		}
		if items, ok := x.tupleValue(fr, value); ok && len(items) == len(targets) && !hasStarred(targets) {
			for i, tt := range targets {
				if n, ok := tt.(*Name); ok {
					x.set(fr, n.ID, computed(n, items[i], false))
				}
			}
			return
		}
		for _, n := range targetNames(t) {
			b := x.parsed(c, n.ID)
			if b == nil {
				b = &Binding{Name: n.ID, Pos: n.Pos}
			}
			x.set(fr, n.ID, b)
		}
	case *Attribute:
		x.setAttr(fr, t, value, c)
	}
}

// valueBinding is the binding that name = value makes.
func (x *executor) valueBinding(fr *frame, name *Name, value Expr, constexpr bool, c *chunk) *Binding {
	if v, ok := x.eval(fr, value); ok {
		return computed(name, v, constexpr || isConstexprCall(x.m.file, value))
	}
	if items, ok := x.tupleValue(fr, value); ok {
		return computedTuple(name, items)
	}
	if n, ok := value.(*Name); ok {
		if b, ok := x.get(fr, n.ID); ok && (b.Global == nil || isComputed(b.Global.Value)) {
			return b // a function, module or constant: the same object
		}
	}
	b := x.parsed(c, name.ID)
	if b == nil || b.Global == nil && b.Func == nil && b.Import == nil && c == nil {
		b = &Binding{Name: name.ID, Pos: name.Pos, Global: &Global{Name: name.ID, Pos: name.Pos, Value: value, Constexpr: constexpr}}
	}
	x.remember(fr, b, value)
	return b
}

// remember records the bindings of the names a kept expression reads.
func (x *executor) remember(fr *frame, b *Binding, value Expr) {
	if b.Global == nil {
		return
	}
	reads := map[string]*Binding{}
	for _, n := range exprNames(value) {
		if fr.locals != nil && !fr.globals[n] {
			if _, local := fr.locals[n]; local {
				continue
			}
		}
		reads[n] = x.m.env[n]
	}
	x.lazy = append(x.lazy, lazyValue{b: b, reads: reads})
}

// markStale marks the kept expressions that read a name the module bound
// again after them.
func (x *executor) markStale() {
	for _, l := range x.lazy {
		if l.b.Global.Stale != "" {
			continue
		}
		names := make([]string, 0, len(l.reads))
		for n := range l.reads {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			now, ok := x.m.env[n]
			if now == l.reads[n] || now == l.b || !ok && l.reads[n] == nil {
				continue
			}
			where := "later"
			if ok {
				where = "again at line " + strconv.Itoa(now.Pos.Line)
			}
			l.b.Global.Stale = fmt.Sprintf("tri cannot compute %s: its value reads %s, which the module binds %s, and tri evaluates %s only after the whole module", l.b.Name, n, where, l.b.Name)
			break
		}
	}
}

// augAssign runs target op= value.
func (x *executor) augAssign(fr *frame, s *AugAssign, c *chunk) {
	switch t := s.Target.(type) {
	case *Name:
		prev, had := x.get(fr, t.ID)
		if !had {
			x.set(fr, t.ID, errorBinding(t, fmt.Sprintf("%s %s= ... at line %d: %s is not bound before it (Python raises NameError)", t.ID, s.Op, s.Pos.Line, t.ID)))
			return
		}
		cur, ok1 := x.eval(fr, t)
		rhs, ok2 := x.eval(fr, s.Value)
		if ok1 && ok2 {
			if v, ok := binary(s.Op, cur, rhs); ok {
				ce := prev.Global != nil && prev.Global.Constexpr
				x.set(fr, t.ID, computed(t, v, ce))
				return
			}
		}
		value := &Binary{At: s.At, Op: s.Op, X: &Name{At: t.At, ID: t.ID}, Y: s.Value}
		g := &Global{Name: t.ID, Pos: t.Pos, Value: value,
			Stale: fmt.Sprintf("tri cannot compute %s %s= ... here: the value %s has before it is not a constant tri computes", t.ID, s.Op, t.ID)}
		x.set(fr, t.ID, &Binding{Name: t.ID, Pos: t.Pos, Global: g})
	case *Attribute:
		x.setAttr(fr, t, &Binary{At: s.At, Op: s.Op, X: t, Y: s.Value}, c)
	}
}

// setAttr runs mod.name = value where mod is a module of the project.
func (x *executor) setAttr(fr *frame, t *Attribute, value Expr, c *chunk) {
	base, ok := t.X.(*Name)
	if !ok {
		return
	}
	b, ok := x.get(fr, base.ID)
	if !ok || b.Import == nil {
		return
	}
	s, d := x.m.resolve(b)
	if d != nil || s.Kind != SymModule {
		return
	}
	target := s.File.module()
	nb := x.valueBinding(fr, &Name{At: At{t.Pos}, ID: t.Name}, value, false, nil)
	if target.sets == nil {
		target.sets = map[string]override{}
	}
	target.sets[t.Name] = override{from: x.m, b: nb}
	delete(target.cache, t.Name)
}

// forLoop runs a for statement over values tri computes.
func (x *executor) forLoop(fr *frame, s *For, c *chunk) loopExit {
	items, ok := x.iterate(fr, s.Iter)
	if !ok {
		x.poison(fr, append([]Stmt{&Assign{At: s.At, Targets: []Expr{s.Target}}}, append(s.Body, s.Else...)...),
			"tri cannot follow the for loop at line "+strconv.Itoa(s.Pos.Line)+": its iterable is not a range or a tuple of constants")
		return exitNormal
	}
	for _, it := range items {
		if x.steps > maxExecSteps {
			x.poison(fr, append(append([]Stmt(nil), s.Body...), s.Else...), fmt.Sprintf("the for loop at line %d runs more than %d statements", s.Pos.Line, maxExecSteps))
			return exitNormal
		}
		x.bindItem(fr, s.Target, it)
		switch x.stmts(fr, s.Body, c) {
		case exitBreak:
			return exitNormal
		case exitReturn:
			return exitReturn
		}
	}
	return x.stmts(fr, s.Else, c)
}

// whileLoop runs a while statement whose condition tri computes.
func (x *executor) whileLoop(fr *frame, s *While, c *chunk) loopExit {
	for {
		v, ok := x.eval(fr, s.Cond)
		if !ok || x.steps > maxExecSteps {
			why := "tri cannot compute the condition of the while loop at line " + strconv.Itoa(s.Pos.Line)
			if ok {
				why = fmt.Sprintf("the while loop at line %d runs more than %d statements", s.Pos.Line, maxExecSteps)
			}
			x.poison(fr, append(append([]Stmt(nil), s.Body...), s.Else...), why)
			return exitNormal
		}
		if !v.truth() {
			return x.stmts(fr, s.Else, c)
		}
		x.steps++
		switch x.stmts(fr, s.Body, c) {
		case exitBreak:
			return exitNormal
		case exitReturn:
			return exitReturn
		}
	}
}

// bindItem binds a loop target to one item.
func (x *executor) bindItem(fr *frame, t Expr, it execItem) {
	switch t := t.(type) {
	case *Name:
		if it.tuple != nil {
			x.set(fr, t.ID, computedTuple(t, it.tuple))
		} else {
			x.set(fr, t.ID, computed(t, it.v, false))
		}
	case *Tuple, *List:
		targets := elements(t)
		if len(targets) != len(it.tuple) {
			x.poison(fr, []Stmt{&Assign{At: At{t.Position()}, Targets: []Expr{t}}}, "the loop's items do not unpack into "+FormatExpr(t))
			return
		}
		for i, tt := range targets {
			x.bindItem(fr, tt, execItem{v: it.tuple[i]})
		}
	}
}

// execItem is one item a loop iterates over: a constant, or a tuple of
// constants.
type execItem struct {
	v     constValue
	tuple []constValue
}

// iterate lists the items of a loop's iterable: range(...) of integers, a
// tuple or list display of constants (or of tuples of constants), or a name
// bound to a tuple of constants.
func (x *executor) iterate(fr *frame, e Expr) ([]execItem, bool) {
	if call, ok := e.(*Call); ok && dottedName(call.Func) == "range" && len(call.Keywords) == 0 && len(call.Args) >= 1 && len(call.Args) <= 3 {
		if b, bound := x.get(fr, "range"); bound && b != nil {
			return nil, false // the module rebinds range
		}
		var args []int64
		for _, a := range call.Args {
			v, ok := x.eval(fr, a)
			i, isInt := intOf(v)
			if !ok || !isInt || !i.IsInt64() {
				return nil, false
			}
			args = append(args, i.Int64())
		}
		start, stop, step := int64(0), args[0], int64(1)
		if len(args) >= 2 {
			start, stop = args[0], args[1]
		}
		if len(args) == 3 {
			step = args[2]
		}
		if step == 0 {
			return nil, false
		}
		var out []execItem
		for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
			if len(out) > maxExecSteps {
				return nil, false
			}
			out = append(out, execItem{v: constValue{kind: ConstInt, i: big.NewInt(i)}})
		}
		return out, true
	}
	if elts := elements(e); elts != nil {
		var out []execItem
		for _, el := range elts {
			if v, ok := x.eval(fr, el); ok {
				out = append(out, execItem{v: v})
				continue
			}
			items, ok := x.tupleValue(fr, el)
			if !ok {
				return nil, false
			}
			out = append(out, execItem{tuple: items})
		}
		return out, true
	}
	if items, ok := x.tupleValue(fr, e); ok {
		out := make([]execItem, len(items))
		for i, v := range items {
			out[i] = execItem{v: v}
		}
		return out, true
	}
	return nil, false
}

// tupleValue computes a tuple or list of constants: a display, or a name
// bound to one.
func (x *executor) tupleValue(fr *frame, e Expr) ([]constValue, bool) {
	if n, ok := e.(*Name); ok {
		b, ok := x.get(fr, n.ID)
		if !ok || b == nil || b.Global == nil {
			if ok && b != nil && b.Import != nil {
				if s, d := x.m.resolve(b); d == nil && s.Kind == SymGlobal {
					return s.File.module().tupleOf(s.Global.Value)
				}
			}
			return nil, false
		}
		return x.m.tupleOf(b.Global.Value)
	}
	elts := elements(e)
	if elts == nil {
		return nil, false
	}
	out := make([]constValue, len(elts))
	for i, el := range elts {
		v, ok := x.eval(fr, el)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// tupleOf computes a tuple or list display of constants in m.
func (m *module) tupleOf(e Expr) ([]constValue, bool) {
	elts := elements(e)
	if elts == nil {
		return nil, false
	}
	out := make([]constValue, len(elts))
	for i, el := range elts {
		v, ok := m.eval(el, 0)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// walrus evaluates target := value while m's top level runs, binding the
// target (in the running function's locals, if any) as Python does.
func (m *module) walrus(e *BadExpr, depth int) (constValue, bool) {
	if e.Target == nil || m.state != execRunning {
		return constValue{}, false
	}
	v, ok := m.eval(e.Value, depth+1)
	var b *Binding
	if ok {
		b = computed(e.Target, v, false)
	} else {
		b = errorBinding(e.Target, "tri cannot compute the value of the walrus operator at line "+strconv.Itoa(e.Pos.Line))
	}
	if fr := m.locals; fr != nil && !fr.globals[e.Target.ID] {
		fr.locals[e.Target.ID] = b
	} else {
		m.env[e.Target.ID] = b
	}
	return v, ok
}

// joinContinuations joins to the statement before it each chunk that
// continues one (the else of a for or while loop, the arms of an if or try
// too deep to descend into), so that the evaluation parses them whole.
func (p *fileParser) joinContinuations(chunks []*chunk) []*chunk {
	var out []*chunk
	for _, c := range chunks {
		if n := len(out); n > 0 && isContinuation(p.text, c) && out[n-1].arm == c.arm && out[n-1].indent == c.indent {
			joined := *out[n-1]
			joined.lines = append(append([]logicalLine(nil), joined.lines...), c.lines...)
			joined.end = c.end
			out[n-1] = &joined
			continue
		}
		out = append(out, c)
	}
	return out
}
