package sema

// This file implements Specialize, the entry point, and the compiler state
// shared by the rest of the package.

import (
	"context"
	"runtime/debug"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// compiler holds the state of one specialization.
type compiler struct {
	file   *frontend.File
	diags  *diag.List
	kernel *ir.Kernel
	blk    *ir.Block // where emitted values go

	globals     map[*frontend.Global]*val
	globalsBusy map[*frontend.Global]bool
	stack       []*frontend.Func // functions being inlined, outermost first
	calls       []diag.Pos       // call sites of stack[1:]
	work        int              // statements compiled so far
	tooBig      bool             // work exceeded maxWork, or ctx ended
	ctx         context.Context  // ends the compilation early (tri's --timeout)
	seen        map[string]bool  // diagnostics already reported
}

// frame is one function being compiled (the kernel or an inlined helper).
type frame struct {
	fn         *frontend.Func
	file       *frontend.File // the module whose names the code sees; nil: the compiled file
	env        map[string]*val
	isKernel   bool
	terminated bool // a return was reached on every path
	retVal     *val // a helper's returned value
	runtime    int  // depth of runtime ifs and loops around the current statement
	loops      int  // depth of runtime loops
}

// Specialize compiles kernel name of f for one signature into an ir.Kernel.
// All errors are collected with positions (at most ten). It never panics:
// a recovered panic becomes an "internal error" diagnostic naming the
// kernel.
func Specialize(f *frontend.File, name string, sig Signature) (k *ir.Kernel, diags *diag.List) {
	diags = &diag.List{}
	defer func() {
		if r := recover(); r != nil {
			k = nil
			diags.Errorf(diag.Pos{File: fileName(f)}, diag.CodeInternal,
				"internal error while specializing %s: %v\n%s", name, r, firstLines(string(debug.Stack()), 12))
		}
	}()
	if f == nil {
		diags.Errorf(diag.Pos{}, diag.CodeInternal, "internal error: no file for kernel %s", name)
		return nil, diags
	}
	fn := f.Func(name)
	if fn == nil {
		d := diags.Errorf(diag.Pos{File: f.Name}, diag.CodeUndefined, "no @triton.jit function named %s in %s", name, f.Name)
		if s := suggest(name, funcNames(f)); s != "" {
			d.WithSuggestion("did you mean %s?", s)
		}
		return nil, diags
	}
	return specializeFunc(context.Background(), f, fn, sig, diags)
}

// SpecializeFunc is Specialize for one @jit function of f given by itself
// rather than by name: one of two functions of the same name (test files
// define a kernel per test), which a name cannot pick.
func SpecializeFunc(f *frontend.File, fn *frontend.Func, sig Signature) (k *ir.Kernel, diags *diag.List) {
	return SpecializeFuncContext(context.Background(), f, fn, sig)
}

// SpecializeFuncContext is SpecializeFunc stopped by ctx: once ctx is done
// (checked before each statement compiled, unrolled or inlined) it reports
// an error at that statement, with context.Cause(ctx)'s words, and
// compiles nothing more.
func SpecializeFuncContext(ctx context.Context, f *frontend.File, fn *frontend.Func, sig Signature) (k *ir.Kernel, diags *diag.List) {
	diags = &diag.List{}
	defer func() {
		if r := recover(); r != nil {
			k = nil
			diags.Errorf(diag.Pos{File: fileName(f)}, diag.CodeInternal,
				"internal error while specializing %s: %v\n%s", fn.Name, r, firstLines(string(debug.Stack()), 12))
		}
	}()
	if f == nil || fn == nil {
		diags.Errorf(diag.Pos{}, diag.CodeInternal, "internal error: no file or no function to specialize")
		return nil, diags
	}
	return specializeFunc(ctx, f, fn, sig, diags)
}

// specializeFunc is the body of Specialize and SpecializeFunc, run under
// their recover.
func specializeFunc(ctx context.Context, f *frontend.File, fn *frontend.Func, sig Signature, diags *diag.List) (*ir.Kernel, *diag.List) {
	c := &compiler{
		ctx:         ctx,
		file:        f,
		diags:       diags,
		globals:     map[*frontend.Global]*val{},
		globalsBusy: map[*frontend.Global]bool{},
		seen:        map[string]bool{},
	}
	k := c.specialize(fn, sig)
	for _, d := range f.ImportErrors() {
		c.add(d)
	}
	diags.Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	ir.HoistInvariants(k)
	ir.IssueLoadsEarly(k)
	return k, diags
}

func fileName(f *frontend.File) string {
	if f == nil {
		return ""
	}
	return f.Name
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func funcNames(f *frontend.File) []string {
	var names []string
	for _, fn := range f.Funcs {
		names = append(names, fn.Name)
	}
	return names
}

// ParamNames returns the names of fn's parameters in source order.
func ParamNames(fn *frontend.Func) []string {
	names := make([]string, len(fn.Params))
	for i, p := range fn.Params {
		names[i] = p.Name
	}
	return names
}

func (c *compiler) specialize(fn *frontend.Func, sig Signature) *ir.Kernel {
	home := c.file // the file that defines the kernel, whose lines comments quote
	if fn.File != nil {
		home = fn.File
	}
	k := &ir.Kernel{
		Name:      fn.Name,
		File:      home.Name,
		Source:    string(home.Src),
		Body:      &ir.Block{},
		NumWarps:  sig.NumWarps,
		NumStages: sig.NumStages,
		Debug:     sig.Debug || jitDebug(fn),
		MaxNReg:   sig.MaxNReg,
	}
	if k.NumWarps == 0 {
		k.NumWarps = 4
	}
	if k.NumStages == 0 {
		k.NumStages = 3
	}
	c.kernel = k
	c.blk = k.Body
	if fn.Vararg != "" {
		// Triton takes *args in helpers it inlines; a launched kernel's
		// arguments are bound to named parameters.
		c.errorAt(fn.Pos, diag.CodeUnsupported, "%s takes *%s: a kernel that is launched needs named parameters (a @jit helper may take *args)", fn.Name, fn.Vararg)
		return k
	}
	if len(sig.Args) != len(fn.Params) {
		c.errorAt(fn.Pos, diag.CodeArgs, "%s has %d parameters (%s) but the signature has %d arguments",
			fn.Name, len(fn.Params), strings.Join(ParamNames(fn), ", "), len(sig.Args))
		return k
	}
	fr := &frame{fn: fn, env: map[string]*val{}, isKernel: true, file: fn.File}
	for i, p := range fn.Params {
		a := sig.Args[i]
		if p.Constexpr && a.Kind != ArgConstexpr && a.Kind != ArgNone {
			c.errorAt(p.Pos, diag.CodeArgs, "parameter %s is a tl.constexpr but is given a runtime value; pass a compile-time value", p.Name)
			continue
		}
		switch a.Kind {
		case ArgRuntime:
			if a.DType.Kind == ir.Invalid || a.DType.Kind == ir.Void {
				c.errorAt(p.Pos, diag.CodeArgs, "parameter %s has no runtime dtype", p.Name)
				continue
			}
			prm := &ir.Param{Name: p.Name, Index: len(k.Params), DType: a.DType, Pos: ir.Pos(p.Pos), DivisibleBy16: a.DivisibleBy16}
			v := c.emit(ir.OpParam, ir.ScalarType(a.DType), p.Pos)
			v.Param = prm
			v.Name = p.Name
			prm.Value = v
			k.Params = append(k.Params, prm)
			fr.env[p.Name] = rtVal(v)
			spec := a.DType.String()
			if a.DivisibleBy16 {
				spec += ":16"
			}
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: "runtime", Value: spec})
		case ArgDesc:
			fr.env[p.Name] = c.descParam(p.Name, a, p.Pos)
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: "runtime", Value: descSpec(a)})
		case ArgTuple:
			v := c.tupleParam(p.Name, nil, a, p.Pos)
			fr.env[p.Name] = v
			kind := "runtime"
			if v.isConst() {
				kind = "constexpr"
			}
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: kind, Value: tupleSpec(a)})
		case ArgOne:
			fr.env[p.Name] = intVal(1)
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: "one", Value: "1"})
		case ArgNone:
			fr.env[p.Name] = noneVal
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: "constexpr", Value: "None"})
		default:
			v := constexprVal(a.Value)
			if a.At.IsValid() && v.k != kNone { // noneVal is shared
				v.from = &metaArg{name: p.Name, value: v.repr(), at: a.At}
			}
			fr.env[p.Name] = v
			k.Spec = append(k.Spec, ir.SpecEntry{Name: p.Name, Kind: "constexpr", Value: v.repr()})
		}
	}
	if c.diags.HasErrors() {
		return k
	}
	c.stack = append(c.stack, fn)
	c.stmts(fr, fn.Body)
	return k
}

