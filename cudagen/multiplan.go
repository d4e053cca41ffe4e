package cudagen

// This file implements the case of the pipeline analysis (pipeplan.go's
// pipelineOf) for loops of one or more dots with other work around them,
// every loop the K-loop case (pipeone.go) does not take (multipipe.go
// prints it on wgmma, mmamulti.go on mma.sync). On the loop as
// pipescan.go reads it, with its shared steps (the dots' kinds, b's
// source, streamable loads, the ahead set, the stage fit), it decides
// what is this case's own: the shapes its printers take, where each
// operand of each dot comes from (streamed, stored once before the loop,
// or in registers), how a streamed one is copied and where it lies in a
// stage (smemTile), the statements of the iteration itself, which dot may
// stay in flight, and why a loop is refused. It prints nothing: the
// printers read the multiPipe record it makes.

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/ir"
)

// rowBytes is the length of one swizzle row: up to 128 bytes of K of a
// row (K-major), or of up to 64 columns of b (MN-major).
func (t smemTile) rowBytes() int {
	if t.kMajor {
		return min(128, t.k*t.elem)
	}
	return t.elem * min(t.rows, 64)
}

// chunkBytes is the size of one 128-byte K chunk of a K-major tile.
func (t smemTile) chunkBytes() int { return t.rows * t.rowBytes() }

// copyAxis is the axis of src along which a streamed operand's copies run:
// the axis that is contiguous in shared memory.
func (o *wgOperand) copyAxis(isA bool) int {
	if isA {
		return 1
	}
	kAxis, nAxis := o.axes()
	if o.tile.kMajor {
		return kAxis
	}
	return nAxis
}

// sameStorage returns the streamed operand of mp that copies the same
// load as operand o (an a if isA, else a b) into a tile where every
// element of the load lies where o's tile would hold it, or nil: a b of
// the same layout, or an a of the same rows (two dots of one a, as
// x = a @ b and y = a @ c).
func (mp *multiPipe) sameStorage(o *wgOperand, isA bool) *wgOperand {
	for _, x := range mp.streamed {
		if isA {
			t := x.tile
			t.off = o.tile.off
			if mp.aIsA[x] && x.src == o.src && t == o.tile {
				return x
			}
			continue
		}
		if mp.aIsA[x] || x.src != o.src || x.tile.elem != o.tile.elem {
			continue
		}
		r, c := o.src.Type.Shape[0], o.src.Type.Shape[1]
		same := true
		for i := 0; i < r && same; i++ {
			for j := 0; j < c && same; j++ {
				same = x.byteOffset(i, j) == o.byteOffset(i, j)
			}
		}
		if same {
			return x
		}
	}
	return nil
}

// byteOffset is where element (i, j) of b operand o's load lies in its
// tile, from the tile's start: the number offset's C expression computes.
func (o *wgOperand) byteOffset(i, j int) int {
	t := o.tile
	r, c := i, j // b.T: (n, k)
	if !o.trans {
		r, c = j, i // b: (k, n)
	}
	rb := t.rowBytes()
	swz := func(x int) int { return x ^ (x>>7&(rb/16-1))<<4 }
	if !t.kMajor {
		cols := rb / t.elem
		return r/cols*t.k*rb + swz(c*rb+r%cols*t.elem)
	}
	in, chunk := c*t.elem, 0
	if t.k*t.elem > rb {
		in, chunk = c*t.elem%rb, c*t.elem/rb*t.chunkBytes()
	}
	return chunk + swz(r*rb+in)
}

