// Package bind matches a launch's arguments to a kernel's parameters as
// Python does (positional, then by keyword, then defaults) and derives from
// the values the specialization that Triton's launcher derives: tensors
// become 16-byte aligned pointers, the integer 1 folds to a constant, other
// integers are i32 or i64 with a divisibility-by-16 flag, floats are fp32,
// and tl.constexpr parameters take their values at compile time. The autotune config and @triton.heuristics step into a
// binding half way (With): after the launch's arguments, before the
// defaults.
package bind

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// Bound is a launch's arguments matched to a kernel's parameters.
type Bound struct {
	Func *frontend.Func
	// Values holds the host value of each parameter, in source order.
	Values []hosteval.Value
	// Signature is the specialization: one sema.Arg per parameter, and the
	// launch options (0 where the launch gives none).
	Signature sema.Signature
	// Meta is the dict a grid lambda is called with: every parameter by
	// name, plus num_warps and num_stages (with their defaults, 4 and 3,
	// where the launch gives none).
	Meta map[string]hosteval.Value
	// PDL is Triton's launch option launch_pdl=True: launch as a
	// programmatic dependent launch (it does not change the code).
	PDL bool
	// Cooperative is Triton's launch option launch_cooperative_grid=True,
	// which asks CUDA to place every program of the grid at once. tri
	// launches the grid as usual: what the programs compute is the same
	// where they all fit on the GPU, as they must for a cooperative launch.
	Cooperative bool
}

// Default launch options, as Triton's.
const (
	DefaultNumWarps  = 4
	DefaultNumStages = 3
)

// Args matches the launch's positional and keyword arguments to fn's
// parameters as Python does, fills in defaults (evaluated over the
// bindings and the globals given to UseGlobals), and specializes each
// value as Triton does. Missing, extra and unknown arguments are errors
// placed in the launch line.
func Args(fn *frontend.Func, l *hosteval.Launch, e *hosteval.Env) (*Bound, error) {
	return WithConfig(fn, l, e, nil)
}

// WithConfig is Args for an autotuned kernel: config holds the
// meta-parameters of the chosen autotune config by name, which fill the
// parameters the launch line does not give (a meta-parameter given in the
// launch overrides the config's). Launch options (num_warps, ...) are not
// part of config; the caller applies them to the Signature.
func WithConfig(fn *frontend.Func, l *hosteval.Launch, e *hosteval.Env, config map[string]hosteval.Value) (*Bound, error) {
	return With(fn, l, e, func(b *Binding) error { return b.Fill(config) })
}

// errNoBinding answers the methods of a Binding that With did not make,
// which has no kernel to bind to.
var errNoBinding = errors.New("bind: a Binding that With did not make (no kernel)")

// Binding is a launch's arguments on their way to a Bound: the values given
// so far, by parameter index.
type Binding struct {
	fn    *frontend.Func
	e     *hosteval.Env
	vals  []hosteval.Value
	given []bool
	// set marks the parameters Set gave a value, which the launch then no
	// longer gives.
	set []bool
	// Sig holds the launch options given so far (0: none); the autotune
	// config sets those the launch leaves out.
	Sig *sema.Signature
	// EndPos is the end of the launch line, where errors without a better
	// place go.
	EndPos diag.Pos
}

