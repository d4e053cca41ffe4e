package cudagen

// This file prints the software pipelining of loops whose body holds one
// or more dots with other work around them, as flash attention's inner
// loop does, on wgmma, as multiplan.go plans it (the multiPipe record):
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
	"strings"

	"github.com/tri-lang/tri/ir"
)

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
	aRegs := e.wgmmaARegisters(wd)
	if aRegs != nil && wd.a.src.Type.Kind.IsFP8() {
		// An 8-bit a's registers are all written before the fence: written
		// between two wgmmas, their shuffles made ptxas wait for the
		// wgmmas before them (it injects warpgroup.arrive), one by one.
		// fp16 and bf16 registers stay beside their wgmma, where ptxas
		// does not wait and fewer are live at once (all first: tutorial
		// 06's backward at head dim 128 ran 2% slower on an H200).
		pre := make([][]string, wd.k/wd.instrK())
		for kk := range pre {
			for mb := range blocks {
				pre[kk] = append(pre[kk], aRegs(kk, mb))
			}
		}
		aRegs = func(kk, mb int) string { return pre[kk][mb] }
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
	for kk := 0; kk < wd.k/wd.instrK(); kk++ {
		scale := 1
		if wd.zeroAcc && kk == 0 {
			scale = 0
		}
		db := wd.b.tile.desc(e.nameSet, bBase, kk, 0, 0)
		for mb := 0; mb < blocks; mb++ {
			aArg := ""
			if aRegs != nil {
				aArg = aRegs(kk, mb)
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

// wgmmaARegisters returns, for a dot wd whose a is in registers, a
// function that binds the four A fragment registers of the wgmma of k
// step kk and m64 block mb to names and returns them (nil when a is in
// shared memory): two fp16 or bf16 values a register, packed from their
// fp32 source where a is its conversion, or four 8-bit values
// (fp8AFragments).
func (e *emitter) wgmmaARegisters(wd *wgDot) func(kk, mb int) string {
	if wd.a.form != inRegisters {
		return nil
	}
	pd := e.layoutOf(wd.a.src)
	pack, src := "tri_pack2", wd.a.src
	if wd.a.cvt != nil {
		pack, src = "tri_pack2_"+kindSuffix(wd.a.src.Type.Kind), wd.a.cvt
		e.helpers.add(pack, packHelpers[wd.a.src.Type.Kind])
	}
	ar := 0 // the A registers declared so far
	return func(kk, mb int) string {
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
		return strings.Join(regs, ", ")
	}
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
