package hosteval

// This file implements the evaluation of launch arguments, grids and --let
// expressions: a small Python expression evaluator over Values.

import (
	"math"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// Source is a named text that an expression was parsed from ("launch",
// "--let x"). Eval remembers it so that errors render with the line and a
// caret.
type Source struct {
	Name string
	Text string
}

// scope holds the parameters of a lambda being called.
type scope map[string]Value

// maxDepth bounds the nesting of evaluation (lambda calls, globals).
const maxDepth = 64

// Eval evaluates an expression of a launch line (an argument, a grid) over
// the bindings. Errors are diagnostics placed at the expression's position.
func (e *Env) Eval(x frontend.Expr, src *Source) (_ Value, err error) {
	if x == nil {
		return Value{}, errNoLaunch
	}
	if src != nil {
		defer AttachSource(&err, src.Name, src.Text)
	}
	defer e.begin(len(e.names))()
	return e.eval(x, nil)
}

// Errf makes a bad-input error placed at n (nil: placed nowhere).
func Errf(n frontend.Node, format string, args ...any) error {
	var at diag.Pos
	if n != nil {
		at = n.Position()
	}
	return Usage(diag.Errorf(at, diag.CodeLaunch, format, args...))
}

func (e *Env) eval(x frontend.Expr, sc scope) (Value, error) {
	return e.evalDepth(x, sc, 0)
}

// evalDepth evaluates x; depth counts nested lambda calls and globals.
func (e *Env) evalDepth(x frontend.Expr, sc scope, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, Errf(x, "expression nests too deeply")
	}
	ev := func(y frontend.Expr) (Value, error) { return e.evalDepth(y, sc, depth) }
	switch x := x.(type) {
	case *frontend.Const:
		return constValue(x)
	case *frontend.Name:
		return e.lookupName(x, sc, depth)
	case *frontend.Tuple:
		return e.evalElems(x.Elts, sc, depth)
	case *frontend.List:
		return e.evalElems(x.Elts, sc, depth)
	case *frontend.Dict:
		return e.evalDict(x, sc, depth)
	case *frontend.Attribute:
		if d, ok := e.moduleAttr(x, sc); ok {
			return d, nil
		} else if root := rootName(x); root != "" && e.isModule(root, sc) {
			return Value{}, Errf(x, "unknown name %s", dotted(x))
		}
		v, err := ev(x.X)
		if err != nil {
			return Value{}, err
		}
		return attribute(x, v)
	case *frontend.Subscript:
		v, err := ev(x.X)
		if err != nil {
			return Value{}, err
		}
		if _, ok := x.Index.(*frontend.Slice); ok {
			return Value{}, Errf(x.Index, "slices are not supported here; index with an integer")
		}
		i, err := ev(x.Index)
		if err != nil {
			return Value{}, err
		}
		return index(x, v, i)
	case *frontend.Binary:
		if v, ok, err := e.exactIntValue(x, sc, depth); ok {
			return v, err
		}
		a, err := ev(x.X)
		if err != nil {
			return Value{}, err
		}
		b, err := ev(x.Y)
		if err != nil {
			return Value{}, err
		}
		return binaryOp(x, x.Op, a, b)
	case *frontend.Unary:
		if v, ok, err := e.exactIntValue(x, sc, depth); ok {
			return v, err
		}
		a, err := ev(x.X)
		if err != nil {
			return Value{}, err
		}
		return unary(x, a)
	case *frontend.BoolOp:
		var v Value
		for _, y := range x.Values {
			var err error
			if v, err = ev(y); err != nil {
				return Value{}, err
			}
			if truth(v) == (x.Op == "or") {
				return v, nil
			}
		}
		return v, nil
	case *frontend.Compare:
		return e.compare(x, sc, depth)
	case *frontend.IfExp:
		c, err := ev(x.Cond)
		if err != nil {
			return Value{}, err
		}
		if truth(c) {
			return ev(x.Then)
		}
		return ev(x.Else)
	case *frontend.Lambda:
		return Value{Kind: VLambda, Lambda: &Lambda{Params: x.Params, Body: x.Body}}, nil
	case *frontend.Call:
		return e.call(x, sc, depth)
	case *frontend.Starred:
		return Value{}, Errf(x, "*%s is allowed only among a call's arguments", exprText(x.X))
	case *frontend.BadExpr:
		return Value{}, Errf(x, "%s is not supported in a launch line or --let", x.What)
	}
	return Value{}, Errf(x, "this expression is not supported in a launch line or --let")
}

