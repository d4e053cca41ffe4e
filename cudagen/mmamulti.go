package cudagen

// This file writes the multi-dot pipelines of multipipe.go on the targets
// without wgmma (sm_80 to sm_89), as FlashAttention-2 runs attention's
// inner loop there. The analysis is multiPipeOf's: the same streamed
// loads, ahead statements and stages, each streamed operand in the tile
// smemTile gives it (K-major rows of up to 128 bytes, in 128-byte K chunks
// beyond; MN-major in blocks of up to 64 columns; XOR-swizzled in 16-byte
// chunks), copied by cp.async num_stages-1 iterations ahead, while the
// rest of the body runs in its own iteration. Only the dots differ. Each
// runs as mma.sync m16n8k16, fp16 or bf16 into fp32, on the accumulator
// layout mmaPipeBlocked (sizePerThread [1, 2], threadsPerWarp [8, 4],
// warpsPerCTA [num_warps, 1] where the rows give every warp an m16 tile):
// every warp owns whole rows, so the row statistics of a softmax need no
// shared memory, and the rows of its repetitions 2i and 2i+1 are rows g
// and g+8 of the warp's m16 tile i. A dot of fewer rows (a decode
// attention's 16 query heads over 4 warps) splits the warps along N as
// well, as Triton's MMAv2 does: warpsPerCTA [M/16, num_warps*16/M], each
// warp's n8 tiles every wn-th from its own; the row statistics then go
// across the warps through shared memory, as the layouts say.
//
//   - b comes from the stage through ldmatrix, two n8 fragments an
//     instruction: .x4 for a K-major b (a row of the tile is a column of b:
//     k loaded [HEAD_DIM, BLOCK_N] through its strides, or a b.T), .x4.trans
//     for an MN-major one (v); an odd last n8 tile by .x2 (a warp of a
//     decode's 4 owns one of the 32 scores' four).
//   - An a defined before the loop (q) is stored into shared memory once,
//     and its A fragments are read from there into registers once, before
//     the loop.
//   - An a computed in the body (p) whose columns the warps split is
//     stored into the scratch memory where its dot stands (staged), and
//     read back as a streamed a is.
//   - Else an a computed in the body (p) is read from registers: the
//     accumulator fragment of an m16n8 tile gives lane 4g+t rows g and g+8,
//     columns 2t and 2t+1, which are the halves of its A fragment registers
//     for those columns as the k of the next m16n8k16; two adjacent n8
//     tiles of p, rounded to fp16 or bf16 two values to a register, are one
//     k16 A fragment (FlashAttention-2 feeds P @ V so).
//   - A streamed a is read with ldmatrix.x4, as a K-major b is.
//
// mma.sync is synchronous, so no dot is kept in flight: the copies of
// iteration i+num_stages-1 are issued at the top of iteration i, into the
// stage iteration i-1 read, after the barrier that every warp reaches once
// its ldmatrix reads of that stage are done.
//
// In a stage tile the rows a warp's lanes give one ldmatrix are eight
// consecutive rows from a multiple of 8 (the XOR of each 16-byte chunk
// then takes eight distinct values, one bank group each); rows further by
// a multiple of 8 have the same XOR. So each lane's row offset and XOR are
// computed once, before the loop, and a k step only adds the bytes it
// moves along the row inside the XOR (tri_l* and tri_x* below).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// tensorOps names the dots a program's tensor cores run, for the comment
// on the programs asked for per SM.
func (e *emitter) tensorOps() string {
	if e.wgmma {
		return "wgmmas"
	}
	return "mma.syncs"
}

// mmaMultiBlocks is the number of programs per SM to ask ptxas for in a
// kernel with multi-dot pipelines on mma.sync: as multiPipeBlocks, enough
// for 512 threads per SM (at most 128 registers a thread) as far as the
// shared memory of an SM of the target holds them, where the fragments
// the dots keep in registers (fp32 results, and the fp16 A fragments of
// an a in registers or stored once) take at most 96 registers a thread;
// else 1.
func (e *emitter) mmaMultiBlocks() int {
	threads := 32 * e.numWarps
	blocks := 512 / threads
	for _, mp := range e.mloops {
		regs := 0
		for _, wd := range mp.dots {
			regs += wd.m * wd.n / threads
			if wd.a.form == inRegisters || wd.a.form == invariant {
				regs += wd.m * wd.k / threads / 2
			}
		}
		if regs > 96 {
			return 1
		}
		// The system reserves 1 KiB a program.
		blocks = min(blocks, (sharedPerProgram(e.arch)+1024)/(mp.sharedBytes()+1024))
	}
	return max(blocks, 1)
}

