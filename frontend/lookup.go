package frontend

// This file implements Lookup: the value a module-level name has after
// Python would have imported the file, followed through imports into other
// modules of the project.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/diag"
)

// SymbolKind says what a module-level name stands for.
type SymbolKind int

const (
	// SymNone: the module does not bind the name.
	SymNone SymbolKind = iota
	// SymFunc is a @jit function (Symbol.Func).
	SymFunc
	// SymGlobal is a module-level assignment (Symbol.Global), whose value
	// is evaluated in Symbol.File.
	SymGlobal
	// SymModule is a module of the project (Symbol.File).
	SymModule
	// SymPath is a name from a module tri does not read (Triton, torch):
	// Symbol.Path is its full dotted path, e.g. "triton.language.exp".
	SymPath
	// SymHost is bound by host code tri does not read: a def that is not
	// @jit, a class, a tuple assignment.
	SymHost
)

// Symbol is what a module-level name stands for.
type Symbol struct {
	Kind   SymbolKind
	Name   string // the name in the module that binds it (File)
	Func   *Func
	Global *Global
	File   *File    // where the name is bound (the module itself for SymModule)
	Path   string   // SymPath
	Pos    diag.Pos // the binding that gave the value
}

// Lookup returns what the module-level name stands for in f, following
// imports into the project's other modules. A failed import is an error
// placed at the importing statement, which names the module and file that
// lack the name; a name f does not bind is SymNone with no error.
func (f *File) Lookup(name string) (Symbol, *diag.Diagnostic) {
	m := f.module()
	defer m.loader.lock()()
	return m.lookup(name)
}

// Attr returns what attribute name of the module of f stands for: a name
// the module binds, else its submodule.
func (f *File) Attr(name string, pos diag.Pos) (Symbol, *diag.Diagnostic) {
	m := f.module()
	defer m.loader.lock()()
	return m.attr(name, pos)
}

// attr is Attr with the loader locked.
func (m *module) attr(name string, pos diag.Pos) (Symbol, *diag.Diagnostic) {
	// A package that imports its own submodule (from . import sub, or from
	// pkg import sub, in pkg/__init__.py) asks for the name its import is
	// binding: Python finds no such attribute yet and imports pkg.sub, so
	// the submodule is the answer, not an import cycle.
	if m.loader.busy[lookupKey{m, name}] {
		if sub := m.submodule(name); sub != nil {
			return Symbol{Kind: SymModule, File: sub.file, Pos: pos}, nil
		}
	}
	s, d := m.lookup(name)
	if d != nil || s.Kind != SymNone {
		return s, d
	}
	if sub := m.submodule(name); sub != nil {
		return Symbol{Kind: SymModule, File: sub.file, Pos: pos}, nil
	}
	return Symbol{}, nil
}

// submodule returns the module name of package m, nil if m is not a
// package or has no such module.
func (m *module) submodule(name string) *module {
	if !m.isPkg || m.name == "" {
		return nil
	}
	return m.loader.find(m.name + "." + name)
}

// ModuleName is the dotted name of f as a module ("" for a file outside
// any package, or one parsed alone).
func (f *File) ModuleName() string { return f.module().name }

// module returns f's module.
func (f *File) module() *module { return f.mod }

// loneModule makes the module of a file parsed without a Loader: it sees
// only its own names and Triton's, and, knowing no table of Triton's
// names, takes every one to exist (hasattr(tl, ...) is true); a Loader
// made with sema's table knows better.
func loneModule(f *File) *module {
	l := NewLoader(nil, nil)
	l.order = append(l.order, f)
	return &module{loader: l, file: f, arms: map[*Arm]armState{}, cache: map[string]lookupResult{}}
}

// lookup resolves name in m: its binding after m's top level ran
// (exec.go). The answer is kept unless the top level is still running or
// an arm was being decided meanwhile (an arm counts as not running while
// it is decided).
func (m *module) lookup(name string) (Symbol, *diag.Diagnostic) {
	if r, ok := m.cache[name]; ok {
		return r.sym, r.err
	}
	m.run() // before name is busy: the top level may read it
	l := m.loader
	if m.byName == nil {
		m.byName = map[string][]*Binding{}
		for _, b := range m.file.Scope {
			m.byName[b.Name] = append(m.byName[b.Name], b)
		}
	}
	key := lookupKey{m, name}
	if l.busy[key] {
		at := diag.Pos{File: m.file.Name}
		if bs := m.byName[name]; len(bs) > 0 {
			at = bs[len(bs)-1].Pos
		}
		return Symbol{}, diag.Errorf(at, diag.CodeUndefined, "import cycle: %s in %s is defined through itself", name, moduleOrFile(m))
	}
	l.busy[key] = true
	defer delete(l.busy, key)
	var r lookupResult
	if b, in, ok := m.binding(name); ok {
		r.sym, r.err = in.resolve(b)
	}
	if l.deciding == 0 && m.state == execDone {
		m.cache[name] = r
	}
	return r.sym, r.err
}

// lookupResult is a lookup's answer, kept per module and name.
type lookupResult struct {
	sym Symbol
	err *diag.Diagnostic
}

// resolve turns a binding into what it stands for.
func (m *module) resolve(b *Binding) (Symbol, *diag.Diagnostic) {
	switch {
	case b.Err != nil:
		return Symbol{}, b.Err
	case b.Func != nil:
		return Symbol{Kind: SymFunc, Name: b.Name, Func: b.Func, File: m.file, Pos: b.Pos}, nil
	case b.Global != nil:
		return Symbol{Kind: SymGlobal, Name: b.Name, Global: b.Global, File: m.file, Pos: b.Pos}, nil
	case b.Import != nil:
		return m.resolveImport(b.Import)
	}
	return Symbol{Kind: SymHost, Name: b.Name, File: m.file, Pos: b.Pos}, nil
}

