package sema

// This file implements the names kernels take from modules: what a
// module-level name (frontend.File.Lookup) stands for as a value, the
// attributes of a module of the project, and the errors of the imports
// followed to find them.

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// KnownPath reports whether a dotted Triton path (triton.language.exp,
// triton.language.extra.libdevice) names something Triton has: what tri
// supports and what it knows Triton has but does not support yet. The
// module loader uses it to choose between the arms of a try or if that
// import different names.
func KnownPath(path string) bool {
	path = normalizePath(path)
	if _, ok := constPaths[path]; ok || modules[path] {
		return true
	}
	if _, ok := dtypeByPath(path); ok {
		return true
	}
	if _, ok := builtins[path]; ok {
		return true
	}
	return unsupported(path)
}

// fileOf is the module whose names the code of fr sees.
func (c *compiler) fileOf(fr *frame) *frontend.File {
	if fr != nil && fr.file != nil {
		return fr.file
	}
	return c.file
}

// importError reports an import that failed while looking up a name the
// code at use needs; the error stays at the import, once.
func (c *compiler) importError(d *diag.Diagnostic, use diag.Pos) *val {
	e := *d
	if use.IsValid() && use != d.Pos {
		e.Notes = append(append([]diag.Related(nil), d.Notes...), diag.Related{Pos: use, Message: "needed here"})
	}
	c.add(&e)
	return invalid
}

// symbolVal is the value of a module-level name.
func (c *compiler) symbolVal(sym frontend.Symbol, name string, pos diag.Pos) *val {
	switch sym.Kind {
	case frontend.SymFunc:
		return &val{k: kFunc, fn: sym.Func}
	case frontend.SymGlobal:
		return c.global(sym.File, sym.Global, pos)
	case frontend.SymModule:
		return &val{k: kPyModule, mod: sym.File}
	case frontend.SymPath:
		return c.modulePath(sym.Path, pos)
	case frontend.SymHost:
		if paths, ok := sym.File.Getters[sym.Name]; ok { // getter.go
			return &val{k: kGetter, s: sym.Name, elts: getterPaths(paths)}
		}
		return c.errorf(pos, diag.CodeUnsupported, "%s", hostNameMessage(name, sym))
	}
	return c.errorf(pos, diag.CodeUndefined, "undefined name %s", name)
}

// moduleAttr evaluates attribute name of a module of the project.
func (c *compiler) moduleAttr(m *frontend.File, name string, pos diag.Pos) *val {
	sym, d := m.Attr(name, pos)
	if d != nil {
		return c.importError(d, pos)
	}
	if sym.Kind == frontend.SymNone {
		d := c.errorAt(pos, diag.CodeUndefined, "module %s (%s) has no attribute %s", moduleName(m), m.Name, name)
		if s := suggest(name, scopeNames(m)); s != "" {
			d.WithSuggestion("did you mean %s?", s)
		}
		return invalid
	}
	return c.symbolVal(sym, name, pos)
}

// moduleName is a module's dotted name, or its file's.
func moduleName(f *frontend.File) string {
	if n := f.ModuleName(); n != "" {
		return n
	}
	return f.Name
}

// scopeNames lists the names a module binds, sorted, for suggestions.
func scopeNames(f *frontend.File) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range f.Scope {
		if !seen[b.Name] {
			seen[b.Name] = true
			out = append(out, b.Name)
		}
	}
	sort.Strings(out)
	return out
}

// constexprCall calls a @triton.constexpr_function: its arguments must be
// compile-time values, and so must what it returns; it emits no code.
func (c *compiler) constexprCall(fr *frame, fn *frontend.Func, e *frontend.Call) *val {
	a := c.bindArgs(fr, fn.Name, e, ParamNames(fn), 0)
	if a == nil {
		return invalid
	}
	for i, v := range a.vals {
		if v != nil && !v.isConst() {
			return c.errorf(e.Pos, diag.CodeArgs, "%s is a @triton.constexpr_function: its argument %s must be a compile-time value, not %s", fn.Name, fn.Params[i].Name, v.describe())
		}
	}
	saved := c.blk
	c.blk = &ir.Block{}
	v := c.inlineVals(fn, a.vals, e.Pos)
	emitted := len(c.blk.Stmts) > 0
	c.blk = saved
	if v.k != kInvalid && (!v.isConst() || emitted) {
		return c.errorf(e.Pos, diag.CodeValue, "%s is a @triton.constexpr_function but computes %s, not a compile-time value", fn.Name, v.describe())
	}
	return v
}

// hostNameMessage is the error of a kernel that uses a name bound by host
// code, shared by Specialize and Check.
func hostNameMessage(name string, sym frontend.Symbol) string {
	return fmt.Sprintf("%s is defined by host code (%s) that tri does not compile; a kernel can use @triton.jit functions, constants and Triton's own names", name, sym.Pos)
}

// foreignPath reports whether path names something outside Triton that
// sema does not know, and the message a kernel's use of it gets.
func foreignPath(path string) (string, bool) {
	head, _, _ := strings.Cut(path, ".")
	if head == "triton" || KnownPath(path) {
		return "", false
	}
	what := path + " is not a Triton name: it comes from " + head
	if head == path {
		what = path + " is not Triton"
	}
	return what + ", a module that kernels cannot use (tri reads only Triton's and the project's own modules)", true
}

