package cudagen

// This file writes the software-pipelined K loop of pipeline.go on the
// targets without wgmma (sm_80 to sm_89, and every target but sm_90a),
// after Triton's sm_80 pipeliner. The analysis is the K-loop case of
// pipelineOf (kLoopOf): the same loops, the same ahead statements and the
// same cp.async copies (of 16, 8 or 4 bytes, zero-filled where masked
// off) into num_stages shared-memory stages, num_stages-1 iterations
// ahead of the dot. Only the dot differs:
// it runs as mma.sync m16n8k16 (fp16 or bf16 into fp32) on the
// accumulator layout mmaBlocked gives (dot.go), its fragments read from the
// stage with ldmatrix, and it waits for nothing (mma.sync is synchronous),
// so the loop keeps exactly num_stages stages: the copies of iteration
// i+num_stages-1 refill the stage iteration i-1 read, which every warp is
// done with at the barrier that opens iteration i.
//
// A stage holds a K-major, row r of a at r * aRow bytes (aRow = 32, 64 or
// 128: BLOCK_K of 16, 32 or 64 halves), then b: MN-major in blocks of 64
// columns (rows of up to 128 bytes), or K-major for a b.T as a is. Rows are
// XOR-swizzled in 16-byte chunks from the stage's 128-byte aligned start
// (tri_swizzle: chunk c of a row in 128-byte line l moves to c ^ (l & mask),
// Triton's vec 8, perPhase 128/rowBytes, maxPhase rowBytes/16), so that the
// eight rows each 8x8 matrix of an ldmatrix reads lie in eight distinct
// 16-byte bank groups. ldmatrix.x4 reads an A fragment (16 rows x 16 k),
// ldmatrix.x4.trans two B fragments of an MN-major b (16 k x 8 columns
// each; .x2.trans where a warp holds one), ldmatrix.x4 two of a K-major b.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// mmaPipelinedFor writes loop s as pipeline pl on mma.sync: the copies of
// the first stages-1 iterations; then in each iteration, a wait for its
// stage's copies, a barrier, the copies of iteration i+stages-1 (into the
// stage iteration i-1 read) and the mma.syncs on the stage of iteration i.
func (e *emitter) mmaPipelinedFor(s *ir.For, pl *pipeline) {
	e.useShared(pl.sharedBytes())
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("cp_async", cpAsyncHelpers)
	e.helpers.add("ldmatrix_shared", ldmatrixSharedHelpers)
	op, _ := mmaOpOf(pl.dot)
	bMajor := "MN-major"
	if pl.bKMajor {
		bMajor = "K-major"
	}
	e.w.line("// Software-pipelined: the loads feeding tl.dot stream into %d shared-memory stages with cp.async,", pl.stages)
	e.w.line("// %d iteration(s) ahead of the %s that reads them through ldmatrix (a: K-major, b: %s),", pl.stages-1, op, bMajor)
	e.w.line("// in %d- and %d-byte rows XOR-swizzled in 16-byte chunks: ldmatrix's eight rows hit distinct banks.", pl.aRow, pl.bRow())
	if note := pl.stagesNote(); note != "" {
		e.w.comment("(%s)", note)
	}
	e.w.open("{")
	e.alignedSmem = true
	e.use("tri_smem_addr")
	e.w.line("const unsigned int tri_stage0 = tri_smem_addr(tri_smem);  // shared address of stage 0")
	e.mmaLoad(pl)
	e.mmaLanes(pl)
	e.pipelinePrologue(s, pl)
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	e.w.line("int tri_read = 0, tri_write = %d;  // the stages the mma.syncs read and the copies fill", pl.stages-1)
	e.w.open("for (%s %s = %s; %s < %s; %s += %s) {", it, iv, lo, iv, hi, iv, step)
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<%d>();  // this iteration's stage has landed", pl.stages-2)
	e.w.line("__syncthreads();  // for every thread, and every warp is done with the stage the copies refill")
	e.pipelineCopies(s, pl)
	e.mmaIssue(pl, fmt.Sprintf("tri_stage0 + tri_read * %d", pl.stageSize))
	e.w.line("tri_read = tri_read == %d ? 0 : tri_read + 1;", pl.buffers-1)
	e.w.line("tri_write = tri_write == %d ? 0 : tri_write + 1;", pl.buffers-1)
	e.w.close("}")
	e.assignDot(s, pl)
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<0>();")
	e.w.line("__syncthreads();  // the stages are scratch memory again")
	e.w.close("}")
}

// mmaLoad declares the dot's result and copies the accumulator into it:
// the mma.syncs of every iteration add into its registers, which the
// accumulator layout makes mma.sync's accumulator fragments.
func (e *emitter) mmaLoad(pl *pipeline) {
	v := pl.dot
	acc := v.Args[2]
	d := e.layoutOf(v)
	name := e.names[v.ID]
	e.source(v.Pos)
	if !e.inlined[acc.ID] {
		e.nest.stmt(acc)
	}
	if !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	e.loop(d.Elems, func(i string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, e.expr(acc, i)) })
}

