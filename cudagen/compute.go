package cudagen

// This file implements the elementwise arithmetic: the C expression of
// an element of a value computed from its operands (compute), with
// Triton's semantics for floats, integers and comparisons.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// compute is the C expression of element i of v, from its operands.
func (e *emitter) compute(v *ir.Value, i string) string {
	arg := func(n int) string { return e.expr(v.Args[n], i) }
	switch v.Op {
	case ir.OpProgramID, ir.OpNumPrograms:
		return e.specialReg(v)
	case ir.OpVarRead:
		return e.elem(e.varNames[v.Var.ID], v.Type, i)
	case ir.OpArange:
		idx := e.coord(e.layoutOf(v), 0, i)
		if v.Const.Int != 0 {
			return fmt.Sprintf("%d + %s", v.Const.Int, idx)
		}
		return idx
	case ir.OpCast:
		return e.castExpr(v.Args[0].Type.DType, v.Type.DType, arg(0), v.Flags)
	case ir.OpBitcast:
		return e.bitcastExpr(v.Args[0].Type.DType, v.Type.DType, arg(0))
	case ir.OpWhere:
		return fmt.Sprintf("%s ? %s : %s", arg(0), arg(1), arg(2))
	case ir.OpPtrAdd:
		return fmt.Sprintf("%s + %s", arg(0), arg(1))
	}
	if v.Op.IsCompare() {
		return e.compareExpr(v.Op, v.Args[0].Type.DType, arg(0), arg(1))
	}
	if v.Op == ir.OpLibdevice {
		args := make([]string, len(v.Args))
		for n := range v.Args {
			args[n] = arg(n)
		}
		return e.libdeviceCall(v, args)
	}
	if _, ok := libmFuncs[v.Op]; ok {
		if k := v.Type.Kind; isHalf(k) {
			return e.fromFloat(k, e.libmCall(v.Op, ir.Float32, e.toFloat(k, arg(0))))
		}
		return e.libmCall(v.Op, v.Type.Kind, arg(0))
	}
	args := make([]string, len(v.Args))
	for n := range v.Args {
		args[n] = arg(n)
	}
	k := v.Type.Kind
	if isHalf(k) {
		for n := range args {
			args[n] = e.toFloat(k, args[n])
		}
		return e.fromFloat(k, e.floatOp(v.Op, ir.Float32, v.Flags, args))
	}
	if k.IsFloat() {
		return e.floatOp(v.Op, k, v.Flags, args)
	}
	if v.Op == ir.OpUmulhi {
		return e.umulhi(k, args[0], args[1])
	}
	return intOp(v.Op, k, args)
}

var cOperators = map[ir.Op]string{
	ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*", ir.OpDiv: "/", ir.OpRem: "%",
	ir.OpAnd: "&", ir.OpOr: "|", ir.OpXor: "^", ir.OpShl: "<<", ir.OpShr: ">>",
	ir.OpEq: "==", ir.OpNe: "!=", ir.OpLt: "<", ir.OpLe: "<=", ir.OpGt: ">", ir.OpGe: ">=",
}

// floatOp is op on fp32 or fp64 operands, with Triton's fp32 math: fast
// division, exp, log and square root.
func (s nameSet) floatOp(op ir.Op, k ir.Kind, flags ir.Flags, a []string) string {
	sfx := "_f32"
	if k == ir.Float64 {
		sfx = "_f64"
	}
	call := func(f string) string {
		s.use(f)
		return fmt.Sprintf("%s(%s)", f, joinArgs(a))
	}
	switch op {
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		return fmt.Sprintf("%s %s %s", a[0], cOperators[op], a[1])
	case ir.OpDiv:
		if k == ir.Float64 {
			return fmt.Sprintf("%s / %s", a[0], a[1])
		}
		return call("tri_div_f32")
	case ir.OpRem:
		if k == ir.Float64 {
			return call("TRI_FMOD")
		}
		return call("TRI_FMODF")
	case ir.OpNeg:
		return "-" + a[0]
	case ir.OpMax, ir.OpMin:
		f := "tri_max"
		if op == ir.OpMin {
			f = "tri_min"
		}
		if flags&ir.FlagPropagateNaN != 0 {
			f += "_nan"
		}
		return call(f + sfx)
	case ir.OpFma, ir.OpSqrt, ir.OpRsqrt, ir.OpAbs, ir.OpFloor, ir.OpCeil:
		return call("tri_" + op.String() + sfx)
	case ir.OpExp, ir.OpExp2, ir.OpLog, ir.OpLog2, ir.OpSin, ir.OpCos:
		if k == ir.Float64 {
			return call("TRI_" + map[ir.Op]string{ir.OpExp: "EXP", ir.OpExp2: "EXP2", ir.OpLog: "LOG",
				ir.OpLog2: "LOG2", ir.OpSin: "SIN", ir.OpCos: "COS"}[op] + "_F64")
		}
		return call("tri_" + op.String() + sfx)
	}
	panic(fmt.Sprintf("op %s on floats", op))
}

// intOp is op on integer (or Bool) operands, with C's truncating division
// and remainder. Results narrower than int are wrapped back to their type.
func intOp(op ir.Op, k ir.Kind, a []string) string {
	var s string
	switch op {
	case ir.OpNeg:
		s = "-" + a[0]
	case ir.OpNot:
		if k == ir.Bool {
			return "!" + a[0]
		}
		s = "~" + a[0]
	case ir.OpMax:
		return fmt.Sprintf("%s > %s ? %s : %s", a[0], a[1], a[0], a[1])
	case ir.OpMin:
		return fmt.Sprintf("%s < %s ? %s : %s", a[0], a[1], a[0], a[1])
	case ir.OpAbs:
		if k.IsUnsigned() {
			return a[0]
		}
		s = fmt.Sprintf("%s < 0 ? -%s : %s", a[0], a[0], a[0])
	default:
		opr, ok := cOperators[op]
		if !ok {
			panic(fmt.Sprintf("op %s on integers", op))
		}
		s = fmt.Sprintf("%s %s %s", a[0], opr, a[1])
	}
	if k == ir.Bool {
		if op == ir.OpAdd || op == ir.OpShl {
			// i1 arithmetic wraps to the low bit: true + true is false (a
			// sum of bools with dtype=tl.int1 is their parity). For the
			// other operators the low bit and != 0 agree on 0 and 1.
			return fmt.Sprintf("((%s) & 1) != 0", s)
		}
		return fmt.Sprintf("(%s) != 0", s)
	}
	if k.Bits() < 32 {
		return fmt.Sprintf("(%s)(%s)", regType(k), s)
	}
	return s
}

// compareExpr compares two operands of dtype d. fp16 and bf16 compare as
// floats.
func (s nameSet) compareExpr(op ir.Op, d ir.DType, a, b string) string {
	if isHalf(d.Kind) {
		a, b = s.toFloat(d.Kind, a), s.toFloat(d.Kind, b)
	}
	return fmt.Sprintf("%s %s %s", a, cOperators[op], b)
}

func joinArgs(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