// used checks, as Specialize would find them, the errors of a kernel's use
// of a module-level name: a host definition, a module outside Triton, and
// in a global's value (checked once, in its own module) the same.
func (ck *checker) used(s frontend.Symbol, name string, pos diag.Pos) {
	switch s.Kind {
	case frontend.SymHost:
		if _, ok := s.File.Getters[s.Name]; !ok { // getter.go
			ck.once(diag.Errorf(pos, diag.CodeUnsupported, "%s", hostNameMessage(name, s)))
		}
	case frontend.SymPath:
		if msg, ok := foreignPath(s.Path); ok {
			ck.once(diag.Errorf(pos, diag.CodeUnsupported, "%s", msg))
		}
	case frontend.SymGlobal:
		key := fmt.Sprintf("global %p", s.Global)
		if ck.seen[key] {
			return
		}
		if s.Global.Stale != "" {
			ck.seen[key] = true
			if _, d := staleValue(s.File, s.Global); d != nil {
				if pos.IsValid() && pos != d.Pos {
					d.WithNote(pos, "the kernel uses %s here", name)
				}
				ck.diags.Add(d)
			}
			return
		}
		if _, ok := s.File.Value(s.Global.Value); ok {
			ck.seen[key] = true
			return
		}
		ck.seen[key] = true
		sub := *ck
		sub.file, sub.locals = s.File, map[string]bool{}
		before := len(ck.diags.Items)
		sub.expr(s.Global.Value)
		if len(ck.diags.Items) > before {
			hostValue(ck.diags, s.File, s.Global, before)
		}
		noteUse(ck.diags, before, name, pos)
	}
}

// once reports d unless the same was reported.
func (ck *checker) once(d *diag.Diagnostic) {
	key := d.Pos.String() + "\x00" + d.Message
	if !ck.seen[key] {
		ck.seen[key] = true
		ck.diags.Add(d)
	}
}

// hasCall reports whether e calls something: a module-level value that
// sema would not compute (hasattr, os.environ.get) is taken from the
// frontend's evaluation of module-level conditions.
func hasCall(e frontend.Expr) bool {
	switch e := e.(type) {
	case *frontend.Call:
		return true
	case *frontend.Unary:
		return hasCall(e.X)
	case *frontend.BoolOp:
		for _, x := range e.Values {
			if hasCall(x) {
				return true
			}
		}
	case *frontend.Compare:
		if hasCall(e.Left) {
			return true
		}
		for _, x := range e.Rights {
			if hasCall(x) {
				return true
			}
		}
	}
	return false
}

// noteUse adds, to the errors found in a global's value since the list
// held before items, a note at the kernel's use of the global.
func noteUse(l *diag.List, before int, name string, use diag.Pos) {
	if !use.IsValid() {
		return
	}
	for _, d := range l.Items[before:] {
		if d.Severity == diag.Error && d.Pos != use {
			d.WithNote(use, "the kernel uses %s here", name)
		}
	}
}

// staleValue computes a global whose expression would read names the
// module binds again after it (frontend.Global.Stale): only host code run
// in order computes it; without that, the error is placed at the binding.
//
// Where the host code ran and failed, its error is the reason tri has no
// value: it is added to the message and, at the host line that raised, as
// a note, as hostValue does for the globals sema cannot compute.
func staleValue(f *frontend.File, g *frontend.Global) (*frontend.Const, *diag.Diagnostic) {
	var hostErr error
	if f.HostComputes(g) {
		k, ok, err := f.HostValue(g.Name)
		if ok && err == nil {
			return k, nil
		}
		hostErr = err
	}
	d := diag.Errorf(g.Pos, diag.CodeValue, "%s", g.Stale)
	if hostErr != nil {
		addHostCause(d, g, hostErr)
	}
	return nil, d
}

// addHostCause adds to d, an error about g's value, the error the host
// code for g gave: its text (placed at its host line) to the message, and
// a note at that line where it is another than d's.
func addHostCause(d *diag.Diagnostic, g *frontend.Global, err error) {
	at, msg := g.Pos, err.Error()
	var hd *diag.Diagnostic
	if errors.As(err, &hd) {
		at, msg = hd.Pos, hd.Message
	}
	where := at.String()
	if where == "" {
		where = g.Pos.String()
	}
	d.Message += fmt.Sprintf("; tri ran the host code for %s and got no value: %s: %s", g.Name, where, msg)
	if at.IsValid() && at != d.Pos {
		d.WithNote(at, "the host code for %s failed here", g.Name)
	}
}

// staleGlobal is the value of a stale global (staleValue) used at pos.
func (c *compiler) staleGlobal(f *frontend.File, g *frontend.Global, pos diag.Pos) *val {
	k, d := staleValue(f, g)
	if d != nil {
		if pos.IsValid() && pos != d.Pos {
			d.WithNote(pos, "the kernel uses %s here", g.Name)
		}
		c.add(d)
		return invalid
	}
	return c.expr(&frame{env: map[string]*val{}, file: f}, k)
}

// hostValue asks the loader's host evaluator for a global that sema could
// not compute (its errors are the items of diags from before on): where
// the host code computes it, those errors are dropped and its value is
// used; where the host code fails too, sema's errors stand, each with a
// the host code's own error and its line (an exception, a refused open(),
// a loop stopped at --timeout) added to the message and as a note: sema's
// error says only that the value comes from host code, the cause says why
// running it gave none.
func (c *compiler) hostValue(f *frontend.File, g *frontend.Global, before int) (*frontend.Const, bool) {
	return hostValue(c.diags, f, g, before)
}

func hostValue(l *diag.List, f *frontend.File, g *frontend.Global, before int) (*frontend.Const, bool) {
	if _, ok := f.Host[g.Name]; !ok {
		return nil, false
	}
	k, ok, err := f.HostValue(g.Name)
	if !ok {
		return nil, false
	}
	if err != nil {
		for _, item := range l.Items[before:] {
			if item.Severity == diag.Error {
				addHostCause(item, g, err)
			}
		}
		return nil, false
	}
	l.Items = l.Items[:before]
	return k, true
}
