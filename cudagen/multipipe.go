package cudagen

// This file implements the software pipelining of loops whose body holds
// one or more dots with other work around them, as flash attention's
// inner loop does:
//
//	for start_n in range(lo, hi, BLOCK_N):
//	    k = tl.load(k_ptrs, ...)         # streamed: b of the first dot
//	    qk = tl.dot(q, k)                # q: defined before the loop
//	    ... the online softmax of qk ...
//	    v = tl.load(v_ptrs, ...)         # streamed: b of the second dot
//	    acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])  # p: in registers
//
// As in pipeline.go, the loads that feed the dots, with the address and
// mask arithmetic they need (the "ahead" statements), run num_stages-1
// iterations ahead as cp.async copies into num_stages shared-memory
// buffers (a stage holds one buffer per streamed operand). Every other
// statement runs in its own iteration, in program order, each dot issued
// as wgmma.mma_async where it stands and waited for there. An operand a
// defined before the loop (q) is stored into shared memory once, before
// the loop; an operand a computed in the body (p) is read from registers:
// the accumulator layout wgmmaBlocked gives each thread exactly the
// elements of wgmma's A fragments, so the result of one dot, converted to
// fp16 or bf16, is the A operand of the next without leaving registers.
// Every dot result keeps the layout wgmmaBlocked, so the softmax's row
// statistics of both dots share one Slice layout.
//
// Operands whose K extent is wider than one 128-byte swizzle row (head
// dimension 128 in fp16) are stored in K chunks of 128 bytes, each chunk
// a swizzled K-major tile of its own, as wgmma's descriptors read them.

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/ir"
)

// operandForm says where a wgmma operand comes from.
type operandForm int

const (
	streamed    operandForm = iota // loaded in the body and copied ahead into the stages
	invariant                      // defined before the loop and stored into shared memory once
	inRegisters                    // computed in the body (a only), read from the registers of layout wgmmaBlocked
	staged                         // a dot outside the pipelines: stored from registers where the dot stands (wgdot.go)
	hoisted                        // the same, defined before the dot's loop: stored once before it (wgdot.go)
)

// smemTile is how one wgmma operand lies in shared memory.
type smemTile struct {
	rows   int  // the extent that is not K: M of a, N of b
	k      int  // the K extent
	elem   int  // bytes of an element
	kMajor bool // each row of a or column of b is contiguous along K
	perm   bool // the rows of a are stored in permRow's order
	off    int  // byte offset in its stage or region, a multiple of 1024
}

// rowBytes is the length of one swizzle row: up to 128 bytes of K of a
// row (K-major), or of up to 64 columns of b (MN-major).
func (t smemTile) rowBytes() int {
	if t.kMajor {
		return min(128, t.k*t.elem)
	}
	return t.elem * min(t.rows, 64)
}

// bytes is the tile's size, rounded up to 1024 bytes so that the next
// tile starts on a swizzle atom.
func (t smemTile) bytes() int { return (t.rows*t.k*t.elem + 1023) / 1024 * 1024 }

// chunkBytes is the size of one 128-byte K chunk of a K-major tile.
func (t smemTile) chunkBytes() int { return t.rows * t.rowBytes() }

// offset is the C expression of the byte offset, from the 1024-aligned
// base of the stage or region, of the element at row r (along M or N)
// and column c (along K) of the operand, and the const locals it reads
// (tri_srow, the row of the tile that holds row r, where rows are
// permuted), for the loop body that writes it to declare.
func (t smemTile) offset(s nameSet, r, c string, numWarps, m int) (locals []string, off string) {
	rb := t.rowBytes()
	if !t.kMajor {
		// MN-major b: blocks of 64 columns, each row of a block one
		// swizzle row; c is the row of b, r its column.
		cols := rb / t.elem
		return nil, fmt.Sprintf("%d + %s / %d * %d + ", t.off, group(r), cols, t.k*rb) +
			s.swizzle(fmt.Sprintf("%s * %d + %s %% %d * %d", group(c), rb, group(r), cols, t.elem), rb)
	}
	row := r
	if t.perm {
		locals, row = []string{"int tri_srow = " + permRow(r, m, numWarps)}, "tri_srow"
	}
	in := fmt.Sprintf("%s * %d", group(c), t.elem)
	chunk := ""
	if t.k*t.elem > rb {
		in = fmt.Sprintf("%s * %d %% %d", group(c), t.elem, rb)
		chunk = fmt.Sprintf("%s * %d / %d * %d + ", group(c), t.elem, rb, t.chunkBytes())
	}
	return locals, fmt.Sprintf("%d + %s", t.off, chunk) + s.swizzle(fmt.Sprintf("%s * %d + %s", group(row), rb, in), rb)
}

// desc is the C expression of the matrix descriptor of the kk-th wgmma
// (32 bytes of K each) of the operand at stage or region base; for a, of
// the m64 block mb of the calling warp's warpgroup.
func (t smemTile) desc(s nameSet, base string, kk, mb, perGroup int) string {
	// The constant offset goes to the start address field of a descriptor
	// that the instructions share (it holds any shared address without a
	// carry).
	rb := t.rowBytes()
	s.use("tri_wgmma_desc")
	if !t.kMajor {
		return descPlus(fmt.Sprintf("tri_wgmma_desc(%s, %d, %d, %d)", base, t.k*rb, 8*rb, swizzleMode(rb)), t.off+kk*16*rb)
	}
	at := t.off + 32*kk/rb*t.chunkBytes() + 32*kk%rb
	rows := ""
	if t.perm {
		s.use("warp_id")
		rows = fmt.Sprintf(" + warp_id / 4 * %d", perGroup*rb)
		at += 64 * mb * rb
	}
	return descPlus(fmt.Sprintf("tri_wgmma_desc(%s%s, 16, %d, %d)", base, rows, 8*rb, swizzleMode(rb)), at)
}

