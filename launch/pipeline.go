package launch

// This file implements the steps shared by check, build and run: reading a
// kernel file, binding a launch line and specializing the kernel.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// SourceFile is a parsed kernel file.
type SourceFile struct {
	Path string
	Text []byte
	File *frontend.File
}

// ParseFile reads and parses a kernel file. Warnings go to o.Stderr (o may
// be nil: no warnings); errors are returned as bad input.
func ParseFile(path string, o *Options) (*SourceFile, error) {
	text, err := hosteval.ReadSource(path)
	if err != nil {
		return nil, err
	}
	return ParseSource(path, text, o)
}

// ParseSource is ParseFile for a text already read: path names it in
// positions, and the modules it imports are searched for from path's
// folder as from a file's.
func ParseSource(path string, text []byte, o *Options) (_ *SourceFile, err error) {
	if len(text) > hosteval.MaxSourceBytes {
		return nil, hosteval.Usage(fmt.Errorf("%s: %d bytes is too large for a source file (at most %d MiB)", path, len(text), hosteval.MaxSourceBytes>>20))
	}
	text = hosteval.NormalizeNewlines(text)
	defer hosteval.AttachSource(&err, path, string(text))
	sf := &SourceFile{Path: path, Text: text}
	var diags *diag.List
	loader := o.loader()
	sf.File, diags = loader.Open(path, text)
	if o != nil {
		loader.SetHost(autotune.Values(&autotune.Source{Path: path, Text: text, File: sf.File}, func() string { return gpu.TargetArch(o.Arch) }, o.host(sf)))
	}
	if err := splitDiags(diags, o.warnIn(sf)); err != nil {
		return nil, hosteval.Usage(err)
	}
	return sf, nil
}

// sourced attaches the texts of the file and of the modules it imports to
// err, for PrintError.
func (sf *SourceFile) sourced(err *error) {
	if sf.File != nil {
		for name, text := range sf.File.Sources() {
			if name != sf.Path {
				hosteval.AttachSource(err, name, text)
			}
		}
	}
	hosteval.AttachSource(err, sf.Path, string(sf.Text))
}

// loader is the module loader of one kernel file under o: the --root
// folders, then TRI_PATH's.
func (o *Options) loader() *frontend.Loader {
	var roots []string
	if o != nil {
		roots = o.Roots
	}
	return frontend.NewLoader(frontend.SearchPath(roots, os.Getenv("TRI_PATH")), sema.KnownPath)
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
	Launch *hosteval.Launch
	Env    *hosteval.Env
	Bound  *bind.Bound
	Kernel *ir.Kernel
	Grid   [3]int
	// Tuning holds the kernel's autotune configs and heuristics (nil if it
	// has neither), and Config the index of the config bound (-1: none).
	Tuning *autotune.Tuning
	Config int
	// Arch is the target architecture its GPU code is compiled for (from
	// Options.Arch); "" is the GPU's own (see gpu.CompileFor).
	Arch string
	// MaxMemory is the interpreter's memory budget (Options.MaxMemory).
	MaxMemory int64
	// Stdout receives what the kernel prints in the interpreter
	// (tl.device_print); on the GPU the driver writes it to the process's
	// standard output.
	Stdout io.Writer
	setup  *launchSetup
}

// Prepare parses path, evaluates the --let bindings, binds the launch line
// and specializes the kernel. An empty line takes the launch recorded in the
// file's header ("# launch:"), whose "# let:" bindings o.Lets override in
// place, so the bindings after an overridden one see its new value.
//
// For an autotuned kernel, o.Config picks the config whose meta-parameters
// fill those the launch leaves out; with o.Config -1 the first config that
// specializes stands in (quietly) until Autotune picks the fastest.
func Prepare(path, line string, o *Options) (_ *Prepared, err error) {
	o = o.orDefault()
	if err := o.check(); err != nil {
		return nil, err
	}
	s, err := newLaunchSetup(path, line, o)
	if err != nil {
		return nil, err
	}
	defer s.sourced(&err)
	return s.choose(o)
}

// PrepareValues is Prepare for a launch built in Go rather than read from
// text: l names its arguments (bound in env) for kernel fn of the parsed
// file sf, whose decorators are already read into tuning (nil: none, as
// autotune.Read returns). A caller that derives a launch from a kernel's
// parameters reads the decorators first, to leave to the config and the
// heuristics the meta-parameters they set, and then goes the same way as
// tri build.
func PrepareValues(sf *SourceFile, fn *frontend.Func, tuning *autotune.Tuning, l *hosteval.Launch, env *hosteval.Env, o *Options) (_ *Prepared, err error) {
	o = o.orDefault()
	if err := o.check(); err != nil {
		return nil, err
	}
	if sf == nil || sf.File == nil || fn == nil || l == nil || env == nil {
		return nil, errors.New("launch.PrepareValues: want a parsed file, its kernel, a launch and an environment (one is nil)")
	}
	s := &launchSetup{sf: sf, l: l, env: env, fn: fn, tuning: tuning}
	defer s.sourced(&err)
	return s.choose(o)
}

