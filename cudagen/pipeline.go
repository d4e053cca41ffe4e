package cudagen

// This file prints the software-pipelined K loop of a matrix
// multiplication on sm_90a, after Triton's pipeliner, as pipeplan.go plans
// it (the pipeline record). A loop
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

	"github.com/tri-lang/tri/ir"
)

// pipelinedFor writes loop s as the pipeline pl: its dot on wgmma, or on
// mma.sync (mmaPipelinedFor).
func (e *emitter) pipelinedFor(s *ir.For, pl *pipeline) {
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
	if note := pl.stagesNote(); note != "" {
		e.w.comment("(%s)", note)
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

// wgmmaLoad declares wgmma's accumulator fragments and copies the
// accumulator into them, in wgmma's fragment order, and declares the
// dot's result.
func (e *emitter) wgmmaLoad(pl *pipeline) {
	v := pl.dot
	acc := v.Args[2]
	d := e.layoutOf(v)
	e.source(v.Pos)
	if !e.inlined[acc.ID] {
		e.nest.stmt(acc)
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
	e.use("tri_wgmma_desc")
	e.w.line("const unsigned long long tri_da = tri_wgmma_desc(%s%s, 16, %d, %d);", stage, groupRows(e.nameSet, pl.m, perGroup, pl.aRow), aSBO, swizzleMode(pl.aRow))
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