// multiPipeOf returns loop sc as a loop of several dots (the case above),
// or nil with why not ("" where the loop holds no dot or streams nothing).
func (p *plan) multiPipeOf(sc *loopScan) (*multiPipe, string) {
	body, inBody, dots := sc.body, sc.inBody, sc.dots
	if len(dots) == 0 {
		return nil, ""
	}
	mp := &multiPipe{aIsA: map[*wgOperand]bool{}}
	m := 0
	skip := map[int]bool{} // the streamed loads and the transposes of b: the dots read them
	for _, ld := range dots {
		d, a, b := ld.dot, ld.a, ld.b
		fp8 := a.Type.Kind.IsFP8() && b.Type.Kind.IsFP8()
		if !ld.taken {
			return nil, fmt.Sprintf("the dot at line %d is not fp16, bf16 or fp8 into fp32", d.Pos.Line)
		}
		wd := &wgDot{dot: d, m: ld.m, k: ld.k, n: ld.n, zeroAcc: isZeroOrNil(ld.acc)}
		if m == 0 {
			m = wd.m
		}
		es := ld.elem
		if !p.wgmma {
			if why := p.mmaMultiWhy(wd, ld.here); why != "" {
				return nil, why
			}
		} else if wd.m != m || !p.wgmmaTileShape(wd.m, wd.n, wd.k, es) {
			return nil, fmt.Sprintf("the dot at line %d (%dx%dx%d) has no wgmma shape here", d.Pos.Line, wd.m, wd.n, wd.k)
		}
		// Rows of 32 or 64 bytes, or 128-byte chunks: the swizzle modes.
		kRows := swizzleRows(wd.k * es)
		// b: a load of [K, N], or the transpose of a load of [N, K].
		bLoad := ld.bSrc
		if ld.trans {
			wd.b.trans = true
			skip[b.ID] = true
		}
		if !ld.bStreams {
			return nil, fmt.Sprintf("b of the dot at line %d is not a load in the body that only dots read", d.Pos.Line)
		}
		wd.b.form, wd.b.src = streamed, bLoad
		// b is K-major where the load's memory runs along K: a b.T of a
		// load contiguous along K, or a b loaded through transposed
		// strides; else MN-major.
		kMajor := wd.b.trans
		if bLoad.Desc == nil {
			f := p.axes.dims(bLoad.Args[0])
			kAxis, nAxis := wd.b.axes()
			kMajor = f[kAxis].Contig > f[nAxis].Contig || wd.b.trans && f[kAxis].Contig == f[nAxis].Contig
		}
		wd.b.tile = smemTile{rows: wd.n, k: wd.k, elem: es, kMajor: kMajor}
		if kMajor && (wd.n%8 != 0 || !kRows) || !kMajor && !swizzleRows(min(wd.n, 64)*es) || fp8 && !kMajor {
			// wgmma reads 8-bit operands K-major only.
			return nil, fmt.Sprintf("b of the dot at line %d lies in no shared-memory form %s reads", d.Pos.Line, p.dotEngine())
		}
		skip[bLoad.ID] = true
		// a: streamed, invariant, or in registers.
		wd.a.src = a
		wd.a.tile = smemTile{rows: wd.m, k: wd.k, elem: es, kMajor: true, perm: p.wgmma}
		switch {
		case !kRows && (!inBody[a.ID] || ld.aStreams || fp8):
			return nil, fmt.Sprintf("a of the dot at line %d has rows of %d bytes, which no swizzle mode reads", d.Pos.Line, wd.k*es)
		case !inBody[a.ID]:
			wd.a.form = invariant
			wd.a.tile.off = mp.invSize
			mp.invSize += wd.a.tile.bytes()
		case ld.aStreams:
			wd.a.form = streamed
			skip[a.ID] = true
		case fp8, !p.wgmma && mmaPipeBlocked(wd.m, p.numWarps).WarpsPerCTA[1] > 1:
			// An 8-bit a for wgmma, or an a whose columns the warps split
			// on mma.sync (mmaPipeBlocked), is stored where its dot stands.
			wd.a.form = staged
		default:
			wd.a.form = inRegisters
			if a.Op == ir.OpCast && a.Flags&ir.FlagRoundTZ == 0 && a.Args[0].Type.Kind == ir.Float32 && a.Args[0].Type.Shape.Rank() == 2 {
				wd.a.cvt = a.Args[0]
			}
		}
		mp.dots = append(mp.dots, wd)
	}
	// The streamed operands, in body order, get their places in a stage;
	// a b that lies in shared memory as another b of the same load does
	// reads that one's copy.
	for _, st := range body {
		for _, wd := range mp.dots {
			for _, o := range []*wgOperand{&wd.a, &wd.b} {
				if o.form != streamed || ir.Stmt(o.src) != st {
					continue
				}
				if twin := mp.sameStorage(o, o == &wd.a); twin != nil {
					o.tile.off, o.shares = twin.tile.off, twin
					continue
				}
				o.tile.off = mp.stageSize
				mp.stageSize += o.tile.bytes()
				mp.streamed = append(mp.streamed, o)
				mp.aIsA[o] = o == &wd.a
			}
		}
	}

	// The copies (the TMA unit takes streamed b operands only) and the
	// ahead statements.
	copies := make([]*streamCopy, len(mp.streamed))
	for i, o := range mp.streamed {
		if !mp.aIsA[o] {
			o.tma = p.multiTMA(o, sc.inLoop)
		}
		copies[i] = &streamCopy{ld: o.src, tma: o.tma, innerRows: o.copyAxis(mp.aIsA[o]) == 1}
	}
	ahead := p.copyStreams(sc, copies)
	for i, o := range mp.streamed {
		o.direct = copies[i].direct
	}
	if !ahead.ok {
		return nil, "a streamed load's address depends on a dot"
	}
	// The statements of the iteration itself: everything but the streamed
	// loads, the transposes the dots read and the carried assignments,
	// with the ahead values they need computed again for this iteration.
	compute := map[ir.Stmt]bool{}
	dotOf := map[*ir.Value]*wgDot{}
	for _, wd := range mp.dots {
		dotOf[wd.dot] = wd
	}
	carried, ok := ahead.carried, true
	var need func(v *ir.Value)
	need = func(v *ir.Value) {
		if v == nil || !inBody[v.ID] || compute[v] {
			return
		}
		if skip[v.ID] || v.Op == ir.OpVarRead && carried[v.Var] {
			ok = false
			return
		}
		compute[v] = true
		if v.Op == ir.OpDot {
			// b is streamed, a is streamed, invariant or in registers.
			if wd := dotOf[v]; wd.a.cvt != nil {
				need(wd.a.cvt)
			} else if !skip[v.Args[0].ID] {
				need(v.Args[0])
			}
			need(v.Args[2])
			return
		}
		for _, x := range v.Args {
			need(x)
		}
	}
	for _, st := range body {
		switch st := st.(type) {
		case *ir.Value:
			// The roots: values nothing reads (stores, prints, and other
			// side effects), dots, and values control statements read;
			// the rest is computed where they need it.
			root := len(p.users[st.ID]) == 0 && !p.unusedPure(st) || st.Op == ir.OpDot || p.ctlUse[st.ID] > 0
			if !ahead.stmts[st] && !skip[st.ID] && root {
				need(st)
			}
		case *ir.Assign:
			if !carried[st.Var] {
				compute[st] = true
				need(st.Value)
			}
		}
	}
	if !ok {
		return nil, "the body reads a loaded operand or an advanced pointer outside the dots"
	}
	// The carried Vars run ahead: nothing outside the loop may use them.
	if p.readOutside(carried, inBody) {
		return nil, "a pointer the streamed loads advance is read after the loop"
	}
	mp.ahead, mp.compute = ahead.stmts, compute
	if mp.stageSize == 0 {
		return nil, ""
	}
	p.fitStages(&mp.stagePlan, sc.stages, mp.tmaOperands() > 0)
	if mp.stages < 2 {
		return nil, fmt.Sprintf("two stages of %d bytes do not fit in shared memory", mp.stageSize)
	}
	mp.inFlight = p.deferLast(mp, body)
	return mp, ""
}

