package cudagen

// This file implements the choice of layouts, after Triton's Coalesce pass
// and its layout propagation. Values that must share a layout (operands
// and results of elementwise ops, loads and stores, a Var and what is
// assigned to it, a broadcast and its input) form a family. A family of
// rank r whose tiles are expanded into (or reduced from) a family of rank
// r+1 gets Slice(dim, parent) of that family's layout, so expand_dims,
// broadcasts and reductions move no data between threads. The other
// families are roots: each gets a Blocked layout chosen from its loads and
// stores. Where two families still meet in different layouts (trans,
// reshape, join, split, or a slice that fits no parent) the value is
// converted through shared memory.

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/ir"
)

// family is a set of values that share one layout.
type family struct {
	root  int
	rank  int
	full  []int // the largest shape of its tiles (dims of size 1 broadcast)
	first int   // the program order of its first value
	edges []sliceEdge
	dist  *dist
	// width and order from its loads and stores; width 0 when it has none.
	width   int
	order   []int
	contigs []int64
	// mma, when set, is the layout a tl.dot result in the family needs for
	// the tensor cores (see mmaBlocked).
	mma *Blocked
}

// sliceEdge says that the family is Slice(Dim) of Parent's layout.
type sliceEdge struct {
	Parent *family
	Dim    int
}

type unionFind []int

func (u unionFind) find(x int) int {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u unionFind) unite(a, b int) {
	a, b = u.find(a), u.find(b)
	if a < b {
		u[b] = a
	} else if b < a {
		u[a] = b
	}
}

// chooseLayouts gives every tile value its layout (p.dists) and finds the
// values that need a conversion through shared memory. A store of a tl.dot
// result (in the tensor cores' layout) through pointers computed from
// indices that cannot be vectorized gets the pointers' own layout,
// coalesced, as Triton's does: the
// layouts are chosen again with the store apart from its value, which is
// converted through shared memory where it is stored (storeConverts).
func (p *plan) chooseLayouts() {
	if p.storeSplit == nil {
		p.storeSplit = map[int]bool{}
	}
	if p.chooseLayoutsOnce() {
		p.chooseLayoutsOnce()
	}
}

