package autotune

// This file implements the reading of a kernel's @triton.autotune and
// @triton.heuristics decorators: their arguments are evaluated in the host
// Python interpreter (hostpy.go), checked against the kernel's parameters,
// and kept as a Tuning that binds each launch's meta-parameters.

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
)

// Config is one triton.Config of an autotuned kernel.
type Config struct {
	Meta      map[string]hosteval.Value // the meta-parameters it sets, by name
	NumWarps  int
	NumStages int
	MaxNReg   int       // maxnreg (0: None), NVRTC's --maxrregcount
	obj       py.Object // the Python object, recognized among a pruning function's results
	// preHook is its pre_hook (nil: none), run at pos (prehook.go).
	preHook py.Object
	pos     diag.Pos
}

// Describe lists the config's meta-parameters in the order of fn's
// parameters, then num_warps and num_stages: "bm=64, bn=32, num_warps=4,
// num_stages=3".
func (c *Config) Describe(fn *frontend.Func) string {
	var parts []string
	for _, p := range fn.Params {
		if v, ok := c.Meta[p.Name]; ok {
			parts = append(parts, p.Name+"="+v.String())
		}
	}
	return strings.Join(append(parts, fmt.Sprintf("num_warps=%d", c.NumWarps), fmt.Sprintf("num_stages=%d", c.NumStages)), ", ")
}

// Autotune is a kernel's @triton.autotune, evaluated.
type Autotune struct {
	Pos          diag.Pos // the decorator's
	Configs      []*Config
	Key          []string // parameter names whose values key the tuning
	ResetToZero  []string // tensors zeroed before each timed launch
	RestoreValue []string // tensors restored after each config's timing
	Warmup, Rep  time.Duration
	prune        py.Object // prune_configs_by's early_config_prune, or nil
}

// Heuristics is one @triton.heuristics: meta-parameters computed at launch
// from the other arguments.
type Heuristics struct {
	Pos   diag.Pos
	Names []string // in the dict's order where it is a literal, else sorted
	fns   map[string]py.Object
}

// Tuning is what a kernel's autotune and heuristics decorators do to its
// launches.
type Tuning struct {
	Autotune *Autotune // nil without @triton.autotune
	// steps are the decorators, outermost first: a nil Heuristics stands
	// for the autotune config, which fills the meta-parameters the launch
	// leaves out; heuristics set theirs over anything given.
	steps []*Heuristics
	fn    *frontend.Func
	host  *hostPython
	warn  func(*diag.Diagnostic)
	once  []*onceWarning // collected by warnOnce while configs are read
}

// Source is the kernel file whose host code the decorators' arguments run
// over.
type Source struct {
	Path string
	Text []byte
	File *frontend.File
}

// Host says how host Python runs and where it reports.
type Host struct {
	// Timeout bounds each evaluation (0: a minute); it is --timeout, named
	// in the message of an evaluation that runs past it.
	Timeout time.Duration
	// Done, when closed, stops the evaluation in progress: a caller that
	// gives up on a build (tri survey's timeout) closes it, so that the
	// host code does not run on in its goroutine.
	Done <-chan struct{}
	// AllowIO (--allow-host-io) lets host code open files, import any
	// module and compile code (boundary.go); the limits on time, depth and
	// memory stay.
	AllowIO bool
	// Stderr receives what host code prints; nil discards it.
	Stderr io.Writer
	// Warn, if set, receives the warnings about decorator arguments that
	// tri accepts but ignores.
	Warn func(*diag.Diagnostic)
	// Device, if set, describes the GPU that torch.cuda.get_device_properties
	// and Triton's driver answer for; else the one assumed for the target
	// architecture (hosteval.ArchDevice).
	Device func() hosteval.DeviceInfo
}

