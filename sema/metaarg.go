package sema

// This file implements the placing of errors that a meta-parameter's value
// causes at the launch that gave the value.
//
// A launch such as add_kernel[grid](x, y, out, n, BLOCK_SIZE=1000) is
// wrong in its launch, not in the kernel: tl.arange(0, BLOCK_SIZE) needs a
// power of 2, and the kernel is right for every power of 2. Triton reports
// such an error at the arange, and a user reading it edits the wrong line.
// So a constexpr parameter given on the launch (Arg.At) remembers where,
// the value carries that along through the names, helper calls and
// constant arithmetic that pass it on (val.from), and the checks of sizes
// that values fail (tl.arange, block shapes, histogram bins) report at the
// launch, with a note at the kernel's line that made the check.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
)

// metaArg is a constexpr parameter's value as the launch gave it.
type metaArg struct {
	name  string   // the parameter
	value string   // its value as Python prints it
	at    diag.Pos // where the launch gives it
}

// metaOf is the first of vs (or of their elements, for a tuple such as a
// shape) that came from a meta-parameter given on the launch, or nil.
func metaOf(vs ...*val) *metaArg {
	for _, v := range vs {
		switch {
		case v == nil:
		case v.from != nil:
			return v.from
		case v.k == kTuple:
			if m := metaOf(v.elts...); m != nil {
				return m
			}
		}
	}
	return nil
}

// metaErrorf reports an error at pos about vs, or, where one of vs came
// from a meta-parameter given on the launch, at the launch with a note at
// pos: the launch is the line to change.
func (c *compiler) metaErrorf(pos diag.Pos, vs []*val, code diag.Code, format string, args ...any) *val {
	msg := fmt.Sprintf(format, args...)
	m := metaOf(vs...)
	if m == nil {
		return c.errorf(pos, code, "%s", msg)
	}
	d := diag.Errorf(m.at, code, "%s=%s: %s", m.name, m.value, msg)
	d.WithNote(pos, "%s reaches the kernel's code here", m.name)
	c.add(c.withCalls(d))
	return invalid
}

// carryMeta gives r, a constant computed from a and b, the meta-parameter
// either came from, so that BLOCK_SIZE // 3 is blamed on BLOCK_SIZE too.
// Only fresh numbers take it: a result that is one of the operands, or a
// shared value, must not be changed.
func carryMeta(r, a, b *val) {
	if r == nil || r == a || r == b || r.from != nil || (r.k != kInt && r.k != kFloat) {
		return
	}
	if m := metaOf(a, b); m != nil {
		r.from = m
	}
}
