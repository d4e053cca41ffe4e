package ir

// This file implements Verify, the checker of the IR's invariants, run on
// everything sema produces in tests.

import (
	"fmt"
)

// Verify checks k's invariants: every value is defined once and before its
// uses (in its block or an enclosing one), operand types match each op's
// contract, and assignments match their Var's type. It returns the first
// violation found.
func Verify(k *Kernel) (err error) {
	vf := &verifier{k: k, defined: map[*Value]bool{}, seen: map[int]bool{}}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("verify %s: %v", k.Name, r)
		}
	}()
	for i, p := range k.Params {
		if p.Index != i {
			return fmt.Errorf("param %s has index %d, want %d", p.Name, p.Index, i)
		}
	}
	if k.Body == nil {
		return fmt.Errorf("kernel %s has no body", k.Name)
	}
	return vf.block(k.Body)
}

type verifier struct {
	k       *Kernel
	defined map[*Value]bool
	seen    map[int]bool
}

func (vf *verifier) block(b *Block) error {
	if b == nil {
		return fmt.Errorf("nil block")
	}
	var local []*Value
	defer func() {
		for _, v := range local {
			delete(vf.defined, v)
		}
	}()
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Value:
			if err := vf.value(s); err != nil {
				return fmt.Errorf("%s: %%%d = %s: %v", s.Pos, s.ID, s.Op, err)
			}
			vf.defined[s] = true
			local = append(local, s)
		case *Assign:
			if err := vf.use(s.Value); err != nil {
				return fmt.Errorf("%s: assign to %s: %v", s.Pos, s.Var.Name, err)
			}
			if !s.Value.Type.Equal(s.Var.Type) {
				return fmt.Errorf("%s: assign of %s to var %s of type %s", s.Pos, s.Value.Type, s.Var.Name, s.Var.Type)
			}
		case *For:
			for _, v := range []*Value{s.Lo, s.Hi, s.Step} {
				if err := vf.use(v); err != nil {
					return fmt.Errorf("%s: for bounds: %v", s.Pos, err)
				}
				if !v.Type.Equal(s.Var.Type) || !v.Type.IsScalar() || !v.Type.Kind.IsInt() {
					return fmt.Errorf("%s: for bound of type %s, var of type %s", s.Pos, v.Type, s.Var.Type)
				}
			}
			if err := vf.block(s.Body); err != nil {
				return err
			}
		case *While:
			if err := vf.block(s.Cond); err != nil {
				return err
			}
			if s.CondValue == nil || s.CondValue.Type.Kind != Bool || !s.CondValue.Type.IsScalar() {
				return fmt.Errorf("%s: while condition must be a Bool scalar", s.Pos)
			}
			if !contains(s.Cond, s.CondValue) {
				return fmt.Errorf("%s: while condition is not computed in its Cond block", s.Pos)
			}
			if err := vf.block(s.Body); err != nil {
				return err
			}
		case *If:
			if err := vf.use(s.Cond); err != nil {
				return fmt.Errorf("%s: if: %v", s.Pos, err)
			}
			if s.Cond.Type.Kind != Bool || !s.Cond.Type.IsScalar() {
				return fmt.Errorf("%s: if condition has type %s", s.Pos, s.Cond.Type)
			}
			if s.Else == nil {
				return fmt.Errorf("%s: if with nil Else", s.Pos)
			}
			if err := vf.block(s.Then); err != nil {
				return err
			}
			if err := vf.block(s.Else); err != nil {
				return err
			}
		case *Return:
		default:
			return fmt.Errorf("unknown statement %T", s)
		}
	}
	return nil
}

func contains(b *Block, v *Value) bool {
	for _, s := range b.Stmts {
		if s == Stmt(v) {
			return true
		}
	}
	return false
}

func (vf *verifier) use(v *Value) error {
	if v == nil {
		return fmt.Errorf("missing operand")
	}
	if !vf.defined[v] {
		return fmt.Errorf("%%%d (%s) is used where it is not defined", v.ID, v.Op)
	}
	return nil
}

