package cudagen

// This file implements the software-pipelined K loop of a matrix
// multiplication on sm_90a, after Triton's pipeliner. A loop
//
//	for k in range(lo, hi, step):
//	    a = tl.load(a_ptrs, mask=..., other=0.0)
//	    b = tl.load(b_ptrs, mask=..., other=0.0)
//	    acc = tl.dot(a, b, acc)
//	    a_ptrs += ...
//	    b_ptrs += ...
//
// whose body holds nothing but one fp16, bf16 or fp8 dot into an fp32
// accumulator, the two loads that feed it and the computations of their
// addresses and masks, is cut in two stages. The first, the loads and
// everything they depend on (the "ahead" statements, which may update
// pointer Vars that nothing else reads), runs num_stages-1 iterations
// ahead of the second, the dot: its loads become cp.async copies straight
// from global into one of num_stages shared-memory buffers, and the dot of
// iteration i runs as wgmma.mma_async on the buffer that was filled
// num_stages-1 iterations earlier, while the copies for the next ones are
// in flight.
//
// The buffers hold a and b in the layouts wgmma reads through its matrix
// descriptors: a K-major (each row of a is one swizzle row of 32, 64 or
// 128 bytes), b MN-major for fp16 and bf16 (blocks of up to 64 columns,
// each row of a block one swizzle row) and K-major for fp8, whose wgmma
// takes no transposed operand (each column of b one swizzle row, which
// the copies fill from a b whose K axis is contiguous in memory, as
// Triton's fp8 matmuls pass it), all XOR-swizzled in 16-byte chunks
// (CUTLASS's Swizzle<B,4,3>) from a 1024-byte aligned base. The accumulator keeps the
// Blocked layout sizePerThread [1, 2], threadsPerWarp [8, 4], warpsPerCTA
// [num_warps, 1]: its rows are a permutation of the rows wgmma's fragments
// cover, so the rows of a are stored in that permuted order and the
// registers of the layout are the wgmma accumulators themselves.

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/tri-lang/tri/ir"
)

// maxDynamicShared is the most shared memory a program may use on sm_90
// (227 KiB), with the opt-in attribute.
const maxDynamicShared = 232448

// pipeline is a K loop that runs its dot on wgmma with its operands
// streamed through shared memory.
type pipeline struct {
	loop      *ir.For
	dot       *ir.Value
	loads     [2]*ir.Value // a and b
	ahead     map[ir.Stmt]bool
	stages    int // the loads run stages-1 iterations ahead of the dot
	buffers   int // shared-memory stages: stages, or one more to keep a wgmma in flight
	asked     int // the stages num_stages asked for, where more than fit
	m, n, k   int
	elem      int  // bytes of one operand element: 2, or 1 for fp8
	bKMajor   bool // b is stored K-major (fp8, or b.T): a column of b is a row of bytes
	bTrans    bool // b is tl.trans of a [N, K] load (b.T): its rows are the columns of b
	aRow      int  // bytes of one row of a in shared memory (k elements)
	bCols     int  // columns of b per swizzle block (MN-major b)
	aBytes    int  // bytes of a in one stage
	stageSize int  // bytes of one stage (a then b), a multiple of 1024
	// tma holds, for a and b, the tensor map the TMA unit copies the load
	// with (nil: cp.async copies through the load's pointers).
	tma [2]*tensorMap
	// aRows, where not nil, is a map of a's descriptor whose one box lands
	// a block of whole rows in wgmma's order (wgmmaRowAxes); tma[0] copies
	// the block at the tensor's edge in 8-row boxes.
	aRows *tensorMap
	// direct marks, for a and b, a load through a tensor descriptor that
	// cp.async copies by rows from the descriptor's base, offsets, shape
	// and strides (a byte count per copy stops it at the tensor's edge),
	// without the load's pointer and mask tiles.
	direct [2]bool
	// mma marks a pipeline whose dot runs as mma.sync fed by ldmatrix
	// (targets without wgmma, mmapipe.go): a's rows lie in the stage in
	// their own order, and no wgmma is kept in flight.
	mma bool
}

// anyTMA reports whether a load of the pipeline is copied by the TMA unit.
func (pl *pipeline) anyTMA() bool { return pl.tma[0] != nil || pl.tma[1] != nil }

// anyCpAsync reports whether a load of the pipeline is copied by cp.async.
func (pl *pipeline) anyCpAsync() bool { return pl.tma[0] == nil || pl.tma[1] == nil }

// sharedBytes is the shared memory of the pipeline's buffers, from the
// scratch memory's 1024-byte aligned start.
func (pl *pipeline) sharedBytes() int { return pl.buffers * pl.stageSize }

// inFlight reports whether each iteration's wgmma runs on while the next
// is issued: there is a buffer for it.
func (pl *pipeline) inFlight() bool { return pl.buffers > pl.stages }

// bRow is the bytes of one row of b in shared memory: of a block of
// columns (MN-major) or of a column (K-major).
func (pl *pipeline) bRow() int {
	if pl.bKMajor {
		return pl.aRow
	}
	return pl.elem * pl.bCols
}

// instrK is the K of one wgmma instruction: 32 bytes of operand.
func (pl *pipeline) instrK() int { return 32 / pl.elem }

// wgmmaShapeOK reports whether an m x n x k dot of elem-byte operands with
// num_warps warps has a wgmma form here: whole warpgroups, each owning
// m/groups rows in m64 blocks, n a power of two from 16 to 256 and k one
// swizzle row (32, 64 or 128 bytes).
func wgmmaShapeOK(m, n, k, elem, numWarps int) bool {
	row := k * elem
	return numWarps%4 == 0 && m%(16*numWarps) == 0 && n >= 16 && n <= 256 && (row == 32 || row == 64 || row == 128)
}

// wgmmaBlocked is the accumulator layout of a pipelined dot.
func wgmmaBlocked(numWarps int) Blocked {
	return Blocked{SizePerThread: []int{1, 2}, ThreadsPerWarp: []int{8, 4}, WarpsPerCTA: []int{numWarps, 1}, Order: []int{1, 0}}
}

