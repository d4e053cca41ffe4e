package cudagen

// This file implements the dots that run on wgmma outside the software
// pipelines: a dot outside any loop, a dot in a loop at num_stages=1, and
// the dots of loops neither pipeliner takes (attention backward's, whose
// loads feed two dots each). Triton's AccelerateMatmul pass picks the
// instruction of a dot from the target, the shapes and the dtypes, not
// from whether its loop is pipelined, and so does this: on sm_90a a dot
// of fp16 or bf16 operands into fp32, whose result tiles whole warpgroups
// (m a multiple of 16 rows a warp, n a multiple of 16 up to 256, K rows
// of 32 or 64 bytes or 128-byte chunks), is a wgmma wherever it stands.
//
// Its operands are in registers when the dot runs. Each is stored into
// the scratch memory as wgmma's matrix descriptors read it (the smemTile
// of multipipe.go: a K-major with its rows in permRow's order, b K-major
// where its elements run along K in a thread, as a b.T or a b loaded
// through transposed strides does, else MN-major), each thread's run
// along the tile's rows as one vector store; then a proxy fence and a
// barrier, the wgmmas, and a wait for them. An a whose layout is the
// accumulator layout wgmmaBlocked (another dot's result, or the softmax
// computed from one) is read from registers, as the pipelines read p. A
// b.T whose only user is the dot is stored from the [N, K] value it
// transposes: the transpose itself is never computed.
//
//	a (registers, any layout) --st.shared, swizzled--> tile A  \
//	b (registers, any layout) --st.shared, swizzled--> tile B   > wgmma m64nNk16 ... wait<0>
//	                            fence.proxy.async; __syncthreads /
//
// The result has the layout wgmmaBlocked, which layout propagation gives
// the dot's family (dotBlocked); a dot whose result ends in another
// layout goes back to mma.sync (validAloneDots).

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/ir"
)

// findAloneDots records, by dot ID, the dots outside the pipelines that
// run on wgmma.
func (p *plan) findAloneDots() {
	if !p.wgmma || p.numWarps%4 != 0 {
		return
	}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op != ir.OpDot || p.pipes[v.ID] != nil || p.wgDots[v.ID] != nil {
			return
		}
		if wd := p.aloneDotOf(v); wd != nil {
			p.wgDots[v.ID] = wd
		}
	})
}

// aloneDotOf returns dot v as a wgmma of its own, or nil where it has no
// wgmma form here. Where its operands come from is decided once layouts
// are known (placeAloneDots).
func (p *plan) aloneDotOf(v *ir.Value) *wgDot {
	a, b, acc := v.Args[0], v.Args[1], v.Args[2]
	if taken, _ := p.pipeKinds(v); !taken {
		return nil
	}
	wd := &wgDot{dot: v, alone: true, m: a.Type.Shape[0], k: a.Type.Shape[1], n: b.Type.Shape[1], zeroAcc: isZeroOrNil(acc)}
	es := a.Type.Kind.Bytes()
	if !p.wgmmaTileShape(wd.m, wd.n, wd.k, es) || !swizzleRows(wd.k*es) {
		return nil
	}
	wd.a = wgOperand{form: staged, src: a}
	wd.b = wgOperand{form: staged, src: b}
	if b.Op == ir.OpTrans && len(p.users[b.ID]) == 1 && p.ctlUse[b.ID] == 0 && b.Args[0].Type.Shape.Rank() == 2 {
		wd.b.src, wd.b.trans = b.Args[0], true
	}
	return wd
}

// validAloneDots drops the dots outside the pipelines whose result did
// not get wgmma's accumulator layout, and reports whether it dropped any.
func (p *plan) validAloneDots() bool {
	want := wgmmaBlocked(p.numWarps).String()
	dropped := false
	for id, wd := range p.wgDots {
		if !wd.alone {
			continue
		}
		if d := p.layoutOf(wd.dot); d == nil || d.Layout.String() != want || d.Repl {
			delete(p.wgDots, id)
			dropped = true
		}
	}
	return dropped
}

// placeAloneDots decides, with the layouts known, where the operands of
// the dots outside the pipelines come from and how they lie in shared
// memory: a from registers where it has the accumulator layout, else
// stored K-major; b K-major where a thread's elements run along K, else
// MN-major. The transposes the dots read through are dead.
func (p *plan) placeAloneDots() {
	want := wgmmaBlocked(p.numWarps).String()
	for _, wd := range p.aloneDots() {
		es := wd.a.src.Type.Kind.Bytes()
		fp8 := wd.a.src.Type.Kind.IsFP8()
		if d := p.layoutOf(wd.a.src); d != nil && d.Layout.String() == want && !d.Repl {
			wd.a.form = inRegisters
		} else {
			wd.a.tile = smemTile{rows: wd.m, k: wd.k, elem: es, kMajor: true, perm: true}
		}
		kAxis, nAxis := wd.b.axes()
		l := p.layoutOf(wd.b.src)
		kMajor := runAlong(l, kAxis, es, 16) > runAlong(l, nAxis, es, 16)
		if kMajor && wd.n%8 != 0 || !kMajor && !swizzleRows(min(wd.n, 64)*es) {
			kMajor = !kMajor
		}
		// wgmma reads 8-bit operands K-major only (aloneDotOf keeps n a
		// multiple of 16).
		kMajor = kMajor || fp8
		wd.b.tile = smemTile{rows: wd.n, k: wd.k, elem: es, kMajor: kMajor}
		if wd.b.trans {
			p.dead[wd.dot.Args[1].ID] = true
		}
		p.hoistOperands(wd)
		// The tiles stored where the dot stands share the scratch memory.
		if wd.a.form == staged && wd.b.form == staged {
			wd.b.tile.off = wd.a.tile.bytes()
		}
	}
}