// chooseLayoutsOnce is chooseLayouts with the stores in p.storeSplit apart
// from their values; it reports whether it found more such stores.
func (p *plan) chooseLayoutsOnce() bool {
	nv := p.k.NumValues
	uf := make(unionFind, nv+p.k.NumVars)
	for i := range uf {
		uf[i] = i
	}
	isTile := func(v *ir.Value) bool { return v != nil && !v.Type.IsScalar() && v.Type.Kind != ir.Void }
	type edge struct {
		child, parent, dim int
	}
	var edges []edge
	var order, dots []*ir.Value
	p.forEachValue(p.k.Body, func(v *ir.Value) {
		order = append(order, v)
		switch v.Op {
		case ir.OpSplat, ir.OpArange, ir.OpTrans, ir.OpReshape, ir.OpJoin, ir.OpSplit,
			ir.OpSort, ir.OpFlip, ir.OpHistogram, ir.OpCat:
		case ir.OpPrint, ir.OpAssert: // each operand keeps its own layout
		case ir.OpGather:
			// The source goes through shared memory; the index is read
			// element for element in the result's layout.
			uf.unite(v.ID, v.Args[1].ID)
		case ir.OpExpandDims:
			if isTile(v.Args[0]) {
				edges = append(edges, edge{v.Args[0].ID, v.ID, v.Axis})
			}
		case ir.OpReduce:
			for _, a := range v.Args[1:] {
				uf.unite(v.Args[0].ID, a.ID)
			}
			if v.Type.IsScalar() && len(v.Types) == 0 || len(v.Types) > 0 && v.Types[0].IsScalar() {
				break
			}
			edges = append(edges, edge{v.ID, v.Args[0].ID, v.Axis})
		case ir.OpVarRead:
			uf.unite(v.ID, nv+v.Var.ID)
		case ir.OpDot:
			// The operands go through shared memory in any layout; only
			// the accumulator shares the result's.
			uf.unite(v.ID, v.Args[2].ID)
			dots = append(dots, v)
		case ir.OpTupleGet:
			// A result of a split or a tuple reduce is read register for
			// register: it shares the layout of the value it comes from.
			if a := v.Args[0]; len(a.Types) > 0 && isTile(v) {
				uf.unite(v.ID, a.ID)
			}
		case ir.OpBroadcast:
			if isTile(v.Args[0]) && v.Args[0].Type.Shape.Rank() == v.Type.Shape.Rank() {
				uf.unite(v.ID, v.Args[0].ID)
			}
		default:
			for i, a := range v.Args {
				if p.storeSplit[v.ID] && i == 1 {
					continue
				}
				if isTile(a) && (v.Type.Kind == ir.Void || a.Type.Shape.Rank() == v.Type.Shape.Rank() || len(v.Types) > 0) {
					uf.unite(v.ID, a.ID)
				}
			}
		}
	})
	var assigns func(b *ir.Block)
	assigns = func(b *ir.Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.Assign:
				if !s.Var.Type.IsScalar() {
					uf.unite(nv+s.Var.ID, s.Value.ID)
				}
			case *ir.For:
				assigns(s.Body)
			case *ir.While:
				assigns(s.Cond)
				assigns(s.Body)
			case *ir.If:
				assigns(s.Then)
				assigns(s.Else)
			}
		}
	}
	assigns(p.k.Body)

	// Families, in program order.
	fams := map[int]*family{}
	var list []*family
	shapeOf := func(v *ir.Value) ir.Shape {
		if len(v.Types) > 0 {
			return v.Types[0].Shape
		}
		if v.Type.Kind == ir.Void && len(v.Args) > 0 && v.Args[0] != nil {
			return v.Args[0].Type.Shape
		}
		return v.Type.Shape
	}
	famOf := func(id int) *family { return fams[uf.find(id)] }
	for i, v := range order {
		s := shapeOf(v)
		if s.Rank() == 0 {
			continue
		}
		r := uf.find(v.ID)
		f := fams[r]
		if f == nil {
			f = &family{root: r, rank: s.Rank(), full: append([]int{}, s...), first: i}
			fams[r] = f
			list = append(list, f)
		}
		if s.Rank() != f.rank {
			continue
		}
		for d := range f.full {
			f.full[d] = max(f.full[d], s[d])
		}
		if a, ok := accessOf(v); ok {
			p.noteAccess(f, a)
		}
	}
	for _, d := range dots {
		if b, ok := p.dotBlocked(d); ok {
			if f := famOf(d.ID); f != nil && slices.Equal(f.full, []int(d.Type.Shape)) {
				f.mma = &b
			}
		}
	}
	more := false
	for _, v := range order {
		if f := famOf(v.ID); v.Op == ir.OpStore && !p.storeSplit[v.ID] && f != nil && f.mma != nil && p.splitsFromValue(v) {
			p.storeSplit[v.ID], more = true, true
		}
	}
	if more {
		return true
	}
	for _, e := range edges {
		c, par := famOf(e.child), famOf(e.parent)
		if c != nil && par != nil && c != par && par.rank == c.rank+1 {
			c.edges = append(c.edges, sliceEdge{par, e.dim})
		}
	}

	// Roots share a Blocked layout per shape, from all their accesses.
	byShape := map[string]*family{}
	sorted := append([]*family{}, list...)
	slices.SortStableFunc(sorted, func(a, b *family) int { return b.rank - a.rank })
	for _, f := range sorted {
		if f.width == 0 {
			continue
		}
		k := fmt.Sprint(f.full)
		if g := byShape[k]; g == nil || f.width > g.width {
			byShape[k] = f
		}
	}
	for _, f := range sorted {
		for _, e := range f.edges {
			if pd := e.Parent.dist; pd != nil {
				if s := pd.slice(e.Dim); slices.Equal(s.Shape, f.full) {
					f.dist = s
					break
				}
			}
		}
		if f.dist != nil {
			continue
		}
		if f.mma != nil {
			f.dist = newDist(*f.mma, f.full, p.numWarps)
			continue
		}
		src := f
		if g := byShape[fmt.Sprint(f.full)]; g != nil && (f.width == 0 || slices.Equal(g.order, f.order)) {
			src = g
		}
		f.dist = newDist(chooseBlocked(f.full, src.order, max(src.width, 1), p.numWarps), f.full, p.numWarps)
	}

	// Every value gets its family's layout, fitted to its shape; equal
	// layouts share one tag.
	p.dists = make([]*dist, nv)
	p.varDists = make([]*dist, p.k.NumVars)
	intern := p.intern
	fit := func(f *family, s ir.Shape) *dist {
		if f == nil || s.Rank() != f.rank {
			return intern(newDist(chooseBlocked(s, nil, 1, p.numWarps), s, p.numWarps))
		}
		if slices.Equal([]int(s), f.full) {
			return intern(f.dist)
		}
		return intern(f.dist.withShape(s))
	}
	for _, v := range order {
		if s := shapeOf(v); s.Rank() > 0 {
			p.dists[v.ID] = fit(famOf(v.ID), s)
		}
	}
	for _, x := range p.vars {
		if x != nil && !x.Type.IsScalar() {
			p.varDists[x.ID] = fit(famOf(nv+x.ID), x.Type.Shape)
		}
	}
	p.findConversions(order)
	return false
}