// mmaMultiPipedFor writes loop s as the multi-dot pipeline mp on mma.sync.
func (e *emitter) mmaMultiPipedFor(s *ir.For, mp *multiPipe) {
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("cp_async", cpAsyncHelpers)
	e.helpers.add("ldmatrix_shared", ldmatrixSharedHelpers)
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")

	// The pipeline's shared memory comes after the scratch memory of the
	// statements of its iterations, as planned (scratch.go).
	at0, mark := e.w.at, len(e.helpers.names)
	reserve := loopReserve(e.multiBodyScratch(s, mp))
	e.useShared(reserve + mp.sharedBytes())

	e.w.line("// Software-pipelined, %d dot(s) on mma.sync m16n8k16: the loads feeding them stream into %d shared-memory stages", len(mp.dots), mp.stages)
	e.w.line("// with cp.async, %d iteration(s) ahead, and reach the dots through ldmatrix from rows XOR-swizzled in", mp.stages-1)
	e.w.line("// 16-byte chunks; the rest of the body runs in its own iteration.")
	if note := mp.stagesNote(); note != "" {
		e.w.comment("(%s)", note)
	}
	e.w.open("{")
	at := ""
	if reserve > 0 {
		at = fmt.Sprintf(" + %du", reserve)
	}
	e.alignedSmem = true
	e.use("tri_smem_addr", "tri_cp_async_commit", "tri_cp_async_wait")
	e.w.line("const unsigned int tri_inv = tri_smem_addr(tri_smem)%s;  // the operands stored once, 1024-byte aligned", at)
	e.w.line("const unsigned int tri_stage0 = tri_inv + %du;  // shared address of stage 0", mp.invSize)
	e.w.line("#pragma unroll 1")
	e.w.open("for (int tri_s = 0; tri_s < %d; ++tri_s) {", mp.stages-1)
	e.w.line("%s tri_ahead = %s + tri_s * %s;", it, lo, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.mmaMultiAhead(s, mp, fmt.Sprintf("tri_stage0 + tri_s * %d", mp.stageSize))
	e.w.close("}")
	e.w.line("tri_cp_async_commit();")
	e.w.close("}")
	// The invariant operands are stored after the first copies are issued:
	// their registers may still wait on a load from global memory, whose
	// latency then overlaps the copies'.
	e.mmaInvariants(mp)
	for di, wd := range mp.dots {
		d := e.layoutOf(wd.dot)
		if wd.a.form == streamed || wd.a.form == staged {
			e.mmaLaneRows(&wd.a, true, d, fmt.Sprint(di))
		}
		e.mmaLaneRows(&wd.b, false, d, fmt.Sprint(di))
	}
	e.w.line("int tri_read = 0, tri_write = %d;  // the stages the dots read and the copies fill", mp.stages-1)
	e.w.open("for (%s %s = %s; %s < %s; %s += %s) {", it, iv, lo, iv, hi, iv, step)
	e.w.line("tri_cp_async_wait<%d>();  // this iteration's stage has landed", mp.stages-2)
	e.w.line("__syncthreads();  // for every thread, and every warp is done with the stage the copies refill")
	e.w.line("const unsigned int tri_stage = tri_stage0 + tri_read * %d;", mp.stageSize)
	e.w.line("%s tri_ahead = %s + %d * %s;", it, iv, mp.stages-1, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.mmaMultiAhead(s, mp, fmt.Sprintf("tri_stage0 + tri_write * %d", mp.stageSize))
	e.w.close("}")
	e.w.line("tri_cp_async_commit();")
	e.lastLine = 0
	headAt, again := e.w.at, e.helpers.later(mark)
	e.w.at = at0
	e.multiBody(s, mp)
	e.w.at = headAt
	e.lastLine = 0
	again()
	e.w.line("tri_read = tri_read == %d ? 0 : tri_read + 1;", mp.stages-1)
	e.w.line("tri_write = tri_write == %d ? 0 : tri_write + 1;", mp.stages-1)
	e.w.close("}")
	e.w.line("tri_cp_async_wait<0>();")
	e.w.line("__syncthreads();  // the stages are scratch memory again")
	e.w.close("}")
}

// mmaMultiAhead writes the ahead statements of mp for the iteration
// tri_ahead, its streamed loads as copies into the stage at shared
// address stage.
func (e *emitter) mmaMultiAhead(s *ir.For, mp *multiPipe, stage string) {
	e.aheadOf(s, mp.ahead, func(st ir.Stmt) bool {
		for _, o := range mp.streamed {
			if ir.Stmt(o.src) == st {
				e.source(st.Position())
				e.mmaCopyOperand(o, mp.aIsA[o], stage)
				return true
			}
		}
		return false
	})
}

// mmaCopyOperand writes the streamed load of o as copies into its tile of
// the stage: cp.async where a thread's run of 4 bytes or more is
// contiguous, aligned and under one mask, else element by element through
// registers, every load before the first store (stageElements), in a
// block of its own, as two such operands may be copied side by side.
func (e *emitter) mmaCopyOperand(o *wgOperand, isA bool, stage string) {
	locals, off, done := e.stagePlace(o, isA, stage)
	if done {
		return
	}
	if w := e.copyWidth(o.src, o.copyAxis(isA)); w > 1 {
		e.stageCopies(o.src, isA, w, o.tile.elem, stage, off, locals)
		return
	}
	e.w.open("{")
	e.stageElements(o.src, isA, o.tile.elem, stage, off, locals)
	e.w.close("}")
}

// mmaInvariants stores the invariant a operands of mp's dots into their
// places before the stages and reads their A fragments into registers,
// tri_a<dot> (in k16 steps, the warp's m16 tiles within each), which the
// dots read in every iteration.
func (e *emitter) mmaInvariants(mp *multiPipe) {
	if !slices.ContainsFunc(mp.dots, func(wd *wgDot) bool { return wd.a.form == invariant }) {
		return
	}
	for _, wd := range mp.dots {
		if wd.a.form == invariant {
			e.storeInvariant(wd)
		}
	}
	e.w.line("__syncthreads();  // the operands stored once are in place for every warp")
	for di, wd := range mp.dots {
		if wd.a.form != invariant {
			continue
		}
		d := e.layoutOf(wd.dot)
		mi := d.Reps[0] / 2
		name := fmt.Sprintf("tri_a%d", di)
		e.w.line("// The A fragments of %s for the tl.dot at line %d stay in registers for the whole loop.", e.names[wd.a.src.ID], wd.dot.Pos.Line)
		e.w.line("unsigned int %s[%d];", name, 4*mi*wd.k/16)
		e.w.open("{")
		e.mmaLaneRows(&wd.a, true, d, "")
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_kk = 0; tri_kk < %d; tri_kk += 16) {", wd.k)
		e.w.line("#pragma unroll")
		e.use("tri_ldsm_x4")
		e.w.loop(fmt.Sprintf("for (int tri_i = 0; tri_i < %d; ++tri_i)", mi), []string{"unsigned int tri_src = " + e.mmaRowsAddr(&wd.a, true, d, "tri_inv", "")},
			fmt.Sprintf("tri_ldsm_x4(%s + (tri_kk / 16 * %d + tri_i) * 4, tri_src);", name, mi))
		e.w.close("}")
		e.w.close("}")
	}
}

// mmaLaneRows declares, for this lane, the byte offset in operand o's
// tile (a if isA, else b) of the row it gives ldmatrix for the warp's
// first fragment(s) at k 0, tri_l<a|b><suffix>, and the XOR of its 16-byte
// chunk, tri_x<a|b><suffix>. d is the dot's accumulator layout.
//
//   - a, K-major: lanes 8q..8q+7 give rows g of matrix q, which is rows
//     0-7 (q = 0, 2) or 8-15 (q = 1, 3) of the m16 tile, k 0-7 (q < 2) or
//     8-15: the warp's rows of repetitions 2i and 2i+1.
//   - b, K-major: matrix q is the n8 tile q / 2 of a pair, k 0-7 or 8-15
//     (q % 2): a row of the tile is a column of b.
//   - b, MN-major: lanes 0-15 give k rows 0-15 of the pair's first n8
//     tile, lanes 16-31 those of its second (ldmatrix.trans).
//
// Where the warps split N (mmaPipeBlocked), a warp's n8 tiles are every
// wn-th from its own (Span[1] = 8 wn columns a repetition): the pair's
// second tile lies Span[1] columns after its first, and an MN-major b's
// lane also keeps the column of its tile, tri_cb<suffix>, as the column
// blocks of the tile (of rowBytes) may part them.
func (e *emitter) mmaLaneRows(o *wgOperand, isA bool, d *dist, suffix string) {
	t := o.tile
	rb := t.rowBytes()
	l, x := "tri_lb"+suffix, "tri_xb"+suffix
	e.use("lane_id")
	var row string
	split := !isA && d.Warps[1].Count > 1
	switch {
	case isA:
		l, x = "tri_la"+suffix, "tri_xa"+suffix
		row = fmt.Sprintf("((%s) * 8 + lane_id %% 8 + lane_id / 8 %% 2 * %d) * %d + lane_id / 16 * 16", e.pos(d.Warps[0], "warp_id"), d.Span[0], rb)
	case split && t.kMajor:
		row = fmt.Sprintf("((%s) * 8 + lane_id %% 8 + lane_id / 16 * %d) * %d + lane_id / 8 %% 2 * 16", e.pos(d.Warps[1], "warp_id"), d.Span[1], rb)
	case t.kMajor:
		row = fmt.Sprintf("(lane_id %% 8 + lane_id / 16 * 8) * %d + lane_id / 8 %% 2 * 16", rb)
	case split:
		row = fmt.Sprintf("lane_id %% 16 * %d", rb)
		e.w.line("const unsigned int tri_cb%s = (%s) * 8 + lane_id / 16 * %d;  // the column of this lane's n8 tile", suffix, e.pos(d.Warps[1], "warp_id"), d.Span[1])
	default:
		row = fmt.Sprintf("lane_id %% 16 * %d + lane_id / 16 * 16", rb)
	}
	e.w.line("const unsigned int %s = %s;", l, row)
	e.w.line("const unsigned int %s = (%s >> 7 & %d) << 4;", x, l, rb/16-1)
}

// mmaRowsAddr is the C shared address of the row this lane gives the
// ldmatrix of operand o (a if isA, else b) for k step tri_kk and m16 tile
// tri_i (a) or pair of n8 tiles tri_j (b), in its tile at base; suffix
// names its lane offsets (mmaLaneRows).
func (e *emitter) mmaRowsAddr(o *wgOperand, isA bool, d *dist, base, suffix string) string {
	t := o.tile
	rb := t.rowBytes()
	l, x, more := "tri_lb"+suffix, "tri_xb"+suffix, fmt.Sprintf("tri_j * %d", 2*d.Span[1]*rb)
	if isA {
		l, x, more = "tri_la"+suffix, "tri_xa"+suffix, fmt.Sprintf("tri_i * %d", 2*d.Span[0]*rb)
	}
	at := plusBytes(base, t.off)
	if !isA && !t.kMajor && d.Warps[1].Count > 1 {
		// The lane's column, in its block of rb / elem columns.
		cols := rb / t.elem
		c := fmt.Sprintf("(tri_cb%s + tri_j * %d)", suffix, 2*d.Span[1])
		if t.rows > cols {
			at += fmt.Sprintf(" + %s / %d * %d", c, cols, t.k*rb)
		}
		return fmt.Sprintf("%s + tri_kk * %d + ((%s + %s %% %d * %d) ^ %s)", at, rb, l, c, cols, t.elem, x)
	}
	if !t.kMajor {
		// The k rows of the step, then the pair's columns: a block of
		// rb / elem columns further for each block it passes.
		cols := rb / t.elem
		if t.rows > cols {
			at += fmt.Sprintf(" + tri_j * 16 / %d * %d", cols, t.k*rb)
		}
		return fmt.Sprintf("%s + tri_kk * %d + ((%s + tri_j * %d %% %d) ^ %s)", at, rb, l, 16*t.elem, rb, x)
	}
	in := fmt.Sprintf("tri_kk * %d", t.elem)
	if t.k*t.elem > rb {
		// K beyond one swizzle row lies in 128-byte chunks of whole tiles.
		at += fmt.Sprintf(" + tri_kk * %d / %d * %d", t.elem, rb, t.chunkBytes())
		in = fmt.Sprintf("tri_kk * %d %% %d", t.elem, rb)
	}
	return fmt.Sprintf("%s + ((%s + %s) ^ %s) + %s", at, l, in, x, more)
}

// mmaMultiDot writes dot wd of a multi-dot pipeline on mma.sync in its
// iteration: its accumulators start from the accumulator operand (or
// zero), and for each k step of 16 the warp's A fragments (from the
// registers of an invariant a or of an a computed in the body, or by
// ldmatrix from the stage) and B fragments (by ldmatrix from the stage)
// feed every mma.sync of its m16 and n8 tiles.
func (e *emitter) mmaMultiDot(wd *wgDot) {
	v := wd.dot
	d := e.layoutOf(v)
	op, _ := mmaOpOf(v)
	mp := e.mloopOf(wd)
	di := fmt.Sprint(slices.Index(mp.dots, wd))
	mi, nj := d.Reps[0]/2, d.Reps[1]
	from := map[operandForm]string{streamed: "the stage", invariant: "registers, read once before the loop", inRegisters: "registers",
		staged: "shared memory, stored here"}[wd.a.form]
	bForm, x := "K-major, ldmatrix", ""
	if !wd.b.tile.kMajor {
		bForm, x = "MN-major, ldmatrix", ".trans"
	}
	switch {
	case nj == 1:
		bForm += ".x2" + x
	case nj%2 == 1:
		bForm += ".x4" + x + " and .x2" + x
	default:
		bForm += ".x4" + x
	}
	e.w.comment("tl.dot %s x %s on %s: a from %s, b from the stage (%s); each warp owns %d x %d m16n8 tile(s).",
		v.Args[0].Type, v.Args[1].Type, op, from, bForm, mi, nj)
	name := e.names[v.ID]
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	if wd.zeroAcc {
		e.loop(d.Elems, func(i string) string { return fmt.Sprintf("%s[%s] = 0.0f;", name, i) })
	} else {
		e.loop(d.Elems, func(i string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, e.expr(v.Args[2], i)) })
	}
	e.w.open("{")
	aBase := "tri_stage"
	if wd.a.form == staged {
		// The warps split a's columns (k): each reads its A fragments of
		// the whole row from shared memory, where the dot stands.
		e.useShared(wd.a.tile.bytes())
		e.use("tri_smem_addr")
		e.w.line("const unsigned int tri_staged = tri_smem_addr(tri_smem);  // 1024-byte aligned")
		e.storeOperand(&wd.a, true, wd.m, "tri_staged")
		e.w.line("__syncthreads();")
		aBase = "tri_staged"
	}
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_kk = 0; tri_kk < %d; tri_kk += 16) {", wd.k)
	switch wd.a.form {
	case invariant:
		e.w.line("const unsigned int* tri_af = tri_a%s + tri_kk / 16 * %d;", di, 4*mi)
	case streamed, staged:
		e.w.line("unsigned int tri_af[%d];", 4*mi)
		e.w.line("#pragma unroll")
		e.use("tri_ldsm_x4")
		e.w.loop(fmt.Sprintf("for (int tri_i = 0; tri_i < %d; ++tri_i)", mi), []string{"unsigned int tri_src = " + e.mmaRowsAddr(&wd.a, true, d, aBase, di)},
			"tri_ldsm_x4(tri_af + 4 * tri_i, tri_src);")
	default:
		e.mmaRegisterA(wd, mi)
	}
	e.w.line("unsigned int tri_bf[%d];", 2*nj)
	ld := "tri_ldsm_x4"
	if !wd.b.tile.kMajor {
		ld = "tri_ldsm_x4_trans"
	}
	e.use("tri_mma_" + op.name)
	if nj >= 2 {
		e.use(ld)
		e.w.line("#pragma unroll")
		e.w.loop(fmt.Sprintf("for (int tri_j = 0; tri_j < %d; ++tri_j)", nj/2), []string{"unsigned int tri_src = " + e.mmaRowsAddr(&wd.b, false, d, "tri_stage", di)},
			ld+"(tri_bf + 4 * tri_j, tri_src);")
	}
	if nj%2 == 1 {
		// An odd n8 tile: ldmatrix.x2 reads lanes 0-15's rows, the
		// pair's first tile.
		x2 := strings.Replace(ld, "x4", "x2", 1)
		e.use(x2)
		e.w.open("{")
		e.w.line("const int tri_j = %d;", nj/2)
		e.w.line("const unsigned int tri_src = %s;", e.mmaRowsAddr(&wd.b, false, d, "tri_stage", di))
		e.w.line("%s(tri_bf + 4 * tri_j, tri_src);", x2)
		e.w.close("}")
	}
	idx := func(half, col string) string {
		return fmt.Sprintf("%s[(2 * tri_i + %s) * %d + tri_j * %d + %s]", name, half, d.RStride[0], d.RStride[1], col)
	}
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_i = 0; tri_i < %d; ++tri_i) {", mi)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_j = 0; tri_j < %d; ++tri_j) {", nj)
	e.w.line("float& tri_c0 = %s;", idx("0", "0"))
	e.w.line("float& tri_c1 = %s;", idx("0", fmt.Sprint(d.KStride[1])))
	e.w.line("float& tri_c2 = %s;", idx("1", "0"))
	e.w.line("float& tri_c3 = %s;", idx("1", fmt.Sprint(d.KStride[1])))
	e.w.line("tri_mma_%s(tri_c0, tri_c1, tri_c2, tri_c3, tri_af + 4 * tri_i, tri_bf + 2 * tri_j);", op.name)
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
	if wd.a.form == staged {
		e.w.line("__syncthreads();  // the scratch memory is free again")
	}
	e.w.close("}")
}

