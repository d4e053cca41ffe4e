package tri

// This file implements kernel files: parsing them, and compiling one of
// their kernels for a signature or for a launch.

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/sema"
	"github.com/tri-lang/tri/tensor"
)

// Options are the settings of a File's compiles and runs. The zero value
// (or a nil *Options) compiles for the GPU found, else for sm_80, with
// the kernel's own num_warps and num_stages.
type Options struct {
	// Arch is the target architecture, such as "sm_90a"; "" is the GPU's
	// own, or sm_80 where there is none.
	Arch string
	// NumWarps and NumStages override the launch's (or the signature's
	// default, 4 and 3); 0 keeps them.
	NumWarps, NumStages int
	// Debug compiles device assertions (tl.device_assert) into the GPU
	// code, as Triton's debug=True; the interpreter checks them always.
	Debug bool
	// LineInfo adds source line information to the GPU code, for
	// profilers.
	LineInfo bool
	// Timeout bounds each compile of a kernel and each run in the
	// interpreter; 0: no bound.
	Timeout time.Duration
	// MaxMemory bounds the interpreter's memory in bytes; 0 is half of the
	// memory available.
	MaxMemory int64
	// Roots are folders searched for the modules a kernel file imports,
	// before those of TRI_PATH.
	Roots []string
	// Stdout receives what kernels print in the interpreter
	// (tl.device_print); nil is os.Stdout. On the GPU the driver writes
	// to the process's standard output.
	Stdout io.Writer
	// Warnings receives warnings, each with its source line, as the
	// command line prints them; nil discards them.
	Warnings io.Writer
}

// File is a parsed kernel file: its @triton.jit functions, ready to be
// compiled for a signature (Compile) or a launch (Prepare). It is safe
// for concurrent use.
type File struct {
	sf *launch.SourceFile
	o  Options
}

// ParseFile reads and parses the kernel file at path (a .tri or .py file
// with @triton.jit functions). o may be nil.
func ParseFile(path string, o *Options) (_ *File, err error) {
	defer guard(&err, path)
	text, err := hosteval.ReadSource(path)
	if err != nil {
		return nil, wrap(err)
	}
	return parse(path, text, o)
}

// Parse parses source, a kernel file's text; name is the file name that
// diagnostics give (and the folder of the modules it imports). o may be
// nil.
func Parse(name, source string, o *Options) (_ *File, err error) {
	defer guard(&err, name)
	if name == "" {
		name = "<source>"
	}
	return parse(name, []byte(source), o)
}

func parse(path string, text []byte, o *Options) (*File, error) {
	f := &File{}
	if o != nil {
		f.o = *o
		f.o.Roots = append([]string(nil), o.Roots...)
	}
	lo, err := f.o.launch()
	if err != nil {
		return nil, err
	}
	sf, err := launch.ParseSource(path, text, lo)
	if err != nil {
		return nil, wrap(err)
	}
	f.sf = sf
	return f, nil
}

// launch converts o to the driver's options, checked.
func (o *Options) launch() (*launch.Options, error) {
	stdout := o.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	lo := &launch.Options{NumWarps: o.NumWarps, NumStages: o.NumStages, Arch: o.Arch, LineInfo: o.LineInfo,
		Timeout: o.Timeout, MaxMemory: o.MaxMemory, Debug: o.Debug, Roots: o.Roots, Stdout: stdout, Stderr: o.Warnings}
	switch {
	case o.Timeout < 0:
		return nil, badInput("Options.Timeout is negative (%v)", o.Timeout)
	case o.MaxMemory < 0:
		return nil, badInput("Options.MaxMemory is negative (%d)", o.MaxMemory)
	case o.NumWarps != 0 && bind.NumWarpsProblem(int64(o.NumWarps)) != "":
		return nil, badInput("Options.NumWarps: %s", bind.NumWarpsProblem(int64(o.NumWarps)))
	case o.NumStages != 0 && bind.NumStagesProblem(int64(o.NumStages)) != "":
		return nil, badInput("Options.NumStages: %s", bind.NumStagesProblem(int64(o.NumStages)))
	}
	if o.Arch != "" {
		if err := cudagen.CheckArch(o.Arch); err != nil {
			return nil, badInput("Options.Arch: %v", err)
		}
	}
	return lo, nil
}

// ready reports a File that ParseFile or Parse did not make.
func (f *File) ready(method string) error {
	if f == nil || f.sf == nil || f.sf.File == nil {
		return badInput("File.%s: a File not made by ParseFile or Parse", method)
	}
	return nil
}

// Kernels lists the file's @triton.jit functions, in source order.
func (f *File) Kernels() []string {
	if f.ready("Kernels") != nil {
		return nil
	}
	var names []string
	for _, fn := range f.sf.File.Funcs {
		names = append(names, fn.Name)
	}
	return names
}

// Check resolves every @triton.jit function of the file without
// specializing it, as `tri check` does: undefined names, unsupported
// syntax, wrong calls of tl functions.
func (f *File) Check() (err error) {
	if err := f.ready("Check"); err != nil {
		return err
	}
	defer guard(&err, f.sf.Path)
	return f.problems(sema.Check(f.sf.File))
}