// findPipelines records the loops whose dot can be pipelined, by dot and
// by loop: onto wgmma on sm_90a, onto mma.sync elsewhere (mmapipe.go,
// and mmamulti.go for loops of several dots).
func (p *plan) findPipelines() {
	p.pipes = map[int]*pipeline{}
	p.loops = map[*ir.For]*pipeline{}
	p.mloops = map[*ir.For]*multiPipe{}
	p.wgDots = map[int]*wgDot{}
	p.unpiped = map[int]string{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.For:
				if pl := p.pipelineOf(s); pl != nil {
					p.pipes[pl.dot.ID] = pl
					p.loops[s] = pl
				} else if mp := p.multiPipeOf(s); mp != nil {
					p.mloops[s] = mp
					for _, wd := range mp.dots {
						p.wgDots[wd.dot.ID] = wd
					}
				} else {
					walk(s.Body)
				}
			case *ir.While:
				walk(s.Body)
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(p.k.Body)
}

// pipelineOf returns the pipeline of loop s, or nil when its body is not
// a K loop of the form above.
func (p *plan) pipelineOf(s *ir.For) *pipeline {
	stages := p.stagesOf(s)
	if stages < 2 || s.Step.Op != ir.OpConst || s.Step.Const.Int <= 0 {
		return nil
	}
	body := s.Body.Stmts
	inBody := map[int]bool{}
	var dot *ir.Value
	for _, st := range body {
		switch st := st.(type) {
		case *ir.Value:
			inBody[st.ID] = true
			if st.Op == ir.OpDot {
				if dot != nil {
					return nil
				}
				dot = st
			}
		case *ir.Assign:
		default:
			return nil
		}
	}
	if dot == nil || dot.Type.Shape.Rank() != 2 {
		return nil
	}
	if dot.Type.Kind != ir.Float32 {
		if !p.wgmma {
			p.refuseMmaPipe(dot, inBody)
		}
		return nil
	}
	a, b, acc := dot.Args[0], dot.Args[1], dot.Args[2]
	// b may be the transpose of a load of [N, K] (b.T of a K-major b, as
	// tutorials 08 and 09 load it through descriptors): the copies then
	// fill a K-major b, which wgmma reads without its transpose bit.
	bLoad, bTrans := b, false
	if b.Op == ir.OpTrans && inBody[b.ID] && len(p.users[b.ID]) == 1 && p.ctlUse[b.ID] == 0 && b.Args[0].Type.Shape.Rank() == 2 {
		bLoad, bTrans = b.Args[0], true
	}
	ak, bk := a.Type.Kind, b.Type.Kind
	if !p.wgmma && !(isHalf(ak) && ak == bk) {
		p.refuseMmaPipe(dot, inBody)
		return nil
	}
	if !(isHalf(ak) && ak == bk) && !(ak.IsFP8() && bk.IsFP8()) {
		return nil
	}
	m, k, n := a.Type.Shape[0], a.Type.Shape[1], b.Type.Shape[1]
	if p.wgmma && !wgmmaShapeOK(m, n, k, ak.Bytes(), p.numWarps) || !p.wgmma && !mmaPipeShapeOK(dot, p.numWarps) {
		return nil
	}
	for _, ld := range []*ir.Value{a, bLoad} {
		if ld.Op != ir.OpLoad || !inBody[ld.ID] || len(p.users[ld.ID]) != 1 || p.ctlUse[ld.ID] > 0 ||
			ld.Flags&ir.FlagVolatile != 0 || !isZeroOrNil(ld.Args[2]) {
			return nil
		}
	}
	if acc.Op != ir.OpVarRead || !inBody[acc.ID] || len(p.users[acc.ID]) != 1 || p.ctlUse[acc.ID] > 0 {
		return nil
	}
	accVar := acc.Var
	assigns := map[*ir.Var][]*ir.Assign{}
	for _, st := range body {
		if as, ok := st.(*ir.Assign); ok {
			assigns[as.Var] = append(assigns[as.Var], as)
		}
	}
	if len(assigns[accVar]) != 1 || assigns[accVar][0].Value != dot {
		return nil
	}

	// The ahead statements: the loads and everything they read in the
	// body, with the assignments of the Vars they read.
	ahead := map[ir.Stmt]bool{}
	inAhead := map[int]bool{}
	carried := map[*ir.Var]bool{}
	ok := true
	var add func(v *ir.Value)
	add = func(v *ir.Value) {
		if v == nil || !inBody[v.ID] || inAhead[v.ID] {
			return
		}
		if v == dot || v == acc {
			ok = false
			return
		}
		inAhead[v.ID] = true
		ahead[v] = true
		for _, x := range v.Args {
			add(x)
		}
		if v.Op == ir.OpVarRead && len(assigns[v.Var]) > 0 && !carried[v.Var] {
			if v.Var == accVar {
				ok = false
				return
			}
			carried[v.Var] = true
			for _, as := range assigns[v.Var] {
				ahead[as] = true
				add(as.Value)
			}
		}
	}
	es := ak.Bytes()
	var tma [2]*tensorMap
	inLoop := func(v *ir.Value) bool { return inBody[v.ID] }
	if p.wgmma { // the TMA unit is sm_90's
		tma[0] = p.tmaFor(a, m, k, es, m%8 == 0, 8, inLoop)
		tma[1] = p.tmaFor(bLoad, n, k, es, bTrans, n, inLoop)
	}
	// Where a's rows can be viewed in wgmma's order, a block of whole rows
	// goes in one box; the 8-row boxes are left for the block at the
	// tensor's edge.
	var aRows *tensorMap
	if axes := wgmmaRowAxes(m, p.numWarps); tma[0] != nil && axes != nil {
		aRows = p.tensorMapOf(a.Desc, m, k, tma[0].Swizzle, es, axes)
	}
	var direct [2]bool
	copied := map[int]bool{}
	for i, ld := range []*ir.Value{a, bLoad} {
		// The stage's rows run along the block's inner dimension but for
		// an fp8 b that is not b.T (see copyAxis).
		direct[i] = tma[i] == nil && p.directCopies(ld, i == 0 || bTrans || es == 2)
		if tma[i] == nil && !direct[i] {
			add(ld)
			continue
		}
		// The TMA unit, or copies addressed from the descriptor, read the
		// block at the offsets: the load's pointers and mask are not
		// computed.
		copied[ld.ID] = true
		inAhead[ld.ID] = true
		ahead[ld] = true
		for _, x := range ld.Desc.Scalars() {
			add(x)
		}
	}
	if !ok {
		return nil
	}
	dropped := p.feedsOnly(body, inBody, inAhead, copied)
	for _, st := range body {
		switch st := st.(type) {
		case *ir.Value:
			if !inAhead[st.ID] && st != dot && st != acc && !(bTrans && st == b) && !p.unusedPure(st) && !dropped[st.ID] {
				return nil
			}
		case *ir.Assign:
			if !carried[st.Var] && st.Var != accVar {
				return nil
			}
		}
	}
	// The carried Vars run ahead: nothing outside the loop may use them.
	if p.readOutside(carried, inBody) {
		return nil
	}

	pl := &pipeline{loop: s, dot: dot, loads: [2]*ir.Value{a, bLoad}, ahead: ahead, m: m, n: n, k: k,
		elem: es, bKMajor: es == 1 || bTrans, bTrans: bTrans, aRow: es * k, bCols: min(n, 64), tma: tma, aRows: aRows, direct: direct,
		mma: !p.wgmma}
	pl.aBytes = m * pl.aRow
	if pl.mma {
		return p.mmaStages(pl, stages)
	}
	pl.stageSize = (pl.aBytes + k*n*es + 1023) / 1024 * 1024
	// The mbarriers of TMA copies are static shared memory besides the
	// stages.
	most, buffers := maxDynamicShared, stages+1
	if pl.anyTMA() {
		most -= 8 * maxTMABuffers
		buffers = min(buffers, maxTMABuffers)
	}
	pl.stages = min(stages, most/pl.stageSize, buffers)
	if pl.stages < stages {
		pl.asked = stages
	}
	if pl.stages < 2 {
		return nil
	}
	// One more buffer lets the wgmma of an iteration run on while the next
	// one is issued, as Triton does: the copies of iteration i then fill
	// the buffer wgmma i-2 read, which every warpgroup has waited for
	// before the barrier at the top of iteration i.
	pl.buffers = pl.stages
	if (pl.stages+1)*pl.stageSize <= most && pl.stages < buffers {
		pl.buffers = pl.stages + 1
	}
	for _, tm := range []*tensorMap{tma[0], aRows, tma[1]} {
		p.addTensorMap(tm, s)
	}
	return pl
}

// directCopies reports whether pipelined load ld, through a rank-2 tensor
// descriptor, may be copied by rows from the descriptor (innerRows: the
// stage's rows run along the block's inner dimension, as they do for a,
// an MN-major fp16/bf16 b and b.T). Its rows must be aligned for copies of
// 4 bytes or more: the descriptor's base and leading strides are (16
// bytes, Triton's contract), the offset along the inner dimension must be.
func (p *plan) directCopies(ld *ir.Value, innerRows bool) bool {
	d := ld.Desc
	if !innerRows || d == nil || len(d.Offsets) != 2 || len(d.Shape) != 2 || len(d.Strides) != 2 || ld.Type.Shape.Rank() != 2 {
		return false
	}
	if s := d.Strides[1]; s.Op != ir.OpConst || s.Const.Int != 1 {
		return false
	}
	a, _ := accessOf(ld)
	return p.idealWidth(a, 1)*a.Bytes >= 4
}

// maxTMABuffers bounds a pipeline's buffers (each has an mbarrier when
// the TMA unit fills it).
const maxTMABuffers = 8

// tensorMap is a tensor map (CUtensorMap) the TMA unit copies blocks of a
// tensor descriptor with, in boxes of BoxRows rows of BoxInner elements,
// rows swizzled as wgmma reads them. The map of a descriptor made on the
// host is a kernel parameter, which the launch encodes from the
// descriptor's parameters (Of names them: Of_base, Of_shape0, ...). The
// map of a descriptor made in the kernel (dev) is built by the kernel in
// slot of its program's part of the global scratch memory (tmapdev.go).
type tensorMap struct {
	Of       string // the descriptor's name: its parameters are Of_base, Of_shape0, ...
	BoxInner int
	BoxRows  int
	Swizzle  int // bytes of a swizzled row: 32, 64 or 128
	// rows, where not empty, makes the map a 5-D view of the descriptor's
	// rows (wgmmaRowAxes): a box is 8 consecutive rows, repeated along
	// each of these axes, innermost first; BoxRows counts them all.
	rows []rowAxis
	elem int
	dev  *ir.DescAccess // the descriptor made in the kernel; nil for one from the host
	slot int
}

// rowAxis is an axis of a tensor map's view of a descriptor's rows:
// Count blocks of rows, Stride rows apart.
type rowAxis struct{ Count, Stride int }

// wgmmaRowAxes are the axes of a view of a's rows in which one box of m
// rows lands them in shared memory in the order permRow gives (numWarps
// warps): the row axis of 8 consecutive rows, then, innermost first, the
// repetitions i % 2 (8 * numWarps rows apart), the warps of a warpgroup
// (8 rows apart), the repetitions i / 2 (16 * numWarps apart) and the
// warpgroups (32 apart), leaving out those of one block and padded to
// three with axes of one block, so that every view has rank 5. Nil where
// permRow's order has gaps (fewer than two repetitions) or the view would
// need more than five axes.
func wgmmaRowAxes(m, numWarps int) []rowAxis {
	w := numWarps
	reps := m / (8 * w)
	if w%4 != 0 || reps < 2 || reps%2 != 0 || m != reps*8*w {
		return nil
	}
	var axes []rowAxis
	for _, a := range []rowAxis{{2, 8 * w}, {4, 8}, {reps / 2, 16 * w}, {w / 4, 32}} {
		if a.Count > 1 {
			axes = append(axes, a)
		}
	}
	if len(axes) > 3 {
		return nil
	}
	for len(axes) < 3 {
		axes = append(axes, rowAxis{1, 1})
	}
	return axes
}

// TensorMap is a CUtensorMap parameter of a kernel, for the TMA copies of
// blocks of a tensor descriptor made on the host: the launch encodes it
// (cuTensorMapEncodeTiled) from the descriptor's base, shape and strides,
// which are kernel parameters too.
type TensorMap struct {
	Name      string // the C parameter
	Base      int    // index in Params of the descriptor's base pointer
	Shape     []int  // indices in Params of its shape, outermost first
	Strides   []int  // indices in Params of its strides but the last (which is 1)
	ElemBytes int
	Box       []int // the box copied, in elements, outermost first
	Swizzle   int   // bytes of a swizzled row in shared memory
	// RowAxes, where not empty, make the map a view of the descriptor's
	// rows of rank 2 + len(RowAxes): Box[0] consecutive rows (the row axis,
	// of all the descriptor's rows), repeated along each of these axes,
	// innermost first, so that one box lands the rows of a dot's a operand
	// in the order wgmma reads them.
	RowAxes []RowAxis
}

// RowAxis is an axis of a tensor map's view of a descriptor's rows: Count
// blocks of rows, Stride rows apart (the box spans all Count).
type RowAxis struct{ Count, Stride int }

// param is tm as a parameter of kernel k.
func (tm *tensorMap) param(k *ir.Kernel, name string) TensorMap {
	out := TensorMap{Name: name, Base: -1, Shape: []int{-1, -1}, Strides: []int{-1}, ElemBytes: tm.elem,
		Box: []int{tm.BoxRows, tm.BoxInner}, Swizzle: tm.Swizzle}
	if len(tm.rows) > 0 {
		out.Box[0] = 8
		for _, a := range tm.rows {
			out.RowAxes = append(out.RowAxes, RowAxis(a))
		}
	}
	for i, prm := range k.Params {
		if prm.Of != tm.Of {
			continue
		}
		switch prm.Part {
		case "base":
			out.Base = i
		case "shape0":
			out.Shape[0] = i
		case "shape1":
			out.Shape[1] = i
		case "stride0":
			out.Strides[0] = i
		}
	}
	return out
}

// tmaFor returns the tensor map the TMA unit copies pipelined load ld
// with, or nil where it cannot: ld must read a rank-2 block of a
// descriptor, whose rows (k elements of es bytes) are one swizzle row,
// rows at a time, with ok (a's rows go in 8-row atoms to their permuted
// places; b's must be K-major). A descriptor made in the kernel must be
// made outside the loop (inLoop reports the values made inside it), so
// that its map is built before the loop.
func (p *plan) tmaFor(ld *ir.Value, rows, k, es int, ok bool, boxRows int, inLoop func(*ir.Value) bool) *tensorMap {
	d := ld.Desc
	row := k * es
	if !p.tma || !ok || !tmaDesc(d) || ld.Type.Shape.Rank() != 2 || ld.Type.Shape[1] != k ||
		(row != 32 && row != 64 && row != 128) || boxRows > 256 || rows%boxRows != 0 {
		return nil
	}
	if !d.Host() && slices.ContainsFunc(descMade(d), inLoop) {
		return nil
	}
	return p.tensorMapOf(d, boxRows, k, row, es, nil)
}

// tensorMapOf is the kernel's tensor map of descriptor d in boxes of rows
// x inner elements of es bytes, swizzled in rows of swizzle bytes (0:
// none): the one the kernel has, or a new one that addTensorMap adds.
func (p *plan) tensorMapOf(d *ir.DescAccess, rows, inner, swizzle, es int, axes []rowAxis) *tensorMap {
	for _, tm := range append(slices.Clip(p.tmaps), p.devMaps...) {
		if tm.BoxRows == rows && tm.BoxInner == inner && tm.Swizzle == swizzle && slices.Equal(tm.rows, axes) && sameDesc(tm, d) {
			return tm
		}
	}
	if d.Host() {
		return &tensorMap{Of: d.Base.Param.Of, BoxInner: inner, BoxRows: rows, Swizzle: swizzle, rows: axes, elem: es}
	}
	return &tensorMap{BoxInner: inner, BoxRows: rows, Swizzle: swizzle, rows: axes, elem: es, dev: d}
}

// addTensorMap makes tm a map of the kernel, once, for the TMA copies of
// user (a pipelined loop or a store).
func (p *plan) addTensorMap(tm *tensorMap, user ir.Stmt) {
	if tm == nil {
		return
	}
	switch {
	case tm.dev == nil && !slices.Contains(p.tmaps, tm):
		p.tmaps = append(p.tmaps, tm)
	case tm.dev != nil && !slices.Contains(p.devMaps, tm):
		p.devMaps = append(p.devMaps, tm)
	}
	p.mapUsers[tm] = append(p.mapUsers[tm], user)
}

// feedsOnly returns the values of the loop body that only the pointers
// and masks of the loads in copied (copied by the TMA unit or from their
// descriptor) need: they are not computed.
func (p *plan) feedsOnly(body []ir.Stmt, inBody, inAhead map[int]bool, copied map[int]bool) map[int]bool {
	var vals []*ir.Value
	for _, st := range body {
		if v, ok := st.(*ir.Value); ok {
			vals = append(vals, v)
		}
	}
	return p.onlyFeeding(vals, copied, func(v *ir.Value) bool { return inAhead[v.ID] }, func(u *ir.Value) bool { return inBody[u.ID] })
}

// onlyFeeding returns the values of vals (in program order) that are
// pure and read only as the pointers, mask or other of the accesses in
// access, or by values it returns, where every reader is in scope; keep
// says which values to leave out. A store in access still reads the value
// it writes.
func (p *plan) onlyFeeding(vals []*ir.Value, access map[int]bool, keep, inScope func(*ir.Value) bool) map[int]bool {
	out := map[int]bool{}
	if len(access) == 0 {
		return out
	}
	for changed := true; changed; {
		changed = false
		for i := len(vals) - 1; i >= 0; i-- {
			v := vals[i]
			if out[v.ID] || keep(v) || !ir.IsPure(v) || p.ctlUse[v.ID] > 0 || len(p.users[v.ID]) == 0 {
				continue
			}
			all := true
			for _, u := range p.users[v.ID] {
				if !inScope(u) || !out[u.ID] && !(access[u.ID] && !(u.Op == ir.OpStore && u.Args[1] == v)) {
					all = false
					break
				}
			}
			if all {
				out[v.ID], changed = true, true
			}
		}
	}
	return out
}

// unusedPure reports whether v is a read, a constant or a hint whose
// result nothing uses: the loop counter of a loop that advances block
// pointers, or tutorial 08's tl.multiple_of(a_ptrs, [16, 16]) as a
// statement. The pipelines leave such values out of both stages.
func (p *plan) unusedPure(v *ir.Value) bool {
	switch v.Op {
	case ir.OpVarRead, ir.OpConst, ir.OpMultipleOf, ir.OpMaxContiguous:
		return len(p.users[v.ID]) == 0 && p.ctlUse[v.ID] == 0
	}
	return false
}

// readOutside reports whether a Var of vars is read outside the loop
// body whose values inBody holds.
func (p *plan) readOutside(vars map[*ir.Var]bool, inBody map[int]bool) bool {
	found := false
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op == ir.OpVarRead && vars[v.Var] && !inBody[v.ID] && (len(p.users[v.ID]) > 0 || p.ctlUse[v.ID] > 0) {
			found = true
		}
	})
	return found
}