// deferLast returns the last of mp's dots if it can run on into the next
// iteration, as Triton's pipeliner lets attention's P @ V run: its result
// is only assigned to a loop-carried Var, and in the body nothing reads
// that Var before the first dot, whose wait (for every wgmma in flight)
// is where the last iteration's result lands in the Var. The copies of
// the iteration then follow the last dot's issue, after a barrier that
// every warpgroup reaches once its wgmmas of the last iteration are done.
func (p *plan) deferLast(mp *multiPipe, body []ir.Stmt) *wgDot {
	if len(mp.dots) < 2 || !p.wgmma { // mma.sync is synchronous
		return nil
	}
	last, first := mp.dots[len(mp.dots)-1], mp.dots[0]
	if last.a.form == staged {
		// Its a lies in the scratch memory, which the next iteration reuses.
		return nil
	}
	v := last.dot
	if len(p.users[v.ID]) != 0 || p.ctlUse[v.ID] != 1 {
		return nil
	}
	var x *ir.Var
	index := map[ir.Stmt]int{}
	for i, st := range body {
		index[st] = i
		if as, ok := st.(*ir.Assign); ok && as.Value == v {
			x = as.Var
		}
	}
	if x == nil || x.Type.Shape.Rank() != 2 {
		return nil
	}
	for _, st := range body {
		if as, ok := st.(*ir.Assign); ok && as.Var == x && as.Value != v {
			return nil
		}
		r, ok := st.(*ir.Value)
		if !ok || r.Op != ir.OpVarRead || r.Var != x {
			continue
		}
		for _, u := range p.users[r.ID] {
			if i, in := index[u]; !in || i <= index[first.dot] {
				return nil
			}
		}
		if p.ctlUse[r.ID] > 0 {
			return nil
		}
	}
	last.assign = x
	return last
}