// problems writes the warnings of l to Options.Warnings and returns its
// errors, if any, as bad input.
func (f *File) problems(l *diag.List) (err error) {
	if l == nil {
		return nil
	}
	l.Sort()
	errs := &diag.List{}
	for _, d := range l.Items {
		if d.Severity == diag.Error {
			errs.Add(d)
		} else if f.o.Warnings != nil {
			diag.Render(f.o.Warnings, d, f.sf.File.Sources())
		}
	}
	if !l.HasErrors() {
		return nil
	}
	var e error = errs
	if errs.ErrorCount() == 0 { // only dropped errors
		e = l
	}
	e = hosteval.Usage(e)
	f.sourced(&e)
	return wrap(e)
}

// sourced attaches the file's texts (its own and its modules') to err,
// for Error.Report.
func (f *File) sourced(err *error) {
	for name, text := range f.sf.File.Sources() {
		hosteval.AttachSource(err, name, text)
	}
	hosteval.AttachSource(err, f.sf.Path, string(f.sf.Text))
}

// Compile specializes kernel for a signature written as Triton's
// ahead-of-time compiler takes it: one comma-separated entry per
// parameter, "*fp32:16" for a 16-byte aligned pointer, "i32" (":16" a
// multiple of 16, ":1" the value 1) for a number, a literal for a
// tl.constexpr. Errors in the signature are placed in it ("--signature").
func (f *File) Compile(kernel, signature string) (_ *Kernel, err error) {
	if err := f.ready("Compile"); err != nil {
		return nil, err
	}
	defer guard(&err, f.sf.Path)
	fn := f.sf.File.Func(kernel)
	if fn == nil {
		return nil, badInput("%s defines no @triton.jit function %q; it defines %s", f.sf.Path, kernel, strings.Join(f.Kernels(), ", "))
	}
	sig, err := launch.ParseSignature(fn, signature)
	if err != nil {
		return nil, wrap(err)
	}
	sig.NumWarps, sig.NumStages, sig.Debug = f.o.NumWarps, f.o.NumStages, f.o.Debug
	if _, err := f.o.launch(); err != nil {
		return nil, err
	}
	ctx := context.Background()
	if f.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.o.Timeout)
		defer cancel()
	}
	k, diags := sema.SpecializeFuncContext(ctx, f.sf.File, fn, sig)
	if err := f.problems(diags); err != nil {
		return nil, err
	}
	if k == nil {
		return nil, wrap(fmt.Errorf("internal error: %s: no kernel and no error", kernel))
	}
	if err := ir.Verify(k); err != nil {
		return nil, wrap(fmt.Errorf("internal error: %s: invalid IR: %v", kernel, err))
	}
	return f.kernel(k), nil
}

func (f *File) kernel(k *ir.Kernel) *Kernel {
	return &Kernel{ir: k, o: f.o}
}

// Prepare specializes a kernel for a launch written as in Python,
// kernel[grid](args..., META=value, num_warps=4), whose names args binds
// to Go values: the specialization (dtypes, constexprs, which integers
// are multiples of 16) and the grid come from the values, as Triton's
// launcher derives them. An autotuned kernel takes its first config
// whose meta-parameters the launch leaves out. Errors in the line are
// placed in it ("launch").
//
// The Launch runs on the slices given, reading their contents when it
// runs: Prepare once and Run or Interpret many times.
func (f *File) Prepare(line string, args Args) (_ *Launch, err error) {
	if err := f.ready("Prepare"); err != nil {
		return nil, err
	}
	defer guard(&err, f.sf.Path)
	lo, err := f.o.launch()
	if err != nil {
		return nil, err
	}
	env := hosteval.NewEnv(0)
	seen := map[*tensor.Tensor]data{}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v, err := hostValue(name, args[name], seen)
		if err != nil {
			return nil, badInput("%v", err)
		}
		env.Set(name, v)
	}
	p, err := launch.PrepareLine(f.sf, line, env, lo)
	if err != nil {
		return nil, wrap(err)
	}
	return &Launch{p: p, kernel: f.kernel(p.Kernel), data: seen}, nil
}

// Interpret prepares a launch (see Prepare) and runs it in the
// interpreter, on the CPU: the slices in args hold the results.
func (f *File) Interpret(line string, args Args) error {
	l, err := f.Prepare(line, args)
	if err != nil {
		return err
	}
	return l.Interpret()
}

// Run prepares a launch (see Prepare) and runs it on the GPU, on stream s
// (nil: the default stream), as Launch.Run does.
func (f *File) Run(s *Stream, line string, args Args) error {
	l, err := f.Prepare(line, args)
	if err != nil {
		return err
	}
	return l.Run(s)
}

// guard turns a panic of the compiler into an internal error placed at
// file, so that no call of the API panics.
func guard(err *error, file string) {
	if r := recover(); r != nil {
		*err = wrap(diag.Errorf(diag.Pos{File: file}, diag.CodeInternal, "internal error: %v", r))
	}
}
