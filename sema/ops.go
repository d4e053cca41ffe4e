package sema

// This file implements operators on values: arithmetic, bitwise, shifts,
// comparisons and unary operators, folding constexprs with Python's rules
// and applying Triton's typing to runtime values.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

var binOps = map[string]ir.Op{
	"+": ir.OpAdd, "-": ir.OpSub, "*": ir.OpMul, "/": ir.OpDiv, "//": ir.OpDiv, "%": ir.OpRem,
	"&": ir.OpAnd, "|": ir.OpOr, "^": ir.OpXor, "<<": ir.OpShl, ">>": ir.OpShr,
}

var cmpOps = map[string]ir.Op{
	"==": ir.OpEq, "!=": ir.OpNe, "<": ir.OpLt, "<=": ir.OpLe, ">": ir.OpGt, ">=": ir.OpGe,
}

// binary applies a binary operator written op.
func (c *compiler) binary(op string, a, b *val, pos diag.Pos) *val {
	if a.k == kInvalid || b.k == kInvalid {
		return invalid
	}
	if r := tupleBinary(op, a, b); r != nil {
		return r
	}
	if a.isConst() && b.isConst() {
		r, err := pyBinary(op, a, b)
		if err != nil {
			return c.errorf(pos, diag.CodeValue, "%v", err)
		}
		carryMeta(r, a, b)
		return r
	}
	if op == "**" {
		return c.errorf(pos, diag.CodeUnsupported, "** is not supported on tensors in Triton; use tl.exp2/tl.exp, or multiply")
	}
	if op == "@" {
		return c.errorf(pos, diag.CodeUnsupported, "the @ operator is not supported by tri; call tl.dot(a, b)")
	}
	// acc + tl.dot(a, b) is tl.dot(a, b, acc) (dotfold.go).
	if op == "+" {
		if v := c.dotAdd(a, b, pos); v != nil {
			return v
		}
	}
	irop, ok := binOps[op]
	if !ok {
		return c.errorf(pos, diag.CodeUnsupported, "operator %s is not supported", op)
	}
	if !c.tensorOperand(a, op, pos) || !c.tensorOperand(b, op, pos) {
		return invalid
	}
	xd, okx := c.operandType(a, pos)
	yd, oky := c.operandType(b, pos)
	if !okx || !oky {
		return invalid
	}
	if xd.IsPtr() || yd.IsPtr() {
		return c.pointerArith(op, c.materialize(a, xd, pos), c.materialize(b, yd, pos), pos)
	}
	divOrMod := op == "/" || op == "//" || op == "%"
	t, err := computationType(xd, a.isNum(), yd, b.isNum(), divOrMod)
	if err != nil {
		return c.errorf(pos, diag.CodeType, "operator %s: %v", op, err)
	}
	if (a.isNum() && a.asFloat() < 0 || b.isNum() && b.asFloat() < 0) && t.Kind.IsUnsigned() {
		return c.errorf(pos, diag.CodeType, "cannot apply %s to an unsigned tensor (%s) and a negative constant; cast one of them explicitly", op, t)
	}
	if t.Kind.IsInt() {
		lo, hi := intRange(t.Kind)
		for _, v := range []*val{a, b} {
			if n, ok := v.asInt(); ok && (n.Cmp(lo) < 0 || n.Cmp(hi) > 0) {
				return c.errorf(pos, diag.CodeType, "constant %s is out of range for %s, the type of the other operand of %s; cast the tensor first", n, t, op)
			}
		}
	}
	switch op {
	case "&", "|", "^", "<<", ">>":
		// Triton's bitwise_op_type_checking_impl: the operands are first
		// brought to the computation type, which must be an integer.
		if !xd.Kind.IsInt() || !yd.Kind.IsInt() || !t.Kind.IsInt() {
			return c.errorf(pos, diag.CodeType, "operator %s needs integer operands, got %s and %s", op, xd, yd)
		}
	case "//":
		if !t.Kind.IsInt() {
			return c.errorf(pos, diag.CodeType, "floor division // needs integer operands, got %s and %s; use tl.floor(a / b) for floats", xd, yd)
		}
	}
	x, y := c.materialize(a, t, pos), c.materialize(b, t, pos)
	if op == "/" && t.Kind.IsInt() {
		t = ir.TFloat32
		x, y = c.cast(x, t, pos), c.cast(y, t, pos)
	}
	x, y, ok = c.broadcastPair(x, y, pos)
	if !ok {
		return invalid
	}
	if op == ">>" && xd.Kind.IsSigned() && t.Kind.IsUnsigned() && t.Kind != ir.Bool {
		// Triton's tensor.__rshift__ picks the shift from the left operand
		// as written (ashr for a signed one) and runs it on the promoted
		// type: int8 >> uint8 shifts the uint8 bits arithmetically.
		s := ir.DType{Kind: ir.Int8 + (t.Kind - ir.Uint8)}
		sx := c.emit(ir.OpBitcast, ir.Type{DType: s, Shape: cloneShape(x.Type.Shape)}, pos, x)
		sy := c.emit(ir.OpBitcast, ir.Type{DType: s, Shape: cloneShape(y.Type.Shape)}, pos, y)
		r := c.emit(irop, sx.Type, pos, sx, sy)
		return rtVal(c.emit(ir.OpBitcast, x.Type, pos, r))
	}
	return rtVal(c.emit(irop, x.Type, pos, x, y))
}

// tensorOperand checks that v can take part in runtime arithmetic.
func (c *compiler) tensorOperand(v *val, op string, pos diag.Pos) bool {
	if v.k == kRuntime || v.isNum() {
		return true
	}
	c.errorf(pos, diag.CodeType, "unsupported operand for %s: %s", op, v.describe())
	return false
}