// fp8ARegisters lets the 8-bit a operands of dots on wgmma that are
// stored where the dot stands be read from registers instead, where the
// layouts chosen gave them the accumulator layout (fp8AFragments).
func (p *plan) fp8ARegisters() {
	want := wgmmaBlocked(p.numWarps).String()
	for _, wd := range p.wgDots {
		if wd.a.form != staged || !wd.a.src.Type.Kind.IsFP8() {
			continue
		}
		if d := p.layoutOf(wd.a.src); d != nil && d.Layout.String() == want && !d.Repl {
			wd.a.form = inRegisters
		}
	}
	// A last dot whose a left the scratch memory may now run on into the
	// next iteration.
	for s, mp := range p.mloops {
		if mp.inFlight == nil {
			mp.inFlight = p.deferLast(mp, s.Body.Stmts)
		}
	}
}

// validMultiPipe reports whether the layouts chosen let mp's dots run on
// their instruction: every result, and every operand in registers, has
// the layout dotBlocked asks for (wgmmaBlocked, or mmaPipeBlocked on
// mma.sync).
func (p *plan) validMultiPipe(mp *multiPipe) bool {
	for _, wd := range mp.dots {
		want, _ := p.dotBlocked(wd.dot)
		is := func(v *ir.Value) bool {
			d := p.layoutOf(v)
			return d != nil && d.Layout.String() == want.String() && !d.Repl
		}
		if !is(wd.dot) || wd.a.form == inRegisters && !is(wd.a.src) || wd.a.cvt != nil && !is(wd.a.cvt) {
			return false
		}
	}
	return true
}

// findTMAInvariants lets the TMA unit copy the invariant a operands of
// the multi-dot pipelines whose streamed operands it copies, straight
// into their place before each loop, as Triton copies attention's q: an
// a loaded through a descriptor (rank 2, zero padding) whose only users
// are such dots, and whose memory nothing may write between the load and
// the loops. The load itself is then not emitted (findDeadValues), so
// that its registers are not held across the loops.
func (p *plan) findTMAInvariants() {
	p.tmaInvariants = map[int]bool{}
	if !p.tma {
		return
	}
	var loops []*ir.For
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *ir.For:
				if p.mloops[st] != nil {
					loops = append(loops, st)
				}
				walk(st.Body)
			case *ir.While:
				walk(st.Cond)
				walk(st.Body)
			case *ir.If:
				walk(st.Then)
				walk(st.Else)
			}
		}
	}
	walk(p.k.Body)
	users := map[int][]*ir.For{}
	var vals []*ir.Value
	for _, s := range loops {
		mp := p.mloops[s]
		if mp.tmaOperands() == 0 {
			continue
		}
		for _, wd := range mp.dots {
			if v := wd.a.src; wd.a.form == invariant && p.tmaInvariantLoad(v, wd.a.tile, wd.m) && !p.writesBefore(v, s) {
				if users[v.ID] == nil {
					vals = append(vals, v)
				}
				users[v.ID] = append(users[v.ID], s)
			}
		}
	}
	for _, v := range vals {
		ok := p.ctlUse[v.ID] == 0
		for _, u := range p.users[v.ID] {
			ok = ok && slices.ContainsFunc(users[v.ID], func(s *ir.For) bool {
				return slices.ContainsFunc(p.mloops[s].dots, func(wd *wgDot) bool { return wd.dot == u && wd.a.src == v })
			})
		}
		if !ok {
			continue
		}
		p.tmaInvariants[v.ID] = true
		for _, s := range users[v.ID] {
			for _, wd := range p.mloops[s].dots {
				if wd.a.src != v {
					continue
				}
				t := wd.a.tile
				rb := t.rowBytes()
				wd.a.tma = p.tensorMapOf(v.Desc, 8, rb/t.elem, rb, t.elem, nil)
				p.addTensorMap(wd.a.tma, s)
				if axes := wgmmaRowAxes(wd.m, p.numWarps); axes != nil {
					wd.a.rows = p.tensorMapOf(v.Desc, wd.m, rb/t.elem, rb, t.elem, axes)
					p.addTensorMap(wd.a.rows, s)
				}
			}
		}
	}
}

