package sema

// This file implements the calls of libdevice functions
// (triton.language.extra.cuda.libdevice, imported as libdevice or reached
// as tl.extra.libdevice) and of tl.fdiv, tl.div_rn and tl.sqrt_rn, as
// Triton's extern_elementwise and math.py do: the operands become tensors
// (Python ints int32, floats fp32), an overload whose dtypes match exactly
// is called as is; otherwise the operands are promoted to one computation
// type and that must match an overload. Shapes broadcast. Anything else is
// an error naming the dtypes the function takes.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

const libdevicePath = "triton.language.extra.libdevice."

// addLibdeviceBuiltins binds libdevice.<name> for every function of ir's
// libdevice table, and the math functions of tl that Triton lowers as
// libdevice does.
func addLibdeviceBuiltins(tl func(string) string) {
	for _, name := range ir.LibdeviceNames() {
		f, _ := ir.LibdeviceFuncNamed(name)
		n := f.Overloads[0].Arity()
		params := []string{"arg0", "arg1", "arg2", "arg3"}[:n]
		builtins[libdevicePath+name] = &builtin{params, n, bLibdevice(f)}
	}
	builtins[tl("fdiv")] = &builtin{[]string{"x", "y", "ieee_rounding"}, 2, bFdiv}
	builtins[tl("div_rn")] = &builtin{[]string{"x", "y"}, 2, bPreciseFP32("div_rn", ir.PreciseDivSymbol)}
	builtins[tl("sqrt_rn")] = &builtin{[]string{"x"}, 1, bPreciseFP32("sqrt_rn", "__nv_fsqrt_rn")}
}

func bLibdevice(f *ir.LibdeviceFunc) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		name := "libdevice." + f.Name
		xs := make([]*ir.Value, len(a.vals))
		for i, v := range a.vals {
			if xs[i] = c.runtimeArg(v, fmt.Sprintf("argument %d of %s", i, name), a.pos); xs[i] == nil {
				return invalid
			}
			if xs[i].Type.IsPtr() {
				return c.errorf(a.pos, diag.CodeType, "%s does not take pointers", name)
			}
		}
		o := matchOverload(f, xs)
		if o == nil {
			t := xs[0].Type.DType
			for _, x := range xs[1:] {
				var err error
				if t, err = computationType(x.Type.DType, false, t, false, false); err != nil {
					return c.errorf(a.pos, diag.CodeType, "%s: %v", name, err)
				}
			}
			for i := range xs {
				xs[i] = c.cast(xs[i], t, a.pos)
			}
			if o = matchOverload(f, xs); o == nil {
				return c.errorf(a.pos, diag.CodeType, "%s takes %s, got %s%s", name, overloadList(f), kindTuple(a.vals, xs), castHint(f, xs))
			}
		}
		r := c.libdeviceCall(o, xs, a.pos)
		if r == nil {
			return invalid
		}
		if f.ToBool {
			r = c.cast(r, ir.TBool, a.pos)
		}
		return rtVal(r)
	}
}

// libdeviceCall broadcasts xs to one shape and emits the call of o.
func (c *compiler) libdeviceCall(o *ir.LibdeviceOverload, xs []*ir.Value, pos diag.Pos) *ir.Value {
	var s ir.Shape
	for _, x := range xs {
		var ok bool
		if s, ok = broadcastShape(s, x.Type.Shape); !ok {
			c.errorf(pos, diag.CodeType, "libdevice.%s: incompatible shapes %s and %s", o.Func, s, x.Type.Shape)
			return nil
		}
	}
	for i := range xs {
		xs[i] = c.splatTo(xs[i], s, pos)
	}
	r := c.emit(ir.OpLibdevice, ir.Type{DType: ir.Scalar(o.Result), Shape: cloneShape(s)}, pos, xs...)
	r.Extern = o.Symbol
	return r
}

// matchOverload is the overload of f whose operand kinds are xs' exactly.
func matchOverload(f *ir.LibdeviceFunc, xs []*ir.Value) *ir.LibdeviceOverload {
	for _, o := range f.Overloads {
		match := len(o.Args) == len(xs)
		for i := 0; match && i < len(xs); i++ {
			match = xs[i].Type.Kind == o.Args[i]
		}
		if match {
			return o
		}
	}
	return nil
}