// operandType is the dtype v has as an operand: its runtime dtype, or the
// literal type of a constexpr number.
func (c *compiler) operandType(v *val, pos diag.Pos) (ir.DType, bool) {
	if v.k == kRuntime {
		return v.rt.Type.DType, true
	}
	d, err := literalType(v)
	if err != nil {
		c.errorf(pos, diag.CodeType, "%v", err)
		return d, false
	}
	return d, true
}

// materialize converts operand v to dtype t: a constexpr number becomes a
// constant of t, a runtime value is cast.
func (c *compiler) materialize(v *val, t ir.DType, pos diag.Pos) *ir.Value {
	if v.k != kRuntime {
		return c.constOf(t, v, pos)
	}
	return c.cast(v.rt, t, pos)
}

// pointerArith handles +, - with a pointer operand.
func (c *compiler) pointerArith(op string, x, y *ir.Value, pos diag.Pos) *val {
	xd, yd := x.Type.DType, y.Type.DType
	switch {
	case xd.IsPtr() && yd.IsPtr():
		return c.errorf(pos, diag.CodeType, "operator %s on two pointers (%s and %s) is not supported", op, xd, yd)
	case op == "+" && yd.IsPtr():
		x, y = y, x
		xd, yd = yd, xd
	case op == "+" || op == "-" && xd.IsPtr():
	default:
		return c.errorf(pos, diag.CodeType, "operator %s is not defined for pointers (%s and %s); only pointer + integer and pointer - integer are", op, xd, yd)
	}
	if !yd.Kind.IsInt() {
		return c.errorf(pos, diag.CodeType, "pointer offsets must be integers, got %s", yd)
	}
	if yd.Kind.IsUnsigned() && yd.Kind.Bits() < 64 {
		// addptr treats offsets as signed: zero-extend unsigned ones.
		y = c.cast(y, ir.TInt64, pos)
	}
	if op == "-" {
		y = c.emit(ir.OpNeg, y.Type, pos, y)
	}
	x, y, ok := c.broadcastPair(x, y, pos)
	if !ok {
		return invalid
	}
	return rtVal(c.emit(ir.OpPtrAdd, x.Type, pos, x, y))
}

// compare applies one comparison operator.
func (c *compiler) compare(op string, a, b *val, pos diag.Pos) *val {
	if a.k == kInvalid || b.k == kInvalid {
		return invalid
	}
	if a.isConst() && b.isConst() {
		r, err := pyCompare(op, a, b)
		if err != nil {
			return c.errorf(pos, diag.CodeType, "%v", err)
		}
		return boolVal(r)
	}
	switch op {
	case "is", "is not":
		// A runtime value is never None (or any other constant).
		return boolVal(op == "is not")
	case "in", "not in":
		return c.errorf(pos, diag.CodeUnsupported, "'%s' is not supported on tensors", op)
	}
	if !c.tensorOperand(a, op, pos) || !c.tensorOperand(b, op, pos) {
		return invalid
	}
	xd, okx := c.operandType(a, pos)
	yd, oky := c.operandType(b, pos)
	if !okx || !oky {
		return invalid
	}
	if xd.IsPtr() || yd.IsPtr() {
		return c.pointerCompare(op, xd, yd, pos)
	}
	t, err := computationType(xd, false, yd, false, false)
	if err != nil {
		return c.errorf(pos, diag.CodeType, "comparison %s: %v", op, err)
	}
	x, y := c.materialize(a, t, pos), c.materialize(b, t, pos)
	x, y, ok := c.broadcastPair(x, y, pos)
	if !ok {
		return invalid
	}
	return rtVal(c.emit(cmpOps[op], ir.Type{DType: ir.TBool, Shape: cloneShape(x.Type.Shape)}, pos, x, y))
}

// unary applies -, +, ~ or not.
func (c *compiler) unary(op string, a *val, pos diag.Pos) *val {
	if a.k == kInvalid {
		return invalid
	}
	if a.isConst() {
		r, err := pyUnary(op, a)
		if err != nil {
			return c.errorf(pos, diag.CodeType, "%v", err)
		}
		return r
	}
	if a.k != kRuntime {
		return c.errorf(pos, diag.CodeType, "bad operand for unary %s: %s", op, a.describe())
	}
	x := a.rt
	if x.Type.IsPtr() {
		return c.errorf(pos, diag.CodeType, "unary %s is not defined for pointers", op)
	}
	switch op {
	case "+":
		return a
	case "-":
		return rtVal(c.emit(ir.OpNeg, x.Type, pos, x))
	case "~":
		if !x.Type.Kind.IsInt() {
			return c.errorf(pos, diag.CodeType, "~ needs an integer operand, got %s", x.Type.DType)
		}
		return rtVal(c.emit(ir.OpNot, x.Type, pos, x))
	}
	b := c.cast(x, ir.TBool, pos)
	return rtVal(c.emit(ir.OpNot, b.Type, pos, b))
}

// logical applies a runtime `and`/`or` (Triton's logical_and/logical_or).
func (c *compiler) logical(op string, a, b *val, pos diag.Pos) *val {
	if a.k == kInvalid || b.k == kInvalid {
		return invalid
	}
	if !c.tensorOperand(a, op, pos) || !c.tensorOperand(b, op, pos) {
		return invalid
	}
	x, y := c.castTo(a, ir.TBool, pos), c.castTo(b, ir.TBool, pos)
	if x == nil || y == nil {
		return invalid
	}
	x, y, ok := c.broadcastPair(x, y, pos)
	if !ok {
		return invalid
	}
	irop := ir.OpAnd
	if op == "or" {
		irop = ir.OpOr
	}
	return rtVal(c.emit(irop, x.Type, pos, x, y))
}
