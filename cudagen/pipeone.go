package cudagen

// This file implements the planning half of the software-pipelined K loop
// of one dot (pipeline.go prints it on wgmma, mmapipe.go on mma.sync):
// which loops take that form, what runs ahead of the dot, how each of its
// two loads is copied (the TMA unit, cp.async through its pointers, or
// cp.async by rows from its descriptor), how many stages and buffers the
// shared memory holds, and why a loop on sm_80 is refused. It prints
// nothing: the printers read the pipeline record it makes.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// anyCpAsync reports whether a load of the pipeline is copied by cp.async.
func (pl *pipeline) anyCpAsync() bool { return pl.tma[0] == nil || pl.tma[1] == nil }

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

	pl := &pipeline{loop: s, dot: dot, loads: [2]*ir.Value{a, bLoad}, stagePlan: stagePlan{ahead: ahead}, m: m, n: n, k: k,
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

// copyAxis is the axis along which the copies of load ld run: the rows
// of the stage it fills (K for a, N for an MN-major b, K for a K-major b,
// which is axis 1 of the [N, K] load of a b.T).
func (pl *pipeline) copyAxis(ld *ir.Value) int {
	if ld == pl.loads[1] && pl.bKMajor && !pl.bTrans {
		return 0
	}
	return 1
}

// mmaPipeShapeOK reports whether dot v, of fp16 or bf16 operands, has a
// pipelined mma.sync form with numWarps warps: an mma.sync accumulator
// layout, and rows of a (k halves: one K-major b.T row too) of 32, 64 or
// 128 bytes, each one swizzled row of the stage.
func mmaPipeShapeOK(v *ir.Value, numWarps int) bool {
	if _, ok := mmaBlocked(v, numWarps); !ok {
		return false
	}
	row := v.Args[0].Type.Shape[1] * v.Args[0].Type.Kind.Bytes()
	return row == 32 || row == 64 || row == 128
}

// mmaStages sizes the stages of pipeline pl on mma.sync: a then b, each
// stage 128-byte aligned (the swizzle's lines), as many as num_stages
// (stages) asks and the target's shared memory holds; nil where fewer than
// two fit.
func (p *plan) mmaStages(pl *pipeline, stages int) *pipeline {
	pl.stageSize = (pl.aBytes + pl.k*pl.n*pl.elem + 127) / 128 * 128
	pl.stages = min(stages, sharedPerProgram(p.arch)/pl.stageSize)
	if pl.stages < stages {
		pl.asked = stages
	}
	if pl.stages < 2 {
		return nil
	}
	pl.buffers = pl.stages
	return pl
}

// refuseMmaPipe records why the loop of dot, whose a and b (or the
// [N, K] tile b transposes) are loads in the loop body, is not pipelined
// on this target: its kinds. fp32 (tf32), int8 and fp8 dots keep their
// operands staged through shared memory each iteration.
func (p *plan) refuseMmaPipe(dot *ir.Value, inBody map[int]bool) {
	a, b := dot.Args[0], dot.Args[1]
	if b.Op == ir.OpTrans {
		b = b.Args[0]
	}
	for _, ld := range []*ir.Value{a, b} {
		if ld.Op != ir.OpLoad || !inBody[ld.ID] {
			return
		}
	}
	p.unpiped[dot.ID] = fmt.Sprintf("the pipelines on mma.sync (sm_%d) take fp16 or bf16 operands into fp32, not %s x %s into %s",
		p.arch, a.Type.Kind, dot.Args[1].Type.Kind, dot.Type.Kind)
}
