package hosteval

// This file implements calls in launch lines and --let expressions:
// builtins (cdiv, min, int, ...), tensor methods (x.stride(0)), grid
// lambdas, and the tensor constructors of constructors.go.

import (
	"errors"
	"math"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/pyrules"
)

// arg is an evaluated argument with the expression it came from.
type arg struct {
	v  Value
	at frontend.Node
}

// callArgs are the evaluated arguments of one call.
type callArgs struct {
	name string // the function's name as written, for messages
	call *frontend.Call
	pos  []arg
	kw   map[string]arg
	used map[string]bool
}

// builtin is a function callable from a launch line or --let.
type builtin func(e *Env, c *callArgs) (Value, error)

// builtins maps the names a launch line or --let may call to their
// implementations. Names are also accepted with the prefixes in
// builtinPrefixes (triton.cdiv, torch.randn).
var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"cdiv":            biCdiv,
		"next_power_of_2": biNextPow2,
		"min":             biMinMax(false),
		"max":             biMinMax(true),
		"int":             biInt,
		"float":           biFloat,
		"bool":            biBool,
		"abs":             biAbs,
		"len":             biLen,
		"constexpr":       biConstexpr,
		// Host tensor descriptors (descriptor.go).
		"TensorDescriptor":             ctorTensorDescriptor,
		"TensorDescriptor.from_tensor": ctorDescFromTensor,
		// The GPU's properties (device.go), under torch. and triton.
		"cuda.get_device_properties":                        biTorchDeviceProperties,
		"cuda.current_device":                               biCurrentDevice,
		"runtime.driver.active.utils.get_device_properties": biTritonDeviceProperties,
	}
	for name, f := range constructors {
		builtins[name] = f
	}
}

// builtinPrefixes are the module prefixes under which builtins are found
// too, so lines pasted from Python (triton.cdiv, torch.empty) work.
var builtinPrefixes = []string{"triton.", "tl.", "triton.language.", "torch.", "np.", "numpy.", "math.", "triton.tools.tensor_descriptor."}

// lookupBuiltin finds the builtin that a dotted callee names.
func lookupBuiltin(name string) (builtin, bool) {
	if f, ok := builtins[name]; ok && (!strings.Contains(name, ".") || strings.HasPrefix(name, "TensorDescriptor.")) {
		return f, true
	}
	for _, p := range builtinPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if f, ok := builtins[rest]; ok {
				return f, true
			}
		}
	}
	return nil, false
}

func (e *Env) call(x *frontend.Call, sc scope, depth int) (Value, error) {
	name := dotted(x.Func)
	root := rootName(x.Func)
	shadowed := false
	if root != "" {
		_, inScope := sc[root]
		_, bound := e.vals[root]
		shadowed = inScope || bound
	}
	if name != "" && !shadowed {
		f, ok := lookupBuiltin(name)
		if !ok {
			_, isName := x.Func.(*frontend.Name)
			if isName && !e.hasGlobal(name) && e.Host != nil && e.Host.Has(name) {
				return e.callHost(x, name, sc, depth)
			}
			if !isName || !e.hasGlobal(name) {
				return Value{}, Errf(x.Func, "unknown function %s", name)
			}
		} else {
			c, err := e.evalArgs(x, name, sc, depth)
			if err != nil {
				return Value{}, err
			}
			v, err := f(e, c)
			if err != nil {
				return Value{}, err
			}
			return v, c.done()
		}
	}
	if at, ok := x.Func.(*frontend.Attribute); ok {
		recv, err := e.evalDepth(at.X, sc, depth)
		if err != nil {
			return Value{}, err
		}
		c, err := e.evalArgs(x, at.Name, sc, depth)
		if err != nil {
			return Value{}, err
		}
		v, err := method(at, recv, c)
		if err != nil {
			return Value{}, err
		}
		return v, c.done()
	}
	fv, err := e.evalDepth(x.Func, sc, depth)
	if err != nil {
		return Value{}, err
	}
	if fv.Kind != VLambda {
		return Value{}, Errf(x.Func, "%s is not callable", fv.Describe())
	}
	c, err := e.evalArgs(x, "lambda", sc, depth)
	if err != nil {
		return Value{}, err
	}
	if len(c.kw) > 0 || len(c.pos) != len(fv.Lambda.Params) {
		return Value{}, Errf(x, "the lambda takes %d positional arguments but %d were given", len(fv.Lambda.Params), len(c.pos))
	}
	args := make([]Value, len(c.pos))
	for i, a := range c.pos {
		args[i] = a.v
	}
	return e.callLambda(x, fv.Lambda, args, depth)
}

// maxCalls bounds the lambda calls of one evaluation.
const maxCalls = 10000

