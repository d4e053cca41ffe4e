package cudagen

// This file implements the printing of computed values: index values,
// arithmetic, math, comparisons, selections and conversions. Each tile
// value becomes a per-thread array filled by one unrolled loop; a scalar
// becomes a plain local.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// value writes the code computing v.
func (e *emitter) value(v *ir.Value) {
	switch v.Op {
	case ir.OpConst, ir.OpParam, ir.OpSplat, ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpAssume:
		return
	case ir.OpProgramID, ir.OpNumPrograms, ir.OpVarRead:
		if e.names[v.ID] == "" {
			return
		}
	case ir.OpLoad:
		e.source(v.Pos)
		if e.directLoads[v.ID] {
			e.directLoad(v)
			return
		}
		e.load(v)
		return
	case ir.OpStore:
		e.source(v.Pos)
		if tm := e.tmaStores[v.ID]; tm != nil {
			e.tmaStore(v, tm)
			return
		}
		if e.directStores[v.ID] {
			e.directStore(v)
			return
		}
		e.store(v)
		return
	case ir.OpBarrier:
		e.source(v.Pos)
		e.w.line("__syncthreads();")
		return
	case ir.OpGdcWait, ir.OpGdcLaunchDependents:
		e.source(v.Pos)
		e.gridDepControl(v)
		return
	case ir.OpRegionArg:
		return
	case ir.OpBroadcast, ir.OpExpandDims, ir.OpReshape, ir.OpTrans, ir.OpJoin, ir.OpSplit, ir.OpTupleGet:
		if (v.Op == ir.OpBroadcast || v.Op == ir.OpExpandDims) && e.isRemap(v) {
			return
		}
		e.source(v.Pos)
		e.shapeOp(v)
		return
	case ir.OpReduce:
		e.source(v.Pos)
		e.reduce(v)
		return
	case ir.OpScan:
		e.source(v.Pos)
		e.scan(v)
		return
	case ir.OpAtomicRMW, ir.OpAtomicCAS:
		e.source(v.Pos)
		e.atomic(v)
		return
	case ir.OpDot:
		e.source(v.Pos)
		e.dot(v)
		return
	// Printing and assertions (debug.go).
	case ir.OpPrint:
		e.source(v.Pos)
		e.print(v)
		return
	case ir.OpAssert:
		e.assert(v)
		return
	case ir.OpInlineAsm:
		e.source(v.Pos)
		e.inlineAsm(v)
		return
	case ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat, ir.OpMapElementwise:
		e.source(v.Pos)
		e.tileOp(v)
		return
	}
	e.source(v.Pos)
	e.define(v, func(i string) string { return e.compute(v, i) })
}

// define declares v (unless declared before a full/partial split) and
// assigns each of its elements the expression body(i).
func (e *emitter) define(v *ir.Value, body func(i string) string) {
	name := e.names[v.ID]
	if v.Type.IsScalar() {
		if e.outside[v.ID] || e.fused[v.ID] {
			e.w.line("%s = %s;", name, body(""))
		} else {
			e.declare(v.Type, nil, name, body(""))
		}
		return
	}
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, e.layoutOf(v), name, "")
	}
	e.loop(e.layoutOf(v).Elems, func(i string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, body(i)) })
}

// defineAt declares tile v and writes each element i of it as body(j),
// where j, the local tri_j, is at(i): an element index computed once, not
// pasted into each place body reads it.
func (e *emitter) defineAt(v *ir.Value, at, body func(i string) string) {
	name, d := e.names[v.ID], e.layoutOf(v)
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	e.forElems(d.Elems, at, func(i, j string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, body(j)) })
}

