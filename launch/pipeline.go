package launch

// This file implements the steps shared by check, build and run: reading a
// kernel file, binding a launch line and specializing the kernel.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// SourceFile is a parsed kernel file.
type SourceFile struct {
	Path string
	Text []byte
	File *frontend.File
}

// ParseFile reads and parses a kernel file. Warnings go to warn (may be
// nil); errors are returned as bad input.
func ParseFile(path string, warn func(*diag.Diagnostic)) (*SourceFile, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Usage(fmt.Errorf("%s: no such file", path))
		}
		return nil, Usage(err)
	}
	rememberSource(path, string(text))
	f, diags := frontend.Parse(path, text)
	if err := splitDiags(diags, warn); err != nil {
		return nil, Usage(err)
	}
	return &SourceFile{Path: path, Text: text, File: f}, nil
}

// splitDiags hands warnings to warn and returns the errors, if any.
func splitDiags(l *diag.List, warn func(*diag.Diagnostic)) error {
	if l == nil {
		return nil
	}
	l.Sort()
	if warn != nil {
		for _, d := range l.Items {
			if d.Severity != diag.Error {
				warn(d)
			}
		}
	}
	if !l.HasErrors() {
		return nil
	}
	errs := &diag.List{}
	for _, d := range l.Items {
		if d.Severity == diag.Error {
			errs.Add(d)
		}
	}
	if errs.ErrorCount() == 0 { // only dropped errors: report the count
		return l
	}
	return errs
}

// Prepared is a launch bound to its kernel and specialized: everything
// needed to run it on the GPU or in the interpreter.
type Prepared struct {
	Source *SourceFile
	Launch *Launch
	Env    *Env
	Bound  *Bound
	Kernel *ir.Kernel
	Grid   [3]int
}

// Prepare parses path, evaluates the --let bindings, binds the launch line
// and specializes the kernel. An empty line takes the launch recorded in the
// file's header ("# launch:"), whose "# let:" bindings o.Lets override in
// place, so the bindings after an overridden one see its new value.
func Prepare(path, line string, o *Options) (*Prepared, error) {
	for _, d := range o.Dump {
		if !slices.Contains(dumpKinds, d) {
			return nil, Usage(fmt.Errorf("unknown --dump %q (want %s)", d, strings.Join(dumpKinds, ", ")))
		}
	}
	sf, err := ParseFile(path, o.warn)
	if err != nil {
		return nil, err
	}
	lets := o.Lets
	if line == "" {
		s, err := ParseSampleHeader(path, sf.Text)
		if err != nil {
			return nil, Usage(fmt.Errorf("%v; give a launch line", err))
		}
		line, lets = s.Launch, s.Lets
		for _, l := range o.Lets {
			name, value, _ := strings.Cut(l, "=")
			lets = rebind(lets, strings.TrimSpace(name), value)
		}
	}
	if o.dumps("ast") {
		frontend.Dump(o.stdout(), sf.File)
	}
	l, err := ParseLaunch(line)
	if err != nil {
		return nil, Usage(err)
	}
	env := NewEnv(o.Seed)
	env.UseGlobals(sf.File.Globals)
	for _, spec := range lets {
		if err := env.Let(spec); err != nil {
			return nil, Usage(err)
		}
	}
	fn := sf.File.Func(l.Kernel)
	if fn == nil {
		return nil, Usage(unknownKernel(sf, l.Kernel, LaunchSource))
	}
	b, err := Bind(fn, l, env)
	if err != nil {
		return nil, Usage(err)
	}
	sig := b.Signature
	if o.NumWarps > 0 {
		sig.NumWarps = o.NumWarps
	}
	if o.NumStages > 0 {
		sig.NumStages = o.NumStages
	}
	k, err := compileIR(sf, fn.Name, sig, o)
	if err != nil {
		return nil, err
	}
	meta := b.Meta
	meta["num_warps"], meta["num_stages"] = IntValue(int64(k.NumWarps)), IntValue(int64(k.NumStages))
	grid, err := env.Grid(l, meta)
	if err != nil {
		return nil, Usage(err)
	}
	return &Prepared{Source: sf, Launch: l, Env: env, Bound: b, Kernel: k, Grid: grid}, nil
}

// compileIR runs sema and the IR dump.
func compileIR(sf *SourceFile, name string, sig sema.Signature, o *Options) (*ir.Kernel, error) {
	k, diags := sema.Specialize(sf.File, name, sig)
	if err := splitDiags(diags, o.warn); err != nil {
		return nil, Usage(err)
	}
	if err := ir.Verify(k); err != nil {
		return nil, fmt.Errorf("internal error: %s: invalid IR: %v", name, err)
	}
	if o.dumps("ir") {
		ir.Print(o.stdout(), k)
	}
	return k, nil
}

func unknownKernel(sf *SourceFile, name, src string) error {
	var names []string
	for _, f := range sf.File.Funcs {
		names = append(names, f.Name)
	}
	msg := fmt.Sprintf("%s defines no @triton.jit function %q", sf.Path, name)
	if len(names) > 0 {
		msg += "; it defines " + strings.Join(names, ", ")
	}
	return errAt(src, 1, msg)
}

func (o *Options) warn(d *diag.Diagnostic) { diag.Render(o.stderr(), d, sources) }