// With matches a launch's arguments to fn's parameters; meta (may be nil)
// then fills or sets meta-parameters (the autotune config, heuristics)
// before defaults are applied and the values specialized.
func With(fn *frontend.Func, l *hosteval.Launch, e *hosteval.Env, meta func(*Binding) error) (_ *Bound, err error) {
	if fn == nil || l == nil || e == nil {
		return nil, errors.New("bind: want a kernel, a launch and an environment (one is nil)")
	}
	defer hosteval.AttachSource(&err, hosteval.LaunchSource, l.Src)
	defer e.Begin()()
	endPos := diag.Pos{File: hosteval.LaunchSource, Line: 1, Col: max(l.EndCol, 1)}
	n := len(fn.Params)
	if len(l.Args) > n {
		return nil, hosteval.Errf(l.Args[n], "%s() takes %s but %d were given", fn.Name, hosteval.Plural(n, "argument"), len(l.Args))
	}
	vals := make([]hosteval.Value, n)
	given := make([]bool, n)
	for i, a := range l.Args {
		v, err := e.Eval(a, nil)
		if err != nil {
			return nil, err
		}
		vals[i], given[i] = v, true
	}
	b := &Bound{Func: fn, Signature: sema.Signature{NumWarps: l.NumWarps, NumStages: l.NumStages}}
	// onLaunch marks the parameters whose values the launch line gives.
	onLaunch := slices.Clone(given)
	for _, kw := range l.Kwargs {
		if kw.Name == "num_warps" || kw.Name == "num_stages" {
			if err := launchOption(e, kw, &b.Signature); err != nil {
				return nil, err
			}
			continue
		}
		// maxnreg caps the registers of a thread (tutorial 06 sets it on
		// Blackwell); the GPU code is compiled with it as NVRTC's
		// --maxrregcount.
		if kw.Name == "maxnreg" && !slices.ContainsFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == kw.Name }) {
			v, err := e.Eval(kw.Value, nil)
			if err != nil {
				return nil, err
			}
			n, why := MaxNRegValue(v)
			if why != "" {
				return nil, hosteval.Errf(kw.Value, "%s", why)
			}
			b.Signature.MaxNReg = n
			continue
		}
		// num_ctas spreads each program over a thread block cluster of that
		// many CTAs (Hopper); what a program computes does not depend on it
		// (Triton 3.6's language exposes no cluster), so tri runs each
		// program as one thread block whatever it is, as it does for an
		// autotune config's num_ctas.
		if kw.Name == "num_ctas" && !slices.ContainsFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == kw.Name }) {
			v, err := e.Eval(kw.Value, nil)
			if err != nil {
				return nil, err
			}
			if why := NumCTAsProblem(v); why != "" {
				return nil, hosteval.Errf(kw.Value, "%s", why)
			}
			continue
		}
		// extern_libs (tutorial 07) names the libdevice bitcode Triton links;
		// tri calls the CUDA math library NVRTC has built in, so the option
		// is accepted and its value (host paths) not read.
		if kw.Name == "extern_libs" && !slices.ContainsFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == "extern_libs" }) {
			continue
		}
		// debug=True compiles device assertions in, launch_pdl=True
		// launches programmatically dependent and launch_cooperative_grid
		// is taken (Bound.Cooperative), as Triton's launch options.
		if flag := launchFlag(b, kw.Name); flag != nil && !slices.ContainsFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == kw.Name }) {
			v, err := e.Eval(kw.Value, nil)
			if err != nil {
				return nil, err
			}
			if v.Kind != hosteval.VBool {
				return nil, hosteval.Errf(kw.Value, "%s must be True or False, not %v", kw.Name, v)
			}
			*flag = v.Bool
			continue
		}
		i := slices.IndexFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == kw.Name })
		if i < 0 {
			d := diag.Errorf(kw.Value.Position(), diag.CodeArgs, "%s() got an unexpected keyword argument '%s'", fn.Name, kw.Name)
			if kw.Pos.IsValid() {
				d.Pos = kw.Pos
			}
			if s := diag.Closest(kw.Name, ParamNames(fn)); s != "" {
				d.WithSuggestion("did you mean %s?", s)
			}
			return nil, hosteval.Usage(d)
		}
		if given[i] {
			return nil, hosteval.Errf(kw.Value, "%s() got multiple values for argument '%s'", fn.Name, kw.Name)
		}
		v, err := e.Eval(kw.Value, nil)
		if err != nil {
			return nil, err
		}
		vals[i], given[i], onLaunch[i] = v, true, true
	}
	if meta != nil {
		bd := &Binding{fn: fn, e: e, vals: vals, given: given, set: make([]bool, n), Sig: &b.Signature, EndPos: endPos}
		if err := meta(bd); err != nil {
			return nil, err
		}
		for i, set := range bd.set {
			onLaunch[i] = onLaunch[i] && !set
		}
	}
	// As in Triton, a launch option also binds a kernel parameter of its
	// name: tutorial 02's persistent softmax takes num_stages as a
	// constexpr and is launched with num_stages=.
	for _, opt := range []struct {
		name string
		n    int
	}{{"num_warps", b.Signature.NumWarps}, {"num_stages", b.Signature.NumStages}} {
		i := slices.IndexFunc(fn.Params, func(p *frontend.Param) bool { return p.Name == opt.name })
		if i >= 0 && !given[i] && opt.n > 0 {
			vals[i], given[i] = hosteval.IntValue(int64(opt.n)), true
		}
	}
	var missing []string
	for i, p := range fn.Params {
		if given[i] {
			continue
		}
		if p.Default == nil {
			missing = append(missing, "'"+p.Name+"'")
			continue
		}
		// A default that cannot be evaluated is reported where the kernel
		// file writes it.
		v, err := e.Eval(p.Default, nil)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	if len(missing) > 0 {
		what := "argument"
		if len(missing) > 1 {
			what = "arguments"
		}
		return nil, hosteval.Usage(diag.Errorf(endPos, diag.CodeArgs, "%s() missing %s %s", fn.Name, what, joinAnd(missing)))
	}
	b.Values = vals
	b.Meta = map[string]hosteval.Value{
		"num_warps":  hosteval.IntValue(int64(OrDefault(b.Signature.NumWarps, DefaultNumWarps))),
		"num_stages": hosteval.IntValue(int64(OrDefault(b.Signature.NumStages, DefaultNumStages))),
	}
	for i, p := range fn.Params {
		arg, err := specialize(p, vals[i], slices.Contains(fn.DoNotSpecialize, p.Name))
		if err != nil {
			at := argExpr(fn, l, i)
			if at == nil {
				return nil, hosteval.Usage(diag.Errorf(endPos, diag.CodeArgs, "%s", err))
			}
			return nil, hosteval.Errf(at, "%v", err)
		}
		if arg.Kind == sema.ArgConstexpr && onLaunch[i] {
			arg.At = argPos(fn, l, i)
		}
		b.Signature.Args = append(b.Signature.Args, arg)
		b.Meta[p.Name] = vals[i]
	}
	return b, nil
}

