package interp

// This file implements OpReduce and OpScan with CombineCustom: the Region
// (the inlined combine function) is evaluated on all lanes of a reduction
// at once when its body is straight-line elementwise code, and lane by
// lane otherwise.

import (
	"github.com/tri-lang/tri/ir"
)

// reduceCustom left-folds the operands along v.Axis from index 0 with
// v.Region, which gets (accumulated..., new...) and yields the new
// accumulators.
func (p *program) reduceCustom(v *ir.Value, args []*tile) (*tile, error) {
	w := viewAround(args[0].shape, v.Axis)
	c := p.newCombiner(v.Region, w.lanes())
	acc := make([]*tile, len(args))
	x := make([]*tile, len(args))
	for i, a := range args {
		acc[i] = gather(a, w, 0)
	}
	for j := 1; j < w.n; j++ {
		for i, a := range args {
			x[i] = gather(a, w, j)
		}
		var err error
		if acc, err = c.combine(acc, x); err != nil {
			return nil, err
		}
		c.noteUndef(acc)
	}
	shape := ir.ReducedType(v.Args[0].Type, v.Axis).Shape
	for i := range acc {
		acc[i] = acc[i].withShape(shape)
	}
	return c.results(acc), nil
}

// scanCustom computes the inclusive scan of the operands along v.Axis with
// v.Region, from index 0 (from the last index with FlagReverse).
func (p *program) scanCustom(v *ir.Value, args []*tile) (*tile, error) {
	w := viewAround(args[0].shape, v.Axis)
	c := p.newCombiner(v.Region, w.lanes())
	j, step := 0, 1
	if v.Flags&ir.FlagReverse != 0 {
		j, step = w.n-1, -1
	}
	out := make([]*tile, len(args))
	acc := make([]*tile, len(args))
	x := make([]*tile, len(args))
	for i, a := range args {
		out[i] = newTile(a.kind, a.shape)
		acc[i] = gather(a, w, j)
		scatter(out[i], acc[i], w, j)
	}
	for range w.n - 1 {
		j += step
		for i, a := range args {
			x[i] = gather(a, w, j)
		}
		var err error
		if acc, err = c.combine(acc, x); err != nil {
			return nil, err
		}
		c.noteUndef(acc)
		for i := range out {
			scatter(out[i], acc[i], w, j)
		}
	}
	return c.results(out), nil
}

// results makes the value of a reduce or scan: the tile itself for one
// operand, a tuple of them for several.
func results(ts []*tile) *tile {
	if len(ts) == 1 {
		return ts[0]
	}
	return &tile{kind: ir.Void, parts: ts}
}

// gather returns element j along the axis of every lane of a, as a tile of
// shape [lanes].
func gather(a *tile, w axisView, j int) *tile {
	t := newTile(a.kind, ir.Shape{w.lanes()})
	if a.flts != nil {
		moveRows(t.flts, a.flts, w, j, false)
	} else {
		moveRows(t.ints, a.ints, w, j, false)
	}
	return t
}

// scatter stores the lanes of src as element j along the axis of dst.
func scatter(dst, src *tile, w axisView, j int) {
	if dst.flts != nil {
		moveRows(src.flts, dst.flts, w, j, true)
	} else {
		moveRows(src.ints, dst.ints, w, j, true)
	}
}

// moveRows copies between lanes (one element per lane) and element j
// along the axis of full, one contiguous inner row per outer index: into
// lanes, or into full with toFull.
func moveRows[T any](lanes, full []T, w axisView, j int, toFull bool) {
	for o := range w.outer {
		row := full[(o*w.n+j)*w.inner:][:w.inner]
		l := lanes[o*w.inner:][:w.inner]
		if toFull {
			copy(row, l)
		} else {
			copy(l, row)
		}
	}
}