// Read evaluates fn's autotune and heuristics decorators, or returns nil if
// it has neither. arch reports the target architecture to host code that
// asks for it.
func Read(src *Source, fn *frontend.Func, arch func() string, host Host) (*Tuning, error) {
	t := &Tuning{fn: fn, warn: host.Warn}
	for _, dc := range fn.Decorators {
		if dc.Name != "triton.autotune" && dc.Name != "triton.heuristics" {
			continue
		}
		short := strings.TrimPrefix(dc.Name, "triton.")
		if !dc.Call {
			return nil, hosteval.Usage(diag.Errorf(dc.Pos, diag.CodeArgs, "@triton.%s needs its arguments", short))
		}
		if t.host == nil {
			stderr := host.Stderr
			if stderr == nil {
				stderr = io.Discard
			}
			h, err := newHostPython(src, arch, host, stderr)
			if err != nil {
				return nil, err
			}
			if fn.File == nil || fn.File == src.File {
				h.limit = fn.Decorators[0].Pos.Line // what Python has run when it applies them
			}
			t.host = h
		}
		text, pos := dc.ArgsText, dc.ArgsPos
		if text == "" { // not found in the source: rebuild it from the AST
			text = frontend.FormatExpr(&frontend.Call{Func: &frontend.Name{ID: ""}, Args: dc.Args, Keywords: dc.Keywords})
			pos = dc.Pos
		}
		if dc.Name == "triton.autotune" {
			if t.Autotune != nil {
				return nil, hosteval.Usage(diag.Errorf(dc.Pos, diag.CodeUnsupported, "%s has a second @triton.autotune; tri tunes over one list of configs", fn.Name).
					WithNote(t.Autotune.Pos, "the first is here"))
			}
			a, err := t.readAutotune(dc, text, pos)
			if name, path, ok := t.host.foreignName(err); ok {
				t.warnf(dc.Pos, "@triton.autotune: its arguments need %s (%s), which tri does not run; "+
					"the decorator is skipped and the launch gives the values its configs would", name, path)
				continue
			}
			if err != nil {
				return nil, err
			}
			t.Autotune = a
			t.steps = append(t.steps, nil)
			continue
		}
		h, err := t.readHeuristics(dc, text, pos)
		if name, path, ok := t.host.foreignName(err); ok {
			// FlagGems' runtime.get_heuristic_config("op"): as for an
			// autotune, the launch gives what the heuristics would set.
			t.warnf(dc.Pos, "@triton.heuristics: its arguments need %s (%s), which tri does not run; "+
				"the decorator is skipped and the launch gives the values it would set", name, path)
			continue
		}
		if err != nil {
			return nil, err
		}
		t.steps = append(t.steps, h)
	}
	if t.host == nil {
		return nil, nil
	}
	if err := t.conflicts(); err != nil {
		return nil, err
	}
	return t, nil
}

// conflicts refuses a @triton.heuristics outside @triton.autotune that
// sets a meta-parameter a config sets too: Triton's autotuner then gets the
// name from its caller and from the config, and raises (its _bench). A
// heuristic inside the autotune sets its value over the config's, as
// Triton's Heuristics.run does, and is no conflict.
func (t *Tuning) conflicts() error {
	if t.Autotune == nil {
		return nil
	}
	for _, step := range t.steps {
		if step == nil {
			return nil
		}
		var clash []string
		for _, name := range step.Names {
			if _, ok := step.fns[name]; !ok {
				continue
			}
			for _, c := range t.Autotune.Configs {
				if _, ok := c.Meta[name]; ok {
					clash = append(clash, name)
					break
				}
			}
		}
		if len(clash) > 0 {
			return hosteval.Usage(diag.Errorf(step.Pos, diag.CodeArgs,
				"Conflicting meta-parameters: %s. Make sure that you don't re-define auto-tuned symbols.", strings.Join(clash, ", ")).
				WithNote(t.Autotune.Pos, "the configs of this @triton.autotune set them too; Triton raises this when the heuristic's value reaches the autotuner"))
		}
	}
	return nil
}

