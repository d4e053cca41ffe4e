package ir

// This file implements the hoisting of loop-invariant address arithmetic.
//
// A load through a tensor descriptor or a block pointer inside a K loop is
// expanded into index, offset and bounds arithmetic per dimension (sema's
// blockAccess), and only some dimensions depend on the loop: the rows of
// a_desc.load([offs_am, k]) are the same at every k. Triton's LICM moves
// such values before the loop; without it the generated loop recomputes,
// per iteration and per element, 64-bit offsets and masks that never
// change, which costs as much as the wgmma instructions they feed.
//
// Only pure, cheap, non-trapping ops move (integer and float arithmetic
// without division, comparisons, casts, selects, pointer offsets, aranges
// and constants), and only those whose arguments are all defined outside
// the loop. Splats, broadcasts and expand_dims move too: they are views
// the generated code reads through, so an invariant offset splat over a
// tile's rows leaves the loop with the arithmetic that uses it.

// hoistable are the ops HoistInvariants may move out of a loop.
var hoistable = map[Op]bool{
	OpConst: true, OpArange: true, OpProgramID: true, OpNumPrograms: true,
	OpAdd: true, OpSub: true, OpMul: true, OpNeg: true, OpMax: true, OpMin: true,
	OpAnd: true, OpOr: true, OpXor: true, OpNot: true,
	OpEq: true, OpNe: true, OpLt: true, OpLe: true, OpGt: true, OpGe: true,
	OpCast: true, OpBitcast: true, OpWhere: true, OpPtrAdd: true,
	OpSplat: true, OpBroadcast: true, OpExpandDims: true, OpMultipleOf: true, OpMaxContiguous: true,
}

// IsPure reports whether v computes its result from its operands alone,
// with no effect and no trap (integer division is left out): a value of
// these ops that nothing reads may be left uncomputed.
func IsPure(v *Value) bool {
	return (hoistable[v.Op] || v.Op == OpVarRead) && v.Region == nil && len(v.Types) == 0
}

// HoistInvariants moves the loop-invariant values of k's for and while
// loops before the loops, innermost loops first, so that a value invariant
// in several nested loops leaves all of them.
func HoistInvariants(k *Kernel) {
	hoistBlock(k.Body)
}

// hoistBlock hoists out of the loops in b (and in blocks nested in b).
func hoistBlock(b *Block) {
	var out []Stmt
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *For:
			hoistBlock(s.Body)
			out = append(out, hoistFrom(s.Body, nil, hasLoop(s.Body))...)
		case *While:
			hoistBlock(s.Body)
			hoistBlock(s.Cond)
			out = append(out, hoistFrom(s.Body, s.Cond, hasLoop(s.Body) || hasLoop(s.Cond))...)
		case *If:
			hoistBlock(s.Then)
			hoistBlock(s.Else)
		}
		out = append(out, s)
	}
	b.Stmts = out
}

// hoistFrom removes from body the leading-edge invariant values (values
// whose arguments are all defined outside body and cond) and returns them
// in order; with scalarsOnly, only scalars.
//
// A loop that holds another loop (a persistent kernel's tile loop around
// its K loop) keeps its invariant tiles: they would be computed once per
// tile either way, and each hoisted tile holds its registers across the
// whole inner loop. Tutorial 08's descriptor kernel spilled for it: the
// column indices of its c_desc.store, 64 64-bit values a thread, were
// hoisted out of the tile loop and held through the K loop.
func hoistFrom(body, cond *Block, scalarsOnly bool) []Stmt {
	inside := map[*Value]bool{}
	mark := func(v *Value) { inside[v] = true }
	if cond != nil {
		Inspect(cond, mark)
	}
	Inspect(body, mark)
	var moved, kept []Stmt
	for _, s := range body.Stmts {
		v, ok := s.(*Value)
		if ok && hoistable[v.Op] && v.Region == nil && len(v.Types) == 0 && allOutside(v, inside) &&
			(!scalarsOnly || v.Type.IsScalar()) {
			delete(inside, v)
			moved = append(moved, v)
			continue
		}
		kept = append(kept, s)
	}
	body.Stmts = kept
	return moved
}

func allOutside(v *Value, inside map[*Value]bool) bool {
	for _, a := range v.Args {
		if a != nil && inside[a] {
			return false
		}
	}
	return true
}

// hasLoop reports whether b holds a loop, at any depth.
func hasLoop(b *Block) bool {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *For, *While:
			return true
		case *If:
			if hasLoop(s.Then) || hasLoop(s.Else) {
				return true
			}
		}
	}
	return false
}