// combiner evaluates a Region on tiles of lanes elements.
type combiner struct {
	p      *program
	r      *ir.Region
	lanes  int
	vector bool   // the body is straight-line elementwise code
	undef  *fault // an undefined lane the body produced, if any
}

// noteUndef records an undefined lane among the combined values acc.
func (c *combiner) noteUndef(acc []*tile) {
	if t := firstUndef(acc); t != nil && c.undef == nil {
		c.undef = t.undef.cause
	}
}

// results makes the value of the reduce or scan from ts; like a builtin
// reduction's, it is all undefined if the body produced an undefined lane.
func (c *combiner) results(ts []*tile) *tile {
	if c.undef != nil {
		for _, t := range ts {
			t.undef = all(t.len(), c.undef)
		}
	}
	return results(ts)
}

func (p *program) newCombiner(r *ir.Region, lanes int) *combiner {
	return &combiner{p: p, r: r, lanes: lanes, vector: lanes == 1 || elementwise(r.Body)}
}

// elementwise reports whether b is only values whose ops work lane by
// lane on tiles of any shape (or are scalar leaves, splat afterwards).
func elementwise(b *ir.Block) bool {
	for _, s := range b.Stmts {
		v, ok := s.(*ir.Value)
		if !ok {
			return false
		}
		switch {
		case v.Op >= ir.OpAdd && v.Op <= ir.OpWhere:
		case v.Op == ir.OpConst, v.Op == ir.OpParam, v.Op == ir.OpProgramID,
			v.Op == ir.OpNumPrograms, v.Op == ir.OpBarrier:
		default:
			return false
		}
	}
	return true
}

// combine applies the region to the accumulators and the new elements.
func (c *combiner) combine(acc, x []*tile) ([]*tile, error) {
	if c.vector {
		return c.run(acc, x)
	}
	out := make([]*tile, len(acc))
	for i, a := range acc {
		out[i] = newTile(a.kind, a.shape)
	}
	sa, sx := make([]*tile, len(acc)), make([]*tile, len(x))
	for q := range c.lanes {
		for i := range acc {
			sa[i], sx[i] = laneOf(acc[i], q), laneOf(x[i], q)
		}
		ys, err := c.run(sa, sx)
		if err != nil {
			return nil, err
		}
		c.noteUndef(ys)
		for i, y := range ys {
			copyLane(out[i], q, y)
		}
	}
	return out, nil
}

// run evaluates the region once with its arguments bound to acc and x. On
// more than one lane, scalar results (constants) are splat to all lanes.
func (c *combiner) run(acc, x []*tile) ([]*tile, error) {
	p, r := c.p, c.r
	n := len(acc)
	for i := range n {
		p.vals[r.Args[i].ID] = acc[i]
		p.vals[r.Args[n+i].ID] = x[i]
	}
	lanes := acc[0].len()
	if lanes == 1 {
		if _, err := p.block(r.Body); err != nil {
			return nil, err
		}
	} else {
		shape := ir.Shape{lanes}
		for _, s := range r.Body.Stmts {
			v := s.(*ir.Value)
			t, err := p.eval(v)
			if err != nil {
				return nil, err
			}
			if t != nil && t.len() == 1 {
				t = splat(t, shape)
			}
			p.vals[v.ID] = t
		}
	}
	ys := make([]*tile, len(r.Yields))
	for i, y := range r.Yields {
		ys[i] = p.vals[y.ID]
	}
	return ys, nil
}

// laneOf returns element q of t as a scalar tile.
func laneOf(t *tile, q int) *tile {
	if t.flts != nil {
		return &tile{kind: t.kind, flts: t.flts[q : q+1]}
	}
	return &tile{kind: t.kind, ints: t.ints[q : q+1]}
}

// copyLane sets element q of dst from the scalar src.
func copyLane(dst *tile, q int, src *tile) {
	if dst.flts != nil {
		dst.flts[q] = src.flts[0]
	} else {
		dst.ints[q] = src.ints[0]
	}
}