// readAutotune evaluates @triton.autotune(...) and checks its arguments.
func (t *Tuning) readAutotune(dc *frontend.Decorator, text string, pos diag.Pos) (*Autotune, error) {
	what := "@triton.autotune"
	args, err := t.host.eval("__tri_autotune__"+text, pos, what)
	if err != nil {
		return nil, err
	}
	a := &Autotune{Pos: dc.Pos}
	attr := func(name string) py.Object {
		o, err := py.GetAttrString(args, name)
		if err != nil {
			return py.None
		}
		return o
	}
	bad := func(format string, args ...any) error {
		return hosteval.Usage(diag.Errorf(dc.Pos, diag.CodeArgs, "%s: %s", what, fmt.Sprintf(format, args...)))
	}
	configs, ok := pySeq(attr("configs"))
	if !ok {
		return nil, bad("configs must be a list of triton.Config, not %s", pyTypeName(attr("configs")))
	}
	if len(configs) == 0 {
		return nil, bad("the list of configs is empty")
	}
	for i, o := range configs {
		c, err := t.readConfig(o, i, dc.Pos)
		if err != nil {
			return nil, err
		}
		a.Configs = append(a.Configs, c)
	}
	t.flushOnce(len(configs))
	if a.Key, err = t.paramList(attr("key"), "key", dc.Pos, false); err != nil {
		return nil, err
	}
	if a.ResetToZero, err = t.paramList(attr("reset_to_zero"), "reset_to_zero", dc.Pos, true); err != nil {
		return nil, err
	}
	if a.RestoreValue, err = t.paramList(attr("restore_value"), "restore_value", dc.Pos, true); err != nil {
		return nil, err
	}
	for _, ms := range []struct {
		name string
		d    *time.Duration
		def  time.Duration
	}{{"warmup", &a.Warmup, 25 * time.Millisecond}, {"rep", &a.Rep, 100 * time.Millisecond}} {
		*ms.d = ms.def
		o := attr(ms.name)
		if o == py.None {
			continue
		}
		fd, err := t.host.read(o, dc.Pos, what)
		if err != nil {
			return nil, err
		}
		v := fd.val
		f, isNum := hosteval.Numeric(v)
		if fd.err != nil || !isNum || v.Kind == hosteval.VBool || !(f > 0) || f > 60000 {
			return nil, bad("%s must be a positive number of milliseconds, not %s", ms.name, fd.repr)
		}
		*ms.d = time.Duration(f * float64(time.Millisecond))
	}
	if err := t.readPrune(a, attr("prune_configs_by"), dc.Pos); err != nil {
		return nil, err
	}
	for _, name := range []string{"pre_hook", "post_hook", "do_bench"} {
		if attr(name) != py.None {
			t.warnf(dc.Pos, "%s: %s is not supported; ignored", what, name)
		}
	}
	if truthy(attr("use_cuda_graph")) {
		t.warnf(dc.Pos, "%s: use_cuda_graph is not supported; configs are timed with CUDA events", what)
	}
	if rest, ok := attr("unknown").(py.StringDict); ok {
		for _, name := range slices.Sorted(maps.Keys(rest)) {
			t.warnf(dc.Pos, "%s: argument %s is not known to tri; ignored", what, name)
		}
	}
	return a, nil
}