// overloadList writes f's signatures as "(fp32) or (fp64)".
func overloadList(f *ir.LibdeviceFunc) string {
	var sigs []string
	for _, o := range f.Overloads {
		ks := make([]string, len(o.Args))
		for i, k := range o.Args {
			ks[i] = k.String()
		}
		sigs = append(sigs, "("+strings.Join(ks, ", ")+")")
	}
	return strings.Join(sigs, " or ")
}

// kindTuple writes the operands' dtypes as given, before promotion.
func kindTuple(vals []*val, xs []*ir.Value) string {
	ks := make([]string, len(vals))
	for i, v := range vals {
		if v.k == kRuntime {
			ks[i] = v.rt.Type.Kind.String()
		} else if d, err := literalType(v); err == nil {
			ks[i] = d.Kind.String()
		} else {
			ks[i] = xs[i].Type.Kind.String()
		}
	}
	return "(" + strings.Join(ks, ", ") + ")"
}

// castHint suggests converting half-precision operands, which libdevice
// never takes.
func castHint(f *ir.LibdeviceFunc, xs []*ir.Value) string {
	for _, x := range xs {
		if k := x.Type.Kind; k == ir.Float16 || k == ir.BFloat16 {
			for _, o := range f.Overloads {
				if o.Args[0] == ir.Float32 {
					return "; convert with .to(tl.float32)"
				}
			}
		}
	}
	return ""
}

// bFdiv is math.py's fdiv: both operands floats of one dtype (Python
// numbers are fp32 tensors), divided as / divides fp32 and fp64;
// ieee_rounding is read and, as in Triton, does not change the division.
func bFdiv(c *compiler, a *args) *val {
	if r := a.vals[2]; given(r) && !r.isConst() {
		return c.errorf(a.pos, diag.CodeValue, "ieee_rounding must be a compile-time bool")
	}
	x := c.runtimeArg(a.vals[0], "the first operand of tl.fdiv", a.pos)
	y := c.runtimeArg(a.vals[1], "the second operand of tl.fdiv", a.pos)
	if x == nil || y == nil {
		return invalid
	}
	if !x.Type.Kind.IsFloat() || !y.Type.Kind.IsFloat() {
		return c.errorf(a.pos, diag.CodeType, "both operands of tl.fdiv must have floating scalar type, got %s and %s", x.Type.DType, y.Type.DType)
	}
	if x.Type.Kind != y.Type.Kind || (x.Type.Kind != ir.Float32 && x.Type.Kind != ir.Float64) {
		return c.errorf(a.pos, diag.CodeType, "tl.fdiv takes two fp32 or two fp64 operands, got %s and %s; convert with .to()", x.Type.DType, y.Type.DType)
	}
	x, y, ok := c.broadcastPair(x, y, a.pos)
	if !ok {
		return invalid
	}
	return rtVal(c.emit(ir.OpDiv, x.Type, a.pos, x, y))
}

// bPreciseFP32 is math.py's div_rn or sqrt_rn: fp32 tensors only (Python
// numbers become tensors and are promoted), computed correctly rounded,
// the libdevice function of the same meaning.
func bPreciseFP32(name, symbol string) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		xs := make([]*ir.Value, len(a.vals))
		t := ir.DType{}
		for i, v := range a.vals {
			if v.k == kRuntime && v.rt.Type.Kind != ir.Float32 {
				return c.errorf(a.pos, diag.CodeType, "tl.%s takes fp32, got %s", name, v.rt.Type.DType)
			}
			if xs[i] = c.runtimeArg(v, "the argument of tl."+name, a.pos); xs[i] == nil {
				return invalid
			}
			if i == 0 {
				t = xs[i].Type.DType
				continue
			}
			var err error
			if t, err = computationType(t, false, xs[i].Type.DType, false, false); err != nil {
				return c.errorf(a.pos, diag.CodeType, "tl.%s: %v", name, err)
			}
		}
		if t.Kind != ir.Float32 {
			return c.errorf(a.pos, diag.CodeType, "tl.%s takes fp32 operands, got %s", name, t)
		}
		for i := range xs {
			xs[i] = c.cast(xs[i], t, a.pos)
		}
		o, _ := ir.LibdeviceSymbol(symbol)
		r := c.libdeviceCall(o, xs, a.pos)
		if r == nil {
			return invalid
		}
		return rtVal(r)
	}
}
