package interp

// This file implements undefined lanes. Triton leaves the result of an
// integer division by zero undefined but the kernel valid: a lane whose
// divisor is zero may be discarded by tl.where, or be a masked-off tail
// lane that is never stored. So is a shift by a negative amount or by the
// bit width or more (LLVM's shl, lshr and ashr give poison; on the GPU
// x << 33 on int32 is neither 0 nor x << 1 for sure), and it is handled
// the same way. So a division by zero is not an error where
// it happens; its lanes are marked undefined, the mark follows the value
// through every op, and the error is reported only where an undefined lane
// is used: stored, used as an address, mask or atomic operand, assumed, or
// deciding control flow (an if, a while, a loop bound). The error points
// at the division and names the use.
//
// Elementwise ops, shape ops, tl.flip, tl.cat and tl.map_elementwise move
// the marks lane by lane; tl.where takes the mark of the side it selects
// (and of an undefined condition); a masked load's other takes it into the
// masked-off lanes. Reductions, scans, dots, sorts, gathers and histograms
// mix lanes, so one undefined input lane makes their whole result
// undefined: a division by zero inside them is reported once the result is
// used, which only errs by naming the use rather than the lane.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// fault says why lanes of a tile are undefined: the first division by zero
// or bad shift that made them so.
type fault struct {
	pos  ir.Pos
	what string // "integer division by zero at lane [5]"
}

// undefLanes is the undefined lanes of a tile and their cause; nil when
// every lane is defined.
type undefLanes struct {
	lanes []bool
	cause *fault
}

// any reports whether u marks some lane.
func (u *undefLanes) any() bool { return u != nil }

// at reports whether lane i is undefined.
func (u *undefLanes) at(i int) bool { return u != nil && u.lanes[i] }

// all marks every lane of a tile of n elements undefined.
func all(n int, cause *fault) *undefLanes {
	l := make([]bool, n)
	fill(l, true)
	return &undefLanes{lanes: l, cause: cause}
}

// firstUndef returns the first of ts with undefined lanes, or nil.
func firstUndef(ts []*tile) *tile {
	for _, t := range ts {
		if t != nil && t.undef.any() {
			return t
		}
		if t != nil {
			for _, p := range t.parts {
				if p.undef.any() {
					return p
				}
			}
		}
	}
	return nil
}

// used returns the error for an undefined lane of t used at pos (what
// names the use), or nil if t has none. A mask that is not nil limits the
// check to its active lanes.
func (p *program) used(pos ir.Pos, what string, t, mask *tile) error {
	if t == nil || !t.undef.any() {
		return nil
	}
	for i, u := range t.undef.lanes {
		if u && (mask == nil || mask.ints[i] != 0) {
			c := t.undef.cause
			return p.errorf(c.pos, diag.CodeRuntime, "%s, whose result is used by the %s at line %d%s",
				c.what, what, pos.Line, atLane(t.shape, i))
		}
	}
	return nil
}

// checkUses reports an undefined lane that v uses: an address, a stored
// or atomic operand in an active lane, any lane of a mask (it decides
// whether memory is touched), an atomic_cas operand, an assumed value.
func (p *program) checkUses(v *ir.Value, args []*tile) error {
	var active []*tile // checked in the lanes the mask keeps
	var everywhere []*tile
	var mask *tile
	what := v.Op.String()
	switch v.Op {
	case ir.OpLoad:
		active, mask = args[:1], args[1]
		everywhere = args[1:2]
	case ir.OpStore, ir.OpAtomicRMW:
		active, mask = args[:2], args[2]
		everywhere = args[2:]
		if v.Op == ir.OpAtomicRMW {
			what = "atomic_" + v.Atomic.String()
		}
	case ir.OpAtomicCAS, ir.OpAssume:
		everywhere = args
	default:
		return nil
	}
	for _, a := range active {
		if err := p.used(v.Pos, what, a, mask); err != nil {
			return err
		}
	}
	for _, a := range everywhere {
		if err := p.used(v.Pos, what, a, nil); err != nil {
			return err
		}
	}
	return nil
}

// checkControl reports an undefined scalar deciding control flow.
func (p *program) checkControl(pos ir.Pos, what string, ts ...*tile) error {
	for _, t := range ts {
		if err := p.used(pos, what, t, nil); err != nil {
			return err
		}
	}
	return nil
}

