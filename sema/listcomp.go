package sema

// This file implements list comprehensions in kernels, which Triton's code
// generator evaluates over a tuple at compile time: [v + 1 for v in values]
// is the tuple of each element plus one (tl.tuple([...]) in test_tuple.py).

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// listComp evaluates [Elt for Target in Iter if Ifs] over a tuple: the
// tuple of Elt for each element whose conditions, known at compile time,
// hold. The target is local to the comprehension, as in Python 3.
func (c *compiler) listComp(fr *frame, e *frontend.BadExpr) *val {
	lc := e.Comp
	if lc.More {
		return c.errorf(e.Pos, diag.CodeUnsupported, "nested comprehensions are not supported")
	}
	iter := c.expr(fr, lc.Iter)
	if iter.k == kInvalid {
		return invalid
	}
	if iter.k != kTuple {
		return c.errorf(lc.Iter.Position(), diag.CodeUnsupported, "only tuple comprehensions are supported: %s is not a tuple", iter.describe())
	}
	names := map[string]bool{}
	targetNames(lc.Target, names)
	saved := map[string]*val{}
	for n := range names {
		if v, ok := fr.env[n]; ok {
			saved[n] = v
		}
	}
	defer func() {
		for n := range names {
			if v, ok := saved[n]; ok {
				fr.env[n] = v
			} else {
				delete(fr.env, n)
			}
		}
	}()
	out := &val{k: kTuple, elts: []*val{}}
	for _, item := range iter.elts {
		c.bindTarget(fr, lc.Target, item)
		keep := true
		for _, cond := range lc.Ifs {
			v := c.expr(fr, cond)
			if v.k == kInvalid {
				return invalid
			}
			if !v.isConst() {
				return c.errorf(cond.Position(), diag.CodeUnsupported, "the condition of a comprehension must be known at compile time, got %s", v.describe())
			}
			keep = keep && v.truth()
		}
		if !keep {
			continue
		}
		v := c.expr(fr, lc.Elt)
		if v.k == kInvalid {
			return invalid
		}
		out.elts = append(out.elts, v)
	}
	return out
}