// Fill gives the parameters not given yet the values of config, by name.
func (b *Binding) Fill(config map[string]hosteval.Value) error {
	if b.fn == nil && len(config) > 0 {
		return errNoBinding
	}
	for _, name := range slices.Sorted(maps.Keys(config)) {
		v := config[name]
		i := b.index(name)
		if i < 0 {
			return hosteval.Usage(diag.Errorf(b.EndPos, diag.CodeArgs, "the autotune config sets '%s', which is not a parameter of %s()", name, b.fn.Name))
		}
		if !b.given[i] {
			b.vals[i], b.given[i] = v, true
		}
	}
	return nil
}

// Set gives parameter name the value v, given or not (as heuristics do).
func (b *Binding) Set(name string, v hosteval.Value) error {
	if b.fn == nil {
		return errNoBinding
	}
	i := b.index(name)
	if i < 0 {
		return hosteval.Usage(diag.Errorf(b.EndPos, diag.CodeArgs, "a heuristic sets '%s', which is not a parameter of %s()", name, b.fn.Name))
	}
	b.vals[i], b.given[i] = v, true
	if b.set != nil {
		b.set[i] = true
	}
	return nil
}

// Named returns the values given so far by name, with the defaults of
// parameters not given where they evaluate.
func (b *Binding) Named() map[string]hosteval.Value {
	out := map[string]hosteval.Value{}
	if b.fn == nil {
		return out
	}
	for i, p := range b.fn.Params {
		switch {
		case b.given[i]:
			out[p.Name] = b.vals[i]
		case p.Default != nil:
			if v, err := b.e.Eval(p.Default, nil); err == nil {
				out[p.Name] = v
			}
		}
	}
	return out
}