// choose binds the config that o.Config picks (-1: the first that
// specializes) and specializes the kernel.
func (s *launchSetup) choose(o *Options) (*Prepared, error) {
	a := s.autotune()
	switch {
	case a == nil && o.Config > 0:
		return nil, hosteval.Usage(fmt.Errorf("--config %d: %s has no @triton.autotune configs", o.Config, s.fn.Name))
	case a == nil:
		return s.prepare(-1, o)
	case o.Config >= len(a.Configs):
		return nil, hosteval.Usage(fmt.Errorf("--config %d is out of range: %s has %s (0 to %d)", o.Config, s.fn.Name, hosteval.Plural(len(a.Configs), "autotune config"), len(a.Configs)-1))
	case o.Config >= 0:
		return s.prepare(o.Config, o)
	}
	var first error
	for i := range a.Configs {
		p, err := s.prepare(i, o.quiet())
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// launchSetup is a launch line read against its kernel file, before a
// config is bound: what every config of an autotuned kernel shares.
type launchSetup struct {
	sf     *SourceFile
	l      *hosteval.Launch
	env    *hosteval.Env
	fn     *frontend.Func
	tuning *autotune.Tuning
	// move places errors of a launch line or --let read from the file's
	// header at the file's lines (nil if none was).
	move func(diag.Pos) diag.Pos
}

func newLaunchSetup(path, line string, o *Options) (_ *launchSetup, err error) {
	if err := checkDumps(o.Dump, dumpKinds); err != nil {
		return nil, err
	}
	sf, err := ParseFile(path, o)
	if err != nil {
		return nil, err
	}
	defer sf.sourced(&err)
	if err := o.stoppedAfter(path, "after parsing "+path); err != nil {
		return nil, err
	}
	lets := o.Lets
	header, headerErr := ParseSampleHeader(path, sf.Text)
	if line == "" {
		if headerErr != nil {
			return nil, hosteval.Usage(fmt.Errorf("%v; give a launch line", headerErr))
		}
		line, lets = header.Launch, overLets(header.Lets, o.Lets)
	}
	move := header.mover(line, lets)
	defer func() { moveErr(err, move) }()
	if o.dumps("ast") {
		frontend.Dump(o.dumpOut(), sf.File)
	}
	l, err := hosteval.ParseLaunch(line)
	if err != nil {
		return nil, hosteval.Usage(err)
	}
	defer hosteval.AttachSource(&err, hosteval.LaunchSource, l.Src)
	fn := sf.File.Func(l.Kernel)
	if fn == nil {
		return nil, hosteval.Usage(unknownKernel(sf, l.Kernel, hosteval.LaunchSource))
	}
	env := hosteval.NewEnv(o.Seed)
	env.DeferData = o.DeferData
	hostEnv(sf, fn, env, o)
	budget := o.memoryBudget()
	for _, spec := range lets {
		if err := env.Let(spec); err != nil {
			return nil, hosteval.Usage(err)
		}
		if err := checkLetMemory(env, spec, budget); err != nil {
			return nil, err
		}
	}
	s, err := setupWith(sf, fn, l, env, o)
	if err != nil {
		return nil, err
	}
	s.move = move
	return s, nil
}

// hostEnv readies env for the host values of kernel fn's launches: the
// GPU that device queries describe, the file's globals, its host
// functions.
func hostEnv(sf *SourceFile, fn *frontend.Func, env *hosteval.Env, o *Options) {
	device := targetDevice(o.Arch)
	env.Device = &device
	env.UseGlobals(KernelGlobals(sf, fn))
	env.Host = autotune.HostCalls(&autotune.Source{Path: sf.Path, Text: sf.Text, File: sf.File}, func() string { return gpu.TargetArch(o.Arch) }, o.host(sf))
}

// setupWith expands launch l's **kwargs over env's bindings and reads
// fn's autotune and heuristics decorators.
func setupWith(sf *SourceFile, fn *frontend.Func, l *hosteval.Launch, env *hosteval.Env, o *Options) (*launchSetup, error) {
	if err := env.ExpandKwargs(l); err != nil {
		return nil, hosteval.Usage(err)
	}
	tuning, err := autotune.Read(&autotune.Source{Path: sf.Path, Text: sf.Text, File: sf.File}, fn, func() string { return gpu.TargetArch(o.Arch) }, o.host(sf))
	if err != nil {
		return nil, err
	}
	return &launchSetup{sf: sf, l: l, env: env, fn: fn, tuning: tuning}, nil
}

// sourced attaches the file's and the launch line's texts to err.
func (s *launchSetup) sourced(err *error) {
	moveErr(*err, s.move)
	s.sf.sourced(err)
	hosteval.AttachSource(err, hosteval.LaunchSource, s.l.Src)
}

// ready reports a Prepared that Prepare did not make (a zero struct), which
// Interpret, RunGPU, Upload and Autotune cannot run, and makes the
// elements of the tensors bound deferred (Options.DeferData), which all of
// them read.
func (p *Prepared) ready() error {
	if p.Kernel == nil || p.Bound == nil || p.Env == nil {
		return errors.New("launch: a Prepared that Prepare or PrepareValues did not make (no kernel, binding or environment)")
	}
	for _, n := range p.Env.Names() {
		if v, _ := p.Env.Lookup(n); v.Kind == hosteval.VTensor && v.Tensor != nil {
			v.Tensor.Materialize()
		}
	}
	return nil
}

// sourced attaches the texts of the file and the launch line to err.
func (p *Prepared) sourced(err *error) {
	if p.setup != nil {
		p.setup.sourced(err)
	} else if p.Source != nil {
		p.Source.sourced(err)
	}
}

// autotune is the kernel's @triton.autotune, or nil.
func (s *launchSetup) autotune() *autotune.Autotune {
	if s.tuning == nil {
		return nil
	}
	return s.tuning.Autotune
}

// prepare binds the launch with autotune config cfg (-1: none) and the
// heuristics, and specializes the kernel.
func (s *launchSetup) prepare(cfg int, o *Options) (*Prepared, error) {
	var meta func(*bind.Binding) error
	if s.tuning != nil {
		meta = func(b *bind.Binding) error { return s.tuning.Apply(b, cfg) }
	}
	b, err := bind.With(s.fn, s.l, s.env, meta)
	if err != nil {
		return nil, hosteval.Usage(err)
	}
	sig := b.Signature
	if o.NumWarps > 0 {
		sig.NumWarps = o.NumWarps
	}
	if o.NumStages > 0 {
		sig.NumStages = o.NumStages
	}
	k, err := compileIR(s.sf, s.fn, sig, o)
	if err != nil {
		return nil, err
	}
	gridMeta := b.Meta
	gridMeta["num_warps"], gridMeta["num_stages"] = hosteval.IntValue(int64(k.NumWarps)), hosteval.IntValue(int64(k.NumStages))
	grid, err := s.env.Grid(s.l, gridMeta)
	if err != nil {
		return nil, hosteval.Usage(err)
	}
	return &Prepared{Source: s.sf, Launch: s.l, Env: s.env, Bound: b, Kernel: k, Grid: grid, Tuning: s.tuning, Config: cfg, Arch: o.Arch, MaxMemory: o.MaxMemory, Stdout: o.stdout(), setup: s}, nil
}

// compileIR runs sema on fn itself (not on the function its name finds:
// a file may define two of one name) and the IR dump.
func compileIR(sf *SourceFile, fn *frontend.Func, sig sema.Signature, o *Options) (_ *ir.Kernel, err error) {
	defer sf.sourced(&err)
	sig.Debug = sig.Debug || o.Debug
	name := fn.Name
	k, diags := sema.SpecializeFuncContext(o.context(), sf.File, fn, sig)
	if err := splitDiags(diags, o.warnIn(sf)); err != nil {
		if o.context().Err() != nil {
			return nil, err // stopped at the deadline: not bad input
		}
		return nil, hosteval.Usage(err)
	}
	for _, line := range k.StaticPrints { // tl.static_print, once per specialization
		fmt.Fprint(o.stderr(), line)
	}
	if err := ir.Verify(k); err != nil {
		return nil, fmt.Errorf("internal error: %s: invalid IR: %v", name, err)
	}
	if err := o.stoppedAfter(k.File, "after compiling kernel "+name); err != nil {
		return nil, err
	}
	if o.dumps("ir") {
		ir.Print(o.dumpOut(), k)
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
	return hosteval.ErrAt(src, 1, msg)
}

// warnIn returns the function that prints warnings placed in sf to
// o.Stderr (none for a nil o).
func (o *Options) warnIn(sf *SourceFile) func(*diag.Diagnostic) {
	if o == nil {
		return nil
	}
	return func(d *diag.Diagnostic) {
		if o.JSON {
			_ = diag.WriteJSON(o.stderr(), d, d.Code) // as Render, a warning that cannot be written is lost
			return
		}
		src := diag.Sources{sf.Path: string(sf.Text)}
		if sf.File != nil {
			src = sf.File.Sources()
		}
		diag.Render(o.stderr(), d, src)
	}
}

// host is how the host Python of sf's decorators runs under o: bounded by
// --timeout for each evaluation and stopped when the command's deadline
// passes (not when it is released),
// printing to o.Stderr, warning in sf.
func (o *Options) host(sf *SourceFile) autotune.Host {
	return autotune.Host{Timeout: o.Timeout, Done: o.deadlineDone(), AllowIO: o.AllowHostIO, Stderr: o.stderr(), Warn: o.warnIn(sf), Device: func() hosteval.DeviceInfo { return targetDevice(o.Arch) }}
}

// untuned is o for a run that does not tune: an autotuned kernel takes its
// first config unless --config picks another.
func (o *Options) untuned() *Options {
	u := *o
	u.Config = max(u.Config, 0)
	return &u
}

// quiet is o without dumps and warnings: for the configs that tuning tries.
func (o *Options) quiet() *Options {
	q := *o
	q.Dump, q.Stderr = nil, nil
	return &q
}
