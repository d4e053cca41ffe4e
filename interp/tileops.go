package interp

// This file implements the tile operations: tl.sort, tl.topk and
// tl.standard.bitonic_merge (Triton's bitonic network, step for step, so
// that equal keys, ±0 and NaN end where Triton puts them), tl.flip,
// tl.gather, tl.histogram and tl.cat. All but the histogram compute, for
// every result lane, the input lane it takes, then copy the elements.

import (
	"math"
	"slices"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// laneOrder compares the lanes of a tile.
type laneOrder struct {
	gt func(i, j int) bool // lane i > lane j (false when either is NaN)
	// max picks the lane tl.maximum returns (NaN loses; +0 beats -0).
	max func(i, j int) int
}

func laneOrderOf(a *tile) laneOrder {
	if a.flts != nil {
		x := a.flts
		return laneOrder{
			gt: func(i, j int) bool { return x[i] > x[j] },
			max: func(i, j int) int {
				a, b := x[i], x[j]
				if a != a || b > a || b == a && math.Signbit(a) {
					return j
				}
				return i
			},
		}
	}
	x, k := a.ints, a.kind
	return laneOrder{
		gt: func(i, j int) bool { return less(k, x[j], x[i]) },
		max: func(i, j int) int {
			if less(k, x[i], x[j]) {
				return j
			}
			return i
		},
	}
}

// gatherLanes builds the tile whose lane i is a's lane src[i].
func gatherLanes(a *tile, shape ir.Shape, src []int) *tile {
	t := newTile(a.kind, shape)
	if a.flts != nil {
		for i, s := range src {
			t.flts[i] = a.flts[s]
		}
		return t
	}
	for i, s := range src {
		t.ints[i] = a.ints[s]
	}
	return t
}

// sortLanes runs standard.py's sort_impl on the lanes of a tile whose
// last dimension has 2**logN elements, keeping 2**logK of them (topk
// when logK < logN); merge runs only bitonic_merge's final stage. Lane
// positions are flat row-major indices: Triton's hypercube of all the
// tile's index bits.
func sortLanes(a *tile, logN, logK int, desc, merge bool) []int {
	o := laneOrderOf(a)
	cur := make([]int, a.len())
	for i := range cur {
		cur[i] = i
	}
	// compareSwap is _compare_and_swap on bit i; flip gives each lane's
	// flip bit.
	compareSwap := func(bit int, flip func(p int) bool) {
		next := make([]int, len(cur))
		for p := range cur {
			q := p ^ 1<<bit
			isRight := p>>bit&1 == 1
			if o.gt(cur[p], cur[q]) != (flip(p) != isRight) {
				next[p] = cur[q]
			} else {
				next[p] = cur[p]
			}
		}
		cur = next
	}
	// mergeStage is _bitonic_merge_hypercube(stage, order): alternating
	// flips by bit `stage` of the position, else the order for all.
	mergeStage := func(stage int, alternating bool) {
		flip := func(int) bool { return desc }
		if alternating {
			flip = func(p int) bool { return p>>stage&1 == 1 }
		}
		for i := stage - 1; i >= 0; i-- {
			compareSwap(i, flip)
		}
	}
	if merge {
		mergeStage(logN, false)
		return cur
	}
	for s := 1; s <= logK; s++ {
		mergeStage(s, s < logN)
	}
	// Bitonic top-k: keep the larger of the two halves split by bit logK,
	// then merge again.
	for i := logK + 1; i <= logN; i++ {
		low := 1<<logK - 1
		next := make([]int, len(cur)/2)
		for j := range next {
			l := j>>logK<<(logK+1) | j&low
			next[j] = o.max(cur[l], cur[l|1<<logK])
		}
		cur = next
		mergeStage(logK, i < logN)
	}
	return cur
}

// sortTile evaluates OpSort.
func sortTile(v *ir.Value, a *tile) *tile {
	r := a.shape.Rank()
	logN := log2Of(a.shape[r-1])
	src := sortLanes(a, logN, int(v.Const.Int), v.Flags&ir.FlagReverse != 0, v.Axis == 1)
	return gatherLanes(a, v.Type.Shape, src)
}

// log2Of is log2 of a power of two.
func log2Of(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// eachLane walks the lanes of shape, giving each lane's coordinates.
func eachLane(shape ir.Shape, f func(lane int, c []int)) {
	c := make([]int, len(shape))
	for lane := range shape.NumElements() {
		f(lane, c)
		for d := len(shape) - 1; d >= 0; d-- {
			c[d]++
			if c[d] < shape[d] {
				break
			}
			c[d] = 0
		}
	}
}

// rowMajorIndex is the row-major index of coordinates c in shape.
func rowMajorIndex(shape ir.Shape, c []int) int {
	i := 0
	for d, n := range shape {
		i = i*n + c[d]
	}
	return i
}

// flipTile reverses a along axis.
func flipTile(a *tile, axis int) *tile {
	src := make([]int, a.len())
	eachLane(a.shape, func(lane int, c []int) {
		c[axis] = a.shape[axis] - 1 - c[axis]
		src[lane] = rowMajorIndex(a.shape, c)
		c[axis] = a.shape[axis] - 1 - c[axis]
	})
	return gatherLanes(a, a.shape, src)
}

// gatherTile evaluates OpGather; an index outside the source is an error.
func (p *program) gatherTile(v *ir.Value, a, idx *tile) (*tile, error) {
	src := make([]int, idx.len())
	n := a.shape[v.Axis]
	var err error
	eachLane(idx.shape, func(lane int, c []int) {
		j := idx.ints[lane]
		if (j < 0 || j >= int64(n) || idx.kind == ir.Uint64 && uint64(j) >= uint64(n)) && err == nil {
			err = p.errorf(v.Pos, diag.CodeRuntime, "tl.gather: index %d at %s is outside [0, %d) along axis %d",
				j, laneString(idx.shape, lane), n, v.Axis)
			return
		}
		if err != nil {
			return
		}
		saved := c[v.Axis]
		c[v.Axis] = int(j)
		src[lane] = rowMajorIndex(a.shape, c)
		c[v.Axis] = saved
	})
	if err != nil {
		return nil, err
	}
	return gatherLanes(a, v.Type.Shape, src), nil
}

// histogramTile counts each active lane in bin (x mod B'), B' the bin
// count raised to at least 32, and drops the lanes whose bin is past the
// last: Triton's GPU lowering looks only at the low bits of each value
// (ballots of log2(B') bits over bins padded to a warp's width), so values
// outside [0, bins) wrap rather than vanish.
func histogramTile(v *ir.Value, a, mask *tile) *tile {
	bins := v.Type.Shape[0]
	t := newTile(ir.Int32, v.Type.Shape)
	m := int64(max(bins, 32) - 1)
	for i, x := range a.ints {
		if mask != nil && mask.ints[i] == 0 {
			continue
		}
		if b := x & m; b < int64(bins) {
			t.ints[b]++
		}
	}
	wrapInts(ir.Int32, t.ints)
	return t
}

// catTile concatenates two 1-D tiles.
func catTile(a, b *tile, shape ir.Shape) *tile {
	t := &tile{kind: a.kind, shape: shape}
	if a.flts != nil {
		t.flts = append(append([]float64{}, a.flts...), b.flts...)
	} else {
		t.ints = append(append([]int64{}, a.ints...), b.ints...)
	}
	return t
}

// mapElementwise evaluates OpMapElementwise: the region on all lanes at
// once when its body is straight-line elementwise code, else lane by lane
// (its control flow then runs per element, as tl.map_elementwise allows).
// With pack > 1 a lane is a group of pack consecutive elements along the
// last axis (flat indices g*pack .. g*pack+pack-1, the last axis being a
// multiple of pack): region argument i*pack+j is element j of the group in
// operand i, and yield k*pack+j element j of the group in result k.
func (p *program) mapElementwise(v *ir.Value, args []*tile) (*tile, error) {
	r := v.Region
	types := v.Types
	if len(types) == 0 {
		types = []ir.Type{v.Type}
	}
	pack := v.MapPack()
	shape := args[0].shape
	groups := shape.NumElements() / pack
	lanes := shape // the shape the region's values take at once
	if pack > 1 {
		lanes = ir.Shape{groups}
	}
	bind := func(g int) {
		for i, a := range args {
			for j := range pack {
				arg := r.Args[i*pack+j]
				switch {
				case g >= 0:
					p.vals[arg.ID] = laneOf(a, g*pack+j)
				case pack == 1:
					p.vals[arg.ID] = a
				default:
					p.vals[arg.ID] = strided(a, pack, j)
				}
			}
		}
	}
	out := make([]*tile, len(types))
	if elementwise(r.Body) {
		bind(-1)
		for _, s := range r.Body.Stmts {
			sv := s.(*ir.Value)
			t, err := p.eval(sv)
			if err != nil {
				return nil, err
			}
			if t != nil && t.len() == 1 && t.shape.Rank() == 0 {
				t = splat(t, lanes)
			}
			p.vals[sv.ID] = t
		}
		for i := range out {
			if pack == 1 {
				t := p.vals[r.Yields[i].ID]
				if t.shape.Rank() == 0 {
					t = splat(t, shape)
				}
				out[i] = t.withShape(shape)
				continue
			}
			out[i] = newTile(types[i].Kind, shape)
			for j := range pack {
				t := p.vals[r.Yields[i*pack+j].ID]
				for g := range groups {
					q := g
					if t.shape.Rank() == 0 {
						q = 0
					}
					copyLaneAt(out[i], g*pack+j, t, q)
				}
			}
		}
		return mapResults(v, out), nil
	}
	for i, t := range types {
		out[i] = newTile(t.Kind, shape)
	}
	for g := range groups {
		bind(g)
		if _, err := p.block(r.Body); err != nil {
			return nil, err
		}
		for i := range out {
			for j := range pack {
				copyLane(out[i], g*pack+j, p.vals[r.Yields[i*pack+j].ID])
			}
		}
	}
	return mapResults(v, out), nil
}

// mapResults is the value of a map_elementwise: its one result, or the
// tuple of its results (always a tuple when it has Types, as with pack >
// 1, where one result is read by OpTupleGet too).
func mapResults(v *ir.Value, out []*tile) *tile {
	if len(v.Types) > 0 {
		return &tile{kind: ir.Void, parts: out}
	}
	return results(out)
}

// strided is the 1-D tile of the elements j, j+pack, j+2*pack, ... of a.
func strided(a *tile, pack, j int) *tile {
	n := a.len() / pack
	t := newTile(a.kind, ir.Shape{n})
	for g := range n {
		copyLaneAt(t, g, a, g*pack+j)
	}
	return t
}

// copyLaneAt sets element q of dst from element k of src.
func copyLaneAt(dst *tile, q int, src *tile, k int) {
	if dst.flts != nil {
		dst.flts[q] = src.flts[k]
	} else {
		dst.ints[q] = src.ints[k]
	}
}

// propagateTileOp marks the undefined lanes of a tile operation's result
// t: flip and cat move the marks with the elements; map_elementwise keeps
// them lane by lane in each result; sort, topk, gather and histogram mix
// lanes, so one undefined operand lane makes the whole result undefined.
func propagateTileOp(v *ir.Value, args []*tile, t *tile, cause *fault) {
	switch v.Op {
	case ir.OpFlip:
		if args[0].undef.any() {
			l := make([]bool, t.len())
			a := args[0]
			eachLane(a.shape, func(lane int, c []int) {
				c[v.Axis] = a.shape[v.Axis] - 1 - c[v.Axis]
				l[lane] = a.undef.at(rowMajorIndex(a.shape, c))
				c[v.Axis] = a.shape[v.Axis] - 1 - c[v.Axis]
			})
			t.undef = &undefLanes{lanes: l, cause: cause}
		}
	case ir.OpCat:
		l := make([]bool, t.len())
		n := args[0].len()
		for i := range l {
			if i < n {
				l[i] = args[0].undef.at(i)
			} else {
				l[i] = args[1].undef.at(i - n)
			}
		}
		t.undef = newUndef(l, cause)
	case ir.OpMapElementwise:
		parts := t.parts
		if len(parts) == 0 {
			parts = []*tile{t}
		}
		// With pack > 1 an undefined element taints its whole group.
		pack := v.MapPack()
		for _, part := range parts {
			l := make([]bool, part.len())
			for _, a := range args {
				for i := range l {
					l[i] = l[i] || a.undef.at(i)
				}
			}
			for g := 0; g+pack <= len(l) && pack > 1; g += pack {
				if slices.Contains(l[g:g+pack], true) {
					fill(l[g:g+pack], true)
				}
			}
			part.undef = mergeUndef(part.undef, newUndef(l, cause))
		}
	default:
		t.undef = all(t.len(), cause)
	}
}