func constValue(c *frontend.Const) (Value, error) {
	switch c.Kind {
	case frontend.ConstInt:
		return intOf(c, c.Int)
	case frontend.ConstFloat:
		return FloatValue(c.Float), nil
	case frontend.ConstStr:
		return StrValue(c.Str), nil
	case frontend.ConstBool:
		return BoolValue(c.Bool), nil
	case frontend.ConstNone:
		return None, nil
	}
	return Value{}, Errf(c, "'...' is not a value")
}

func (e *Env) evalElems(xs []frontend.Expr, sc scope, depth int) (Value, error) {
	out := Value{Kind: VTuple, Elems: []Value{}}
	for _, y := range xs {
		if s, ok := y.(*frontend.Starred); ok {
			v, err := e.evalDepth(s.X, sc, depth)
			if err != nil {
				return Value{}, err
			}
			if v.Kind != VTuple {
				return Value{}, Errf(s, "cannot unpack %s", v.Describe())
			}
			out.Elems = append(out.Elems, v.Elems...)
			continue
		}
		v, err := e.evalDepth(y, sc, depth)
		if err != nil {
			return Value{}, err
		}
		out.Elems = append(out.Elems, v)
	}
	return out, nil
}

// lookupName resolves a name: lambda parameters, then --let bindings, then
// the kernel file's globals.
func (e *Env) lookupName(x *frontend.Name, sc scope, depth int) (Value, error) {
	if v, ok := sc[x.ID]; ok {
		return v, nil
	}
	if v, ok := e.vals[x.ID]; ok {
		return v, nil
	}
	if g, ok := e.globals[x.ID]; ok {
		if e.calls++; e.calls > maxCalls {
			return Value{}, Errf(x, "too many evaluations of module globals; is %s defined in terms of itself?", x.ID)
		}
		return e.evalDepth(g, nil, depth+1)
	}
	switch x.ID {
	case "True":
		return BoolValue(true), nil
	case "False":
		return BoolValue(false), nil
	case "None":
		return None, nil
	}
	if _, ok := builtinModules[x.ID]; ok {
		return Value{}, Errf(x, "%s is a module, not a value", x.ID)
	}
	if _, ok := builtins[x.ID]; ok {
		return Value{}, Errf(x, "%s is a function; call it", x.ID)
	}
	d := diag.Errorf(x.Pos, diag.CodeLaunch, "name '%s' is not bound; bind it with --let %s=...", x.ID, x.ID)
	if s := diag.Closest(x.ID, e.names); s != "" {
		d.WithSuggestion("did you mean %s?", s)
	}
	return Value{}, Usage(d)
}

// builtinModules are the module names a launch line may use, as a user
// pasting host code would import them.
var builtinModules = map[string]bool{
	"tl": true, "triton": true, "torch": true, "np": true, "numpy": true, "math": true,
}

func (e *Env) isModule(name string, sc scope) bool {
	if _, ok := sc[name]; ok {
		return false
	}
	if _, ok := e.vals[name]; ok {
		return false
	}
	return builtinModules[name]
}

// moduleAttr resolves a dotted name rooted at a module: dtypes
// (tl.float16, torch.int32, np.float32, triton.language.bfloat16) and
// math constants.
func (e *Env) moduleAttr(x *frontend.Attribute, sc scope) (Value, bool) {
	root := rootName(x)
	if root == "" || !e.isModule(root, sc) {
		return Value{}, false
	}
	name := dotted(x)
	last := x.Name
	switch name {
	case "math.pi":
		return FloatValue(3.141592653589793), true
	case "math.e":
		return FloatValue(2.718281828459045), true
	case "math.inf":
		return FloatValue(math.Inf(1)), true
	}
	prefix := strings.TrimSuffix(name, "."+last)
	switch prefix {
	case "tl", "triton.language", "torch", "np", "numpy":
		if d, ok := ir.ParseDType(last); ok && !d.IsPtr() {
			return DTypeValue(d), true
		}
	}
	return Value{}, false
}