// callLambda evaluates a lambda's body with its parameters bound.
func (e *Env) callLambda(at frontend.Node, l *Lambda, args []Value, depth int) (Value, error) {
	if e.calls++; e.calls > maxCalls {
		return Value{}, Errf(at, "too many lambda calls (more than %d); is a lambda recursive?", maxCalls)
	}
	sc := scope{}
	for i, p := range l.Params {
		sc[p] = args[i]
	}
	return e.evalDepth(l.Body, sc, depth+1)
}

func (e *Env) hasGlobal(name string) bool {
	_, ok := e.globals[name]
	return ok
}

func (e *Env) evalArgs(x *frontend.Call, name string, sc scope, depth int) (*callArgs, error) {
	c := &callArgs{name: name, call: x, kw: map[string]arg{}, used: map[string]bool{}}
	for _, a := range x.Args {
		if s, ok := a.(*frontend.Starred); ok {
			v, err := e.evalDepth(s.X, sc, depth)
			if err != nil {
				return nil, err
			}
			if v.Kind != VTuple {
				return nil, Errf(s, "cannot unpack %s with *", v.Describe())
			}
			for _, el := range v.Elems {
				c.pos = append(c.pos, arg{el, s})
			}
			continue
		}
		v, err := e.evalDepth(a, sc, depth)
		if err != nil {
			return nil, err
		}
		c.pos = append(c.pos, arg{v, a})
	}
	for _, kw := range x.Keywords {
		if kw.Name == "" {
			return nil, Errf(x, "**kwargs is not supported here")
		}
		v, err := e.evalDepth(kw.Value, sc, depth)
		if err != nil {
			return nil, err
		}
		c.kw[kw.Name] = arg{v, kw.Value}
	}
	return c, nil
}

// take returns keyword name, marking it used.
func (c *callArgs) take(name string) (arg, bool) {
	a, ok := c.kw[name]
	if ok {
		c.used[name] = true
	}
	return a, ok
}

// done reports keywords that the function did not take.
func (c *callArgs) done() error {
	for _, kw := range c.call.Keywords {
		if !c.used[kw.Name] {
			return Errf(kw.Value, "%s() got an unexpected keyword argument '%s'", c.name, kw.Name)
		}
	}
	return nil
}

// nargs checks the number of positional arguments.
func (c *callArgs) nargs(lo, hi int) error {
	n := len(c.pos)
	if n >= lo && (hi < 0 || n <= hi) {
		return nil
	}
	want := ""
	switch {
	case lo == hi:
		want = Plural(lo, "argument")
	case hi < 0:
		want = "at least " + Plural(lo, "argument")
	default:
		want = itoa(lo) + " to " + Plural(hi, "argument")
	}
	at := frontend.Node(c.call)
	if n > hi && hi >= 0 {
		at = c.pos[hi].at
	}
	return Errf(at, "%s() takes %s but %d were given", c.name, want, n)
}

// int returns positional argument i as an integer (bools count).
func (c *callArgs) int(i int) (int64, error) {
	a := c.pos[i]
	switch a.v.Kind {
	case VInt:
		return a.v.Int, nil
	case VBool:
		if a.v.Bool {
			return 1, nil
		}
		return 0, nil
	}
	return 0, Errf(a.at, "%s() wants an integer here, not %s", c.name, a.v.Describe())
}

func biCdiv(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(2, 2); err != nil {
		return Value{}, err
	}
	a, err := c.int(0)
	if err != nil {
		return Value{}, err
	}
	b, err := c.int(1)
	if err != nil {
		return Value{}, err
	}
	if b == 0 {
		return Value{}, Errf(c.pos[1].at, "cdiv by zero")
	}
	// Triton's cdiv is (a + b - 1) // b; as -(-a // b) it cannot overflow
	// where the result fits.
	na, err := pyrules.Neg64(a)
	if err == nil {
		na, err = pyrules.Int64Op("//", na, b)
	}
	if err == nil {
		na, err = pyrules.Neg64(na)
	}
	if err != nil {
		return Value{}, Errf(c.call, "cdiv(%d, %d) does not fit in 64 bits", a, b)
	}
	return IntValue(na), nil
}

func biNextPow2(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	n, err := c.int(0)
	if err != nil {
		return Value{}, err
	}
	if n < 0 || n > 1<<62 {
		return Value{}, Errf(c.pos[0].at, "next_power_of_2 of %d is out of range", n)
	}
	p := int64(1)
	for p < n {
		p <<= 1
	}
	if n == 0 {
		p = 0 // as Triton's bit-twiddling version gives
	}
	return IntValue(p), nil
}

