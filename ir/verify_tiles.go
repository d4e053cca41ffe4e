package ir

// This file implements the checks of the ops on tiles of rank 2 and more,
// of reductions, scans and their regions, and of atomics.

import (
	"fmt"
)

// dropDim returns s without dimension axis (nil when nothing is left).
func dropDim(s Shape, axis int) Shape {
	var out Shape
	for i, d := range s {
		if i != axis {
			out = append(out, d)
		}
	}
	return out
}

// ReducedType is the type of one result of a reduction of t along axis.
func ReducedType(t Type, axis int) Type {
	return Type{DType: t.DType, Shape: dropDim(t.Shape, axis)}
}

// checkTileOp checks the ops of tiles of rank 2 and more, reductions,
// scans and atomics.
func checkTileOp(v *Value) error {
	t := v.Type
	arg := func(i int) Type { return v.Args[i].Type }
	switch v.Op {
	case OpTrans:
		a := arg(0)
		if len(v.Perm) != a.Shape.Rank() || t.Shape.Rank() != a.Shape.Rank() || a.DType != t.DType {
			return fmt.Errorf("trans of %s to %s with perm %v", a, t, v.Perm)
		}
		used := make([]bool, len(v.Perm))
		for i, p := range v.Perm {
			if p < 0 || p >= len(v.Perm) || used[p] || t.Shape[i] != a.Shape[p] {
				return fmt.Errorf("trans of %s to %s with perm %v", a, t, v.Perm)
			}
			used[p] = true
		}
	case OpJoin:
		a := arg(0)
		want := Type{DType: a.DType, Shape: append(append(Shape{}, a.Shape...), 2)}
		if !a.Equal(arg(1)) || !t.Equal(want) {
			return fmt.Errorf("join of %s and %s giving %s", a, arg(1), t)
		}
	case OpSplit:
		a := arg(0)
		r := a.Shape.Rank()
		if r == 0 || a.Shape[r-1] != 2 {
			return fmt.Errorf("split of %s: the last dimension must be 2", a)
		}
		want := ReducedType(a, r-1)
		if t.Kind != Void || len(v.Types) != 2 || !v.Types[0].Equal(want) || !v.Types[1].Equal(want) {
			return fmt.Errorf("split of %s giving %v", a, v.Types)
		}
	case OpReduce, OpScan:
		return checkReduce(v)
	case OpDot:
		return checkDot(v)
	case OpLibdevice:
		return checkLibdevice(v)
	case OpTupleGet:
		a := v.Args[0]
		if len(a.Types) == 0 || v.Axis < 0 || v.Axis >= len(a.Types) || !t.Equal(a.Types[v.Axis]) {
			return fmt.Errorf("tuple_get %d of type %s from %s", v.Axis, t, a.Op)
		}
	case OpAtomicRMW:
		if v.Args[1] == nil {
			return fmt.Errorf("atomic without a value")
		}
		if err := checkAtomic(v, v.Args[0].Type, v.Args[1:2]); err != nil {
			return err
		}
		if m := v.Args[2]; m != nil && (m.Type.DType != TBool || !m.Type.Shape.Equal(arg(0).Shape)) {
			return fmt.Errorf("mask of type %s for pointer %s", m.Type, arg(0))
		}
		if v.Atomic > AtomicXchg {
			return fmt.Errorf("unknown atomic operation %d", v.Atomic)
		}
	case OpAtomicCAS:
		return checkAtomic(v, arg(0), v.Args[1:])
	case OpInlineAsm:
		return checkInlineAsm(v)
	case OpSort, OpFlip, OpGather, OpHistogram, OpCat, OpMapElementwise:
		return checkTileOps(v)
	default:
		return fmt.Errorf("unknown op")
	}
	return nil
}

// checkAtomic checks that the operands of an atomic are of the pointee
// type and the pointer's shape, and that the result is their type.
func checkAtomic(v *Value, p Type, operands []*Value) error {
	if !p.IsPtr() {
		return fmt.Errorf("atomic through %s, not a pointer", p)
	}
	want := Type{DType: Scalar(p.Elem), Shape: p.Shape}
	for _, o := range operands {
		if !o.Type.Equal(want) {
			return fmt.Errorf("atomic operand of type %s through %s", o.Type, p)
		}
	}
	if !v.Type.Equal(want) {
		return fmt.Errorf("atomic result of type %s through %s", v.Type, p)
	}
	if v.Sem > SemRelaxed || v.Scope > ScopeSys {
		return fmt.Errorf("bad memory semantics %d or scope %d", v.Sem, v.Scope)
	}
	return nil
}

// checkReduce checks OpReduce and OpScan: operands of one shape, the
// result types, and the combiner's dtype rules.
func checkReduce(v *Value) error {
	if len(v.Args) == 0 {
		return fmt.Errorf("no operands")
	}
	shape := v.Args[0].Type.Shape
	if v.Axis < 0 || v.Axis >= shape.Rank() {
		return fmt.Errorf("axis %d out of range for shape %s", v.Axis, shape)
	}
	var want []Type
	for _, a := range v.Args {
		if !a.Type.Shape.Equal(shape) {
			return fmt.Errorf("operands of shapes %s and %s", shape, a.Type.Shape)
		}
		rt := a.Type
		if v.Op == OpReduce {
			rt = ReducedType(a.Type, v.Axis)
		}
		want = append(want, rt)
	}
	if v.Combine == CombineCustom {
		if v.Region == nil {
			return fmt.Errorf("custom combine without a region")
		}
	} else {
		if v.Region != nil || len(v.Args) != 1 {
			return fmt.Errorf("%s combine with a region or several operands", v.Combine)
		}
		if err := checkCombine(v); err != nil {
			return err
		}
		if v.Combine == CombineArgMax || v.Combine == CombineArgMin {
			want[0].DType = TInt32
		}
	}
	if v.Flags&FlagReverse != 0 && v.Op != OpScan {
		return fmt.Errorf("reverse on a reduction")
	}
	if len(want) == 1 {
		if !v.Type.Equal(want[0]) || len(v.Types) != 0 {
			return fmt.Errorf("result of type %s, want %s", v.Type, want[0])
		}
		return nil
	}
	if v.Type.Kind != Void || len(v.Types) != len(want) {
		return fmt.Errorf("%d operands need %d result types and a Void type", len(want), len(want))
	}
	for i := range want {
		if !v.Types[i].Equal(want[i]) {
			return fmt.Errorf("result %d of type %s, want %s", i, v.Types[i], want[i])
		}
	}
	return nil
}