// mmaRegisterA writes the A fragments of wd's k step tri_kk from the
// registers of its a, computed in the body in the accumulator layout: for
// m16 tile i, registers 0 to 3 hold rows g and g+8 (repetitions 2i and
// 2i+1) of columns tri_kk + 2t, +1 (n8 tile tri_kk / 8) and of the next
// n8 tile, each pair rounded from fp32 (a.cvt) or packed as it is.
func (e *emitter) mmaRegisterA(wd *wgDot, mi int) {
	pd := e.layoutOf(wd.a.src)
	src := wd.a.src
	pack := func(lo, hi string) string {
		return fmt.Sprintf("(unsigned int)(%s) | (unsigned int)(%s) << 16", lo, hi)
	}
	if wd.a.cvt != nil {
		fn := "tri_pack2_" + kindSuffix(wd.a.src.Type.Kind)
		e.helpers.add(fn, packHelpers[wd.a.src.Type.Kind])
		e.use(fn)
		src = wd.a.cvt
		pack = func(lo, hi string) string { return fmt.Sprintf("%s(%s, %s)", fn, lo, hi) }
	}
	rs, cs, ks := pd.RStride[0], pd.RStride[1], pd.KStride[1]
	e.w.line("unsigned int tri_af[%d];", 4*mi)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_i = 0; tri_i < %d; ++tri_i) {", mi)
	e.w.line("const int tri_r = 2 * tri_i * %d + tri_kk / 8 * %d;  // row g, columns tri_kk + 2t of tile tri_i", rs, cs)
	for q, at := range []int{0, rs, cs, rs + cs} {
		lo, hi := fmt.Sprintf("(tri_r + %d)", at), fmt.Sprintf("(tri_r + %d)", at+ks)
		if at == 0 {
			lo = "(tri_r)"
		}
		e.w.line("tri_af[4 * tri_i + %d] = %s;", q, pack(e.expr(src, lo), e.expr(src, hi)))
	}
	e.w.close("}")
}