func (vf *verifier) value(v *Value) error {
	if v.ID < 0 || v.ID >= vf.k.NumValues {
		return fmt.Errorf("ID out of range (NumValues %d)", vf.k.NumValues)
	}
	if vf.seen[v.ID] {
		return fmt.Errorf("defined twice")
	}
	vf.seen[v.ID] = true
	optional := v.Op.Info().Nilable
	for i, a := range v.Args {
		if a == nil && optional && i > 0 {
			continue
		}
		if err := vf.use(a); err != nil {
			return err
		}
	}
	if err := checkOp(v); err != nil {
		return err
	}
	if v.Region != nil {
		return vf.region(v)
	}
	return nil
}

// checkOp checks v's operand and result types against its op's contract:
// the arity, and for elementwise, compare and math ops everything, from
// the op table; the attributes of the other ops case by case.
func checkOp(v *Value) error {
	info := v.Op.Info()
	if info.Class == ClassInvalid {
		return fmt.Errorf("unknown op %d", v.Op)
	}
	if n := len(v.Args); n < info.MinArgs || info.MaxArgs != Variadic && n > info.MaxArgs {
		if info.MinArgs == info.MaxArgs {
			return fmt.Errorf("has %d operands, want %d", n, info.MinArgs)
		}
		return fmt.Errorf("has %d operands, want at least %d", n, info.MinArgs)
	}
	t := v.Type
	arg := func(i int) Type { return v.Args[i].Type }
	switch info.Result {
	case ResultVoid:
		if t.Kind != Void {
			return fmt.Errorf("%s has a result of type %s", v.Op, t)
		}
	case ResultPointee:
		if p := arg(0); !p.IsPtr() || t.DType != Scalar(p.Elem) || !t.Shape.Equal(p.Shape) {
			return fmt.Errorf("%s of %s through %s", v.Op, t, p)
		}
	case ResultSame:
		if info.MinArgs > 0 && !arg(0).Equal(t) {
			return fmt.Errorf("%s of %s giving %s", v.Op, arg(0), t)
		}
	}
	switch info.Class {
	case ClassElementwise, ClassMath:
		if err := sameTypes(v); err != nil {
			return err
		}
		if !info.Accepts.Has(t.Kind) {
			return fmt.Errorf("%s on %s", v.Op, t)
		}
		return nil
	case ClassCompare:
		if !arg(0).Equal(arg(1)) || t.DType != TBool || !t.Shape.Equal(arg(0).Shape) {
			return fmt.Errorf("compare of %s and %s giving %s", arg(0), arg(1), t)
		}
		return nil
	}
	switch v.Op {
	case OpConst, OpProgramID, OpNumPrograms, OpArange:
		switch v.Op {
		case OpConst:
			if !t.IsScalar() {
				return fmt.Errorf("constant of non-scalar type %s", t)
			}
		case OpProgramID, OpNumPrograms:
			if !t.Equal(ScalarType(TInt32)) || v.Axis < 0 || v.Axis > 2 {
				return fmt.Errorf("bad program id type %s or axis %d", t, v.Axis)
			}
		case OpArange:
			if t.DType != TInt32 || t.Shape.Rank() != 1 {
				return fmt.Errorf("arange of type %s", t)
			}
		}
	case OpBarrier, OpGdcWait, OpGdcLaunchDependents: // arity and the Void result are all there is
	case OpParam:
		if v.Param == nil || !t.Equal(ScalarType(v.Param.DType)) {
			return fmt.Errorf("param type %s does not match its Param", t)
		}
	case OpVarRead:
		if v.Var == nil || !t.Equal(v.Var.Type) {
			return fmt.Errorf("read of type %s from a var of another type", t)
		}
	case OpSplat:
		if !arg(0).IsScalar() || arg(0).DType != t.DType || t.IsScalar() {
			return fmt.Errorf("splat of %s to %s", arg(0), t)
		}
	case OpBroadcast:
		a := arg(0)
		if a.DType != t.DType || a.Shape.Rank() != t.Shape.Rank() {
			return fmt.Errorf("broadcast of %s to %s", a, t)
		}
		for i := range a.Shape {
			if a.Shape[i] != t.Shape[i] && a.Shape[i] != 1 {
				return fmt.Errorf("broadcast of %s to %s", a, t)
			}
		}
	case OpExpandDims:
		a := arg(0)
		if a.DType != t.DType || t.Shape.Rank() != a.Shape.Rank()+1 || v.Axis < 0 || v.Axis > a.Shape.Rank() || t.Shape[v.Axis] != 1 {
			return fmt.Errorf("expand_dims of %s to %s at axis %d", a, t, v.Axis)
		}
	case OpReshape:
		if arg(0).DType != t.DType || arg(0).Shape.NumElements() != t.Shape.NumElements() {
			return fmt.Errorf("reshape of %s to %s", arg(0), t)
		}
	case OpCast, OpBitcast:
		if !arg(0).Shape.Equal(t.Shape) {
			return fmt.Errorf("%s changes the shape from %s to %s", v.Op, arg(0), t)
		}
		if v.Op == OpBitcast && arg(0).Kind.Bits() != t.Kind.Bits() {
			return fmt.Errorf("bitcast of %s to %s", arg(0), t)
		}
	case OpWhere:
		if arg(0).DType != TBool || !arg(0).Shape.Equal(t.Shape) || !arg(1).Equal(t) || !arg(2).Equal(t) {
			return fmt.Errorf("where(%s, %s, %s) giving %s", arg(0), arg(1), arg(2), t)
		}
	case OpPtrAdd:
		if !t.IsPtr() || !arg(0).Equal(t) || !arg(1).Kind.IsInt() || !arg(1).Shape.Equal(t.Shape) {
			return fmt.Errorf("ptr_add(%s, %s) giving %s", arg(0), arg(1), t)
		}
	case OpLoad: // the table's ResultPointee checked the pointer and the result
		p := arg(0)
		if m := v.Args[1]; m != nil && (m.Type.DType != TBool || !m.Type.Shape.Equal(p.Shape)) {
			return fmt.Errorf("mask of type %s for pointer %s", m.Type, p)
		}
		if o := v.Args[2]; o != nil && (!o.Type.Equal(t) || v.Args[1] == nil) {
			return fmt.Errorf("other of type %s for load of %s", o.Type, t)
		}
	case OpStore:
		p := arg(0)
		if v.Args[1] == nil {
			return fmt.Errorf("store without a value")
		}
		if !p.IsPtr() || t.Kind != Void || !arg(1).Equal(Type{DType: Scalar(p.Elem), Shape: p.Shape}) {
			return fmt.Errorf("store of %s through %s", arg(1), p)
		}
		if m := v.Args[2]; m != nil && (m.Type.DType != TBool || !m.Type.Shape.Equal(p.Shape)) {
			return fmt.Errorf("mask of type %s for pointer %s", m.Type, p)
		}
	case OpMultipleOf, OpMaxContiguous:
		if err := sameTypes(v); err != nil {
			return err
		}
		if len(v.Hints) != max(1, t.Shape.Rank()) {
			return fmt.Errorf("%d hints for %s", len(v.Hints), t)
		}
	case OpAssume:
		if !arg(0).Equal(ScalarType(TBool)) || t.Kind != Void {
			return fmt.Errorf("assume of %s", arg(0))
		}
	case OpRegionArg:
		return fmt.Errorf("region argument outside its region's Args")
	case OpPrint, OpAssert:
		return checkDebugOp(v)
	default:
		return checkTileOp(v)
	}
	return nil
}

// sameTypes checks that v's operands all have v's type.
func sameTypes(v *Value) error {
	for _, a := range v.Args {
		if !a.Type.Equal(v.Type) {
			return fmt.Errorf("operand of type %s, result of type %s", a.Type, v.Type)
		}
	}
	return nil
}