// mmaLanes declares, for this lane, the byte offsets in a stage of the
// rows it gives ldmatrix (those of the first A fragment and of the first
// B fragment or pair), and the XOR of their 16-byte chunks: the same for
// every fragment and k step, whose rows lie whole multiples of the
// swizzle's period further on.
func (e *emitter) mmaLanes(pl *pipeline) {
	d := e.layoutOf(pl.dot)
	wm, wn := e.pos(d.Warps[0], "warp_id"), e.pos(d.Warps[1], "warp_id")
	e.use("lane_id")
	e.w.line("// This warp's mma tiles start at row (%s) * 8 and column (%s) * 8; lane l gives ldmatrix", wm, wn)
	e.w.line("// the address of row l %% 8 of matrix l / 8.")
	e.w.line("const unsigned int tri_la = ((%s) * 8 + lane_id %% 8 + lane_id / 8 %% 2 * %d) * %d + lane_id / 16 * 16;",
		wm, d.Span[0], pl.aRow)
	e.w.line("const unsigned int tri_xa = (tri_la >> 7 & %d) << 4;", pl.aRow/16-1)
	pair := ""
	if d.Reps[1] > 1 {
		pair = fmt.Sprintf(" + lane_id / 16 * %d", d.Span[1])
	}
	if pl.bKMajor {
		// b.T: row n of the stage's b is column n of b; matrices (n, k 0-7),
		// (n, k 8-15), then the same for the next fragment.
		e.w.line("const unsigned int tri_lb = ((%s) * 8 + lane_id %% 8%s) * %d + lane_id / 8 %% 2 * 16;", wn, pair, pl.bRow())
		e.w.line("const unsigned int tri_xb = (tri_lb >> 7 & %d) << 4;", pl.bRow()/16-1)
		return
	}
	// MN-major: lane l reads k row l % 16 of the step; lanes 16-31 the
	// next fragment's columns.
	e.w.line("const unsigned int tri_lb = lane_id %% 16 * %d;", pl.bRow())
	e.w.line("const unsigned int tri_xb = (tri_lb >> 7 & %d) << 4;", pl.bRow()/16-1)
	e.w.line("const int tri_cb = (%s) * 8%s;", wn, pair)
}

// mmaIssue writes the ldmatrix loads and mma.syncs of one stage, at shared
// address stage: for each k step of 16, the A fragments of the warp's
// rows, the B fragments of its columns, then every mma of the two.
func (e *emitter) mmaIssue(pl *pipeline, stage string) {
	v := pl.dot
	d := e.layoutOf(v)
	op, _ := mmaOpOf(v)
	name := e.names[v.ID]
	mi, nj := d.Reps[0]/2, d.Reps[1]
	e.w.comment("tl.dot %s x %s on %s: %d x %d mma tile(s) a warp, fragments read with ldmatrix.", v.Args[0].Type, v.Args[1].Type, op, mi, nj)
	e.w.line("const unsigned int tri_sa = %s, tri_sb = tri_sa + %d;", stage, pl.aBytes)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_kk = 0; tri_kk < %d; tri_kk += 16) {", pl.k)
	e.w.line("unsigned int tri_af[%d], tri_bf[%d];", 4*mi, 2*nj)
	e.use("tri_ldsm_x4", "tri_mma_"+op.name)
	e.w.line("#pragma unroll")
	e.w.line("for (int tri_i = 0; tri_i < %d; ++tri_i) tri_ldsm_x4(tri_af + 4 * tri_i, tri_sa + ((tri_la + tri_kk * %d) ^ tri_xa) + tri_i * %d);",
		mi, pl.elem, 2*d.Span[0]*pl.aRow)
	pairs, x := nj/2, "x4"
	if nj == 1 {
		pairs, x = 1, "x2"
	}
	if pl.bKMajor {
		e.use("tri_ldsm_" + x)
		e.w.line("#pragma unroll")
		e.w.line("for (int tri_j = 0; tri_j < %d; ++tri_j) tri_ldsm_%s(tri_bf + 4 * tri_j, tri_sb + ((tri_lb + tri_kk * %d) ^ tri_xb) + tri_j * %d);",
			pairs, x, pl.elem, 2*d.Span[1]*pl.bRow())
	} else {
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_j = 0; tri_j < %d; ++tri_j) {", pairs)
		e.w.line("const int tri_c = tri_cb + tri_j * %d;  // this lane's column", 2*d.Span[1])
		e.w.line("const unsigned int tri_b = tri_sb + tri_kk * %d + tri_lb + tri_c / %d * %d;", pl.bRow(), pl.bCols, pl.k*pl.bRow())
		e.use("tri_ldsm_" + x + "_trans")
		e.w.line("tri_ldsm_%s_trans(tri_bf + 4 * tri_j, tri_b + ((tri_c %% %d * %d) ^ tri_xb));", x, pl.bCols, pl.elem)
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
}