// isZeroOrNil reports whether a load's other is absent or zero.
func isZeroOrNil(v *ir.Value) bool {
	for v != nil && v.Op == ir.OpSplat {
		v = v.Args[0]
	}
	return v == nil || v.Op == ir.OpConst && v.Const.Int == 0 && v.Const.Float == 0
}

// usesWgmma reports whether dot v runs as a pipelined wgmma: its loop was
// found pipelinable on sm_90a and its result got the accumulator layout.
func (p *plan) usesWgmma(v *ir.Value) bool {
	return p.wgmma && p.pipelined(v)
}

// pipelined reports whether dot v's loop is written as its pipeline: the
// loop was found pipelinable and the dot's result got the accumulator
// layout of the pipeline's instruction (wgmma's, or mma.sync's).
func (p *plan) pipelined(v *ir.Value) bool {
	pl := p.pipes[v.ID]
	if pl == nil {
		return false
	}
	if pl.mma {
		return p.usesMma(v)
	}
	d := p.layoutOf(v)
	return d.Layout.String() == wgmmaBlocked(p.numWarps).String() && !d.Repl
}

// swizzleMode is the descriptor's layout type for rows of n bytes: 1 for
// 128-byte, 2 for 64-byte, 3 for 32-byte swizzling.
func swizzleMode(n int) int {
	switch n {
	case 128:
		return 1
	case 64:
		return 2
	}
	return 3
}