// index is the index of parameter name, or -1.
func (b *Binding) index(name string) int {
	return slices.IndexFunc(b.fn.Params, func(p *frontend.Param) bool { return p.Name == name })
}

// launchFlag is the field of b that the boolean launch option name sets,
// or nil if name is not one.
func launchFlag(b *Bound, name string) *bool {
	switch name {
	case "debug":
		return &b.Signature.Debug
	case "launch_pdl":
		return &b.PDL
	case "launch_cooperative_grid":
		return &b.Cooperative
	}
	return nil
}

// launchOption evaluates num_warps= or num_stages= given as an expression.
func launchOption(e *hosteval.Env, kw *frontend.Keyword, sig *sema.Signature) error {
	v, err := e.Eval(kw.Value, nil)
	if err != nil {
		return err
	}
	v = v.AsInt()
	if v.Kind != hosteval.VInt {
		return hosteval.Errf(kw.Value, "%s must be an integer, not %v", kw.Name, v)
	}
	if kw.Name == "num_warps" {
		if why := NumWarpsProblem(v.Int); why != "" {
			return hosteval.Errf(kw.Value, "%s", why)
		}
		sig.NumWarps = int(v.Int)
	} else {
		if why := NumStagesProblem(v.Int); why != "" {
			return hosteval.Errf(kw.Value, "%s", why)
		}
		sig.NumStages = int(v.Int)
	}
	return nil
}

// argExpr is the expression that gave parameter i its value, or nil for a
// default.
func argExpr(fn *frontend.Func, l *hosteval.Launch, i int) frontend.Expr {
	if i < len(l.Args) {
		return l.Args[i]
	}
	for _, kw := range l.Kwargs {
		if kw.Name == fn.Params[i].Name {
			return kw.Value
		}
	}
	return nil
}

// argPos is where the launch gives parameter i its value: the keyword of
// a keyword argument (NAME=value), the start of a positional one.
func argPos(fn *frontend.Func, l *hosteval.Launch, i int) diag.Pos {
	for _, kw := range l.Kwargs {
		if kw.Name == fn.Params[i].Name && kw.Pos.IsValid() {
			return kw.Pos
		}
	}
	if x := argExpr(fn, l, i); x != nil {
		return x.Position()
	}
	return diag.Pos{}
}

// specialize derives the sema.Arg of one parameter from its value, as
// Triton's launcher does.
func specialize(p *frontend.Param, v hosteval.Value, noSpec bool) (sema.Arg, error) {
	if p.Constexpr {
		c, err := constexprOf(v)
		if err != nil && v.Kind == hosteval.VUint {
			return sema.Arg{}, fmt.Errorf("parameter '%s': %v", p.Name, err)
		}
		if err != nil {
			return sema.Arg{}, fmt.Errorf("parameter '%s' is a tl.constexpr and needs a compile-time value (int, float, bool, str, dtype, None or a tuple of these), not %s", p.Name, v.Describe())
		}
		return sema.Arg{Kind: sema.ArgConstexpr, Value: c}, nil
	}
	return specializeValue(p, v, noSpec, "")
}