// forElems writes stmt(i, j) for each of the n elements i of a thread's
// tile, where j is the int index at(i): pasted into stmt where the line
// fits in lineWidth, else bound to the local tri_j in a block of its own.
// stmt holds no string literal.
func (e *emitter) forElems(n int, at func(i string) string, stmt func(i, j string) string) {
	i, head := "e", fmt.Sprintf("for (int e = 0; e < %d; ++e) ", n)
	if n == 1 {
		i, head = "0", ""
	} else {
		e.w.line("#pragma unroll")
	}
	if one := head + stmt(i, at(i)); 2*e.w.indent+len(one) <= lineWidth {
		e.w.line("%s", one)
		return
	}
	e.w.open("%s{", head)
	e.w.line("const int tri_j = %s;", at(i))
	e.w.long(stmt(i, "tri_j"))
	e.w.close("}")
}

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

// castExpr converts x from dtype from to dtype to with Triton's semantics:
// integers wrap, floats go to integers toward zero, to Bool is != 0, and
// narrowing float conversions round to nearest even (toward zero with
// FlagRoundTZ).
func (s nameSet) castExpr(from, to ir.DType, x string, flags ir.Flags) string {
	if from == to {
		return x
	}
	fk, tk := from.Kind, to.Kind
	rz := flags&ir.FlagRoundTZ != 0
	if fk.IsFP8() || tk.IsFP8() {
		return s.fp8CastExpr(from, to, x, rz)
	}
	if isHalf(fk) {
		if tk == ir.Float32 {
			return s.toFloat(fk, x)
		}
		return s.castExpr(ir.TFloat32, to, s.toFloat(fk, x), flags)
	}
	switch {
	case tk == ir.Bool:
		return fmt.Sprintf("%s != 0", x)
	case tk == ir.Ptr || fk == ir.Ptr:
		return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
	case tk == ir.Float16 && fk == ir.Float64:
		s.use("tri_half")
		if rz {
			s.use("tri_d2h_rz")
			return "tri_d2h_rz(" + x + ")"
		}
		s.use("tri_d2h")
		return "tri_d2h(" + x + ")"
	case isHalf(tk):
		f := x
		if fk != ir.Float32 {
			f = "(float)(" + x + ")"
		}
		if rz {
			if tk == ir.Float16 {
				s.use("tri_f2h_rz")
				return "tri_f2h_rz(" + f + ")"
			}
			s.use("tri_f2bf_rz")
			return "tri_f2bf_rz(" + f + ")"
		}
		return s.fromFloat(tk, f)
	}
	return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
}

// bitcastExpr reinterprets the bits of x (same width).
func (s nameSet) bitcastExpr(from, to ir.DType, x string) string {
	switch {
	case from.Kind == ir.Float32:
		s.use("tri_bits_f32")
		return fmt.Sprintf("(%s)tri_bits_f32(%s)", s.cType(to), x)
	case to.Kind == ir.Float32:
		s.use("tri_f32_bits")
		return fmt.Sprintf("tri_f32_bits((unsigned int)%s)", x)
	case from.Kind == ir.Float64:
		s.use("tri_bits_f64")
		return fmt.Sprintf("(%s)tri_bits_f64(%s)", s.cType(to), x)
	case to.Kind == ir.Float64:
		s.use("tri_f64_bits")
		return fmt.Sprintf("tri_f64_bits((unsigned long long)%s)", x)
	}
	return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
}

// gridDepControl emits gdc_wait or gdc_launch_dependents: PTX's
// griddepcontrol, which exists from sm_90. Below it a launch cannot be
// programmatically dependent, so waiting and releasing are no-ops there
// (Triton's inline PTX would fail to assemble instead).
func (e *emitter) gridDepControl(v *ir.Value) {
	instr := "griddepcontrol.wait"
	what := "wait until the grids this launch depends on have finished (or released it) and their writes are visible"
	if v.Op == ir.OpGdcLaunchDependents {
		instr = "griddepcontrol.launch_dependents"
		what = "let the dependent launch start once every program has passed this point or exited"
	}
	if e.arch < 90 {
		e.w.line("// %s: needs sm_90; a no-op on this target.", instr)
		return
	}
	e.w.line("// %s.", what)
	e.w.line(`asm volatile("%s;" ::: "memory");`, instr)
}