// swizzle is the C expression of byte offset off (from a 1024-aligned
// base) in rows of row bytes, XOR-swizzled in 16-byte chunks.
func (s nameSet) swizzle(off string, row int) string {
	mask := row/16 - 1
	s.use("tri_swizzle")
	return fmt.Sprintf("tri_swizzle(%s, %d)", off, mask)
}

// permRow is the C expression of the shared-memory row of a that holds
// row r of the tile: the row wgmma's fragments give to the register that
// the Blocked accumulator layout gives it. With W warps, row r is in
// repetition i = r / (8W) of warp w = r / 8 % W, at g = r % 8; warpgroup
// w / 4 owns rows from (w / 4) * m/(W/4), in m64 blocks i / 2, where warp
// w % 4 holds rows 16 * (w % 4) + 8 * (i % 2) + g.
func permRow(r string, m, numWarps int) string {
	w := numWarps
	perGroup := m / (w / 4)
	r = group(r)
	return fmt.Sprintf("%s / %d %% %d / 4 * %d + %s / %d / 2 * 64 + %s / 8 %% 4 * 16 + %s / %d %% 2 * 8 + %s %% 8",
		r, 8, w, perGroup, r, 8*w, r, r, 8*w, r)
}

// group is C expression x, in parentheses unless it is a name or a number.
func group(x string) string {
	for _, r := range x {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "(" + x + ")"
		}
	}
	return x
}

// copyAxis is the axis along which the copies of load ld run: the rows
// of the stage it fills (K for a, N for an MN-major b, K for a K-major b,
// which is axis 1 of the [N, K] load of a b.T).
func (pl *pipeline) copyAxis(ld *ir.Value) int {
	if ld == pl.loads[1] && pl.bKMajor && !pl.bTrans {
		return 0
	}
	return 1
}

// copyWidth is the number of elements one copy of load ld moves along
// axis: as wide as the pointers' contiguity and alignment, the mask's
// constancy and the thread's run of elements along the axis allow, up to
// 16 bytes; 1 where that is under the 4 bytes cp.async moves at least.
func (p *plan) copyWidth(ld *ir.Value, axis int) int {
	a, _ := accessOf(ld)
	l := p.layoutOf(ld.Args[0])
	w := p.idealWidth(a, axis)
	if mask := ld.Args[1]; mask != nil && !mask.Type.IsScalar() {
		w = min(w, int(pow2Floor(p.axes.dims(mask)[axis].Constancy)))
	}
	if l.KStride[axis] != 1 {
		return 1
	}
	w = max(1, min(w, l.Spt[axis]))
	if w*a.Bytes < 4 {
		return 1
	}
	return w
}

// pipelinedFor writes loop s as the pipeline pl: its dot on wgmma, or on
// mma.sync (mmaPipelinedFor).
func (e *emitter) pipelinedFor(s *ir.For, pl *pipeline) {
	if pl.mma {
		e.mmaPipelinedFor(s, pl)
		return
	}
	e.useShared(pl.sharedBytes())
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("wgmma", wgmmaHelpers)
	ak, bk := pl.loads[0].Type.Kind, pl.loads[1].Type.Kind
	e.helpers.add(fmt.Sprintf("wgmma_m64n%dk%d_%s", pl.n, pl.instrK(), pl.instrKind()), wgmmaInstr(pl.n, ak, bk, pl.bKMajor, false))
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	how := "cp.async"
	switch {
	case pl.tma[0] != nil && pl.tma[1] != nil:
		how = "the TMA unit"
	case pl.anyTMA():
		how = "the TMA unit and cp.async"
	}
	e.w.line("// Software-pipelined: the loads feeding tl.dot stream into %d shared-memory buffers with %s,", pl.buffers, how)
	bMajor := "MN-major"
	if pl.bKMajor {
		bMajor = "K-major"
	}
	e.w.line("// %d iteration(s) ahead of the wgmma that reads them (a: K-major, b: %s, %d- and %d-byte swizzled rows).",
		pl.stages-1, bMajor, pl.aRow, pl.bRow())
	if pl.inFlight() {
		e.w.line("// Each iteration's wgmma runs on while the next iteration is issued; the accumulators stay in wgmma's registers.")
	}
	if pl.asked > 0 {
		e.w.line("// (num_stages=%d: %d stages fit in shared memory.)", pl.asked, pl.stages)
	}
	e.w.open("{")
	e.alignedSmem = true
	e.use("tri_smem_addr")
	e.w.line("const unsigned int tri_stage0 = tri_smem_addr(tri_smem);  // shared address of stage 0, 1024-byte aligned")
	if pl.anyTMA() {
		copies := 0
		for _, tm := range pl.tma {
			if tm != nil {
				copies++
			}
		}
		e.initTMABarriers("buffer", pl.buffers, copies, pl.sharedBytes())
	}
	if pl.inFlight() {
		e.wgmmaLoad(pl)
	}
	e.pipelinePrologue(s, pl)
	e.w.line("int tri_read = 0, tri_write = %d;  // the stages the wgmma reads and the copies fill", pl.stages-1)
	e.w.open("for (%s %s = %s; %s < %s; %s += %s) {", it, iv, lo, iv, hi, iv, step)
	if pl.anyCpAsync() {
		e.use("tri_cp_async_wait")
		e.w.line("tri_cp_async_wait<%d>();  // this iteration's stage has landed", pl.stages-2)
	}
	if pl.anyTMA() {
		e.use("tri_mbar_wait", "tri_smem_addr")
		e.w.line("tri_mbar_wait(tri_smem_addr(&tri_mbar[tri_read]), (tri_parity >> tri_read) & 1u);  // this iteration's TMA copies have landed")
		e.w.line("tri_parity ^= 1u << tri_read;")
	}
	if e.storesElements(pl, 0) || e.storesElements(pl, 1) {
		// Plain shared-memory stores are generic-proxy writes, which
		// wgmma (the async proxy) sees only after a proxy fence. Copies
		// by cp.async get none after their wait and the barrier, as
		// Triton's fence insertion does (it fences only operands stored
		// from registers); the fence is a MEMBAR.ALL.CTA per iteration,
		// 2-6% of a 4-warp 128x128x64 matmul.
		e.use("tri_fence_proxy_async")
		e.w.line("tri_fence_proxy_async();  // the element-by-element stores are generic-proxy writes")
	}
	e.w.line("__syncthreads();")
	e.lastLine = 0
	if !pl.inFlight() {
		e.wgmmaLoad(pl)
	}
	e.wgmmaIssue(pl, fmt.Sprintf("tri_stage0 + tri_read * %d", pl.stageSize))
	e.pipelineCopies(s, pl)
	if pl.inFlight() {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<1>();  // the previous iteration's wgmma is done: its stage may be refilled after the next barrier")
	} else {
		e.wgmmaFinish(pl)
	}
	e.w.line("tri_read = tri_read == %d ? 0 : tri_read + 1;", pl.buffers-1)
	e.w.line("tri_write = tri_write == %d ? 0 : tri_write + 1;", pl.buffers-1)
	if !pl.inFlight() {
		e.assignDot(s, pl)
	}
	e.w.close("}")
	if pl.inFlight() {
		e.wgmmaFinish(pl)
		e.assignDot(s, pl)
	}
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<0>();")
	e.w.line("__syncthreads();  // the stages are scratch memory again")
	if pl.anyTMA() {
		e.invalTMABarriers(pl.buffers)
	}
	e.w.close("}")
}

