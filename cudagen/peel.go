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

// loopBounds returns the bounds of the masks the full-tile test of loop
// s's body covers (its accesses from statement split on).
func (e *emitter) loopBounds(s *ir.For, split int) ([]bound, bool) {
	var all []bound
	for _, st := range s.Body.Stmts[split:] {
		v, isValue := st.(*ir.Value)
		if !isValue {
			continue
		}
		mask := e.testedMask(v)
		if mask == nil {
			continue
		}
		bs, ok := maskBounds(mask)
		if !ok {
			return nil, false
		}
		all = append(all, bs...)
	}
	return all, true
}

// fallsOnce reports whether the full-tile test of loop s's body can only
// go from true to false as the loop runs: each bound is defined outside
// the loop, and each term of each compared sum is either the loop
// variable, with a positive factor, or defined outside the loop.
func (e *emitter) fallsOnce(s *ir.For, split int) bool {
	outside := func(v *ir.Value) bool {
		if v.Op == ir.OpConst || v.Op == ir.OpParam {
			return true
		}
		return e.defs[v.ID].Block != s.Body
	}
	bs, ok := e.loopBounds(s, split)
	if !ok {
		return false
	}
	for _, bd := range bs {
		if !outside(bd.limit) {
			return false
		}
		for _, t := range bd.af.terms {
			if e.isLoopVar(s, t.v) {
				if t.mult <= 0 {
					return false
				}
			} else if !outside(t.v) {
				return false
			}
		}
	}
	return true
}

// impliesBound reports whether one of the full-tile test's bounds is the
// loop variable plus a constant that is not negative, below the loop's own
// bound: the test then implies the loop's condition.
func (e *emitter) impliesBound(s *ir.For, split int) bool {
	bs, _ := e.loopBounds(s, split)
	for _, bd := range bs {
		af := bd.af
		if !bd.le && bd.limit == s.Hi && len(af.terms) == 1 && e.isLoopVar(s, af.terms[0].v) &&
			af.terms[0].mult == 1 && af.k >= 0 && af.lo >= 0 {
			return true
		}
	}
	return false
}

// isLoopVar reports whether v reads loop s's variable, printed as its name.
func (e *emitter) isLoopVar(s *ir.For, v *ir.Value) bool {
	return v.Op == ir.OpVarRead && v.Var == s.Var && e.inlined[v.ID]
}