// wgOperand is one operand of a dot of a multi-dot pipeline.
type wgOperand struct {
	form  operandForm
	src   *ir.Value // the load (streamed) or the value (invariant, in registers)
	trans bool      // b is tl.trans of src, an [N, K] load
	// cvt is the fp32 operand of an a in registers that is its rounding
	// to fp16 or bf16 (p.to(tl.float16)): the A fragments are converted
	// from it two at a time (cvt.rn.f16x2.f32).
	cvt  *ir.Value
	tile smemTile // streamed and invariant operands
	// direct marks a streamed load through a tensor descriptor copied by
	// rows from the descriptor (directStageCopies), without its pointer
	// and mask tiles; tma, one the TMA unit copies with this map
	// (tmaOperand), in boxes of the tile's swizzle rows. For an invariant
	// a that the TMA unit copies (findTMAInvariants), tma is the map of
	// 8-row boxes and rows, where not nil, the 5-D view whose one box per
	// chunk lands the rows in permRow's order (wgmmaRowAxes).
	direct bool
	tma    *tensorMap
	rows   *tensorMap
	// shares is the streamed operand whose copy this b reads: the same
	// load, lying in shared memory as this b's tile would (sameStorage).
	shares *wgOperand
	// base, where set, is the C name of the shared address the operand's
	// tile is at: a loop's region of operands stored before it (wgdot.go).
	base string
}

// tmaOperands is how many streamed operands of mp the TMA unit copies.
func (mp *multiPipe) tmaOperands() int {
	n := 0
	for _, o := range mp.streamed {
		if o.tma != nil {
			n++
		}
	}
	return n
}

// multiTMA returns the tensor map the TMA unit copies streamed b operand
// o with, or nil: o must load a rank-2 block of a descriptor (made outside
// the loop, inLoop telling) whose rows run along the stage's swizzle rows,
// as a K-major b read transposed (k.T) and an MN-major b (v) do; the block
// then goes in boxes of its rows by one swizzle row, one box per chunk.
func (p *plan) multiTMA(o *wgOperand, inLoop func(*ir.Value) bool) *tensorMap {
	ld, t := o.src, o.tile
	d := ld.Desc
	if !p.tma || !p.wgmma || !tmaDesc(d) || ld.Type.Shape.Rank() != 2 || t.kMajor != o.trans {
		return nil
	}
	if !d.Host() && slices.ContainsFunc(descMade(d), inLoop) {
		return nil
	}
	rb := t.rowBytes()
	rows, inner := ld.Type.Shape[0], ld.Type.Shape[1]
	if rb != 32 && rb != 64 && rb != 128 || rows > 256 || rows%8 != 0 || inner*t.elem%rb != 0 {
		return nil
	}
	return p.tensorMapOf(d, rows, rb/t.elem, rb, t.elem, nil)
}

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