// pipelinePrologue writes the copies of the first stages-1 iterations of
// pipeline pl's loop s, each a cp.async group of its own (empty past the
// loop's end), into stages 0 to stages-2.
func (e *emitter) pipelinePrologue(s *ir.For, pl *pipeline) {
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	e.w.line("#pragma unroll 1")
	e.w.open("for (int tri_s = 0; tri_s < %d; ++tri_s) {", pl.stages-1)
	e.w.line("%s tri_ahead = %s + tri_s * %s;", it, lo, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.aheadStatements(s, pl, "tri_s")
	e.w.close("}")
	e.use("tri_cp_async_commit")
	e.w.line("tri_cp_async_commit();")
	e.w.close("}")
}

// pipelineCopies writes, in an iteration of pipeline pl's loop s, the
// ahead statements of the iteration stages-1 further on, its loads as
// copies into stage tri_write, committed as one group (empty past the
// loop's end, so that the waits count groups alike to the last iteration).
func (e *emitter) pipelineCopies(s *ir.For, pl *pipeline) {
	it := e.cType(s.Var.Type.DType)
	iv, hi, step := e.varNames[s.Var.ID], e.expr(s.Hi, ""), e.expr(s.Step, "")
	e.w.line("%s tri_ahead = %s + %d * %s;", it, iv, pl.stages-1, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.aheadStatements(s, pl, "tri_write")
	e.w.close("}")
	e.use("tri_cp_async_commit")
	e.w.line("tri_cp_async_commit();")
}

// storesElements reports whether load i of pl reaches the stage through
// element-by-element shared-memory stores (generic-proxy writes) rather
// than copies.
func (e *emitter) storesElements(pl *pipeline, i int) bool {
	ld := pl.loads[i]
	switch {
	case pl.tma[i] != nil:
		return false
	case pl.direct[i]:
		return e.directWidth(ld) == 1
	}
	return e.copyWidth(ld, pl.copyAxis(ld)) == 1
}

// assignDot writes the assignment of the dot's result to the accumulator
// Var.
func (e *emitter) assignDot(s *ir.For, pl *pipeline) {
	for _, st := range s.Body.Stmts {
		if as, ok := st.(*ir.Assign); ok && as.Value == pl.dot {
			e.statement(as)
		}
	}
}

// aheadStatements writes the ahead statements of pl's loop for the
// iteration tri_ahead, its loads as copies into the stage at shared
// address stage.
func (e *emitter) aheadStatements(s *ir.For, pl *pipeline, buf string) {
	stage := fmt.Sprintf("tri_stage0 + %s * %d", buf, pl.stageSize)
	e.aheadOf(s, pl.ahead, func(st ir.Stmt) bool {
		for i, ld := range pl.loads {
			if st == ld {
				e.source(st.Position())
				if pl.tma[i] != nil {
					e.tmaToStage(pl, ld, i == 0, stage, buf)
				} else {
					e.copyToStage(pl, ld, i == 0, stage, pl.direct[i])
				}
				return true
			}
		}
		return false
	})
}

// tmaToStage writes the TMA copies of load ld (a if isA, else b) into the
// stage at shared address stage, completing on buffer buf's mbarrier: one
// thread tells the barrier the bytes to expect and issues them. a goes in
// atoms of 8 rows, each to the place the row permutation gives it (atoms
// move whole, so TMA's swizzle, which is the stage's, holds); b, K-major
// and in order, in one box.
func (e *emitter) tmaToStage(pl *pipeline, ld *ir.Value, isA bool, stage, buf string) {
	tm := pl.tma[0]
	what, rows := "a", pl.m
	if !isA {
		tm, what, rows = pl.tma[1], "b", pl.n
	}
	bytes := rows * pl.aRow
	row, col := e.expr(ld.Desc.Offsets[0], ""), e.expr(ld.Desc.Offsets[1], "")
	tmap := e.tmapRef(tm)
	e.w.line("// %s: %d bytes copied by the TMA unit from %s, completing on the buffer's mbarrier", what, bytes, e.tmapNames[tm])
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_expect_tx")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[%s]);", buf)
	e.w.line("tri_mbar_expect_tx(tri_bar, %d);", bytes)
	if isA {
		e.tmaRowsOfA(stage, tm, pl.aRows, ld.Desc, pl.m, pl.aRow, 1)
	} else {
		e.use("tri_tma_load_2d")
		e.w.line("tri_tma_load_2d(%s + %d, %s, (int)(%s), (int)(%s), tri_bar);", stage, pl.aBytes, tmap, col, row)
	}
	e.w.close("}")
}

// tmaRowsOfA writes the TMA copies, completing on mbarrier tri_bar, of
// the block of m rows of a dot's a that descriptor access d reads, into
// shared memory at dst with its rows in permRow's order: chunks tiles of
// rows of rb bytes, chunk c (the columns from rb / elem * c) at dst + c *
// m * rb. Rows inside the tensor go in one box of the 5-D view rows a
// chunk, where there is one (wgmmaRowAxes); the tensor's last rows, and
// all rows without the view, in 8-row boxes of map8, each to its place
// (whole swizzle atoms, so that the TMA unit's swizzle is the tile's).
func (e *emitter) tmaRowsOfA(dst string, map8, rows *tensorMap, d *ir.DescAccess, m, rb, chunks int) {
	row, col := e.expr(d.Offsets[0], ""), e.expr(d.Offsets[1], "")
	// at and from are chunk c's place and first column.
	at := func(c int) string { return plusBytes(dst, c*m*rb) }
	from := func(c int) string { return plusBytes(fmt.Sprintf("(int)(%s)", col), c*rb/map8.elem) }
	if rows != nil {
		e.helpers.add("tma5d", tmaLoad5D)
		how := "one box of a 5-D view lands them"
		if chunks > 1 {
			how = "a box of a 5-D view a chunk lands them"
		}
		e.w.comment("Rows inside the tensor: %s in wgmma's order.", how)
		e.w.open("if ((int)(%s) >= 0 && (int)(%s) + %d <= %s) {", row, row, m, e.expr(d.Shape[0], ""))
		for c := range chunks {
			e.use("tri_tma_load_5d")
			e.w.line("tri_tma_load_5d(%s, %s, %s, (int)(%s), 0, 0, 0, tri_bar);", at(c), e.tmapRef(rows), from(c), row)
		}
		e.w.close("} else {  // the tensor's last rows: 8-row boxes, each to its place")
		e.w.indent++
	}
	for c := range chunks {
		e.w.line("#pragma unroll")
		e.use("tri_tma_load_2d")
		e.w.loop(fmt.Sprintf("for (int r = 0; r < %d; r += 8)", m),
			[]string{"int tri_srow = " + permRow("r", m, e.numWarps), fmt.Sprintf("unsigned int tri_dst = %s + tri_srow * %d", at(c), rb)},
			fmt.Sprintf("tri_tma_load_2d(tri_dst, %s, %s, (int)(%s) + r, tri_bar);", e.tmapRef(map8), from(c), row))
	}
	if rows != nil {
		e.w.close("}")
	}
}

// plusBytes is the C expression of x plus n, where n is not 0.
func plusBytes(x string, n int) string {
	if n == 0 {
		return x
	}
	return fmt.Sprintf("%s + %d", x, n)
}

// tmapRef is the C address of tensor map tm: its parameter's, or the
// pointer to the one the kernel built.
func (e *emitter) tmapRef(tm *tensorMap) string {
	if tm.dev != nil {
		return e.tmapNames[tm]
	}
	return "&" + e.tmapNames[tm]
}

// aheadOf writes the statements of loop s that ahead holds, for the
// iteration tri_ahead: each through copy, which writes the statement (a
// streamed load, as copies) and reports true, or else as it is.
func (e *emitter) aheadOf(s *ir.For, ahead map[ir.Stmt]bool, copy func(ir.Stmt) bool) {
	saved := e.varNames[s.Var.ID]
	e.varNames[s.Var.ID] = "tri_ahead"
	defer func() { e.varNames[s.Var.ID] = saved }()
	e.lastLine = 0
	for _, st := range s.Body.Stmts {
		if ahead[st] && !copy(st) {
			e.statement(st)
		}
	}
}

// copyToStage writes load ld (a if isA, else b) as copies into the stage.
func (e *emitter) copyToStage(pl *pipeline, ld *ir.Value, isA bool, stage string, direct bool) {
	l := e.layoutOf(ld.Args[0])
	w := e.copyWidth(ld, pl.copyAxis(ld))
	if direct {
		w = e.directWidth(ld)
	}
	locals, row, col := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e"))
	es := pl.elem
	var off string
	switch {
	case isA && pl.mma:
		off = e.swizzle(fmt.Sprintf("%s * %d + %s * %d", row, pl.aRow, col, es), pl.aRow)
	case isA:
		locals = append(locals, "int tri_srow = "+permRow(row, pl.m, e.numWarps))
		off = e.swizzle(fmt.Sprintf("tri_srow * %d + %s * %d", pl.aRow, col, es), pl.aRow)
	case pl.bTrans:
		// Row row of the [N, K] load is column row of b: row row of the
		// stage's b.
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s * %d + %s * %d", row, pl.bRow(), col, es), pl.bRow())
	case pl.bKMajor:
		// Column col of b is row col of the stage's b, its k-th byte row.
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s * %d + %s", col, pl.bRow(), row), pl.bRow())
	default:
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s / %d * %d + %s * %d + %s %% %d * %d",
			col, pl.bCols, pl.k*pl.bRow(), row, pl.bRow(), col, pl.bCols, es), pl.bRow())
	}
	switch {
	case direct:
		e.directStageCopies(ld, isA, w, es, stage, off, locals)
	case w == 1 && pl.mma:
		e.stageElements(ld, isA, es, stage, off, locals)
	default:
		e.stageCopies(ld, isA, w, es, stage, off, locals)
	}
}

