package frontend

// This file implements a file's module scope: every name its top-level
// statements bind (imports, @jit functions, assignments, host definitions),
// with the branch of a module-level if or try that binds it.
//
// Python runs a module's top level once; the value a name has afterwards is
// its last binding on the path the run took. tri does not run the module:
// it records every binding with the arm of the if/try statement around it,
// and decides which arms run only when a kernel needs one of their names
// (see branch.go).

import (
	"strings"

	"github.com/go-python/gpython/ast"

	"github.com/tri-lang/tri/diag"
)

// Cond is a module-level if/elif/else or try/except/else/finally statement.
type Cond struct {
	Pos  diag.Pos
	Try  bool   // a try statement (else an if chain)
	Arms []*Arm // in source order
	Arm  *Arm   // the arm around the statement, nil at the top level
}

// ArmKind says what part of a Cond an Arm is.
type ArmKind int

const (
	// ArmIf is an if or elif branch (Test set).
	ArmIf ArmKind = iota
	// ArmElse is the else of an if chain.
	ArmElse
	// ArmTry is the body of a try.
	ArmTry
	// ArmExcept is an except handler.
	ArmExcept
	// ArmTryElse is the else of a try, which runs with its body.
	ArmTryElse
	// ArmFinally is a finally clause, which always runs.
	ArmFinally
)

// Arm is one branch of a Cond.
type Arm struct {
	Cond    *Cond
	Kind    ArmKind
	Pos     diag.Pos // of the header (if, elif, else, try, except, finally)
	Test    Expr     // the condition of an if or elif arm
	Catches []string // the exception names an except arm names; empty: bare except
	Binds   []*Binding
}

// Binding is one top-level binding of a name. Exactly one of Func, Global,
// Import is set, or none for a host definition (a def that is not @jit, a
// class, an assignment tri cannot read).
type Binding struct {
	Name   string
	Pos    diag.Pos
	Arm    *Arm // the if/try arm it is under; nil at the top level
	Func   *Func
	Global *Global
	Import *Import
	// Err is set where the module's evaluation cannot know the value
	// (exec.go): a lookup of the name gives it.
	Err *diag.Diagnostic
}

// Import is one name an import statement binds.
//
//	import a.b.c        Local "a", Module "a.b.c"
//	import a.b as m     Local "m", Module "a.b", As
//	from ..u import h   Local "h", Level 2, Module "u", Name "h"
//	from . import m     Local "m", Level 1, Module "", Name "m"
type Import struct {
	Pos    diag.Pos // of the import statement
	Local  string
	Level  int    // the leading dots of a from-import
	Module string // dotted, without the leading dots
	Name   string // the name taken from Module by a from-import; "*" for all
	As     bool   // import a.b as m binds the module a.b itself
}

// Dotted writes the imported module as Python would name it in a message.
func (im *Import) Dotted() string {
	dots := ""
	for range im.Level {
		dots += "."
	}
	return dots + im.Module
}

// bind records a binding in the file's scope and in its arm.
func (p *fileParser) bind(b *Binding, arm *Arm) {
	b.Arm = arm
	p.file.Scope = append(p.file.Scope, b)
	if arm != nil {
		arm.Binds = append(arm.Binds, b)
	}
}

// imports records the bindings of an import statement.
func (p *fileParser) imports(s ast.Stmt, c *chunk) {
	at := p.at(c)
	switch s := s.(type) {
	case *ast.Import:
		for _, a := range s.Names {
			name := string(a.Name)
			im := &Import{Pos: at, Module: name, Local: string(a.AsName), As: a.AsName != ""}
			if !im.As {
				im.Local, _, _ = strings.Cut(name, ".")
			}
			p.bind(&Binding{Name: im.Local, Pos: at, Import: im}, c.arm)
		}
	case *ast.ImportFrom:
		for _, a := range s.Names {
			im := &Import{Pos: at, Level: s.Level, Module: string(s.Module), Name: string(a.Name), Local: string(a.AsName)}
			if im.Local == "" {
				im.Local = im.Name
			}
			p.bind(&Binding{Name: im.Local, Pos: at, Import: im}, c.arm)
		}
	}
}

// constexprFunc records a @triton.constexpr_function: a host function that
// kernels may call on constexpr values. It is converted like a @jit
// function, but what it does that kernels cannot (its *args, say) is
// reported only if a kernel calls it, as sema compiles it then.
func (p *fileParser) constexprFunc(fd *ast.FunctionDef, conv *converter, pos diag.Pos, name string, arm *Arm) {
	saved := p.diags
	p.diags = &diag.List{}
	fn := p.makeFunc(fd, conv, pos, name, nil)
	p.diags = saved
	fn.ConstexprFunction = true
	p.bind(&Binding{Name: name, Pos: pos, Func: fn}, arm)
}
