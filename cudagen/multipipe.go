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

	"github.com/tri-lang/tri/ir"
)

// multiPipedFor writes loop s as the multi-dot pipeline mp.
func (e *emitter) multiPipedFor(s *ir.For, mp *multiPipe) {
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("wgmma", wgmmaHelpers)
	for _, wd := range mp.dots {
		e.helpers.add("wgmma_"+wd.instr(), wgmmaInstr(wd.n, wd.a.src.Type.Kind, wd.b.src.Type.Kind, wd.b.tile.kMajor, wd.a.form == inRegisters))
	}
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")

	// The pipeline's buffers come after the scratch memory of the statements
	// printed inside the loop, as planned (scratch.go).
	at0, mark := e.w.at, len(e.helpers.names)
	reserve := loopReserve(e.multiBodyScratch(s, mp))
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
	if note := mp.stagesNote(); note != "" {
		e.w.comment("(%s)", note)
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
		switch {
		case wd.a.form != invariant || wd.a.tma != nil:
		case wd.a.storedBy != nil:
			e.w.line("// %s, a of the tl.dot at line %d, is in place: the pipelined loop before this one (line %d) stored it there.",
				e.names[wd.a.src.ID], wd.dot.Pos.Line, wd.a.storedBy.Pos.Line)
		default:
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
	headAt, again := e.w.at, e.helpers.later(mark)
	e.w.at = at0
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
	e.w.at = headAt
	e.lastLine = 0
	again()
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