// propagate marks the lanes of t, v's result, that depend on undefined
// lanes of its operands args (some of which have them).
func propagate(v *ir.Value, args []*tile, t *tile) {
	src := firstUndef(args)
	cause := src.undef.cause
	switch v.Op {
	case ir.OpSplat:
		t.undef = all(t.len(), cause)
	case ir.OpBroadcast:
		if t == args[0] {
			return
		}
		t.undef = &undefLanes{lanes: stretch(args[0].undef.lanes, args[0].shape, t.shape), cause: cause}
	case ir.OpExpandDims, ir.OpReshape, ir.OpMultipleOf, ir.OpMaxContiguous:
		t.undef = args[0].undef
	case ir.OpTrans:
		t.undef = &undefLanes{lanes: permute(args[0].undef.lanes, args[0].shape, v.Perm), cause: cause}
	case ir.OpJoin:
		l := make([]bool, t.len())
		for i := range args[0].len() {
			l[2*i], l[2*i+1] = args[0].undef.at(i), args[1].undef.at(i)
		}
		t.undef = &undefLanes{lanes: l, cause: cause}
	case ir.OpSplit:
		for h, part := range t.parts {
			l := make([]bool, part.len())
			for i := range l {
				l[i] = args[0].undef.at(2*i + h)
			}
			part.undef = &undefLanes{lanes: l, cause: cause}
		}
	case ir.OpTupleGet:
	case ir.OpWhere:
		l := make([]bool, t.len())
		for i := range l {
			side := args[2]
			if args[0].ints[i] != 0 {
				side = args[1]
			}
			l[i] = args[0].undef.at(i) || side.undef.at(i)
		}
		t.undef = newUndef(l, cause)
	case ir.OpLoad:
		// The address and mask were checked; other fills masked-off lanes.
		if args[2] == nil {
			return
		}
		l := make([]bool, t.len())
		for i := range l {
			l[i] = args[1].ints[i] == 0 && args[2].undef.at(i)
		}
		t.undef = newUndef(l, cause)
	case ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat, ir.OpMapElementwise:
		propagateTileOp(v, args, t, cause)
	case ir.OpReduce, ir.OpScan, ir.OpDot:
		if len(t.parts) == 0 {
			t.undef = all(t.len(), cause)
		}
		for _, part := range t.parts {
			part.undef = all(part.len(), cause)
		}
	default: // elementwise: operands and result of one shape
		l := make([]bool, t.len())
		for _, a := range args {
			if a != nil && a.undef.any() {
				for i, u := range a.undef.lanes {
					l[i] = l[i] || u
				}
			}
		}
		t.undef = mergeUndef(t.undef, newUndef(l, cause))
	}
}

// newUndef returns the marks l, or nil when no lane is marked.
func newUndef(l []bool, cause *fault) *undefLanes {
	for _, u := range l {
		if u {
			return &undefLanes{lanes: l, cause: cause}
		}
	}
	return nil
}

// mergeUndef combines the marks a and b of one tile, keeping a's cause.
func mergeUndef(a, b *undefLanes) *undefLanes {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	for i, u := range b.lanes {
		a.lanes[i] = a.lanes[i] || u
	}
	return a
}

// zeroDivisors marks the lanes of t whose divisor in y is zero undefined
// and returns the divisors with those lanes set to 1, so that the division
// runs (the value of an undefined lane is never looked at).
func zeroDivisors(pos ir.Pos, shape ir.Shape, y []int64, t *tile) []int64 {
	var l []bool
	var safe []int64
	for i, d := range y {
		if d != 0 {
			continue
		}
		if l == nil {
			l = make([]bool, len(y))
			safe = append([]int64(nil), y...)
			t.undef = &undefLanes{lanes: l, cause: &fault{pos: pos, what: fmt.Sprintf("integer division by zero%s", atLane(shape, i))}}
		}
		l[i], safe[i] = true, 1
	}
	if l == nil {
		return y
	}
	return safe
}

// badShifts marks the lanes of t, the result of shift v, whose amount in y
// is negative or at least the width of v's kind undefined. y holds
// canonical values of that kind, so an unsigned amount of 2^63 or more is
// negative here and out of range all the same.
func badShifts(v *ir.Value, shape ir.Shape, y []int64, t *tile) {
	w := int64(v.Type.Kind.Bits())
	var l []bool
	for i, n := range y {
		if n >= 0 && n < w {
			continue
		}
		if l == nil {
			l = make([]bool, len(y))
			amount := fmt.Sprint(n)
			if !v.Type.Kind.IsSigned() && n < 0 {
				amount = fmt.Sprint(uint64(n))
			}
			op := "<<"
			if v.Op == ir.OpShr {
				op = ">>"
			}
			t.undef = &undefLanes{lanes: l, cause: &fault{pos: v.Pos,
				what: fmt.Sprintf("%s shift %s %s (an amount outside 0 to %d)%s", v.Type.Kind, op, amount, w-1, atLane(shape, i))}}
		}
		l[i] = true
	}
}
