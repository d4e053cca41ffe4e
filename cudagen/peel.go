package cudagen

// This file peels the last, partial tile off a loop. A loop whose body is
// one straight run with a full-tile test (fastpath.go) would test it in
// every iteration and hold both the unmasked and the masked copy of the
// body. When the test can only turn from true to false as the loop
// variable grows (every bound it compares against is fixed during the
// loop, and the loop variable enters each compared sum with a positive
// factor), the loop is written twice instead: one loop over the full
// tiles, with no test and no masked code inside, so that the compiler can
// unroll it and issue several iterations' loads together (a row norm's
// sum of squares, block by block, is memory bound on how many loads are in
// flight), then one loop, masked, over what is left.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// peeledFor writes loop s as a loop over its full tiles and a loop over
// the rest, and reports whether it did; it leaves loops it cannot peel to
// plainFor.
func (e *emitter) peeledFor(s *ir.For) bool {
	b := s.Body
	if s.Step.Op != ir.OpConst || s.Step.Const.Int <= 0 || len(b.Stmts) == 0 {
		return false
	}
	for _, st := range b.Stmts {
		if !isStraight(st) {
			return false
		}
		// Loops of dots keep the forms the tensor-core paths chose.
		if v, ok := st.(*ir.Value); ok && v.Op == ir.OpDot {
			return false
		}
	}
	split, test := e.fullTest(b, 0, len(b.Stmts))
	if split < 0 || test == "true" || !e.fallsOnce(s, split) {
		return false
	}
	i := e.varNames[s.Var.ID]
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	// A test of the loop variable plus a constant below the loop's own
	// bound implies the loop's condition: the full loop then has a trip
	// count ptxas can compute.
	full := test
	if !e.impliesBound(s, split) {
		full = fmt.Sprintf("%s < %s && %s", i, hi, test)
	}
	e.w.line("// The loop is written twice: over the full tiles, unmasked and vectorized, then over the rest, masked.")
	e.w.open("{")
	e.w.line("%s %s = %s;", cType(s.Var.Type.DType), i, lo)
	e.w.open("for (; %s; %s += %s) {", full, i, step)
	e.peeledBody(b, split, true)
	e.w.close("}")
	e.w.open("for (; %s < %s; %s += %s) {", i, hi, i, step)
	e.peeledBody(b, split, false)
	e.w.close("}")
	e.w.close("}")
	return true
}

// peeledBody writes the straight body b of a peeled loop: the statements
// before split once, then the rest unmasked (full) or masked.
func (e *emitter) peeledBody(b *ir.Block, split int, full bool) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == b {
			e.declare(x.Type, e.varDists[x.ID], e.varNames[x.ID], "")
		}
	}
	e.lastLine = 0
	for _, st := range b.Stmts[:split] {
		e.statement(st)
	}
	if full {
		e.markMaskOnly(b, split, len(b.Stmts))
	}
	e.fast = full
	for _, st := range b.Stmts[split:] {
		e.statement(st)
	}
	e.fast = false
	e.lastLine = 0
}

// fallsOnce reports whether the full-tile test of loop s's body (the masks
// of the accesses from statement split on) can only go from true to
// false as the loop runs: each bound is defined outside the loop, and each
// term of each compared sum is either the loop variable, with a positive
// factor, or defined outside the loop.
func (e *emitter) fallsOnce(s *ir.For, split int) bool {
	b := s.Body
	outside := func(v *ir.Value) bool {
		if v.Op == ir.OpConst || v.Op == ir.OpParam {
			return true
		}
		return e.defs[v.ID].Block != b
	}
	var ok func(mask *ir.Value) bool
	ok = func(mask *ir.Value) bool {
		switch mask.Op {
		case ir.OpBroadcast, ir.OpExpandDims:
			return ok(mask.Args[0])
		case ir.OpAnd:
			return ok(mask.Args[0]) && ok(mask.Args[1])
		case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		default:
			return false
		}
		lhs, rhs := mask.Args[0], mask.Args[1]
		if mask.Op == ir.OpGt || mask.Op == ir.OpGe {
			lhs, rhs = rhs, lhs
		}
		if rhs.Op != ir.OpSplat || !outside(rhs.Args[0]) {
			return false
		}
		af, good := affineOf(lhs)
		if !good {
			return false
		}
		for _, t := range af.terms {
			isVar := t.v.Op == ir.OpVarRead && t.v.Var == s.Var && e.inlined[t.v.ID]
			if !(isVar && t.mult > 0) && !(!isVar && outside(t.v)) {
				return false
			}
		}
		return true
	}
	for _, st := range b.Stmts[split:] {
		v, isValue := st.(*ir.Value)
		if !isValue {
			continue
		}
		var mask *ir.Value
		switch v.Op {
		case ir.OpLoad:
			mask = v.Args[1]
		case ir.OpStore:
			mask = v.Args[2]
		}
		if mask == nil || e.tmaStores[v.ID] != nil || e.directStores[v.ID] {
			continue
		}
		if !ok(mask) {
			return false
		}
	}
	return true
}

// impliesBound reports whether one of the masks of loop s's body (from
// statement split on) compares the loop variable plus a constant that is
// not negative against the loop's own bound, so that the full-tile test
// implies the loop's condition.
func (e *emitter) impliesBound(s *ir.For, split int) bool {
	for _, st := range s.Body.Stmts[split:] {
		v, ok := st.(*ir.Value)
		if !ok || (v.Op != ir.OpLoad && v.Op != ir.OpStore) {
			continue
		}
		mask := v.Args[1]
		if v.Op == ir.OpStore {
			mask = v.Args[2]
		}
		if mask == nil {
			continue // an unmasked access
		}
		for mask.Op == ir.OpBroadcast || mask.Op == ir.OpExpandDims {
			mask = mask.Args[0]
		}
		if mask.Op != ir.OpLt || mask.Args[1].Op != ir.OpSplat || mask.Args[1].Args[0] != s.Hi {
			continue
		}
		af, good := affineOf(mask.Args[0])
		if good && len(af.terms) == 1 && af.terms[0].v.Op == ir.OpVarRead && af.terms[0].v.Var == s.Var &&
			af.terms[0].mult == 1 && af.k >= 0 && af.lo >= 0 {
			return true
		}
	}
	return false
}