// specializeValue derives the sema.Arg of a value given to a parameter
// that is not a tl.constexpr, or to the element at path of one (a tuple's
// elements are specialized as parameters are, as in Triton's launcher).
func specializeValue(p *frontend.Param, v hosteval.Value, noSpec bool, path string) (sema.Arg, error) {
	if v.Constexpr {
		// tl.constexpr(v) is a compile-time value whatever the parameter.
		c, err := constexprOf(v)
		if err != nil {
			return sema.Arg{}, fmt.Errorf("parameter '%s'%s: tl.constexpr of %s", p.Name, path, v.Describe())
		}
		return sema.Arg{Kind: sema.ArgConstexpr, Value: c}, nil
	}
	switch v.Kind {
	case hosteval.VTuple:
		a := sema.Arg{Kind: sema.ArgTuple, Elems: make([]sema.Arg, len(v.Elems))}
		for i, e := range v.Elems {
			ea, err := specializeValue(p, e, noSpec, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return sema.Arg{}, err
			}
			if ea.Kind == sema.ArgDesc {
				return sema.Arg{}, fmt.Errorf("parameter '%s'%s[%d]: a tensor descriptor inside a tuple is not supported by tri yet; pass it as a parameter of its own", p.Name, path, i)
			}
			a.Elems[i] = ea
		}
		return a, nil
	case hosteval.VNone:
		return sema.Arg{Kind: sema.ArgNone}, nil
	case hosteval.VTensor:
		// Device allocations are 256-byte aligned, so every base pointer is
		// 16-byte aligned.
		return sema.Arg{Kind: sema.ArgRuntime, DType: ir.PtrTo(v.Tensor.Kind), DivisibleBy16: true}, nil
	case hosteval.VDesc:
		// The block shape and padding of a host descriptor are part of the
		// kernel's specialization, as in Triton's signature.
		d := v.Desc
		block := make([]int, len(d.Block))
		for i, n := range d.Block {
			block[i] = int(n)
		}
		div := make([]bool, len(d.Shape))
		for i, n := range d.Shape {
			div[i] = !noSpec && n%16 == 0
		}
		return sema.Arg{Kind: sema.ArgDesc, DType: ir.PtrTo(d.Base.Tensor.Kind), Block: block, Padding: d.Padding, ShapeDiv16: div}, nil
	case hosteval.VBool:
		if d, ok := annotatedScalar(p); ok && path == "" {
			return sema.Arg{Kind: sema.ArgRuntime, DType: d}, nil
		}
		return sema.Arg{Kind: sema.ArgRuntime, DType: ir.TBool}, nil
	case hosteval.VInt, hosteval.VUint, hosteval.VFloat:
		if d, ok := annotatedScalar(p); ok && path == "" {
			// The annotation is the type (jit.py's annotation_type); only
			// an integer type keeps the value's divisibility by 16.
			div := !noSpec && d.Kind.IsInt() && d.Kind != ir.Bool && v.Kind != hosteval.VFloat && v.Int&15 == 0
			return sema.Arg{Kind: sema.ArgRuntime, DType: d, DivisibleBy16: div}, nil
		}
	}
	switch v.Kind {
	case hosteval.VInt:
		if v.Int == 1 && !noSpec {
			return sema.Arg{Kind: sema.ArgOne, DType: ir.TInt32}, nil
		}
		d := ir.TInt32
		if v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			d = ir.TInt64
		}
		return sema.Arg{Kind: sema.ArgRuntime, DType: d, DivisibleBy16: !noSpec && v.Int%16 == 0}, nil
	case hosteval.VUint:
		// Above int64's range Triton's specialization says u64 (and
		// divisibility by 16 from the low bits).
		return sema.Arg{Kind: sema.ArgRuntime, DType: ir.TUint64, DivisibleBy16: !noSpec && v.Int&15 == 0}, nil
	case hosteval.VFloat:
		return sema.Arg{Kind: sema.ArgRuntime, DType: ir.TFloat32}, nil
	case hosteval.VStr, hosteval.VDType:
		// Triton treats strings and dtypes passed for plain parameters as
		// compile-time values.
		c, _ := constexprOf(v)
		return sema.Arg{Kind: sema.ArgConstexpr, Value: c}, nil
	}
	return sema.Arg{}, fmt.Errorf("parameter '%s'%s cannot take %s", p.Name, path, v.Describe())
}

// annotatedScalar is the scalar dtype a parameter's annotation gives it
// (frontend.Param.Type: tl.float16, "tl.uint8", int), if any.
func annotatedScalar(p *frontend.Param) (ir.DType, bool) {
	if p.Type == "" || strings.HasPrefix(p.Type, "*") {
		return ir.DType{}, false
	}
	return ir.ParseDType(p.Type)
}