// tileCoords binds the C expressions of element e's row and column in a
// tile to the locals tri_row and tri_col, which the loops writing stage
// copies declare: it returns the declarations and the names.
func tileCoords(row, col string) (locals []string, r, c string) {
	return []string{"int tri_row = " + row, "int tri_col = " + col}, "tri_row", "tri_col"
}

// dstLocal appends to locals the shared address stage + off as the
// local tri_dst (every copy and store helper takes its destination as an
// unsigned int), and returns them.
func dstLocal(locals []string, stage, off string) []string {
	return append(locals[:len(locals):len(locals)], fmt.Sprintf("unsigned int tri_dst = %s + %s", stage, off))
}

// directWidth is the number of elements one copy of a descriptor load
// copied by rows moves: copyWidth without the mask, which the byte count
// of each copy replaces.
func (p *plan) directWidth(ld *ir.Value) int {
	a, _ := accessOf(ld)
	l := p.layoutOf(ld.Args[0])
	if l.KStride[1] != 1 {
		return 1
	}
	w := max(1, min(p.idealWidth(a, 1), l.Spt[1]))
	if w*a.Bytes < 4 {
		return 1
	}
	return w
}

// directStageCopies writes the copies of descriptor load ld (a if isA,
// else b) into the stage, w elements of es bytes at a time along the
// block's rows, each from the descriptor's base, strides and offsets, with
// the byte count that stops it at the tensor's edge (0 outside it: the
// stage is zero-filled there, the descriptor's zero padding); off is the
// C expression of element e's byte offset in the stage, over the locals
// tileCoords declares (tri_row and tri_col, the element's place in the
// block).
func (e *emitter) directStageCopies(ld *ir.Value, isA bool, w, es int, stage, off string, locals []string) {
	d := ld.Desc
	l := e.layoutOf(ld.Args[0])
	what := "b"
	if isA {
		what = "a"
	}
	// The element's row and column in the tensor, as descRowCol gives them.
	locals = append(dstLocal(locals, stage, off),
		fmt.Sprintf("auto tri_trow = %s + (long long)(tri_row)", e.expr(d.Offsets[0], "")),
		fmt.Sprintf("auto tri_tcol = %s + (long long)(tri_col)", e.expr(d.Offsets[1], "")))
	row, col := "tri_trow", "tri_tcol"
	locals = append(locals, fmt.Sprintf("auto tri_src = %s + %s * %s + %s", e.expr(d.Base, ""), row, e.expr(d.Strides[0], ""), col))
	inRow := fmt.Sprintf("%s >= 0 && %s < %s", row, row, e.expr(d.Shape[0], ""))
	shape1 := e.expr(d.Shape[1], "")
	if w == 1 {
		bits := 8 * es
		e.w.line("// %s, element by element from the descriptor, zero outside the tensor", what)
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", bits))
		locals = append(locals, fmt.Sprintf("bool tri_in = %s && %s >= 0 && %s < %s", inRow, col, col, shape1))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals,
			fmt.Sprintf("tri_st_shared_u%d(tri_dst, tri_in ? *(tri_src) : (unsigned %s)0);", bits, cUnsigned(es)))
		return
	}
	e.w.line("// %s: %d-byte copies of rows from the descriptor, each cut at the tensor's edge (zero-filled past it)", what, es*w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_cp_async_%dn", es*w), "tri_clamp_ll")
	locals = append(locals, fmt.Sprintf("bool tri_in = %s && %s >= 0", inRow, col),
		fmt.Sprintf("int tri_bytes = tri_in ? (int)tri_clamp_ll(%s - %s, 0, %d) * %d : 0", shape1, col, w, es))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), locals,
		fmt.Sprintf("tri_cp_async_%dn(tri_dst, tri_src, tri_bytes);", es*w))
	e.helpers.add("cp_async_n", cpAsyncNHelpers)
}

