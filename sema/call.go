package sema

// This file implements calls: argument binding, inlining of @jit
// functions, and dispatch to builtins and member functions.

import (
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// args are the evaluated arguments of a builtin call, one per parameter
// (nil when not given).
type args struct {
	name string
	pos  diag.Pos
	vals []*val
	call *frontend.Call
}

// bindArgs evaluates the arguments of call against a parameter list;
// required is the number of leading parameters that must be given. It
// returns nil after reporting an error.
func (c *compiler) bindArgs(fr *frame, name string, call *frontend.Call, params []string, required int) *args {
	return c.bindArgsRecv(fr, name, call, params, required, nil)
}

func (c *compiler) bindArgsRecv(fr *frame, name string, call *frontend.Call, params []string, required int, recv *val) *args {
	a := &args{name: name, pos: call.Pos, vals: make([]*val, len(params)), call: call}
	bad := false
	n := 0
	if recv != nil {
		a.vals[0] = recv
		n = 1
	}
	for _, e := range call.Args {
		v := c.expr(fr, e)
		if v.k == kInvalid {
			bad = true
		}
		if n >= len(params) {
			c.errorf(e.Position(), diag.CodeArgs, "%s takes at most %d arguments (%s)", shortPath(name), len(params)-boolInt(recv != nil), strings.Join(params[boolInt(recv != nil):], ", "))
			return nil
		}
		a.vals[n] = v
		n++
	}
	for _, kw := range call.Keywords {
		v := c.expr(fr, kw.Value)
		if v.k == kInvalid {
			bad = true
		}
		i := indexOf(params, kw.Name)
		if i < 0 || (recv != nil && i == 0) {
			d := c.errorAt(kw.Pos, diag.CodeArgs, "%s has no parameter named %s", shortPath(name), kw.Name)
			if s := suggest(kw.Name, params); s != "" {
				d.WithSuggestion("did you mean %s=?", s)
			}
			return nil
		}
		if a.vals[i] != nil {
			c.errorf(kw.Pos, diag.CodeArgs, "%s got multiple values for %s", shortPath(name), kw.Name)
			return nil
		}
		a.vals[i] = v
	}
	for i := 0; i < required; i++ {
		if a.vals[i] == nil {
			c.errorf(call.Pos, diag.CodeArgs, "%s is missing its argument %s", shortPath(name), params[i])
			return nil
		}
	}
	if bad {
		return nil
	}
	return a
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// call evaluates a call expression.
func (c *compiler) call(fr *frame, e *frontend.Call) *val {
	callee := c.expr(fr, e.Func)
	switch callee.k {
	case kInvalid:
		return invalid
	case kFunc:
		return c.inline(fr, callee.fn, e)
	case kGetter:
		return c.callGetter(fr, callee, e)
	case kBuiltin:
		b := builtins[callee.s]
		if b == nil {
			return c.errorf(e.Pos, diag.CodeUnsupported, "%s cannot be called here", shortPath(callee.s))
		}
		a := c.bindArgs(fr, callee.s, e, b.params, b.required)
		if a == nil {
			return invalid
		}
		return b.fn(c, a)
	case kMethod:
		if callee.recv.k == kDType {
			pred := dtypePredicate
			if callee.recv.block != nil {
				pred = blockTypePredicate
			}
			if r, ok := pred(callee.recv.dt, callee.s); ok && len(e.Args) == 0 && len(e.Keywords) == 0 {
				return boolVal(r)
			}
			if n, ok, valid := dtypeIntLimit(callee.recv.dt, callee.s); ok && len(e.Args) == 0 && len(e.Keywords) == 0 {
				if !valid {
					return c.errorf(e.Pos, diag.CodeType, "%s() takes an integer dtype, got %s", callee.s, callee.recv.dt.PyName())
				}
				return bigVal(n)
			}
			return c.errorf(e.Pos, diag.CodeType, "dtype has no method %s", callee.s)
		}
		path := members[callee.s]
		if callee.recv.k == kBlockPtr && callee.recv.bp.desc {
			path = descMethodPath(callee.s)
		}
		b := builtins[path]
		if b == nil {
			return c.errorf(e.Pos, diag.CodeUnsupported, "%s is not supported by tri yet", shortPath(path))
		}
		a := c.bindArgsRecv(fr, path, e, b.params, b.required, callee.recv)
		if a == nil {
			return invalid
		}
		return b.fn(c, a)
	}
	if callee.k == kDType {
		// Older Tritons converted with tl.float32(x); Triton 3.6's dtype
		// has no __call__ (Liger-Kernel's multi-block softmax).
		return c.errorf(e.Pos, diag.CodeType, "%s is not callable (Triton 3.6 rejects it too: 'dtype' object is not callable)", callee.describe())
	}
	return c.errorf(e.Pos, diag.CodeType, "%s is not callable", callee.describe())
}

// inline compiles a call to a @jit function at the call site.
func (c *compiler) inline(fr *frame, fn *frontend.Func, e *frontend.Call) *val {
	for _, f := range c.stack {
		if f == fn {
			return c.errorf(e.Pos, diag.CodeUnsupported, "recursive call to %s: Triton does not support recursion", fn.Name)
		}
	}
	if len(c.stack) > 64 {
		return c.errorf(e.Pos, diag.CodeUnsupported, "calls nested too deeply")
	}
	if fn.ConstexprFunction {
		return c.constexprCall(fr, fn, e)
	}
	if fn.Vararg != "" {
		vals := c.bindVarargs(fr, fn, e)
		if vals == nil {
			return invalid
		}
		return c.inlineVals(fn, vals, e.Pos)
	}
	a := c.bindArgs(fr, fn.Name, e, ParamNames(fn), 0)
	if a == nil {
		return invalid
	}
	return c.inlineVals(fn, a.vals, e.Pos)
}

// bindVarargs binds a call to fn, which has a *args parameter: the
// positional arguments (a starred tuple spread into them, f(*dims)) fill
// the parameters before *args, the rest make the tuple *args is bound to,
// which follows the parameters' values; keywords name any other
// parameter. nil after an error.
func (c *compiler) bindVarargs(fr *frame, fn *frontend.Func, e *frontend.Call) []*val {
	var pos []*val
	for _, x := range e.Args {
		st, ok := x.(*frontend.Starred)
		if !ok {
			v := c.expr(fr, x)
			if v.k == kInvalid {
				return nil
			}
			pos = append(pos, v)
			continue
		}
		v := c.expr(fr, st.X)
		switch v.k {
		case kInvalid:
			return nil
		case kTuple:
			pos = append(pos, v.elts...)
		default:
			c.errorf(st.Pos, diag.CodeType, "only a tuple can be spread into the arguments of %s, not %s", fn.Name, v.describe())
			return nil
		}
	}
	vals := make([]*val, len(fn.Params)+1)
	rest := &val{k: kTuple}
	for i, v := range pos {
		if i < fn.NumPositional {
			vals[i] = v
		} else {
			rest.elts = append(rest.elts, v)
		}
	}
	vals[len(fn.Params)] = rest
	params := ParamNames(fn)
	for _, kw := range e.Keywords {
		i := indexOf(params, kw.Name)
		switch {
		case i < 0:
			c.errorf(kw.Pos, diag.CodeArgs, "%s has no parameter named %s", fn.Name, kw.Name)
			return nil
		case vals[i] != nil:
			c.errorf(kw.Pos, diag.CodeArgs, "%s got multiple values for %s", fn.Name, kw.Name)
			return nil
		}
		v := c.expr(fr, kw.Value)
		if v.k == kInvalid {
			return nil
		}
		vals[i] = v
	}
	return vals
}

// inlineVals compiles the body of fn at the current place with its
// parameters bound to vals (nil for a parameter left to its default) and
// returns what it returns.
func (c *compiler) inlineVals(fn *frontend.Func, vals []*val, pos diag.Pos) *val {
	callee := &frame{fn: fn, env: map[string]*val{}, file: fn.File}
	for i, p := range fn.Params {
		var v *val
		if i < len(vals) {
			v = vals[i]
		}
		if v == nil {
			if p.Default == nil {
				return c.errorf(pos, diag.CodeArgs, "%s() is missing its argument %s", fn.Name, p.Name)
			}
			v = c.expr(&frame{env: map[string]*val{}, file: fn.File}, p.Default)
			if v.k == kInvalid {
				return invalid
			}
		}
		// A tl.constexpr annotation on a parameter of a @jit helper does not
		// make its argument a compile-time value: Triton specializes a call
		// by the arguments it is given (tutorial 06 passes the tensor
		// offs_m for offs_m: tl.constexpr).
		callee.env[p.Name] = v
	}
	if fn.Vararg != "" {
		// bindVarargs puts the *args tuple after the parameters' values;
		// a caller that gives none (a combine function) binds an empty one.
		rest := &val{k: kTuple}
		if len(vals) > len(fn.Params) && vals[len(fn.Params)] != nil {
			rest = vals[len(fn.Params)]
		}
		callee.env[fn.Vararg] = rest
	}
	c.stack = append(c.stack, fn)
	c.calls = append(c.calls, pos)
	c.stmts(callee, withEarlyReturns(fn.Body))
	c.stack = c.stack[:len(c.stack)-1]
	c.calls = c.calls[:len(c.calls)-1]
	if callee.retVal == nil {
		return noneVal
	}
	return callee.retVal
}