// emit appends a new value to the current block.
func (c *compiler) emit(op ir.Op, t ir.Type, pos diag.Pos, args ...*ir.Value) *ir.Value {
	v := &ir.Value{ID: c.kernel.NumValues, Op: op, Type: t, Args: args, Pos: ir.Pos(pos)}
	c.kernel.NumValues++
	c.blk.Stmts = append(c.blk.Stmts, v)
	return v
}

// newVar declares a Var.
func (c *compiler) newVar(name string, t ir.Type, pos diag.Pos) *ir.Var {
	v := &ir.Var{ID: c.kernel.NumVars, Name: name, Type: t, Pos: ir.Pos(pos)}
	c.kernel.NumVars++
	return v
}

// errorAt reports an error once: a helper inlined twice would otherwise
// report the same error at the same place twice.
func (c *compiler) errorAt(pos diag.Pos, code diag.Code, format string, args ...any) *diag.Diagnostic {
	return c.add(c.withCalls(diag.Errorf(pos, code, format, args...)))
}

// withCalls notes on d the call sites of the helpers being inlined,
// innermost first, and returns d.
func (c *compiler) withCalls(d *diag.Diagnostic) *diag.Diagnostic {
	for i := len(c.calls) - 1; i >= 0; i-- {
		d.WithNote(c.calls[i], "in %s, called from here", c.stack[i+1].Name)
	}
	return d
}

// warnAt reports a warning once.
func (c *compiler) warnAt(pos diag.Pos, code diag.Code, format string, args ...any) *diag.Diagnostic {
	return c.add(diag.Warnf(pos, code, format, args...))
}

func (c *compiler) add(d *diag.Diagnostic) *diag.Diagnostic {
	key := d.Pos.String() + "\x00" + d.Message
	if !c.seen[key] {
		c.seen[key] = true
		c.diags.Add(d)
	}
	return d
}

// errorf reports an error and returns the invalid value, so callers can
// write `return c.errorf(...)`.
func (c *compiler) errorf(pos diag.Pos, code diag.Code, format string, args ...any) *val {
	c.errorAt(pos, code, format, args...)
	return invalid
}

// suggest returns the candidate closest to name by edit distance, or "".
func suggest(name string, candidates []string) string { return diag.Closest(name, candidates) }