// splitsFromValue reports whether store v may have a layout apart from its
// value's: a tile store through pointers (not a descriptor's), whose
// pointers and mask are computed from indices and scalars alone.
func (p *plan) splitsFromValue(v *ir.Value) bool {
	ptr, val, mask := v.Args[0], v.Args[1], v.Args[2]
	if v.Desc != nil || ptr.Type.IsScalar() || val.Type.IsScalar() || ptr.Type.Shape.Rank() != 2 {
		return false
	}
	if !isAddress(ptr) || mask != nil && !mask.Type.IsScalar() && !isAddress(mask) {
		return false
	}
	// Only where the store cannot be vectorized: the tensor cores' layout
	// then scatters single elements over 8 rows a warp. Where it can, its
	// vectors in that layout measured faster than the conversion (tutorial
	// 09's matmul_kernel: 0.92x Triton's speed kept, 0.75x converted).
	if a, ok := accessOf(v); !ok || p.idealWidth(a, 1) > 1 {
		return false
	}
	// The tiles of the pointers and mask serve this store alone, so that
	// its layout moves no other value.
	tree := map[int]bool{}
	var add func(x *ir.Value)
	add = func(x *ir.Value) {
		if x == nil || x.Type.IsScalar() || tree[x.ID] {
			return
		}
		tree[x.ID] = true
		for _, a := range x.Args {
			add(a)
		}
	}
	add(ptr)
	add(mask)
	for id := range tree {
		if p.ctlUse[id] > 0 {
			return false
		}
		for _, u := range p.users[id] {
			if u != v && !tree[u.ID] {
				return false
			}
		}
	}
	return true
}

// isAddress reports whether tile v is computed from aranges, scalars,
// integer and pointer arithmetic, comparisons and broadcasts alone: the
// pointers and mask of a store, which any layout can compute.
func isAddress(v *ir.Value) bool {
	switch v.Op {
	case ir.OpArange, ir.OpSplat:
		return true
	case ir.OpPtrAdd, ir.OpBroadcast, ir.OpExpandDims, ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpCast,
		ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem, ir.OpNeg, ir.OpMax, ir.OpMin,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot, ir.OpShl, ir.OpShr,
		ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		for _, a := range v.Args {
			if a.Type.Kind == ir.Void || !a.Type.IsScalar() && !isAddress(a) {
				return false
			}
		}
		return true
	}
	return false
}

// intern returns the dist equal to d that has a tag, giving d one if it
// is the first.
func (p *plan) intern(d *dist) *dist {
	if p.tags == nil {
		p.tags = map[string]*dist{}
	}
	if t := p.tags[d.key()]; t != nil {
		return t
	}
	d.Tag = fmt.Sprintf("L%d", len(p.layouts))
	p.tags[d.key()] = d
	p.layouts = append(p.layouts, d)
	return d
}

// noteAccess records a load or store of family f: the fastest axis of its
// pointers and how wide an access along it can be.
func (p *plan) noteAccess(f *family, a memAccess) {
	dims := p.axes.dims(a.Ptr)
	if len(dims) != f.rank {
		return
	}
	contigs := make([]int64, f.rank)
	for d := range dims {
		contigs[d] = dims[d].Contig
	}
	order := make([]int, f.rank)
	for i := range order {
		order[i] = f.rank - 1 - i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		switch {
		case contigs[x] > contigs[y]:
			return -1
		case contigs[x] < contigs[y]:
			return 1
		}
		return 0
	})
	w := p.idealWidth(a, order[0])
	if f.order == nil || w > f.width {
		f.order, f.width, f.contigs = order, w, contigs
	}
}

// chooseBlocked is Triton's default Blocked layout for a shape: width
// elements per thread along the fastest axis (order[0]; nil: the last
// axis), lanes along the fastest axes first, warps along the slowest.
func chooseBlocked(shape []int, order []int, width, numWarps int) Blocked {
	r := len(shape)
	if order == nil {
		order = make([]int, r)
		for i := range order {
			order[i] = r - 1 - i
		}
	}
	numel := 1
	for _, s := range shape {
		numel *= s
	}
	spt, tpw, wpc := make([]int, r), make([]int, r), make([]int, r)
	for d := range spt {
		spt[d] = 1
	}
	spt[order[0]] = max(1, min(width, shape[order[0]], numel/(32*numWarps)))
	lanes := 32
	for _, a := range order {
		tpw[a] = max(1, min(lanes, shape[a]/spt[a]))
		lanes /= tpw[a]
	}
	tpw[order[0]] *= lanes
	warps := numWarps
	for i := r - 1; i >= 0; i-- {
		a := order[i]
		wpc[a] = max(1, min(warps, shape[a]/(spt[a]*tpw[a])))
		warps /= wpc[a]
	}
	wpc[order[r-1]] *= warps
	return Blocked{SizePerThread: spt, ThreadsPerWarp: tpw, WarpsPerCTA: wpc, Order: append([]int{}, order...)}
}