// aloneDots are the dots on wgmma outside the pipelines, in program order.
func (p *plan) aloneDots() []*wgDot {
	var ds []*wgDot
	for _, wd := range p.wgDots {
		if wd.alone {
			ds = append(ds, wd)
		}
	}
	slices.SortFunc(ds, func(x, y *wgDot) int { return x.dot.ID - y.dot.ID })
	return ds
}

// hoistOperands moves the staged operands of dot wd that are defined
// outside the innermost for loop holding it (attention backward's k and
// v, q and do) into that loop's region, as Triton's loop-invariant code
// motion keeps their shared-memory copies out of the loop.
func (p *plan) hoistOperands(wd *wgDot) {
	loop := p.innermostFor(p.defs[wd.dot.ID].Block)
	if loop == nil {
		return
	}
	for _, o := range []*wgOperand{&wd.a, &wd.b} {
		if o.form != staged || p.inside(p.defs[o.src.ID].Block, loop.Body) {
			continue
		}
		if p.hoists == nil {
			p.hoists = map[*ir.For]*hoistRegion{}
		}
		h := p.hoists[loop]
		if h == nil {
			h = &hoistRegion{name: fmt.Sprintf("tri_hoist%d", len(p.hoists))}
			p.hoists[loop] = h
		}
		o.form, o.base, o.tile.off = hoisted, h.name, h.bytes
		h.tiles = append(h.tiles, o)
		h.bytes += o.tile.bytes()
	}
}

// inside reports whether block b is block outer or nested in it.
func (p *plan) inside(b, outer *ir.Block) bool {
	for ; b != nil; b = p.parent[b] {
		if b == outer {
			return true
		}
	}
	return false
}

// aloneDot writes dot wd, outside the pipelines: its operands stored into
// the scratch memory, then its wgmmas.
func (e *emitter) aloneDot(wd *wgDot) {
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("wgmma", wgmmaHelpers)
	e.helpers.add("wgmma_"+wd.instr(), wgmmaInstr(wd.n, wd.a.src.Type.Kind, wd.b.src.Type.Kind, wd.b.tile.kMajor, wd.a.form == inRegisters))
	e.alignedSmem = true
	scratch := wd.a.form == staged || wd.b.form == staged
	if scratch {
		e.useShared(wd.stagedEnd())
		e.w.open("{")
		e.use("tri_smem_addr", "tri_fence_proxy_async")
		e.w.line("const unsigned int tri_stage = tri_smem_addr(tri_smem);  // 1024-byte aligned")
		for _, o := range []*wgOperand{&wd.a, &wd.b} {
			if o.form == staged {
				e.storeOperand(o, o == &wd.a, wd.m, "tri_stage")
			}
		}
		e.w.line("tri_fence_proxy_async();  // wgmma reads what the generic stores wrote")
		e.w.line("__syncthreads();")
		e.w.close("}")
	}
	e.wgmmaDot(wd)
	if scratch {
		e.w.line("__syncthreads();  // the scratch memory is free again")
	}
}

// hoistedFor writes loop s, whose dots read the operands of region h,
// after storing them there: the region comes after the scratch memory the
// loop's body uses, as planned (scratch.go).
func (e *emitter) hoistedFor(s *ir.For, h *hoistRegion) {
	reserve := loopReserve(e.blockScratch(s.Body))
	at0, line0, mark := e.w.at, e.lastLine, len(e.helpers.names)
	e.alignedSmem = true
	e.useShared(reserve + h.bytes)
	e.w.open("{")
	e.w.line("// The dots of this loop read operands defined before it: stored once, after the scratch memory the body uses.")
	e.use("tri_smem_addr", "tri_fence_proxy_async")
	e.w.line("const unsigned int %s = tri_smem_addr(tri_smem) + %du;", h.name, reserve)
	for _, o := range h.tiles {
		wd := e.wgDotOf(o)
		e.storeOperand(o, o == &wd.a, wd.m, h.name)
	}
	e.w.line("tri_fence_proxy_async();  // wgmma reads what the generic stores wrote")
	e.w.line("__syncthreads();")
	// The loop's lines map to the source as if it stood where the loop does.
	headAt, again := e.w.at, e.helpers.later(mark)
	e.w.at, e.lastLine = at0, line0
	e.nest.loop(s)
	e.w.at, e.lastLine = headAt, 0
	again()
	e.w.line("__syncthreads();  // the region is scratch memory again")
	e.w.close("}")
}

// wgDotOf is the dot on wgmma whose operand o is.
func (p *plan) wgDotOf(o *wgOperand) *wgDot {
	for _, wd := range p.wgDots {
		if o == &wd.a || o == &wd.b {
			return wd
		}
	}
	return nil
}

// aloneDotRegisters is the registers a thread holds for the accumulators
// of the dots on wgmma outside the pipelines, and their a operands in
// registers (two fp16 or bf16 to a register): the most that the dots of
// one block hold, as if all of them were live at once.
func (p *plan) aloneDotRegisters() int {
	threads := 32 * p.numWarps
	byBlock := map[*ir.Block]int{}
	most := 0
	for _, wd := range p.wgDots {
		if !wd.alone {
			continue
		}
		b := p.defs[wd.dot.ID].Block
		byBlock[b] += wd.m * wd.n / threads
		if wd.a.form == inRegisters {
			byBlock[b] += wd.m * wd.k / threads / 2
		}
		most = max(most, byBlock[b])
	}
	return most
}