// findKeptInvariants finds the invariant a operands that a multi-dot
// pipeline on wgmma finds already in place: stored by the pipelined loop
// just before it in the same block, the same value at the same shared
// address, with only values and assignments between the loops, none of
// whose scratch reaches that address. Tutorial 06's backward runs its
// masked and its unmasked loop over the same k and v (q and do): the
// second loop then stores nothing, so the registers of k and v are free
// once the first loop has stored them, as Triton's local_alloc next to
// the load leaves them, rather than held (spilled, at head dimension
// 128) across the first loop.
func (p *plan) findKeptInvariants() {
	if !p.wgmma {
		return
	}
	for s := range p.mloops {
		at := p.ctlSite[s]
		j := at.Index - 1
		for j >= 0 && isStraight(at.Block.Stmts[j]) {
			j--
		}
		if j < 0 {
			continue
		}
		if prev, ok := at.Block.Stmts[j].(*ir.For); ok && p.mloops[prev] != nil {
			p.keepInvariants(prev, s, at.Block.Stmts[j+1:at.Index])
		}
	}
}

// keepInvariants marks the invariant a operands of loop s that loop prev
// left in place, between being the statements that run between them.
func (p *plan) keepInvariants(prev, s *ir.For, between []ir.Stmt) {
	mp0, mp := p.mloops[prev], p.mloops[s]
	at := loopReserve(p.multiBodyScratch(s, mp))
	if loopReserve(p.multiBodyScratch(prev, mp0)) != at {
		return
	}
	for _, wd := range mp.dots {
		o := &wd.a
		if o.form != invariant || o.tma != nil {
			continue
		}
		if !slices.ContainsFunc(mp0.dots, func(w0 *wgDot) bool {
			o0 := &w0.a
			return o0.form == invariant && o0.tma == nil && o0.src == o.src && w0.m == wd.m && o0.tile == o.tile
		}) {
			continue
		}
		addr := at + o.tile.off
		if slices.ContainsFunc(between, func(st ir.Stmt) bool { return p.stmtScratch(st) > addr }) {
			continue
		}
		o.storedBy = prev
	}
}

// tmaInvariantLoad reports whether v, the invariant a of a dot of m rows
// stored as tile t, is a load the TMA unit can copy into t: a rank-2
// block of a descriptor with zero padding, rows of whole swizzle rows.
func (p *plan) tmaInvariantLoad(v *ir.Value, t smemTile, m int) bool {
	if v.Op != ir.OpLoad || v.Desc == nil || !tmaDesc(v.Desc) || v.Type.Shape.Rank() != 2 || !isZeroOrNil(v.Args[2]) || v.Flags&ir.FlagVolatile != 0 {
		return false
	}
	// The copies before each loop print the descriptor's scalars again:
	// each must mean there what it meant at the load.
	if slices.ContainsFunc(v.Desc.Scalars(), p.mayChange) {
		return false
	}
	rb := t.rowBytes()
	return (rb == 32 || rb == 64 || rb == 128) && m%8 == 0 && t.k*t.elem%rb == 0
}

// mayChange reports whether the C expression of scalar v may name a
// variable that is assigned: a read of a Var other than a loop's index,
// which the emitter may print as the Var itself (emitter.canInline).
func (p *plan) mayChange(v *ir.Value) bool {
	for v.Op == ir.OpMultipleOf || v.Op == ir.OpMaxContiguous {
		v = v.Args[0]
	}
	return v.Op == ir.OpVarRead && p.varBlock[v.Var.ID] != nil
}

// writesBefore reports whether memory may be written between the
// definition of v and the end of loop s, which v's block holds: by a
// statement after v in that block up to the one holding s, whole.
func (p *plan) writesBefore(v *ir.Value, s *ir.For) bool {
	def := p.defs[v.ID]
	var at ir.Stmt = s
	for {
		site, ok := p.ctlSite[at]
		if !ok {
			return true
		}
		if site.Block == def.Block {
			if site.Index < def.Index {
				return true
			}
			for _, st := range def.Block.Stmts[def.Index+1 : site.Index+1] {
				if writesMemory(st) {
					return true
				}
			}
			return false
		}
		if at = p.owner[site.Block]; at == nil {
			return true
		}
	}
}