// sameStorage returns the streamed b operand of mp that copies the same
// load as b operand o into a tile where every element of the load lies
// where o's tile would hold it, or nil.
func (mp *multiPipe) sameStorage(o *wgOperand) *wgOperand {
	for _, x := range mp.streamed {
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

// wgDot is one dot of a multi-dot pipeline.
type wgDot struct {
	dot     *ir.Value
	m, n, k int
	a, b    wgOperand
	zeroAcc bool // the accumulator is zero: the first wgmma ignores it
	// assign is the Var an in-flight dot's result is assigned to.
	assign *ir.Var
	// alone marks a dot outside the pipelines (wgdot.go).
	alone bool
}

// multiPipe is a loop pipelined with several dots (see above).
type multiPipe struct {
	dots      []*wgDot
	streamed  []*wgOperand // in body order, each with its offset in a stage
	aIsA      map[*wgOperand]bool
	ahead     map[ir.Stmt]bool
	compute   map[ir.Stmt]bool // the statements run in their own iteration
	stages    int
	asked     int // the stages num_stages asked for, where more than fit
	stageSize int // bytes of one stage, a multiple of 1024
	invSize   int // bytes of the invariant operands, stored before the stages
	// inFlight, if set, is the last dot, left running into the next
	// iteration (see deferLast).
	inFlight *wgDot
}

// sharedBytes is the shared memory of the pipeline (its invariant operands
// and stages), from a 1024-byte aligned start.
func (mp *multiPipe) sharedBytes() int { return mp.invSize + mp.stages*mp.stageSize }

// swizzleRows reports whether rows of n bytes lie in shared memory as
// wgmma's swizzle modes read them: 32- or 64-byte rows, or 128-byte chunks.
func swizzleRows(n int) bool { return n == 32 || n == 64 || n%128 == 0 }

// halfKinds reports whether a dot's operands are both fp16 or both bf16.
func halfKinds(a, b ir.Kind) bool { return isHalf(a) && a == b }

// multiPipeOf returns loop s as a multi-dot pipeline, or nil.
func (p *plan) multiPipeOf(s *ir.For) *multiPipe {
	stages := p.stagesOf(s)
	switch {
	case stages < 2:
		return p.refuse(s, fmt.Sprintf("its loop runs at num_stages=%d", stages))
	case s.Step.Op != ir.OpConst || s.Step.Const.Int <= 0:
		return p.refuse(s, "its loop's step is not a positive constant")
	case p.wgmma && p.numWarps%4 != 0:
		return p.refuse(s, fmt.Sprintf("num_warps=%d is not whole warpgroups", p.numWarps))
	}
	body := s.Body.Stmts
	inBody := map[int]bool{}
	var dots []*ir.Value
	for _, st := range body {
		switch st := st.(type) {
		case *ir.Value:
			inBody[st.ID] = true
			if st.Op == ir.OpDot {
				dots = append(dots, st)
			}
		case *ir.Assign:
		default:
			return p.refuse(s, "its body holds a loop, an if or a return")
		}
	}
	if len(dots) == 0 {
		return nil
	}
	// A value used once, by u, in the body, and by no control statement.
	onlyFor := func(v, u *ir.Value) bool {
		return inBody[v.ID] && len(p.users[v.ID]) == 1 && p.users[v.ID][0] == u && p.ctlUse[v.ID] == 0
	}
	// A load streams when dots are all that read it, directly or through
	// a transpose that one dot reads (attention backward's qT feeds
	// tl.dot(k, qT) and tl.dot(dsT, tl.trans(qT))).
	streamable := func(ld *ir.Value) bool {
		if ld.Op != ir.OpLoad || !inBody[ld.ID] || p.ctlUse[ld.ID] > 0 || ld.Flags&ir.FlagVolatile != 0 || !isZeroOrNil(ld.Args[2]) {
			return false
		}
		for _, u := range p.users[ld.ID] {
			dot := u.Op == ir.OpDot && inBody[u.ID]
			trans := u.Op == ir.OpTrans && len(p.users[u.ID]) == 1 && onlyFor(u, p.users[u.ID][0]) && p.users[u.ID][0].Op == ir.OpDot
			if !dot && !trans {
				return false
			}
		}
		return true
	}
	mp := &multiPipe{aIsA: map[*wgOperand]bool{}}
	m := 0
	skip := map[int]bool{} // the streamed loads and the transposes of b: the dots read them
	for _, d := range dots {
		a, b, acc := d.Args[0], d.Args[1], d.Args[2]
		fp8 := a.Type.Kind.IsFP8() && b.Type.Kind.IsFP8()
		if d.Type.Shape.Rank() != 2 || d.Type.Kind != ir.Float32 || !halfKinds(a.Type.Kind, b.Type.Kind) && !fp8 {
			return p.refuse(s, fmt.Sprintf("the dot at line %d is not fp16, bf16 or fp8 into fp32", d.Pos.Line))
		}
		wd := &wgDot{dot: d, m: a.Type.Shape[0], k: a.Type.Shape[1], n: b.Type.Shape[1], zeroAcc: isZeroOrNil(acc)}
		if m == 0 {
			m = wd.m
		}
		es := a.Type.Kind.Bytes()
		if !p.wgmma {
			if why := p.mmaMultiWhy(wd); why != "" {
				return p.refuse(s, why)
			}
		} else if wd.m != m || wd.m%(16*p.numWarps) != 0 || wd.k*es%32 != 0 || wd.n%16 != 0 || wd.n > 256 || wd.n > 64 && wd.n%64 != 0 {
			return p.refuse(s, fmt.Sprintf("the dot at line %d (%dx%dx%d) has no wgmma shape here", d.Pos.Line, wd.m, wd.n, wd.k))
		}
		// Rows of 32 or 64 bytes, or 128-byte chunks: the swizzle modes.
		kRows := swizzleRows(wd.k * es)
		// b: a load of [K, N], or the transpose of a load of [N, K].
		bLoad := b
		if b.Op == ir.OpTrans && onlyFor(b, d) && b.Args[0].Type.Shape.Rank() == 2 {
			bLoad, wd.b.trans = b.Args[0], true
			skip[b.ID] = true
		}
		if !streamable(bLoad) {
			return p.refuse(s, fmt.Sprintf("b of the dot at line %d is not a load in the body that only dots read", d.Pos.Line))
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
			return p.refuse(s, fmt.Sprintf("b of the dot at line %d lies in no shared-memory form %s reads", d.Pos.Line, p.dotEngine()))
		}
		skip[bLoad.ID] = true
		// a: streamed, invariant, or in registers.
		wd.a.src = a
		wd.a.tile = smemTile{rows: wd.m, k: wd.k, elem: es, kMajor: true, perm: p.wgmma}
		switch {
		case !kRows && (!inBody[a.ID] || streamable(a) || fp8):
			return p.refuse(s, fmt.Sprintf("a of the dot at line %d has rows of %d bytes, which no swizzle mode reads", d.Pos.Line, wd.k*es))
		case !inBody[a.ID]:
			wd.a.form = invariant
			wd.a.tile.off = mp.invSize
			mp.invSize += wd.a.tile.bytes()
		case streamable(a):
			wd.a.form = streamed
			skip[a.ID] = true
		case fp8:
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
				if o != &wd.a {
					if twin := mp.sameStorage(o); twin != nil {
						o.tile.off, o.shares = twin.tile.off, twin
						continue
					}
				}
				o.tile.off = mp.stageSize
				mp.stageSize += o.tile.bytes()
				mp.streamed = append(mp.streamed, o)
				mp.aIsA[o] = o == &wd.a
			}
		}
	}

	assigns := map[*ir.Var][]*ir.Assign{}
	for _, st := range body {
		if as, ok := st.(*ir.Assign); ok {
			assigns[as.Var] = append(assigns[as.Var], as)
		}
	}
	// The ahead statements: the streamed loads and everything they read
	// in the body, with the assignments of the Vars they read.
	ahead := map[ir.Stmt]bool{}
	carried := map[*ir.Var]bool{}
	ok := true
	var add func(v *ir.Value)
	add = func(v *ir.Value) {
		if v == nil || !inBody[v.ID] || ahead[v] {
			return
		}
		if v.Op == ir.OpDot {
			ok = false
			return
		}
		ahead[v] = true
		for _, x := range v.Args {
			add(x)
		}
		if v.Op == ir.OpVarRead && len(assigns[v.Var]) > 0 && !carried[v.Var] {
			carried[v.Var] = true
			for _, as := range assigns[v.Var] {
				ahead[as] = true
				add(as.Value)
			}
		}
	}
	for _, o := range mp.streamed {
		if !mp.aIsA[o] {
			o.tma = p.multiTMA(o, func(v *ir.Value) bool { return inBody[v.ID] })
		}
		if o.direct = o.tma == nil && p.directCopies(o.src, o.copyAxis(mp.aIsA[o]) == 1); !o.direct && o.tma == nil {
			add(o.src)
			continue
		}
		ahead[o.src] = true
		for _, x := range o.src.Desc.Scalars() {
			add(x)
		}
	}
	if !ok {
		return p.refuse(s, "a streamed load's address depends on a dot")
	}
	// The statements of the iteration itself: everything but the streamed
	// loads, the transposes the dots read and the carried assignments,
	// with the ahead values they need computed again for this iteration.
	compute := map[ir.Stmt]bool{}
	dotOf := map[*ir.Value]*wgDot{}
	for _, wd := range mp.dots {
		dotOf[wd.dot] = wd
	}
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
			if !ahead[st] && !skip[st.ID] && root {
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
		return p.refuse(s, "the body reads a loaded operand or an advanced pointer outside the dots")
	}
	// The carried Vars run ahead: nothing outside the loop may use them.
	if p.readOutside(carried, inBody) {
		return p.refuse(s, "a pointer the streamed loads advance is read after the loop")
	}
	mp.ahead, mp.compute = ahead, compute
	if mp.stageSize == 0 {
		return nil
	}
	most, asked := maxDynamicShared, stages
	if !p.wgmma {
		most = sharedPerProgram(p.arch)
	}
	if mp.tmaOperands() > 0 {
		// The stages' mbarriers are static shared memory besides them.
		most -= 8 * maxTMABuffers
		stages = min(stages, maxTMABuffers)
	}
	mp.stages = min(stages, (most-mp.invSize)/mp.stageSize)
	if mp.stages < asked {
		mp.asked = asked
	}
	if mp.stages < 2 {
		return p.refuse(s, fmt.Sprintf("two stages of %d bytes do not fit in shared memory", mp.stageSize))
	}
	mp.inFlight = p.deferLast(mp, body)
	for _, o := range mp.streamed {
		p.addTensorMap(o.tma, s)
	}
	return mp
}

// refuse records why loop s is not a multi-dot pipeline, for the comment
// of its dots and --dump=layout, and returns nil.
func (p *plan) refuse(s *ir.For, why string) *multiPipe {
	if p.whyNot == nil {
		p.whyNot = map[*ir.For]string{}
	}
	p.whyNot[s] = why
	return nil
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
// wgmma: every result, and every operand in registers, has the layout
// wgmmaBlocked.
func (p *plan) validMultiPipe(mp *multiPipe) bool {
	want := wgmmaBlocked(p.numWarps).String()
	is := func(v *ir.Value) bool {
		d := p.layoutOf(v)
		return d != nil && d.Layout.String() == want && !d.Repl
	}
	for _, wd := range mp.dots {
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

// multiPipedFor writes loop s as the multi-dot pipeline mp.
func (e *emitter) multiPipedFor(s *ir.For, mp *multiPipe) {
	if !e.wgmma {
		e.mmaMultiPipedFor(s, mp)
		return
	}
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("wgmma", wgmmaHelpers)
	for _, wd := range mp.dots {
		e.helpers.add("wgmma_"+wd.instr(), wgmmaInstr(wd.n, wd.a.src.Type.Kind, wd.b.src.Type.Kind, wd.b.tile.kMajor, wd.a.form == inRegisters))
	}
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")

	// The body is written first, to learn how much scratch memory its
	// other statements use: the pipeline's buffers come after it.
	head := e.w
	e.w = writer{indent: head.indent + 2, at: head.at}
	scratch := e.smemBytes
	e.smemBytes = 0
	// The copies for a later iteration are issued while the first dot's
	// wgmmas run: the stage they fill was last read by the wgmmas of the
	// previous iteration, which every warp waited for before the barrier.
	e.inFlight = mp.inFlight
	e.whileDot = func() {
		if mp.inFlight != nil {
			e.w.line("__syncthreads();  // every warpgroup is done with the stage the copies refill")
		}
		e.w.line("// While the wgmmas run: the copies for iteration %s + %d.", iv, mp.stages-1)
		e.w.line("%s tri_ahead = %s + %d * %s;", it, iv, mp.stages-1, step)
		e.w.open("if (tri_ahead < %s) {", hi)
		e.multiAhead(s, mp, fmt.Sprintf("tri_stage0 + tri_write * %d", mp.stageSize), "tri_write")
		e.w.close("}")
		e.use("tri_cp_async_commit")
		e.w.line("tri_cp_async_commit();")
		e.lastLine = 0
	}
	e.multiBody(s, mp)
	e.inFlight = nil
	reserve := (e.smemBytes + 1023) / 1024 * 1024
	e.smemBytes = max(scratch, e.smemBytes)
	body := e.w
	e.w = head
	e.useShared(reserve + mp.sharedBytes())

	e.w.line("// Software-pipelined, %d dot(s) on wgmma: the loads feeding them stream into %d shared-memory stages", len(mp.dots), mp.stages)
	how := "cp.async"
	if mp.tmaOperands() > 0 {
		how = "the TMA unit"
		if mp.tmaOperands() < len(mp.streamed) {
			how = "the TMA unit and cp.async"
		}
	}
	e.w.line("// with %s, %d iteration(s) ahead; the rest of the body runs in its own iteration.", how, mp.stages-1)
	if mp.asked > 0 {
		e.w.line("// (num_stages=%d: %d stages fit in shared memory.)", mp.asked, mp.stages)
	}
	e.w.open("{")
	at := ""
	if reserve > 0 {
		at = fmt.Sprintf(" + %du", reserve)
	}
	e.alignedSmem = true
	e.use("tri_smem_addr")
	e.w.line("const unsigned int tri_inv = tri_smem_addr(tri_smem)%s;  // the operands stored once, 1024-byte aligned", at)
	e.w.line("const unsigned int tri_stage0 = tri_inv + %du;  // shared address of stage 0", mp.invSize)
	if n := mp.tmaOperands(); n > 0 {
		e.initTMABarriers("stage", mp.stages, n, reserve+mp.sharedBytes())
	}
	for _, wd := range mp.dots {
		if wd.a.form == invariant && wd.a.tma != nil {
			e.tmaInvariant(wd, lo, hi)
		}
	}
	e.w.line("#pragma unroll 1")
	e.w.open("for (int tri_s = 0; tri_s < %d; ++tri_s) {", mp.stages-1)
	e.w.line("%s tri_ahead = %s + tri_s * %s;", it, lo, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.multiAhead(s, mp, fmt.Sprintf("tri_stage0 + tri_s * %d", mp.stageSize), "tri_s")
	e.w.close("}")
	e.use("tri_cp_async_commit")
	e.w.line("tri_cp_async_commit();")
	e.w.close("}")
	// The invariant operands are stored after the first copies are issued:
	// their registers may still wait on a load from global memory, whose
	// latency then overlaps the copies'.
	stored := false
	for _, wd := range mp.dots {
		if wd.a.form == invariant && wd.a.tma == nil {
			e.storeInvariant(wd)
			stored = true
		}
	}
	if stored {
		e.use("tri_fence_proxy_async")
		e.w.line("tri_fence_proxy_async();  // wgmma reads what the generic stores wrote")
	}
	if f := mp.inFlight; f != nil {
		// The in-flight dot's accumulators start as its Var's value: the
		// first iteration's wait then leaves the Var as it is.
		d := e.layoutOf(f.dot)
		e.w.line("// The wgmmas of tl.dot at line %d run on into the next iteration, in these registers:", f.dot.Pos.Line)
		for mb := 0; mb < f.m/(16*e.numWarps); mb++ {
			e.w.line("float tri_f%d[%d];", mb, f.n/2)
			e.w.line("#pragma unroll")
			e.w.line("for (int r = 0; r < %d; ++r) tri_f%d[r] = %s[%s];", f.n/2, mb, e.varNames[f.assign.ID], fragIndex(d, mb, "r"))
		}
	}
	e.w.line("int tri_read = 0, tri_write = %d;  // the stages the wgmmas read and the copies fill", mp.stages-1)
	e.w.open("for (%s %s = %s; %s < %s; %s += %s) {", it, iv, lo, iv, hi, iv, step)
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<%d>();  // this iteration's stage has landed", mp.stages-2)
	if mp.tmaOperands() > 0 {
		e.use("tri_mbar_wait", "tri_smem_addr")
		e.w.line("tri_mbar_wait(tri_smem_addr(&tri_mbar[tri_read]), (tri_parity >> tri_read) & 1u);  // and its TMA copies")
		e.w.line("tri_parity ^= 1u << tri_read;")
	}
	for _, o := range mp.streamed {
		if o.direct && e.directWidth(o.src) == 1 || !o.direct && e.copyWidth(o.src, o.copyAxis(mp.aIsA[o])) == 1 {
			e.use("tri_fence_proxy_async")
			e.w.line("tri_fence_proxy_async();  // the element-by-element stores are generic-proxy writes")
			break
		}
	}
	if mp.inFlight != nil {
		e.w.line("__syncthreads();  // every thread's copies for this iteration are visible")
	} else {
		e.w.line("__syncthreads();  // and every wgmma of the last iteration is done: its stage may be refilled")
	}
	e.w.line("const unsigned int tri_stage = tri_stage0 + tri_read * %d;", mp.stageSize)
	e.lastLine = 0
	e.w.append(&body)
	e.w.line("tri_read = tri_read == %d ? 0 : tri_read + 1;", mp.stages-1)
	e.w.line("tri_write = tri_write == %d ? 0 : tri_write + 1;", mp.stages-1)
	e.w.close("}")
	if f := mp.inFlight; f != nil {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<0>();  // the last iteration's tl.dot at line %d", f.dot.Pos.Line)
		e.landInFlight(f)
	}
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<0>();")
	e.w.line("__syncthreads();  // the stages are scratch memory again")
	if mp.tmaOperands() > 0 {
		e.invalTMABarriers(mp.stages)
	}
	e.w.close("}")
}

// multiBody writes the statements of mp's iteration, declaring first the
// Vars that live in the body.
func (e *emitter) multiBody(s *ir.For, mp *multiPipe) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == s.Body {
			e.declare(x.Type, e.varDists[x.ID], e.varNames[x.ID], "")
		}
	}
	e.lastLine = 0
	for _, st := range s.Body.Stmts {
		// The in-flight dot's assignment happens where its wgmmas are
		// waited for (landInFlight).
		if as, ok := st.(*ir.Assign); ok && mp.inFlight != nil && as.Value == mp.inFlight.dot {
			continue
		}
		if mp.compute[st] {
			e.statement(st)
		}
	}
}

// multiAhead writes the ahead statements of mp for the iteration
// tri_ahead, its streamed loads as copies into the stage at shared
// address stage.
func (e *emitter) multiAhead(s *ir.For, mp *multiPipe, stage, buf string) {
	e.aheadOf(s, mp.ahead, func(st ir.Stmt) bool {
		for _, o := range mp.streamed {
			if ir.Stmt(o.src) == st {
				e.source(st.Position())
				if o.tma != nil {
					e.tmaOperand(o, stage, buf)
				} else {
					e.copyOperand(o, mp.aIsA[o], stage)
				}
				return true
			}
		}
		return false
	})
}

// tmaOperand writes the TMA copies of streamed operand o into the stage at
// shared address stage, completing on stage buf's mbarrier: one box per
// swizzle-row chunk of the tile, each a 1024-aligned tile of its own.
func (e *emitter) tmaOperand(o *wgOperand, stage, buf string) {
	ld, t := o.src, o.tile
	rows, inner := ld.Type.Shape[0], ld.Type.Shape[1]
	rb := t.rowBytes()
	bytes := rows * inner * t.elem
	row, col := e.expr(ld.Desc.Offsets[0], ""), e.expr(ld.Desc.Offsets[1], "")
	e.w.line("// b: %d bytes copied by the TMA unit from %s in %d box(es) of %d-byte rows, completing on the stage's mbarrier", bytes, e.tmapNames[o.tma], inner*t.elem/rb, rb)
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_expect_tx")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[%s]);", buf)
	e.w.line("tri_mbar_expect_tx(tri_bar, %d);", bytes)
	for c := 0; c < inner*t.elem/rb; c++ {
		e.use("tri_tma_load_2d")
		e.w.line("tri_tma_load_2d(%s + %d, %s, (int)(%s) + %d, (int)(%s), tri_bar);", stage, t.off+c*rows*rb, e.tmapRef(o.tma), col, c*rb/t.elem, row)
	}
	e.w.close("}")
}

// copyOperand writes the streamed load of o as copies into the stage.
func (e *emitter) copyOperand(o *wgOperand, isA bool, stage string) {
	l := e.layoutOf(o.src.Args[0])
	locals, r, c := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e")) // a: (m, k); b: (k, n); b.T: (n, k)
	if !isA && !o.trans {
		r, c = c, r
	}
	more, off := o.tile.offset(e.nameSet, r, c, e.numWarps, o.tile.rows)
	locals = append(locals, more...)
	if o.direct {
		e.directStageCopies(o.src, isA, e.directWidth(o.src), o.tile.elem, stage, off, locals)
		return
	}
	e.stageCopies(o.src, isA, e.copyWidth(o.src, o.copyAxis(isA)), o.tile.elem, stage, off, locals)
}

// tmaInvariant writes the TMA copies of the loop-invariant a of wd into
// its place before the stages, issued where the loop runs at all (lo <
// hi): they complete on stage 0's mbarrier, with the first iteration's
// copies, which add their arrivals to the bytes these add (tmaRowsOfA).
func (e *emitter) tmaInvariant(wd *wgDot, lo, hi string) {
	o := &wd.a
	ld, t := o.src, o.tile
	rb := t.rowBytes()
	e.helpers.add("mbar_add_tx", mbarAddTx)
	e.w.line("// %s, a of the tl.dot at line %d, is the same in every iteration: the TMA unit copies it once, with the first", e.names[ld.ID], wd.dot.Pos.Line)
	e.w.line("// iteration's copies, on stage 0's mbarrier (%d bytes from %s).", wd.m*t.k*t.elem, e.tmapNames[o.tma])
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_add_tx")
	e.w.open("if (%s < %s && tri_thread_id() == 0) {", lo, hi)
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[0]);")
	e.w.line("tri_mbar_add_tx(tri_bar, %d);", wd.m*t.k*t.elem)
	e.tmaRowsOfA(plusBytes("tri_inv", t.off), o.tma, o.rows, ld.Desc, wd.m, rb, t.k*t.elem/rb)
	e.w.close("}")
}

// mbarAddTx adds transactions to an mbarrier's phase without arriving
// (PTX ISA 8.0, sm_90).
var mbarAddTx = cgroup{`// Adds bytes to the transactions the current phase of mbarrier bar waits for, without arriving on it.`, []cdef{
	{"tri_mbar_add_tx", nil, `TRI_DEV void tri_mbar_add_tx(unsigned int bar, unsigned int bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}`},
}}

// storeInvariant stores the loop-invariant a of wd into its place before
// the stages, from its registers.
func (e *emitter) storeInvariant(wd *wgDot) {
	v := wd.a.src
	l := e.layoutOf(v)
	locals, r, c := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e"))
	more, off := wd.a.tile.offset(e.nameSet, r, c, e.numWarps, wd.m)
	locals = dstLocal(append(locals, more...), "tri_inv", off)
	e.w.line("// %s, a of the tl.dot at line %d, is the same in every iteration: stored once", e.names[v.ID], wd.dot.Pos.Line)
	// A thread's run along K goes in one vector store of up to 16 bytes:
	// a run aligned to its size stays in one 16-byte chunk of a swizzled
	// row, which the swizzle moves whole.
	es := wd.a.tile.elem
	w := rowRun(l, es, 16)
	if w*es < 4 {
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", 8*es))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals, fmt.Sprintf("tri_st_shared_u%d(tri_dst, %s);", 8*es, e.expr(v, "e")))
		return
	}
	e.helpers.add("stshared", stSharedHelpers)
	vs := e.vectorShape(v.Type.Kind, w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_st_shared_b%d", 8*w*es))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), append(locals, e.vecLocal(v, vs, w)), fmt.Sprintf("tri_st_shared_b%d(tri_dst, tri_v);", 8*w*es))
}

// stSharedHelpers store 4, 8 or 16 bytes at a shared address.
var stSharedHelpers = cgroup{`// Vector stores to a shared address.`, []cdef{
	{"tri_st_shared_b32", nil, `TRI_DEV void tri_st_shared_b32(unsigned int dst, unsigned int x) { asm volatile("st.shared.b32 [%0], %1;" :: "r"(dst), "r"(x) : "memory"); }`},
	{"tri_st_shared_b64", []string{"tri_u32x2"}, `TRI_DEV void tri_st_shared_b64(unsigned int dst, tri_u32x2 x) { asm volatile("st.shared.v2.b32 [%0], {%1, %2};" :: "r"(dst), "r"(x.x), "r"(x.y) : "memory"); }`},
	{"tri_st_shared_b128", []string{"tri_u32x4"}, `TRI_DEV void tri_st_shared_b128(unsigned int dst, tri_u32x4 x) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" :: "r"(dst), "r"(x.x), "r"(x.y), "r"(x.z), "r"(x.w) : "memory");
}`},
}}

// instr names the wgmma helper of wd.
func (wd *wgDot) instr() string {
	a, b := wd.a.src.Type.Kind, wd.b.src.Type.Kind
	name := fmt.Sprintf("m64n%dk%d_%s", wd.n, wd.instrK(), wgmmaKind(a, b))
	if wd.b.tile.kMajor && !a.IsFP8() {
		name += "_kb"
	}
	if wd.a.form == inRegisters {
		name += "_ra"
	}
	return name
}

// instrK is the K of one wgmma of wd: 32 bytes of operand.
func (wd *wgDot) instrK() int { return 32 / wd.a.src.Type.Kind.Bytes() }

// wgmmaDot writes dot wd in its iteration: its accumulators start from
// the accumulator operand (or from nothing), every wgmma of it is issued
// and waited for, and the result is read out of wgmma's registers.
func (e *emitter) wgmmaDot(wd *wgDot) {
	if !e.wgmma {
		e.mmaMultiDot(wd)
		return
	}
	v := wd.dot
	d := e.layoutOf(v)
	blocks := wd.m / (16 * e.numWarps)
	perGroup := wd.m / (e.numWarps / 4)
	from := map[operandForm]string{streamed: "the stage", invariant: "shared memory, stored before the loop", inRegisters: "registers", staged: "shared memory", hoisted: "shared memory, stored before the loop"}
	if wd.alone {
		e.w.comment("tl.dot %s x %s on wgmma m64n%dk%d, not pipelined (%s): a from %s, b from shared memory;",
			v.Args[0].Type, v.Args[1].Type, wd.n, wd.instrK(), e.aloneWhy(wd), from[wd.a.form])
		e.w.line("// each warpgroup owns %d rows, in %d m64 block(s).", perGroup, blocks)
	} else {
		e.w.comment("tl.dot %s x %s on wgmma m64n%dk%d: a from %s, b from the stage; each warpgroup owns %d rows, in %d m64 block(s).",
			v.Args[0].Type, v.Args[1].Type, wd.n, wd.instrK(), from[wd.a.form], perGroup, blocks)
	}
	flying := e.inFlight == wd
	if !e.outside[v.ID] && !e.fused[v.ID] && !flying {
		e.declare(v.Type, d, e.names[v.ID], "")
	}
	frag := "tri_d"
	if flying {
		frag = "tri_f"
	}
	e.w.open("{")
	if wd.alone && (wd.a.form == staged || wd.b.form == staged) {
		e.use("tri_smem_addr")
		e.w.line("const unsigned int tri_stage = tri_smem_addr(tri_smem);")
	}
	for mb := 0; mb < blocks; mb++ {
		if !flying {
			e.w.line("float tri_d%d[%d];", mb, wd.n/2)
		}
		if !wd.zeroAcc {
			e.w.line("#pragma unroll")
			e.w.line("for (int r = 0; r < %d; ++r) %s%d[r] = %s;", wd.n/2, frag, mb, e.expr(v.Args[2], fragIndex(d, mb, "r")))
		}
	}
	e.use("tri_wgmma_fence")
	e.w.line("tri_wgmma_fence();")
	aBase, bBase := "tri_stage", "tri_stage"
	if wd.a.form == invariant {
		aBase = "tri_inv"
	}
	if wd.a.base != "" {
		aBase = wd.a.base
	}
	if wd.a.form == staged && !wd.alone {
		// An 8-bit a computed in the body: its registers are not wgmma's A
		// fragments (those hold 4 consecutive k), so it goes through the
		// scratch memory, which the body's other statements share.
		e.alignedSmem = true
		e.useShared(wd.a.tile.bytes())
		e.use("tri_smem_addr", "tri_fence_proxy_async")
		e.w.line("const unsigned int tri_staged = tri_smem_addr(tri_smem);  // 1024-byte aligned")
		e.storeOperand(&wd.a, true, wd.m, "tri_staged")
		e.w.line("tri_fence_proxy_async();  // wgmma reads what the generic stores wrote")
		e.w.line("__syncthreads();")
		aBase = "tri_staged"
	}
	if wd.b.base != "" {
		bBase = wd.b.base
	}
	var pd *dist
	pack, src := "tri_pack2", wd.a.src
	if wd.a.form == inRegisters {
		pd = e.layoutOf(wd.a.src)
		if wd.a.cvt != nil {
			pack, src = "tri_pack2_"+kindSuffix(wd.a.src.Type.Kind), wd.a.cvt
			e.helpers.add(pack, packHelpers[wd.a.src.Type.Kind])
		}
	}
	ar := 0 // the A registers declared so far
	for kk := 0; kk < wd.k/wd.instrK(); kk++ {
		scale := 1
		if wd.zeroAcc && kk == 0 {
			scale = 0
		}
		db := wd.b.tile.desc(e.nameSet, bBase, kk, 0, 0)
		for mb := 0; mb < blocks; mb++ {
			var aArg string
			if pd != nil {
				var regs []string
				if wd.a.src.Type.Kind.IsFP8() {
					regs = e.fp8AFragments(src, pd, mb, kk)
				} else {
					for q := range 4 {
						lo := e.expr(src, fragIndexConst(pd, mb, 8*kk+2*q))
						hi := e.expr(src, fragIndexConst(pd, mb, 8*kk+2*q+1))
						e.use(pack)
						regs = append(regs, fmt.Sprintf("%s(%s, %s)", pack, lo, hi))
					}
				}
				// The A fragment's registers, each bound to a name before the wgmma.
				for q, r := range regs {
					e.w.line("const unsigned int tri_ar%d = %s;", ar, r)
					regs[q] = fmt.Sprintf("tri_ar%d", ar)
					ar++
				}
				aArg = fmt.Sprintf("%s, %s, %s, %s", regs[0], regs[1], regs[2], regs[3])
			} else {
				aArg = wd.a.tile.desc(e.nameSet, aBase, kk, mb, perGroup)
			}
			e.use("tri_wgmma_" + wd.instr())
			e.w.line("tri_wgmma_%s(%s%d, %s, %s, %d);", wd.instr(), frag, mb, aArg, db, scale)
		}
	}
	e.use("tri_wgmma_commit")
	e.w.line("tri_wgmma_commit();")
	if f := e.whileDot; f != nil && (e.inFlight == nil || flying) {
		e.whileDot = nil
		f()
	}
	if flying {
		e.w.line("// Not waited for here: the next iteration's first wait lands it in %s.", e.varNames[wd.assign.ID])
		e.w.close("}")
		return
	}
	if f := e.inFlight; f != nil {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<0>();  // and the last iteration's tl.dot at line %d", f.dot.Pos.Line)
		e.landInFlight(f)
	} else {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<0>();")
	}
	name := e.names[v.ID]
	for mb := 0; mb < blocks; mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_d%d[r]); %s[%s] = tri_d%d[r]; }", wd.n/2, mb, name, fragIndex(d, mb, "r"), mb)
	}
	if wd.a.form == staged && !wd.alone {
		e.w.line("__syncthreads();  // the scratch memory is free again")
	}
	e.w.close("}")
}

