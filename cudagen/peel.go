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
	if n := e.unrollFull(b); n > 1 {
		e.unrolledFull(s, b, split, full, n)
	}
	e.w.open("for (; %s; %s += %s) {", full, i, step)
	e.peeledBody(b, split, true)
	e.w.close("}")
	e.w.open("for (; %s < %s; %s += %s) {", i, hi, i, step)
	e.peeledBody(b, split, false)
	e.w.close("}")
	e.w.close("}")
	return true
}

// unrollFull is how many full tiles an iteration of a peeled loop takes
// first: enough that each thread has 32 bytes of loads in flight, at most
// 4, where the body only reads memory (a row norm's sum of squares, block
// by block, is bound by the loads in flight: ptxas unrolls Triton's loop
// of 8-byte loads 4x and issues the 4 loads together, but not tri's, nor
// under #pragma unroll, which keeps a test between the iterations); 1
// where one tile loads that much, or where the body writes memory, which
// would order each tile's loads after the last one's stores anyway.
func (e *emitter) unrollFull(b *ir.Block) int {
	bytes := 0
	for _, st := range b.Stmts {
		if writesMemory(st) {
			return 1
		}
		if v, ok := st.(*ir.Value); ok && v.Op == ir.OpLoad {
			bytes += e.layoutOf(v).Elems * v.Type.Kind.Bytes()
		}
	}
	if bytes == 0 {
		return 1
	}
	return min(4, max(1, 32/bytes))
}

// unrolledFull writes the loop over n full tiles an iteration that comes
// before a peeled loop's loop over full tiles (full is its test): each
// tile's body in a block of its own, where the loop variable is that
// tile's, so that the compiler sees n independent runs of loads.
func (e *emitter) unrolledFull(s *ir.For, b *ir.Block, split int, full string, n int) {
	i, t, step := e.varNames[s.Var.ID], cType(s.Var.Type.DType), s.Step.Const.Int
	e.w.line("// %d full tiles an iteration, so each thread's loads of the %d are in flight together.", n, n)
	e.w.open("for (;; %s += %d) {", i, int64(n)*step)
	e.w.line("const %s tri_u = %s;", t, i)
	e.w.line("{ const %s %s = tri_u + %d; if (!(%s)) break; }  // the last of them is a full tile too", t, i, int64(n-1)*step, full)
	for u := range n {
		e.w.open("{")
		if u > 0 {
			e.w.line("const %s %s = tri_u + %d;", t, i, int64(u)*step)
		}
		e.peeledBody(b, split, true)
		e.w.close("}")
	}
	e.w.close("}")
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
		e.nest.stmt(st)
	}
	if full {
		e.markMaskOnly(b, split, len(b.Stmts))
	}
	e.fast = full
	for _, st := range b.Stmts[split:] {
		e.nest.stmt(st)
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