// findConversions marks the values whose operand must change layout
// through shared memory.
func (p *plan) findConversions(order []*ir.Value) {
	p.converts = make([]bool, p.k.NumValues)
	p.sliceOf = map[int]*dist{}
	p.remat = map[int]*dist{}
	p.reissued = map[int]*ir.Value{}
	for _, v := range order {
		switch v.Op {
		case ir.OpTrans, ir.OpReshape, ir.OpJoin, ir.OpSplit,
			ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat:
			p.converts[v.ID] = true
		case ir.OpExpandDims, ir.OpBroadcast:
			src, d := p.dists[v.Args[0].ID], p.dists[v.ID]
			if src == nil || d == nil || d.sameThreads(src, keptAxes(v)) {
				continue
			}
			if v.Op == ir.OpExpandDims && (isIndex(v.Args[0]) || p.reloadable(v.Args[0], v)) {
				// Index values are computed again from the coordinates
				// of the new layout rather than moved, and so is a load
				// of such indices that nothing else reads (a row's
				// statistics in attention backward, m and Di): each
				// thread loads the elements of the new layout, where a
				// move through shared memory would take two barriers.
				p.remat[v.ID] = p.intern(d.slice(v.Axis))
				if !isIndex(v.Args[0]) && !p.runsAhead(v.Args[0]) && !p.runsAhead(v) {
					p.reissued[v.Args[0].ID] = v
				}
				continue
			}
			p.converts[v.ID] = true
		case ir.OpReduce:
			in, d := p.dists[v.Args[0].ID], p.dists[v.ID]
			if d != nil {
				p.sliceOf[v.ID] = p.intern(in.slice(v.Axis))
				p.converts[v.ID] = p.sliceOf[v.ID] != d
			}
		}
	}
}

// runsAhead reports whether statement v is one a pipeline prints ahead of
// its iteration, with the copies it feeds (stagePlan.ahead): printed
// there in a block of its own, v cannot define what the iteration reads.
func (p *plan) runsAhead(v *ir.Value) bool {
	for _, pl := range p.loops {
		if pl.ahead[v] {
			return true
		}
	}
	for _, mp := range p.mloops {
		if mp.ahead[v] {
			return true
		}
	}
	return false
}

// isIndex reports whether tile v is computed from aranges, scalars and
// integer arithmetic alone, so any thread can compute any of its elements.
func isIndex(v *ir.Value) bool {
	switch v.Op {
	case ir.OpArange, ir.OpSplat:
		return true
	case ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpCast,
		ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem, ir.OpNeg, ir.OpMax, ir.OpMin,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot, ir.OpShl, ir.OpShr,
		ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		if !v.Type.Kind.IsInt() {
			return false
		}
		for _, a := range v.Args {
			if !a.Type.IsScalar() && !isIndex(a) || a.Type.IsScalar() && a.Type.Kind == ir.Void {
				return false
			}
		}
		return true
	}
	return false
}

// reloadable reports whether load v may be issued again, in another
// layout, where its one user u stands rather than moved there: a load,
// unmasked and not volatile, of a scalar pointer plus an index tile, that
// only u reads, in the same block with nothing between them that writes
// memory (the load issued at u reads what v read; the original is then
// left out: findDeadValues).
func (p *plan) reloadable(v, u *ir.Value) bool {
	if v.Op != ir.OpLoad || v.Flags&ir.FlagVolatile != 0 || v.Desc != nil || v.Args[1] != nil ||
		len(p.users[v.ID]) != 1 || p.ctlUse[v.ID] > 0 {
		return false
	}
	at, use := p.defs[v.ID], p.defs[u.ID]
	if at.Block != use.Block || slices.ContainsFunc(at.Block.Stmts[at.Index:use.Index], writesMemory) {
		return false
	}
	ptr := v.Args[0]
	return ptr.Op == ir.OpPtrAdd && ptr.Args[0].Op == ir.OpSplat && isIndex(ptr.Args[1])
}