// readConfig converts the i-th triton.Config.
func (t *Tuning) readConfig(o py.Object, i int, pos diag.Pos) (*Config, error) {
	bad := func(format string, args ...any) error {
		return hosteval.Usage(diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: config %d: %s", i, fmt.Sprintf(format, args...)))
	}
	// A subclass of triton.Config may define __getattr__ or __repr__:
	// read under the guard (hostpy_read.go).
	fs, err := t.host.readAttrs(o, []string{"__tri_config__", "kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook", "ir_override"},
		pos, fmt.Sprintf("@triton.autotune: config %d", i))
	if err != nil {
		return nil, err
	}
	if fs["__tri_config__"].absent {
		return nil, bad("want a triton.Config, not %s", pyTypeName(o))
	}
	get := func(name string) py.Object { return fs[name].obj }
	kwargs, ok := get("kwargs").(py.StringDict)
	if !ok {
		return nil, bad("its first argument must be a dict of meta-parameters, not %s", pyTypeName(get("kwargs")))
	}
	c := &Config{Meta: map[string]hosteval.Value{}, obj: o, pos: pos}
	for _, name := range slices.Sorted(maps.Keys(kwargs)) {
		if !slices.Contains(bind.ParamNames(t.fn), name) {
			d := diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: config %d sets '%s', which is not a parameter of %s()", i, name, t.fn.Name)
			if s := diag.Closest(name, bind.ParamNames(t.fn)); s != "" {
				d.WithSuggestion("did you mean %s?", s)
			}
			return nil, hosteval.Usage(d)
		}
		item := fs["kwargs"].items[name]
		if item.err != nil {
			return nil, bad("meta-parameter %s is %v", name, item.err)
		}
		c.Meta[name] = item.val
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{{"num_warps", &c.NumWarps}, {"num_stages", &c.NumStages}} {
		v, err := fs[n.name].val, fs[n.name].err
		if err != nil || v.Kind != hosteval.VInt {
			return nil, bad("%s must be an integer, not %s", n.name, fs[n.name].repr)
		}
		problem := bind.NumStagesProblem
		if n.name == "num_warps" {
			problem = bind.NumWarpsProblem
		}
		if why := problem(v.Int); why != "" {
			return nil, bad("%s", why)
		}
		*n.dst = int(v.Int)
	}
	if v, err := fs["num_ctas"].val, fs["num_ctas"].err; err != nil || v.Kind != hosteval.VInt || v.Int != 1 {
		t.warnOnce(pos, i, "num_ctas=%s is not supported (no thread block clusters); ignored", fs["num_ctas"].repr)
	}
	if o := get("maxnreg"); o != py.None {
		v, err := fs["maxnreg"].val, fs["maxnreg"].err
		if err != nil {
			return nil, bad("maxnreg must be None or an integer, not %s", fs["maxnreg"].repr)
		}
		n, why := bind.MaxNRegValue(v)
		if why != "" {
			return nil, bad("%s", why)
		}
		c.MaxNReg = n
	}
	if hook := get("pre_hook"); hook != py.None {
		c.preHook = hook
		t.warnOnce(pos, i, "pre_hook runs only to set the block shapes of the tensor descriptors it is given; its other effects are ignored")
	}
	if get("ir_override") != py.None {
		t.warnOnce(pos, i, "ir_override is not supported; ignored")
	}
	return c, nil
}

// paramList reads a list of parameter names (key, reset_to_zero,
// restore_value); None is an empty list where allowed.
func (t *Tuning) paramList(o py.Object, what string, pos diag.Pos, noneOK bool) ([]string, error) {
	if o == py.None && noneOK {
		return nil, nil
	}
	items, ok := pySeq(o)
	if !ok {
		return nil, hosteval.Usage(diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: %s must be a list of parameter names, not %s", what, pyTypeName(o)))
	}
	var out []string
	for _, it := range items {
		s, ok := it.(py.String)
		if !ok {
			fd, err := t.host.read(it, pos, "@triton.autotune")
			if err != nil {
				return nil, err
			}
			return nil, hosteval.Usage(diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: %s must be a list of parameter names, not a list holding %s", what, fd.repr))
		}
		name := string(s)
		if !slices.Contains(bind.ParamNames(t.fn), name) && what == "key" {
			// Triton's autotuner keys on the arguments among the names and
			// drops the others.
			t.warnf(pos, "@triton.autotune: key names '%s', which is not a parameter of %s(); Triton ignores it", name, t.fn.Name)
			continue
		}
		if !slices.Contains(bind.ParamNames(t.fn), name) {
			d := diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: %s names '%s', which is not a parameter of %s()", what, name, t.fn.Name)
			if sug := diag.Closest(name, bind.ParamNames(t.fn)); sug != "" {
				d.WithSuggestion("did you mean %s?", sug)
			}
			return nil, hosteval.Usage(d)
		}
		out = append(out, name)
	}
	return out, nil
}

// readPrune reads prune_configs_by={'early_config_prune': f, 'perf_model':
// ..., 'top_k': ...}.
func (t *Tuning) readPrune(a *Autotune, o py.Object, pos diag.Pos) error {
	if o == py.None {
		return nil
	}
	d, ok := o.(py.StringDict)
	if !ok {
		return hosteval.Usage(diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: prune_configs_by must be a dict, not %s", pyTypeName(o)))
	}
	for _, name := range slices.Sorted(maps.Keys(d)) {
		v := d[name]
		switch name {
		case "early_config_prune":
			if v == py.None {
				continue
			}
			if _, ok := v.(py.I__call__); !ok {
				return hosteval.Usage(diag.Errorf(pos, diag.CodeArgs, "@triton.autotune: early_config_prune must be a function, not %s", pyTypeName(v)))
			}
			a.prune = v
		case "perf_model", "top_k":
			if v != py.None {
				t.warnf(pos, "@triton.autotune: prune_configs_by's %s is not supported (tri has no performance model); every config left by early_config_prune is timed", name)
			}
		default:
			t.warnf(pos, "@triton.autotune: prune_configs_by's %s is not known to tri; ignored", name)
		}
	}
	return nil
}

// readHeuristics evaluates @triton.heuristics({...}).
func (t *Tuning) readHeuristics(dc *frontend.Decorator, text string, pos diag.Pos) (*Heuristics, error) {
	values, err := t.host.eval("__tri_heuristics__"+text, pos, "@triton.heuristics")
	if err != nil {
		return nil, err
	}
	d, ok := values.(py.StringDict)
	if !ok {
		return nil, hosteval.Usage(diag.Errorf(dc.Pos, diag.CodeArgs, "@triton.heuristics takes a dict of meta-parameter names to functions of the arguments, not %s", pyTypeName(values)))
	}
	h := &Heuristics{Pos: dc.Pos, fns: map[string]py.Object{}}
	// gpython's dicts keep no order; a literal dict gives the order in
	// which Triton applies the heuristics (a later one sees the earlier).
	if len(dc.Args) == 1 {
		if lit, ok := dc.Args[0].(*frontend.Dict); ok {
			for _, k := range lit.Keys {
				if c, ok := k.(*frontend.Const); ok && c.Kind == frontend.ConstStr && !slices.Contains(h.Names, c.Str) {
					h.Names = append(h.Names, c.Str)
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(d)) {
		if !slices.Contains(h.Names, name) {
			h.Names = append(h.Names, name)
		}
	}
	for _, name := range h.Names {
		fn, ok := d[name]
		if !ok {
			continue
		}
		if !slices.Contains(bind.ParamNames(t.fn), name) && !isLaunchOption(name) {
			e := diag.Errorf(dc.Pos, diag.CodeArgs, "@triton.heuristics sets '%s', which is not a parameter of %s()", name, t.fn.Name)
			if s := diag.Closest(name, bind.ParamNames(t.fn)); s != "" {
				e.WithSuggestion("did you mean %s?", s)
			}
			return nil, hosteval.Usage(e)
		}
		if _, ok := fn.(py.I__call__); !ok {
			return nil, hosteval.Usage(diag.Errorf(dc.Pos, diag.CodeArgs, "@triton.heuristics: the value for '%s' must be a function of the arguments (lambda args: ...), not %s", name, pyTypeName(fn)))
		}
		h.fns[name] = fn
	}
	return h, nil
}

// Apply binds the meta-parameters of config cfg (-1: none) and the
// heuristics, in the order of the decorators.
func (t *Tuning) Apply(b *bind.Binding, cfg int) error {
	for _, step := range t.steps {
		if step == nil {
			if cfg < 0 {
				continue
			}
			c := t.Autotune.Configs[cfg]
			if err := b.Fill(c.Meta); err != nil {
				return err
			}
			if b.Sig.NumWarps == 0 {
				b.Sig.NumWarps = c.NumWarps
			}
			if b.Sig.NumStages == 0 {
				b.Sig.NumStages = c.NumStages
			}
			if b.Sig.MaxNReg == 0 {
				b.Sig.MaxNReg = c.MaxNReg
			}
			if err := t.preHook(c, b); err != nil {
				return err
			}
			continue
		}
		if err := t.heuristics(step, b); err != nil {
			return err
		}
	}
	return nil
}

// heuristics calls each heuristic with the arguments so far (a dict by
// name, num_warps and num_stages included) and binds its result.
func (t *Tuning) heuristics(h *Heuristics, b *bind.Binding) error {
	for _, name := range h.Names {
		args, err := t.argsDict(b)
		if err != nil {
			return err
		}
		what := fmt.Sprintf("@triton.heuristics for '%s'", name)
		res, err := t.host.callRead(h.fns[name], py.Tuple{args}, nil, h.Pos, what)
		if err != nil {
			return err
		}
		v, err := res.val, res.err
		if err != nil {
			return hosteval.Usage(diag.Errorf(h.Pos, diag.CodeValue, "%s returned %v", what, err))
		}
		if isLaunchOption(name) {
			if err := setOption(b, name, v, h.Pos, what); err != nil {
				return err
			}
			if !slices.ContainsFunc(t.fn.Params, func(p *frontend.Param) bool { return p.Name == name }) {
				continue
			}
		}
		if err := b.Set(name, v); err != nil {
			return err
		}
	}
	return nil
}

// isLaunchOption reports whether a heuristic of this name sets a launch
// option rather than (or as well as) a parameter.
func isLaunchOption(name string) bool { return name == "num_warps" || name == "num_stages" }

// setOption applies a heuristic's num_warps or num_stages to the launch,
// over what the launch or the config gave, as Triton passes it on as a
// keyword argument of the launch.
func setOption(b *bind.Binding, name string, v hosteval.Value, pos diag.Pos, what string) error {
	v = v.AsInt()
	if v.Kind != hosteval.VInt {
		return hosteval.Usage(diag.Errorf(pos, diag.CodeValue, "%s returned %v, not an integer", what, v))
	}
	why, n := bind.NumStagesProblem(v.Int), &b.Sig.NumStages
	if name == "num_warps" {
		why, n = bind.NumWarpsProblem(v.Int), &b.Sig.NumWarps
	}
	if why != "" {
		return hosteval.Usage(diag.Errorf(pos, diag.CodeValue, "%s returned %d: %s", what, v.Int, why))
	}
	*n = int(v.Int)
	return nil
}

// argsDict is the dict of arguments that heuristics and pruning functions
// receive.
func (t *Tuning) argsDict(b *bind.Binding) (py.StringDict, error) {
	d := py.NewStringDict()
	named := b.Named()
	for _, name := range slices.Sorted(maps.Keys(named)) {
		o, err := t.host.toPy(named[name])
		if err != nil {
			return nil, hosteval.Usage(diag.Errorf(b.EndPos, diag.CodeArgs, "argument '%s': %v", name, err))
		}
		d[name] = o
	}
	d["num_warps"] = py.Int(bind.OrDefault(b.Sig.NumWarps, bind.DefaultNumWarps))
	d["num_stages"] = py.Int(bind.OrDefault(b.Sig.NumStages, bind.DefaultNumStages))
	return d, nil
}

// warnOnce collects a warning about config i; flushOnce gives each
// message once, naming the configs it applies to, rather than once per
// config (a tutorial's 36 configs share one pre_hook).
func (t *Tuning) warnOnce(pos diag.Pos, i int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, w := range t.once {
		if w.msg == msg {
			w.configs = append(w.configs, i)
			return
		}
	}
	t.once = append(t.once, &onceWarning{pos: pos, msg: msg, configs: []int{i}})
}

// onceWarning is a warning that warnOnce collected.
type onceWarning struct {
	pos     diag.Pos
	msg     string
	configs []int
}

// flushOnce gives the warnings warnOnce collected over n configs.
func (t *Tuning) flushOnce(n int) {
	for _, w := range t.once {
		which := fmt.Sprintf("config %d", w.configs[0])
		switch {
		case len(w.configs) == n && n > 1:
			which = fmt.Sprintf("all %d configs", n)
		case len(w.configs) > 1:
			which = fmt.Sprintf("configs %s", joinInts(w.configs))
		}
		t.warnf(w.pos, "@triton.autotune: %s: %s", which, w.msg)
	}
	t.once = nil
}

// joinInts writes 0, 2, 5.
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

func (t *Tuning) warnf(pos diag.Pos, format string, args ...any) {
	if t.warn != nil {
		t.warn(diag.Warnf(pos, diag.CodeUnsupported, format, args...))
	}
}

// pySeq returns the items of a list or tuple.
func pySeq(o py.Object) ([]py.Object, bool) {
	switch o := o.(type) {
	case *py.List:
		return o.Items, true
	case py.Tuple:
		return o, true
	}
	return nil, false
}

func pyTypeName(o py.Object) string {
	if o == py.None {
		return "None"
	}
	return "a " + o.Type().Name
}

func truthy(o py.Object) bool {
	b, ok := o.(py.Bool)
	return ok && bool(b)
}