// writesMemory reports whether statement st, or one nested in it, may
// write memory: a store, an atomic or inline assembly.
func writesMemory(st ir.Stmt) bool {
	found := false
	check := func(v *ir.Value) {
		switch v.Op.Info().Class {
		case ir.ClassAtomic, ir.ClassInlineAsm:
			found = true
		}
		found = found || v.Op == ir.OpStore
	}
	ir.Inspect(&ir.Block{Stmts: []ir.Stmt{st}}, check)
	return found
}

// mloopOf is the multi-dot pipeline wd belongs to.
func (p *plan) mloopOf(wd *wgDot) *multiPipe {
	for _, mp := range p.mloops {
		for _, x := range mp.dots {
			if x == wd {
				return mp
			}
		}
	}
	return nil
}

// mmaMultiWhy is why dot wd of a multi-dot loop has no pipelined form on
// mma.sync here, or "": fp16 or bf16 operands (here, pipeKinds'), K whole
// k16 steps, and M and N split among the warps as mmaPipeBlocked splits
// them: whole m16 tiles of rows, and N whole n8 tiles for each warp
// (whole pairs, two an ldmatrix.x4, where every warp owns whole rows).
func (p *plan) mmaMultiWhy(wd *wgDot, here bool) string {
	if !here {
		a := wd.dot.Args[0].Type.Kind
		return fmt.Sprintf("the dot at line %d takes %s operands: the pipelines on mma.sync (sm_%d) take fp16 or bf16", wd.dot.Pos.Line, a, p.arch)
	}
	w := mmaPipeBlocked(wd.m, p.numWarps).WarpsPerCTA
	if wd.m%(16*w[0]) != 0 || wd.n%(8*w[1]) != 0 || w[1] == 1 && wd.n%16 != 0 || wd.k%16 != 0 {
		return fmt.Sprintf("the dot at line %d (%dx%dx%d) has no mma.sync shape for %d warps: M whole m16 tiles, N whole n8 tiles for each of %d warps along it, K of 16",
			wd.dot.Pos.Line, wd.m, wd.n, wd.k, p.numWarps, w[1])
	}
	return ""
}

// dotEngine names the instruction the pipelines issue dots as here.
func (p *plan) dotEngine() string {
	if p.wgmma {
		return "wgmma"
	}
	return "mma.sync"
}

// notPipelined says why the loop of dot v, whose operands are staged
// through shared memory each time it runs, is not software-pipelined, or
// "": the reason the pipeline analysis stored in its loop's verdict. On
// sm_90a only the K-loop case's reason of kinds is said here, which it
// gives on mma.sync only (the dots of other loops there are wgmma's,
// which say theirs).
func (p *plan) notPipelined(v *ir.Value) string {
	f := p.innermostFor(p.defs[v.ID].Block)
	if f == nil {
		return ""
	}
	if why := p.verdicts[f].kinds; why != "" || p.wgmma {
		return why
	}
	return p.verdicts[f].why
}

// multiTMA returns the tensor map the TMA unit copies streamed b operand
// o with, or nil: o must load a rank-2 block of a descriptor (made outside
// the loop, inLoop telling) whose rows run along the stage's swizzle rows,
// as a K-major b read transposed (k.T) and an MN-major b (v) do; the block
// then goes in boxes of its rows by one swizzle row, one box per chunk.
func (p *plan) multiTMA(o *wgOperand, inLoop func(*ir.Value) bool) *tensorMap {
	ld, t := o.src, o.tile
	if ld.Type.Shape.Rank() != 2 || t.kMajor != o.trans {
		return nil
	}
	rb := t.rowBytes()
	rows, inner := ld.Type.Shape[0], ld.Type.Shape[1]
	if rows%8 != 0 || inner*t.elem%rb != 0 {
		return nil
	}
	return p.tmaBoxes(ld, rows, rb/t.elem, t.elem, inLoop)
}

// axes are the axes of b operand o's value along K and along N: a b of
// [K, N], or the [N, K] value a b.T transposes.
func (o *wgOperand) axes() (kAxis, nAxis int) {
	if o.trans {
		return 1, 0
	}
	return 0, 1
}

// sharedBytes is the tile's size in shared memory, none where the operand
// is not stored there.
func (t smemTile) sharedBytes() int {
	if t.rows == 0 {
		return 0
	}
	return t.bytes()
}
