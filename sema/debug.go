package sema

// This file implements printing and assertions: tl.device_print and
// Python's print (which Triton maps to device_print), tl.device_assert and
// the assert statement (which Triton maps to device_assert),
// tl.static_print, and the debug option of @triton.jit(debug=True).
//
// device_print's prefix is rewritten as Triton's semantic.device_print
// does, so that the lines read "pid (0, 0, 0) idx (3) x: 1.0": with values
// to print, the prefix gets a trailing space, its last character becomes
// ": " unless it already ends so, and a prefix longer than two characters
// gets a leading space.

import (
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// printArgs is the number of values one device_print may print.
const printArgs = 16

// addDebugBuiltins registers the printing and assertion builtins.
func addDebugBuiltins(tl func(string) string) {
	builtins["print"] = &builtin{variadic(printArgs + 1), 0, bDevicePrint}
	builtins[tl("device_print")] = &builtin{append(variadic(printArgs+1), "hex"), 1, bDevicePrint}
	builtins[tl("device_assert")] = &builtin{[]string{"cond", "msg", "mask"}, 1, bDeviceAssert}
	builtins[tl("static_print")] = &builtin{append(variadic(printArgs), "sep", "end", "file", "flush"), 0, bStaticPrint}
}

// printPrefix rewrites a device_print prefix as Triton does.
func printPrefix(prefix string, hasArgs bool) string {
	if hasArgs && !strings.HasSuffix(prefix, " ") {
		prefix += " "
	}
	if hasArgs && !strings.HasSuffix(prefix, ": ") {
		prefix = prefix[:len(prefix)-1] + ": "
	}
	if len(prefix) > 2 && !strings.HasPrefix(prefix, " ") {
		prefix = " " + prefix
	}
	return prefix
}

// printable reports whether s holds only the characters of Python's
// string.printable, as device_print requires of its prefix.
func printable(s string) bool {
	for _, r := range s {
		if r > 0x7e || r < 0x20 && !strings.ContainsRune(" \t\n\r\x0b\x0c", r) {
			return false
		}
	}
	return true
}

func bDevicePrint(c *compiler, a *args) *val {
	what := shortPath(a.name)
	pv := a.vals[0]
	if pv == nil {
		return c.errorf(a.pos, diag.CodeArgs, "%s needs a string prefix as its first argument", what)
	}
	if pv.k != kStr {
		return c.errorf(a.pos, diag.CodeType, "the first argument of %s must be a string (the prefix), got %s; write %s(\"x\", x)", what, pv.describe(), what)
	}
	if !printable(pv.s) {
		return c.errorf(a.pos, diag.CodeValue, "the prefix of %s must be printable ASCII, got %s", what, pv.repr())
	}
	if a.call != nil && len(a.call.Args) > printArgs+1 {
		// The slot after the values is hex=, which only a keyword sets.
		return c.errorf(a.pos, diag.CodeArgs, "%s prints at most %d values", what, printArgs)
	}
	hex := false
	if a.name != "print" {
		if hv := a.vals[len(a.vals)-1]; given(hv) {
			if hv.k != kBool && hv.k != kInt {
				return c.errorf(a.pos, diag.CodeType, "hex= of %s must be a compile-time bool, got %s", what, hv.describe())
			}
			hex = hv.truth()
		}
	}
	var vals []*ir.Value
	for i, v := range a.vals[1 : printArgs+1] {
		if v == nil {
			continue
		}
		if v.k == kStr {
			return c.errorf(a.pos, diag.CodeType, "%s prints one string, its prefix: argument %d is the string %s; put it in the prefix", what, i+2, v.repr())
		}
		x := c.runtimeArg(v, "a value printed by "+what, a.pos)
		if x == nil {
			return invalid
		}
		vals = append(vals, x)
	}
	v := c.emit(ir.OpPrint, ir.ScalarType(ir.TVoid), a.pos, vals...)
	v.Msg = &ir.Message{Text: printPrefix(pv.s, len(vals) > 0), Hex: hex}
	return noneVal
}

func bDeviceAssert(c *compiler, a *args) *val {
	msg := ""
	if m := a.vals[1]; given(m) {
		if m.k != kStr {
			return c.errorf(a.pos, diag.CodeType, "the message of tl.device_assert must be a string, got %s", m.describe())
		}
		msg = m.s
	}
	cond := a.vals[0]
	if mv := a.vals[2]; given(mv) {
		// Lanes outside the mask pass: cond | ~mask, as Triton builds it.
		cond = c.binary("|", c.boolArg(cond, "the condition of tl.device_assert", a.pos), c.unary("not", c.boolArg(mv, "the mask of tl.device_assert", a.pos), a.pos), a.pos)
	}
	c.deviceAssert(cond, msg, a.pos)
	return noneVal
}

// boolArg converts a condition to a runtime Bool value (invalid after an
// error).
func (c *compiler) boolArg(v *val, what string, pos diag.Pos) *val {
	x := c.runtimeArg(v, what, pos)
	if x == nil {
		return invalid
	}
	return rtVal(c.cast(x, ir.TBool, pos))
}

// deviceAssert emits the assertion that cond holds in every lane.
func (c *compiler) deviceAssert(cond *val, msg string, pos diag.Pos) {
	if cond.k == kInvalid {
		return
	}
	x := c.runtimeArg(cond, "the condition of an assertion", pos)
	if x == nil {
		return
	}
	if x.Type.IsPtr() {
		c.errorf(pos, diag.CodeType, "the condition of an assertion must be a boolean, got %s", x.Type)
		return
	}
	v := c.emit(ir.OpAssert, ir.ScalarType(ir.TVoid), pos, c.cast(x, ir.TBool, pos))
	v.Msg = &ir.Message{Text: msg}
}

// assertStmt compiles `assert cond, msg`: a compile-time condition is
// checked now; a runtime one becomes a device assertion.
func (c *compiler) assertStmt(fr *frame, s *frontend.Assert) {
	v := c.expr(fr, s.Test)
	msg := ""
	if s.Msg != nil {
		m := c.expr(fr, s.Msg)
		switch m.k {
		case kInvalid:
			return
		case kStr:
			msg = m.s
		default:
			if !m.isConst() {
				c.errorf(s.Msg.Position(), diag.CodeType, "the message of an assert must be a compile-time string, got %s", m.describe())
				return
			}
			msg = m.repr()
		}
	}
	switch {
	case v.k == kInvalid:
	case v.isConst():
		if !v.truth() {
			text := "assertion failed"
			if msg != "" {
				text += ": " + msg
			}
			c.errorf(s.Pos, diag.CodeValue, "%s", text)
		}
	default:
		c.deviceAssert(v, msg, s.Pos)
	}
}

// bStaticPrint records the line tl.static_print prints at compile time,
// once per specialization, as Python's print would write it.
func bStaticPrint(c *compiler, a *args) *val {
	sep, end := " ", "\n"
	for i, p := range []*string{&sep, &end} {
		v := a.vals[printArgs+i]
		if !given(v) {
			continue
		}
		if v.k != kStr {
			return c.errorf(a.pos, diag.CodeType, "%s= of tl.static_print must be a string, got %s", []string{"sep", "end"}[i], v.describe())
		}
		*p = v.s
	}
	var parts []string
	for _, v := range a.vals[:printArgs] {
		if v != nil {
			parts = append(parts, pyStr(v))
		}
	}
	c.kernel.StaticPrints = append(c.kernel.StaticPrints, strings.Join(parts, sep)+end)
	return noneVal
}

// pyStr is Python's str() of a value as static_print sees it: constexprs
// unwrapped, tensors as Triton's tensor.__str__ writes them ("fp32[16, 32]").
func pyStr(v *val) string {
	switch v.k {
	case kStr:
		return v.s
	case kRuntime:
		dims := make([]string, len(v.rt.Type.Shape))
		for i, n := range v.rt.Type.Shape {
			dims[i] = strconv.Itoa(n)
		}
		return tritonName(v.rt.Type.DType) + "[" + strings.Join(dims, ", ") + "]"
	case kBlockPtr:
		if v.bp.desc {
			return "tensor_descriptor<" + blockTypeString(v.bp.elem(), ir.Shape(v.bp.block)) + ">"
		}
		// A block pointer is a tensor of shape () to Triton.
		return blockTypeString(v.bp.base.Type.DType, ir.Shape(v.bp.block)) + "[]"
	case kDType:
		if v.block != nil {
			return blockTypeString(v.dt, v.block)
		}
		return tritonName(v.dt)
	case kTuple:
		parts := make([]string, len(v.elts))
		for i, e := range v.elts {
			parts[i] = pyStr(e)
			if e.k == kStr {
				parts[i] = e.repr()
			}
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	if v.isConst() {
		return v.repr()
	}
	return v.describe()
}

// tritonName is the name Triton's dtype.__str__ gives d.
func tritonName(d ir.DType) string {
	switch d.Kind {
	case ir.Ptr:
		return "pointer<" + tritonName(ir.Scalar(d.Elem)) + ">"
	case ir.Float16:
		return "fp16"
	case ir.BFloat16:
		return "bf16"
	case ir.Float32:
		return "fp32"
	case ir.Float64:
		return "fp64"
	}
	return d.PyName()
}

// jitDebug reports whether fn's decorator is @triton.jit(debug=True).
func jitDebug(fn *frontend.Func) bool {
	for _, dc := range fn.Decorators {
		if dc.Name != "triton.jit" {
			continue
		}
		for _, kw := range dc.Keywords {
			if c, ok := kw.Value.(*frontend.Const); ok && kw.Name == "debug" && c.Kind == frontend.ConstBool && c.Bool {
				return true
			}
		}
	}
	return false
}