// rootName is the name a chain of attributes starts from, or "".
func rootName(x frontend.Expr) string {
	for {
		switch y := x.(type) {
		case *frontend.Attribute:
			x = y.X
		case *frontend.Name:
			return y.ID
		default:
			return ""
		}
	}
}

// dotted is the text of a chain of attributes over a name (a.b.c), or "".
func dotted(x frontend.Expr) string {
	switch y := x.(type) {
	case *frontend.Name:
		return y.ID
	case *frontend.Attribute:
		if s := dotted(y.X); s != "" {
			return s + "." + y.Name
		}
	}
	return ""
}

// exprText is a short description of x for messages.
func exprText(x frontend.Expr) string {
	if s := dotted(x); s != "" {
		return s
	}
	return "expression"
}

func truth(v Value) bool {
	switch v.Kind {
	case VNone:
		return false
	case VInt:
		return v.Int != 0
	case VFloat:
		return v.Float != 0
	case VBool:
		return v.Bool
	case VStr:
		return v.Str != ""
	case VTuple:
		return len(v.Elems) > 0
	}
	return true
}

func (e *Env) compare(x *frontend.Compare, sc scope, depth int) (Value, error) {
	a, err := e.evalDepth(x.Left, sc, depth)
	if err != nil {
		return Value{}, err
	}
	for i, op := range x.Ops {
		b, err := e.evalDepth(x.Rights[i], sc, depth)
		if err != nil {
			return Value{}, err
		}
		ok, err := compareValues(x, op, a, b)
		if err != nil {
			return Value{}, err
		}
		if !ok {
			return BoolValue(false), nil
		}
		a = b
	}
	return BoolValue(true), nil
}

func compareValues(at frontend.Node, op string, a, b Value) (bool, error) {
	switch op {
	case "is", "is not":
		same := a.Kind == b.Kind && (a.Kind == VNone || a.Kind == VBool && a.Bool == b.Bool)
		return same == (op == "is"), nil
	}
	if x, ok := Numeric(a); ok {
		if y, ok := Numeric(b); ok {
			switch op {
			case "<":
				return x < y, nil
			case "<=":
				return x <= y, nil
			case ">":
				return x > y, nil
			case ">=":
				return x >= y, nil
			case "==":
				return x == y, nil
			case "!=":
				return x != y, nil
			}
		}
	}
	if op == "==" || op == "!=" {
		eq := a.Kind == b.Kind && a.String() == b.String()
		return eq == (op == "=="), nil
	}
	return false, Errf(at, "cannot compare %s %s %s", a.Describe(), op, b.Describe())
}

// Numeric returns an int, bool or float as float64 for comparisons.
func Numeric(v Value) (float64, bool) {
	switch v.Kind {
	case VInt:
		return float64(v.Int), true
	case VUint:
		return float64(uint64(v.Int)), true
	case VBool:
		if v.Bool {
			return 1, true
		}
		return 0, true
	case VFloat:
		return v.Float, true
	}
	return 0, false
}

// evalDict evaluates a dict display with string keys, as a launch's
// options are passed (extra_kern_args = {"maxnreg": 168}, then
// **extra_kern_args in the launch line).
func (e *Env) evalDict(x *frontend.Dict, sc scope, depth int) (Value, error) {
	out := Value{Kind: VDict, Dict: map[string]Value{}}
	for i, k := range x.Keys {
		if k == nil {
			return Value{}, Errf(x.Values[i], "** inside a dict is not supported here; list the keys")
		}
		kv, err := e.evalDepth(k, sc, depth)
		if err != nil {
			return Value{}, err
		}
		if kv.Kind != VStr {
			return Value{}, Errf(k, "dict keys must be strings here, not %s", kv.Describe())
		}
		v, err := e.evalDepth(x.Values[i], sc, depth)
		if err != nil {
			return Value{}, err
		}
		out.Dict[kv.Str] = v
	}
	return out, nil
}