func biMinMax(isMax bool) builtin {
	return func(e *Env, c *callArgs) (Value, error) {
		name := "min"
		if isMax {
			name = "max"
		}
		vals := c.pos
		if len(vals) == 1 && vals[0].v.Kind == VTuple {
			vals = nil
			for _, el := range c.pos[0].v.Elems {
				vals = append(vals, arg{el, c.pos[0].at})
			}
		}
		if len(vals) == 0 {
			return Value{}, Errf(c.call, "%s() of nothing", name)
		}
		best := vals[0]
		for _, a := range vals[1:] {
			x, ok1 := Numeric(a.v)
			y, ok2 := Numeric(best.v)
			if !ok1 || !ok2 {
				return Value{}, Errf(a.at, "%s() of %s and %s", name, best.v.Describe(), a.v.Describe())
			}
			if (isMax && x > y) || (!isMax && x < y) {
				best = a
			}
		}
		if _, ok := Numeric(best.v); !ok {
			return Value{}, Errf(best.at, "%s() of %s", name, best.v.Describe())
		}
		return best.v, nil
	}
}

func biInt(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	v := c.pos[0].v
	switch v.Kind {
	case VInt:
		return v, nil
	case VBool:
		return c.pos[0].v.AsInt(), nil
	case VFloat:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) || math.Abs(v.Float) >= 1<<63 {
			return Value{}, Errf(c.pos[0].at, "cannot convert %v to an integer", v)
		}
		return IntValue(int64(v.Float)), nil
	case VStr:
		n, ok := pyInt(v.Str)
		switch {
		case !ok:
			return Value{}, Errf(c.pos[0].at, "invalid literal for int() with base 10: %s", pyQuote(v.Str))
		case !n.IsInt64():
			return Value{}, Errf(c.pos[0].at, "integer %s does not fit in 64 bits", shortInt(n))
		}
		return IntValue(n.Int64()), nil
	}
	return Value{}, Errf(c.pos[0].at, "int() of %s", v.Describe())
}

func biFloat(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	if f, ok := Numeric(c.pos[0].v); ok {
		return FloatValue(f), nil
	}
	if v := c.pos[0].v; v.Kind == VStr {
		f, ok := pyFloat(v.Str)
		if !ok {
			return Value{}, Errf(c.pos[0].at, "could not convert string to float: %s", pyQuote(v.Str))
		}
		return FloatValue(f), nil
	}
	return Value{}, Errf(c.pos[0].at, "float() of %s", c.pos[0].v.Describe())
}

func biBool(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	return BoolValue(truth(c.pos[0].v)), nil
}

func biAbs(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	v := c.pos[0].v
	switch v.Kind {
	case VInt, VBool:
		v = v.AsInt()
		if v.Int < 0 {
			v.Int = -v.Int
		}
		return v, nil
	case VFloat:
		return FloatValue(math.Abs(v.Float)), nil
	}
	return Value{}, Errf(c.pos[0].at, "abs() of %s", v.Describe())
}

func biLen(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	v := c.pos[0].v
	switch v.Kind {
	case VTuple:
		return IntValue(int64(len(v.Elems))), nil
	case VTensor:
		if len(v.Tensor.Shape) == 0 {
			return Value{}, Errf(c.pos[0].at, "len() of a 0-d tensor")
		}
		return IntValue(int64(v.Tensor.Shape[0])), nil
	}
	return Value{}, Errf(c.pos[0].at, "len() of %s", v.Describe())
}

// biConstexpr is tl.constexpr(v), the wrapper of module-level globals; the
// value is marked, as Triton's launcher tells a constexpr argument apart.
func biConstexpr(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(1, 1); err != nil {
		return Value{}, err
	}
	v := c.pos[0].v
	v.Constexpr = true
	return v, nil
}

// AsInt turns a bool into an int; other values are returned as they are.
func (v Value) AsInt() Value {
	if v.Kind == VBool {
		if v.Bool {
			return IntValue(1)
		}
		return IntValue(0)
	}
	return v
}

func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

// callHost calls a host function of the kernel file (e.Host).
func (e *Env) callHost(x *frontend.Call, name string, sc scope, depth int) (Value, error) {
	c, err := e.evalArgs(x, name, sc, depth)
	if err != nil {
		return Value{}, err
	}
	args := make([]Value, len(c.pos))
	for i, a := range c.pos {
		args[i] = a.v
	}
	kwargs := map[string]Value{}
	for k, a := range c.kw {
		kwargs[k] = a.v
	}
	v, err := e.Host.Call(name, args, kwargs)
	if err != nil {
		var d *diag.Diagnostic
		if errors.As(err, &d) || ExitCode(err) == 2 {
			return Value{}, err
		}
		return Value{}, Errf(x, "%s(): %v", name, err)
	}
	return v, nil
}
