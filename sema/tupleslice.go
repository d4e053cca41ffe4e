package sema

// This file implements slices of constexpr tuples (x.shape[:-1]), with
// Python's rules for missing, negative and out-of-range bounds and steps.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// sliceTuple evaluates x[s] for a tuple x and a slice s whose bounds and
// step are compile-time integers (or absent).
func (c *compiler) sliceTuple(fr *frame, x *val, s *frontend.Slice) *val {
	bound := func(e frontend.Expr) (int, bool, bool) {
		if e == nil {
			return 0, false, true
		}
		v := c.expr(fr, e)
		if v.k == kInvalid {
			return 0, false, false
		}
		if v.k == kNone {
			return 0, false, true
		}
		n, ok := v.asInt()
		if !ok || !n.IsInt64() {
			c.errorf(e.Position(), diag.CodeType, "a tuple slice bound must be a compile-time integer, got %s", v.describe())
			return 0, false, false
		}
		return int(max(min(n.Int64(), 1<<40), -(1 << 40))), true, true
	}
	lo, hasLo, ok1 := bound(s.Lo)
	hi, hasHi, ok2 := bound(s.Hi)
	step, hasStep, ok3 := bound(s.Step)
	if !ok1 || !ok2 || !ok3 {
		return invalid
	}
	if !hasStep {
		step = 1
	}
	if step == 0 {
		return c.errorf(s.Step.Position(), diag.CodeValue, "slice step cannot be zero")
	}
	start, stop := sliceIndices(len(x.elts), lo, hasLo, hi, hasHi, step)
	out := &val{k: kTuple}
	for i := start; step > 0 && i < stop || step < 0 && i > stop; i += step {
		out.elts = append(out.elts, x.elts[i])
	}
	if out.elts == nil {
		out.elts = []*val{}
	}
	return out
}

// sliceIndices is Python's slice.indices for a sequence of length n: the
// first index and the bound (exclusive) that a walk by step stops at.
func sliceIndices(n, lo int, hasLo bool, hi int, hasHi bool, step int) (int, int) {
	clamp := func(i int) int {
		if i < 0 {
			i += n
		}
		if step > 0 {
			return max(0, min(i, n))
		}
		return max(-1, min(i, n-1))
	}
	start, stop := 0, n
	if step < 0 {
		start, stop = n-1, -1
	}
	if hasLo {
		start = clamp(lo)
	}
	if hasHi {
		stop = clamp(hi)
	}
	return start, stop
}