// resolveImport follows one imported name to its value.
func (m *module) resolveImport(im *Import) (Symbol, *diag.Diagnostic) {
	if im.Name == "" {
		target := im.Module
		if !im.As {
			target, _, _ = strings.Cut(im.Module, ".")
			// import a.b.c binds a; a.b.c must still exist.
			if _, d := m.importModule(im, im.Module); d != nil {
				return Symbol{}, d
			}
		}
		return m.importModule(im, target)
	}
	src, d := m.importModule(im, im.Module)
	if d != nil {
		return Symbol{}, d
	}
	if src.Kind == SymPath {
		return Symbol{Kind: SymPath, Path: normalize(src.Path + "." + im.Name), Pos: im.Pos}, nil
	}
	s, d := src.File.module().attr(im.Name, im.Pos)
	if d != nil {
		return Symbol{}, d
	}
	if s.Kind == SymNone {
		return Symbol{}, diag.Errorf(im.Pos, diag.CodeUndefined, "cannot import name %s from %s (%s)",
			im.Name, moduleLabel(src.File, im), src.File.Name)
	}
	return s, nil
}

// moduleLabel names the module im imports from, for messages.
func moduleLabel(f *File, im *Import) string {
	if n := f.ModuleName(); n != "" {
		return n
	}
	return im.Dotted()
}

// importModule finds the module that im names by dotted (absolute, or
// relative to m's package by im.Level): SymModule for a module of the
// project, SymPath for one outside it.
func (m *module) importModule(im *Import, dotted string) (Symbol, *diag.Diagnostic) {
	name := dotted
	if im.Level > 0 {
		base := m.pkg()
		if m.name == "" {
			return Symbol{}, diag.Errorf(im.Pos, diag.CodeUndefined,
				"attempted relative import with no known parent package (%s is not in a folder with __init__.py)", m.file.Name)
		}
		parts := strings.Split(base, ".")
		if base == "" || im.Level-1 >= len(parts) {
			return Symbol{}, diag.Errorf(im.Pos, diag.CodeUndefined,
				"attempted relative import beyond top-level package: %s from %s", im.Dotted(), moduleOrFile(m))
		}
		name = strings.Join(parts[:len(parts)-(im.Level-1)], ".")
		if dotted != "" {
			name += "." + dotted
		}
	}
	l := m.loader
	if target := l.find(name); target != nil {
		return Symbol{Kind: SymModule, File: target.file, Pos: im.Pos}, nil
	}
	head, _, _ := strings.Cut(name, ".")
	if im.Level > 0 || head != name && l.find(head) != nil {
		return Symbol{}, diag.Errorf(im.Pos, diag.CodeUndefined, "no module named %s (looked in %s)", name, strings.Join(l.roots, ", "))
	}
	return Symbol{Kind: SymPath, Path: normalize(name), Pos: im.Pos}, nil
}

func moduleOrFile(m *module) string {
	if m.name != "" {
		return m.name
	}
	return m.file.Name
}

// Describe says what a symbol is, for messages.
func (s Symbol) Describe() string {
	switch s.Kind {
	case SymFunc:
		return "@jit function " + s.Func.Name
	case SymGlobal:
		return "global " + s.Global.Name
	case SymModule:
		if n := s.File.ModuleName(); n != "" {
			return "module " + n
		}
		return "module " + s.File.Name
	case SymPath:
		return s.Path
	case SymHost:
		return fmt.Sprintf("host code at %s", s.Pos)
	}
	return "nothing"
}

// Runs reports whether the definition of fn in f runs when Python imports
// f: false for a @jit function defined only under an arm of a module-level
// if or try that is not taken.
func (f *File) Runs(fn *Func) bool {
	m := f.module()
	defer m.loader.lock()()
	for _, b := range f.Scope {
		if b.Func == fn && m.runs(b.Arm) {
			return true
		}
	}
	for _, b := range f.Scope {
		if b.Func == fn {
			return false
		}
	}
	return true
}

// ImportErrors returns the errors found while parsing the modules that
// lookups in f have read so far (a syntax error in an imported module:
// Python would not import it).
func (f *File) ImportErrors() []*diag.Diagnostic {
	var out []*diag.Diagnostic
	l := f.module().loader
	defer l.lock()()
	for _, d := range l.diags.Items {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// Sources returns the texts of f and of every module read with it, by
// name, for rendering diagnostics placed in any of them.
func (f *File) Sources() diag.Sources {
	src := diag.Sources{}
	l := f.module().loader
	defer l.lock()()
	for _, g := range l.order {
		src[g.Name] = string(g.Src)
	}
	return src
}

// Value computes a module-level expression of f as a module-level if's
// condition is computed (constants, the module's globals, not/and/or,
// comparisons, hasattr on Triton or project modules, os.environ.get and
// os.getenv with the environment taken as unset): a Const, or false where
// that needs host code.
func (f *File) Value(e Expr) (*Const, bool) {
	m := f.module()
	defer m.loader.lock()()
	v, ok := m.eval(e, 0)
	if !ok {
		return nil, false
	}
	return &Const{At: At{e.Position()}, Kind: v.kind, Int: v.i, Float: v.f, Str: v.s, Bool: v.b}, true
}