// constexprOf converts a value to a compile-time constant.
func constexprOf(v hosteval.Value) (sema.Constexpr, error) {
	switch v.Kind {
	case hosteval.VInt:
		return sema.Constexpr{Kind: sema.CInt, Int: v.Int}, nil
	case hosteval.VUint:
		return sema.Constexpr{}, fmt.Errorf("the integer %s is above int64, and tri's compile-time integers are int64 (as a runtime argument it is a uint64)", v)
	case hosteval.VFloat:
		return sema.Constexpr{Kind: sema.CFloat, Float: v.Float}, nil
	case hosteval.VBool:
		return sema.Constexpr{Kind: sema.CBool, Bool: v.Bool}, nil
	case hosteval.VStr:
		return sema.Constexpr{Kind: sema.CStr, Str: v.Str}, nil
	case hosteval.VDType:
		return sema.Constexpr{Kind: sema.CDType, DType: v.DType}, nil
	case hosteval.VNone:
		return sema.Constexpr{Kind: sema.CNone}, nil
	case hosteval.VTuple:
		t := sema.Constexpr{Kind: sema.CTuple, Elems: make([]sema.Constexpr, len(v.Elems))}
		for i, e := range v.Elems {
			c, err := constexprOf(e)
			if err != nil {
				return sema.Constexpr{}, err
			}
			t.Elems[i] = c
		}
		return t, nil
	}
	return sema.Constexpr{}, fmt.Errorf("%s is not a compile-time value", v.Describe())
}

// ParamNames lists fn's parameter names in order.
func ParamNames(fn *frontend.Func) []string {
	if fn == nil {
		return nil
	}
	out := make([]string, len(fn.Params))
	for i, p := range fn.Params {
		out[i] = p.Name
	}
	return out
}

// OrDefault is a launch option n, or def where the launch gives none (0).
func OrDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// joinAnd joins 'a', 'b' and 'c' as Python's messages do.
func joinAnd(s []string) string {
	switch len(s) {
	case 1:
		return s[0]
	case 2:
		return s[0] + " and " + s[1]
	}
	out := ""
	for i, x := range s[:len(s)-1] {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out + ", and " + s[len(s)-1]
}

// NumWarpsProblem says why n cannot be num_warps, or "" if it can: as in
// Triton, a power of two from 1 to 32.
func NumWarpsProblem(n int64) string {
	if n < 1 || n > 32 || n&(n-1) != 0 {
		return fmt.Sprintf("num_warps must be a power of two from 1 to 32, not %d", n)
	}
	return ""
}

// NumStagesProblem says why n cannot be num_stages, or "" if it can.
func NumStagesProblem(n int64) string {
	if n < 1 || n > 64 {
		return fmt.Sprintf("num_stages must be an integer from 1 to 64, not %d", n)
	}
	return ""
}

// MaxNRegValue reads Triton's maxnreg option: None (no cap) or a number of
// registers, at least 16, passed to NVRTC as --maxrregcount. A thread
// has at most 255 registers, so a larger cap (mamba's autotune configs
// try maxnreg=256, which Triton passes on as PTX's .maxnreg) is that
// limit: 255.
func MaxNRegValue(v hosteval.Value) (int, string) {
	if v.Kind == hosteval.VNone {
		return 0, ""
	}
	v = v.AsInt()
	if v.Kind != hosteval.VInt || v.Int < 16 {
		return 0, fmt.Sprintf("maxnreg must be None or a number of registers of at least 16, not %v", v)
	}
	return int(min(v.Int, 255)), ""
}

// NumCTAsProblem says why v cannot be a launch's num_ctas ("" if it can):
// it must be a positive int. tri launches no thread block clusters; a
// program's results do not depend on them.
func NumCTAsProblem(v hosteval.Value) string {
	switch {
	case v.Kind != hosteval.VInt:
		return fmt.Sprintf("num_ctas must be a positive integer, not %s", v.Describe())
	case v.Int < 1:
		return fmt.Sprintf("num_ctas must be a positive integer, not %d", v.Int)
	}
	return ""
}