// cpAsyncNHelpers are cp.async copies of a byte count that may be short
// of the copy's size (the rest of the destination is zero-filled).
var cpAsyncNHelpers = cgroup{`// cp.async of n bytes (n at most the copy's size; the rest of it zero-filled).`, []cdef{
	{"tri_clamp_ll", nil, `TRI_DEV long long tri_clamp_ll(long long x, long long lo, long long hi) { return x < lo ? lo : x > hi ? hi : x; }`},
	{"tri_cp_async_16n", nil, `TRI_DEV void tri_cp_async_16n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
	{"tri_cp_async_8n", nil, `TRI_DEV void tri_cp_async_8n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
	{"tri_cp_async_4n", nil, `TRI_DEV void tri_cp_async_4n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
}}

// stagedLoad is what the writers of a stage need of load ld (a if isA,
// else b): its pointer tile and layout, the C expression of element e's
// mask ("true" where it has none), and the operand's name for comments
// and C names.
func (e *emitter) stagedLoad(ld *ir.Value, isA bool) (ptr *ir.Value, l *dist, pred, what string) {
	ptr, mask := ld.Args[0], ld.Args[1]
	l = e.layoutOf(ptr)
	pred = "true"
	if mask != nil {
		pred = e.expr(mask, "e")
	}
	what = "b"
	if isA {
		what = "a"
	}
	return ptr, l, pred, what
}

// stageCopies writes the copies of load ld (a if isA, else b) into the
// stage: w elements of es bytes at a time with cp.async, zero-filled where
// masked off, or element by element through registers when w is 1. off is
// the C expression of element e's byte offset in the stage, over locals.
func (e *emitter) stageCopies(ld *ir.Value, isA bool, w, es int, stage, off string, locals []string) {
	ptr, l, pred, what := e.stagedLoad(ld, isA)
	locals = dstLocal(locals, stage, off)
	if w == 1 {
		bits := 8 * es
		e.w.line("// %s, element by element (no 4-byte run is contiguous, aligned and under one mask)", what)
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", bits))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals,
			fmt.Sprintf("tri_st_shared_u%d(tri_dst, %s ? *%s : (unsigned %s)0);", bits, pred, e.expr(ptr, "e"), cUnsigned(es)))
		return
	}
	e.w.line("// %s: %d-byte copies into the stage, zero-filled where masked off", what, es*w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_cp_async_%d", es*w))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), locals,
		fmt.Sprintf("tri_cp_async_%d(tri_dst, %s, %s);", es*w, e.expr(ptr, "e"), pred))
}

// wgmmaLoad declares wgmma's accumulator fragments and copies the
// accumulator into them, in wgmma's fragment order, and declares the
// dot's result.
func (e *emitter) wgmmaLoad(pl *pipeline) {
	v := pl.dot
	acc := v.Args[2]
	d := e.layoutOf(v)
	e.source(v.Pos)
	if !e.inlined[acc.ID] {
		e.statement(acc)
	}
	if !e.fused[v.ID] {
		e.declare(v.Type, d, e.names[v.ID], "")
	}
	for mb := 0; mb < pl.m/(16*e.numWarps); mb++ {
		e.w.line("float tri_d%d[%d];", mb, pl.n/2)
		e.w.line("#pragma unroll")
		e.w.line("for (int r = 0; r < %d; ++r) tri_d%d[r] = %s;", pl.n/2, mb, e.expr(acc, fragIndex(d, mb, "r")))
	}
}

// wgmmaIssue issues the wgmma of one stage.
func (e *emitter) wgmmaIssue(pl *pipeline, stage string) {
	v := pl.dot
	blocks := pl.m / (16 * e.numWarps)
	perGroup := pl.m / (e.numWarps / 4)
	ik := pl.instrK()
	e.w.line("// tl.dot %s x %s on wgmma m64n%dk%d: each warpgroup owns %d rows of a, in %d m64 block(s).", v.Args[0].Type, v.Args[1].Type, pl.n, ik, perGroup, blocks)
	e.use("tri_wgmma_fence")
	e.w.line("tri_wgmma_fence();")
	aSBO, bLBO, bSBO := 8*pl.aRow, pl.k*pl.bRow(), 8*pl.bRow()
	if pl.bKMajor {
		bLBO = 16
	}
	// The descriptors of the stage's a and b; each instruction's adds its
	// offset, in 16-byte units, to the start address field, which holds
	// any shared address (18 bits) without a carry.
	e.use("tri_wgmma_desc", "warp_id")
	e.w.line("const unsigned long long tri_da = tri_wgmma_desc(%s + warp_id / 4 * %d, 16, %d, %d);", stage, perGroup*pl.aRow, aSBO, swizzleMode(pl.aRow))
	e.w.line("const unsigned long long tri_db = tri_wgmma_desc(%s + %d, %d, %d, %d);", stage, pl.aBytes, bLBO, bSBO, swizzleMode(pl.bRow()))
	kind := pl.instrKind()
	for kk := 0; kk < pl.k/ik; kk++ {
		for mb := 0; mb < blocks; mb++ {
			// Each instruction takes the next 32 bytes of K.
			bOff := kk * 16 * pl.bRow()
			if pl.bKMajor {
				bOff = 32 * kk
			}
			e.use(fmt.Sprintf("tri_wgmma_m64n%dk%d_%s", pl.n, ik, kind))
			e.w.line("tri_wgmma_m64n%dk%d_%s(tri_d%d, %s, %s, 1);", pl.n, ik, kind, mb, descPlus("tri_da", 64*mb*pl.aRow+32*kk), descPlus("tri_db", bOff))
		}
	}
	e.use("tri_wgmma_commit")
	e.w.line("tri_wgmma_commit();")
}

// descPlus is the C expression of descriptor d moved off bytes on.
func descPlus(d string, off int) string {
	if off == 0 {
		return d
	}
	return fmt.Sprintf("%s + %d", d, off/16)
}

// wgmmaFinish waits for the wgmma and moves its fragments into the
// result's registers.
func (e *emitter) wgmmaFinish(pl *pipeline) {
	d := e.layoutOf(pl.dot)
	name := e.names[pl.dot.ID]
	e.use("tri_wgmma_wait")
	e.w.line("tri_wgmma_wait<0>();")
	for mb := 0; mb < pl.m/(16*e.numWarps); mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_d%d[r]); %s[%s] = tri_d%d[r]; }", pl.n/2, mb, name, fragIndex(d, mb, "r"), mb)
	}
}

// fragIndex is the C expression of the element of the accumulator layout
// d that wgmma register r of m64 block mb holds: register 4j + 2h + c
// holds row 8h + g of the warp's 16, column 8j + 2t + c, which is
// repetition 2mb + h along the rows, j along the columns, element c.
func fragIndex(d *dist, mb int, r string) string {
	return fmt.Sprintf("(%d + %s / 2 %% 2) * %d + %s / 4 * %d + %s %% 2 * %d", 2*mb, r, d.RStride[0], r, d.RStride[1], r, d.KStride[1])
}

// wgmmaHelpers are cp.async, the proxy fence and wgmma's fences, with the
// descriptor and swizzle arithmetic.
var wgmmaHelpers = cgroup{`// Hopper: cp.async copies into shared memory, wgmma.mma_async reading it through matrix descriptors.`, slices.Concat(cpAsyncDefs, []cdef{
	{"tri_fence_proxy_async", nil, `TRI_DEV void tri_fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }`},
	{"tri_wgmma_fence", nil, `TRI_DEV void tri_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }`},
	{"tri_wgmma_commit", nil, `TRI_DEV void tri_wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }`},
	{"tri_wgmma_wait", nil, `template <int N> TRI_DEV void tri_wgmma_wait(void) { asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory"); }`},
	{"tri_pack2", nil, `// Two halves (fp16 or bf16 bits) in one register, lo in the low half: an A fragment register.
TRI_DEV unsigned int tri_pack2(unsigned short lo, unsigned short hi) { return (unsigned int)lo | (unsigned int)hi << 16; }`},
	{"tri_fence_reg", nil, `// Keeps the compiler from moving an accumulator across the wait.
TRI_DEV void tri_fence_reg(float& r) { asm volatile("" : "+f"(r) :: "memory"); }`},
	{"tri_wgmma_desc", nil, `// A shared-memory matrix descriptor: start address, leading and stride byte offsets, swizzle mode.
TRI_DEV unsigned long long tri_wgmma_desc(unsigned int addr, unsigned int lbo, unsigned int sbo, unsigned int mode) {
  return (unsigned long long)((addr & 0x3ffffu) >> 4) | (unsigned long long)((lbo & 0x3ffffu) >> 4) << 16 |
         (unsigned long long)((sbo & 0x3ffffu) >> 4) << 32 | (unsigned long long)mode << 62;
}`},
})}

// cpAsyncDefs are the swizzle arithmetic, cp.async copies of 16, 8 and 4
// bytes (zero-filled where the predicate is false), shared-memory stores
// of one element and cp.async's group commit and wait.
var cpAsyncDefs = []cdef{
	{"tri_swizzle", nil, `TRI_DEV unsigned int tri_swizzle(unsigned int off, unsigned int mask) { return off ^ (((off >> 7) & mask) << 4); }`},
	{"tri_cp_async_16", nil, `TRI_DEV void tri_cp_async_16(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(pred ? 16 : 0) : "memory");
}`},
	{"tri_cp_async_8", nil, `TRI_DEV void tri_cp_async_8(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(dst), "l"(src), "r"(pred ? 8 : 0) : "memory");
}`},
	{"tri_cp_async_4", nil, `TRI_DEV void tri_cp_async_4(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(pred ? 4 : 0) : "memory");
}`},
	{"tri_st_shared_u16", nil, `TRI_DEV void tri_st_shared_u16(unsigned int dst, unsigned short x) { asm volatile("st.shared.u16 [%0], %1;" :: "r"(dst), "h"(x) : "memory"); }`},
	{"tri_st_shared_u8", nil, `TRI_DEV void tri_st_shared_u8(unsigned int dst, unsigned char x) { asm volatile("st.shared.u8 [%0], %1;" :: "r"(dst), "h"((unsigned short)x) : "memory"); }`},
	{"tri_cp_async_commit", nil, `TRI_DEV void tri_cp_async_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }`},
	{"tri_cp_async_wait", nil, `template <int N> TRI_DEV void tri_cp_async_wait(void) { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }`},
}

// tmaHelpers adds the TMA copy and mbarrier helpers.
func (e *emitter) tmaHelpers() {
	e.helpers.add("tma", tmaHelpers)
}

// tmaHelpers are the TMA unit's 2-D tiled copy and the mbarrier
// operations its completion goes through (PTX ISA 8.0, sm_90).
var tmaHelpers = cgroup{`// Hopper's TMA unit: copies of tensor-map boxes into shared memory, completing on an mbarrier.
#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
#define __grid_constant__
#endif`, []cdef{
	{"tri_tmap", nil, `struct alignas(64) tri_tmap { unsigned long long opaque[16]; };  // a CUtensorMap`},
	{"tri_mbar_init", nil, `TRI_DEV void tri_mbar_init(unsigned int bar, unsigned int count) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory"); }`},
	{"tri_mbar_inval", nil, `TRI_DEV void tri_mbar_inval(unsigned int bar) { asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(bar) : "memory"); }`},
	{"tri_fence_mbar_init", nil, `TRI_DEV void tri_fence_mbar_init(void) { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }`},
	{"tri_mbar_expect_tx", nil, `TRI_DEV void tri_mbar_expect_tx(unsigned int bar, unsigned int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}`},
	{"tri_mbar_wait", nil, `TRI_DEV void tri_mbar_wait(unsigned int bar, unsigned int parity) {
  unsigned int done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  }
}`},
	{"tri_tma_store_2d", []string{"tri_tma_store_fence", "tri_tmap"}, `// A box from shared memory at src (generic address) to the tensor, after tri_tma_store_fence and a barrier.
TRI_DEV void tri_tma_store_2d(const tri_tmap* map, int c0, int c1, const void* src) {
  asm volatile("{ .reg .u64 t; .reg .u32 s; cvta.to.shared.u64 t, %3; cvt.u32.u64 s, t;\n"
               "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [s]; }" :: "l"(map), "r"(c0), "r"(c1), "l"(src) : "memory");
}`},
	{"tri_tma_store_fence", nil, `TRI_DEV void tri_tma_store_fence(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }`},
	{"tri_bulk_commit", nil, `TRI_DEV void tri_bulk_commit(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }`},
	{"tri_bulk_wait_read", nil, `TRI_DEV void tri_bulk_wait_read(void) { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }`},
	{"tri_tma_load_2d", []string{"tri_tmap"}, `TRI_DEV void tri_tma_load_2d(unsigned int dst, const tri_tmap* map, int c0, int c1, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}`},
}}

// tmaLoad5D copies a box of a 5-D tensor map (PTX ISA 8.0, sm_90).
var tmaLoad5D = cgroup{``, []cdef{
	{"tri_tma_load_5d", []string{"tri_tmap"}, `TRI_DEV void tri_tma_load_5d(unsigned int dst, const tri_tmap* map, int c0, int c1, int c2, int c3, int c4, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar) : "memory");
}`},
}}

// instrKind names the wgmma helper of pl: its operand kinds, with _kb
// for 16-bit operands whose b is K-major.
func (pl *pipeline) instrKind() string {
	a, b := pl.loads[0].Type.Kind, pl.loads[1].Type.Kind
	if pl.bKMajor && !a.IsFP8() {
		return wgmmaKind(a, b) + "_kb"
	}
	return wgmmaKind(a, b)
}

// wgmmaKind names the operand kinds of a wgmma helper.
func wgmmaKind(a, b ir.Kind) string {
	if a.IsFP8() {
		return fp8MmaName(a, b)
	}
	return kindSuffix(a)
}

// cUnsigned is the unsigned C type of n bytes (1 or 2).
func cUnsigned(n int) string {
	if n == 1 {
		return "char"
	}
	return "short"
}

// wgmmaInstr is the helper that issues one wgmma.mma_async with fp32
// accumulators: m64nNk16 on fp16 or bf16, a K-major and b MN-major (its
// transpose bit set) or K-major (bKMajor), or m64nNk32 on fp8, both
// K-major (fp8 takes no transposed operand). With regA, a comes from
// registers (four 32-bit registers of two halves each: wgmma's A
// fragment) instead of a descriptor. scale_d 0 makes the instruction
// ignore the accumulators' values (d = a * b).
func wgmmaInstr(n int, a, b ir.Kind, bKMajor, regA bool) cgroup {
	regs := n / 2
	var ops, outs []string
	for i := 0; i < regs; i++ {
		ops = append(ops, fmt.Sprintf("%%%d", i))
		outs = append(outs, fmt.Sprintf("\"+f\"(d[%d])", i))
	}
	var lines []string
	for i := 0; i < len(outs); i += 8 {
		lines = append(lines, "      "+strings.Join(outs[i:min(i+8, len(outs))], ", "))
	}
	kind := wgmmaKind(a, b)
	name := kind
	k, types, imm, what := 16, kind+"."+kind, "1, 1, 0, 1", kind+" inputs, fp32 accumulators d += a * b (a K-major, b MN-major)"
	if bKMajor && !a.IsFP8() {
		name, imm, what = kind+"_kb", "1, 1, 0, 0", kind+" inputs, fp32 accumulators d += a * b (a and b K-major)"
	}
	if a.IsFP8() {
		k, types, imm = 32, fp8Names[a]+"."+fp8Names[b], "1, 1"
		what = fp8Names[a] + " x " + fp8Names[b] + " inputs, fp32 accumulators d += a * b (a and b K-major)"
	}
	aParams, aOperand, aInputs := "unsigned long long da", fmt.Sprintf("%%%d", regs), `"l"(da)`
	next := regs + 1
	if regA {
		// No transpose bit for a from registers.
		name += "_ra"
		switch {
		case a.IsFP8():
			// 8-bit operands have no transpose bits at all.
		case bKMajor:
			imm = "1, 1, 0"
		default:
			imm = "1, 1, 1"
		}
		what = strings.Replace(what, "(a K-major, ", "(a from registers, ", 1)
		what = strings.Replace(what, "(a and b K-major)", "(a from registers, b K-major)", 1)
		aParams = "unsigned int a0, unsigned int a1, unsigned int a2, unsigned int a3"
		aOperand = fmt.Sprintf("{%%%d, %%%d, %%%d, %%%d}", regs, regs+1, regs+2, regs+3)
		aInputs = `"r"(a0), "r"(a1), "r"(a2), "r"(a3)`
		next = regs + 4
	}
	return cgroup{fmt.Sprintf("// wgmma.mma_async m64n%dk%d, %s.", n, k, what), []cdef{{fmt.Sprintf("tri_wgmma_m64n%dk%d_%s", n, k, name), nil, fmt.Sprintf(`TRI_DEV void tri_wgmma_m64n%[1]dk%[2]d_%[12]s(float* d, %[13]s, unsigned long long db, int scale_d) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %%%[5]d, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n%[1]dk%[2]d.f32.%[6]s {%[7]s}, %[8]s, %%%[9]d, p, %[10]s; }"
    : %[11]s
    : %[14]s, "l"(db), "r"(scale_d) : "memory");
}`, n, k, what, kind, next+1, types, strings.Join(ops, ", "), aOperand, next, imm, strings.TrimSpace(strings.Join(lines, ",\n")), name, aParams, aInputs)}}}
}
