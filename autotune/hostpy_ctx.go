package autotune

// This file makes every code object that host code runs instrumented,
// also code that tri does not compile itself: with --allow-host-io, eval,
// exec and compile are gpython's own and import reads the project's .py
// files, and gpython compiles those without the guard's polls, so an
// endless loop there was never interrupted and its goroutine went on
// spinning after tri returned. The interpreter's context is wrapped:
// gpython hands a frame's context to eval, exec and import, and they run
// what they compiled through its RunCode and ModuleInit, which instrument
// a code object the session has not instrumented before it runs
// (instrument.go), whatever compiled it.

import (
	"github.com/go-python/gpython/py"
)

// guardedCtx is the context of a bounded interpreter.
type guardedCtx struct {
	py.Context
	g *guard
}

// prepare instruments code for g's session, once.
func (c *guardedCtx) prepare(code *py.Code) error {
	if c.g.instrumented[code] {
		return nil
	}
	fixCells(code)
	if err := instrument(code, c.g.hooks(code.Filename)); err != nil {
		return err
	}
	c.g.markInstrumented(code)
	return nil
}

// RunCode implements py.Context: code runs instrumented, with c as the
// context of its frames, so that what it evals or imports comes back here.
func (c *guardedCtx) RunCode(code *py.Code, globals, locals py.StringDict, closure py.Tuple) (py.Object, error) {
	if err := c.prepare(code); err != nil {
		return nil, err
	}
	return py.VmEvalCode(c, code, globals, locals, nil, nil, nil, nil, closure)
}

// ModuleInit implements py.Context: a module made from code that host
// code compiled or imported (not one of gpython's registered modules,
// whose code all interpreters share) runs through RunCode.
func (c *guardedCtx) ModuleInit(impl *py.ModuleImpl) (*py.Module, error) {
	if impl.Code == nil || py.GetModuleImpl(impl.Info.Name) == impl {
		return c.Context.ModuleInit(impl)
	}
	code := impl.Code
	bare := *impl
	bare.Code = nil
	m, err := c.Context.Store().NewModule(c, &bare)
	if err != nil {
		return nil, err
	}
	if _, err := c.RunCode(code, m.Globals, m.Globals, nil); err != nil {
		return nil, err
	}
	return m, nil
}

// markInstrumented records code and the code objects inside it.
func (g *guard) markInstrumented(code *py.Code) {
	if g.instrumented == nil {
		g.instrumented = map[*py.Code]bool{}
	}
	g.instrumented[code] = true
	for _, k := range code.Consts {
		if inner, ok := k.(*py.Code); ok {
			g.markInstrumented(inner)
		}
	}
}