// checkCombine checks the dtype a builtin combiner works on.
func checkCombine(v *Value) error {
	d := v.Args[0].Type.DType
	ok := !d.IsPtr()
	switch v.Combine {
	case CombineXor, CombineOr:
		ok = d.Kind.IsInt()
	case CombineArgMax, CombineArgMin:
		ok = ok && v.Op == OpReduce
	case CombineSum, CombineProd, CombineMax, CombineMin:
	default:
		ok = false
	}
	if !ok {
		return fmt.Errorf("%s %s of %s", v.Combine, v.Op, d)
	}
	return nil
}

// region checks the Region of v: 2N scalar OpRegionArg arguments of the
// operands' dtypes, a body that uses only them and its own values, and N
// yields of the same dtypes.
func (vf *verifier) region(v *Value) error {
	r := v.Region
	n := len(v.Args)
	if v.Op == OpMapElementwise {
		return vf.mapRegion(v)
	}
	if len(r.Args) != 2*n || len(r.Yields) != n {
		return fmt.Errorf("region with %d arguments and %d yields for %d operands", len(r.Args), len(r.Yields), n)
	}
	return vf.regionBody(r, func(i int) DType { return v.Args[i%n].Type.DType }, func(i int) DType { return v.Args[i].Type.DType })
}

// regionBody checks a region's arguments (OpRegionArg values of the scalar
// types argType gives, each with a fresh ID), its body (using only them
// and its own values) and its yields (of the scalar types yieldType gives,
// computed in the region).
func (vf *verifier) regionBody(r *Region, argType, yieldType func(int) DType) error {
	inner := map[*Value]bool{}
	for i, a := range r.Args {
		want := ScalarType(argType(i))
		if a == nil || a.Op != OpRegionArg || a.Axis != i || !a.Type.Equal(want) {
			return fmt.Errorf("region argument %d must be a region_arg of type %s", i, want)
		}
		if a.ID < 0 || a.ID >= vf.k.NumValues || vf.seen[a.ID] {
			return fmt.Errorf("region argument %d has a bad or repeated ID", i)
		}
		vf.seen[a.ID] = true
		inner[a] = true
	}
	outer := vf.defined
	vf.defined = inner
	err := vf.block(r.Body)
	vf.defined = outer
	if err != nil {
		return fmt.Errorf("in region: %v", err)
	}
	for i, y := range r.Yields {
		want := ScalarType(yieldType(i))
		if y == nil || !y.Type.Equal(want) {
			return fmt.Errorf("region yield %d must be of type %s", i, want)
		}
		if !inner[y] && !contains(r.Body, y) {
			return fmt.Errorf("region yield %d is not computed in the region", i)
		}
	}
	return nil
}

// checkDot checks OpDot: [(B,) M, K] x [(B,) K, N] + [(B,) M, N], of one
// dtype or of two fp8 ones.
func checkDot(v *Value) error {
	a, b, acc := v.Args[0].Type, v.Args[1].Type, v.Args[2].Type
	r := a.Shape.Rank()
	if r < 2 || r > 3 || b.Shape.Rank() != r || a.DType != b.DType && !(a.Kind.IsFP8() && b.Kind.IsFP8()) ||
		a.Shape[r-1] != b.Shape[r-2] || r == 3 && a.Shape[0] != b.Shape[0] {
		return fmt.Errorf("dot of %s and %s", a, b)
	}
	want := append(append(Shape{}, a.Shape[:r-1]...), b.Shape[r-1])
	if !acc.Shape.Equal(want) || !v.Type.Equal(acc) {
		return fmt.Errorf("dot of %s and %s with accumulator %s giving %s", a, b, acc, v.Type)
	}
	return nil
}

// checkInlineAsm checks that an inline asm has its text, a positive
// packing and at least one result, all of one shape with its inputs.
func checkInlineAsm(v *Value) error {
	if v.Asm == nil || v.Asm.Pack < 1 {
		return fmt.Errorf("inline asm without its text or packing")
	}
	results := v.Types
	if len(results) == 0 {
		results = []Type{v.Type}
	} else if v.Type.Kind != Void {
		return fmt.Errorf("inline asm with several results has the type %s", v.Type)
	}
	shape := results[0].Shape
	for _, t := range results {
		if t.Kind == Void || !t.Shape.Equal(shape) {
			return fmt.Errorf("inline asm results %v of different shapes", results)
		}
	}
	for _, a := range v.Args {
		if !a.Type.Shape.Equal(shape) {
			return fmt.Errorf("inline asm input of type %s for results of shape %s", a.Type, shape)
		}
	}
	return nil
}