// landInFlight moves the in-flight dot's accumulators, waited for, into
// its Var.
func (e *emitter) landInFlight(f *wgDot) {
	d := e.layoutOf(f.dot)
	for mb := 0; mb < f.m/(16*e.numWarps); mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_f%d[r]); %s[%s] = tri_f%d[r]; }", f.n/2, mb, e.varNames[f.assign.ID], fragIndex(d, mb, "r"), mb)
	}
}

// fragIndexConst is fragIndex for a known register r, as a number.
func fragIndexConst(d *dist, mb, r int) string {
	return fmt.Sprint((2*mb+r/2%2)*d.RStride[0] + r/4*d.RStride[1] + r%2*d.KStride[1])
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

// packHelpers round two fp32 values to fp16 or bf16 (to nearest even) into
// one register, lo in the low half: cvt.rn.f16x2.f32 takes the high half
// first.
var packHelpers = map[ir.Kind]cgroup{
	ir.Float16: cgroup{`// Two fp32 values rounded to fp16 in one register (lo in the low half): an A fragment register.`, []cdef{
		{"tri_pack2_f16", nil, `TRI_DEV unsigned int tri_pack2_f16(float lo, float hi) { unsigned int r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }`},
	}},
	ir.BFloat16: cgroup{`// Two fp32 values rounded to bf16 in one register (lo in the low half): an A fragment register.`, []cdef{
		{"tri_pack2_bf16", nil, `TRI_DEV unsigned int tri_pack2_bf16(float lo, float hi) { unsigned int r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }`},
	}},
}

// maxSharedPerSM is the shared memory of one H100 SM that programs may
// use (228 KiB, 1 KiB of it reserved per program).
const maxSharedPerSM = 233472

// multiPipeBlocks is the number of programs per SM to ask ptxas for in a
// kernel with multi-dot pipelines: enough for 512 threads per SM, capping
// registers at 128 a thread, as far as the programs' shared memory fits an
// SM, where the dots' accumulators (fp32, and the fp16 A operands in
// registers) take at most 80 registers a thread; else 1. Several programs
// per SM let one's softmax run while another's wgmmas do, as Triton's
// attention forward runs (126 registers: two programs of 8 warps, or four
// of 4 warps, per SM).
func (e *emitter) multiPipeBlocks() int {
	if !e.wgmma {
		return e.mmaMultiBlocks()
	}
	threads := 32 * e.numWarps
	blocks := 512 / threads
	for _, mp := range e.mloops {
		regs := 0
		for _, wd := range mp.dots {
			regs += wd.m * wd.n / threads
			if wd.a.form == inRegisters {
				regs += wd.m * wd.k / threads / 2
			}
		}
		if regs > 80 {
			return 1
		}
		blocks = min(blocks, maxSharedPerSM/(mp.sharedBytes()+1024+8*maxTMABuffers)) // the system reserves 1 KiB a program
	}
	return max(blocks, 1)
}
