package cudagen

// This file implements the K-loop case of the pipeline analysis
// (pipeplan.go's pipelineOf): a loop of one dot whose two operands are
// loads streamed for it alone, with nothing else in the body but their
// addresses and the accumulator the dot alone assigns (pipeline.go prints
// it on wgmma, mmapipe.go on mma.sync). On the loop as pipescan.go reads
// it, with its shared steps (the dot's kinds, b's source, streamable
// loads, the ahead set, the stage fit), it decides what is this case's
// own: the shapes its printers take, how each load is copied (the TMA
// unit in its boxes, cp.async through its pointers, or cp.async by rows
// from its descriptor), a's rows' tensor map, the stage size, the buffer
// that keeps a wgmma in flight, and on mma.sync why the dot's kinds are
// refused. A loop it does not take goes to the case of several dots. It
// prints nothing: the printers read the pipeline record it makes.

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
// m/groups rows in m64 blocks, n from 16 to 256 and k one
// swizzle row (32, 64 or 128 bytes).
func wgmmaShapeOK(m, n, k, elem, numWarps int) bool {
	row := k * elem
	return numWarps%4 == 0 && m%(16*numWarps) == 0 && n >= 16 && n <= 256 && (row == 32 || row == 64 || row == 128)
}

// kLoopOf returns loop sc, of one dot, as the K loop of that dot (the
// case above), or nil; on mma.sync, where the dot's a and b are loads of
// the body, also why its kinds have no pipeline there.
func (p *plan) kLoopOf(sc *loopScan) (*pipeline, string) {
	d := sc.dots[0]
	dot, a, acc := d.dot, d.a, d.acc
	if dot.Type.Shape.Rank() != 2 {
		return nil, ""
	}
	if !d.here {
		if !p.wgmma {
			return nil, p.mmaKindsWhy(sc, dot)
		}
		return nil, ""
	}
	// b may be the transpose of a load of [N, K] (b.T of a K-major b, as
	// tutorials 08 and 09 load it through descriptors): the copies then
	// fill a K-major b, which wgmma reads without its transpose bit.
	bLoad, bTrans := d.bSrc, d.trans
	m, n, k, es := d.m, d.n, d.k, d.elem
	if p.wgmma && !wgmmaShapeOK(m, n, k, es, p.numWarps) || !p.wgmma && !mmaPipeShapeOK(dot, p.numWarps) {
		return nil, ""
	}
	// Both operands stream, each load read by the dot (or b.T) alone.
	if !d.aStreams || !d.bStreams || len(p.users[a.ID]) != 1 || len(p.users[bLoad.ID]) != 1 {
		return nil, ""
	}
	// The accumulator is a Var that the dot alone assigns and reads.
	if acc.Op != ir.OpVarRead || !sc.inBody[acc.ID] || len(p.users[acc.ID]) != 1 || p.ctlUse[acc.ID] > 0 {
		return nil, ""
	}
	accVar := acc.Var
	if as := sc.assigns[accVar]; len(as) != 1 || as[0].Value != dot {
		return nil, ""
	}

	var tma [2]*tensorMap
	if p.wgmma { // the TMA unit is sm_90's
		tma[0] = p.tmaFor(a, m, k, es, m%8 == 0, 8, sc.inLoop)
		tma[1] = p.tmaFor(bLoad, n, k, es, bTrans, n, sc.inLoop)
	}
	// Where a's rows can be viewed in wgmma's order, a block of whole rows
	// goes in one box; the 8-row boxes are left for the block at the
	// tensor's edge.
	var aRows *tensorMap
	if axes := wgmmaRowAxes(m, p.numWarps); tma[0] != nil && axes != nil {
		aRows = p.tensorMapOf(a.Desc, m, k, tma[0].Swizzle, es, axes)
	}
	// The copies and the ahead statements. The stage's rows run along the
	// block's inner dimension but for an fp8 b that is not b.T (see
	// copyAxis). The accumulator's Var is not carried: the set reads the
	// dot where it reads the Var.
	copies := []*streamCopy{{ld: a, tma: tma[0], innerRows: true}, {ld: bLoad, tma: tma[1], innerRows: bTrans || es == 2}}
	ahead := p.copyStreams(sc, copies)
	direct := [2]bool{copies[0].direct, copies[1].direct}
	if !ahead.ok || !p.onlyAddresses(sc, ahead, copies, dot, bTrans) {
		return nil, ""
	}
	// The carried Vars run ahead: nothing outside the loop may use them.
	if p.readOutside(ahead.carried, sc.inBody) {
		return nil, ""
	}

	pl := &pipeline{loop: sc.loop, dot: dot, loads: [2]*ir.Value{a, bLoad}, stagePlan: stagePlan{ahead: ahead.stmts}, m: m, n: n, k: k,
		elem: es, bKMajor: es == 1 || bTrans, bTrans: bTrans, aRow: es * k, bCols: min(n, 64), tma: tma, aRows: aRows, direct: direct,
		mma: !p.wgmma}
	pl.aBytes = m * pl.aRow
	if pl.mma {
		// a then b, each stage 128-byte aligned (the swizzle's lines).
		pl.stageSize = (pl.aBytes + k*n*es + 127) / 128 * 128
	} else {
		pl.stageSize = (pl.aBytes + k*n*es + 1023) / 1024 * 1024
	}
	most := p.fitStages(&pl.stagePlan, sc.stages, pl.anyTMA())
	if pl.stages < 2 {
		return nil, ""
	}
	// One more buffer lets the wgmma of an iteration run on while the next
	// one is issued, as Triton does: the copies of iteration i then fill
	// the buffer wgmma i-2 read, which every warpgroup has waited for
	// before the barrier at the top of iteration i. mma.sync is
	// synchronous: it keeps none in flight.
	if !pl.mma && (pl.stages+1)*pl.stageSize <= most && (!pl.anyTMA() || pl.stages < maxTMABuffers) {
		pl.buffers = pl.stages + 1
	}
	return pl, ""
}

// onlyAddresses reports whether the body of K loop sc holds nothing but
// dot, the read of its accumulator and its assignment, b.T (bTrans), the
// ahead statements, values nothing uses, and the addresses and masks of
// the loads copied from their descriptors, which are left out.
func (p *plan) onlyAddresses(sc *loopScan, ahead *aheadSet, copies []*streamCopy, dot *ir.Value, bTrans bool) bool {
	acc := dot.Args[2]
	copied := map[int]bool{}
	for _, c := range copies {
		if c.fromDesc() {
			copied[c.ld.ID] = true
		}
	}
	dropped := p.feedsOnly(sc, ahead, copied)
	for _, st := range sc.body {
		switch st := st.(type) {
		case *ir.Value:
			if !ahead.stmts[st] && st != dot && st != acc && !(bTrans && st == dot.Args[1]) && !p.unusedPure(st) && !dropped[st.ID] {
				return false
			}
		case *ir.Assign:
			if !ahead.carried[st.Var] && st.Var != acc.Var {
				return false
			}
		}
	}
	return true
}

// feedsOnly returns the values of loop sc's body that only the pointers
// and masks of the loads in copied (copied by the TMA unit or from their
// descriptor) need: they are not computed. The ahead statements stay.
func (p *plan) feedsOnly(sc *loopScan, ahead *aheadSet, copied map[int]bool) map[int]bool {
	var vals []*ir.Value
	for _, st := range sc.body {
		if v, ok := st.(*ir.Value); ok {
			vals = append(vals, v)
		}
	}
	return p.onlyFeeding(vals, copied, func(v *ir.Value) bool { return ahead.stmts[v] }, sc.inLoop)
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

// mmaKindsWhy is why the K loop of dot, whose a and b (or the [N, K]
// tile b transposes) are loads in the loop body sc, is not pipelined on
// this target, mma.sync: its kinds; "" where they are not such loads.
// fp32 (tf32), int8 and fp8 dots keep their operands staged through
// shared memory each iteration.
func (p *plan) mmaKindsWhy(sc *loopScan, dot *ir.Value) string {
	a, b := dot.Args[0], dot.Args[1]
	if b.Op == ir.OpTrans {
		b = b.Args[0]
	}
	for _, ld := range []*ir.Value{a, b} {
		if ld.Op != ir.OpLoad || !sc.inBody[ld.ID] {
			return ""
		}
	}
	return fmt.Sprintf("the pipelines on mma.sync (sm_%d) take fp16 or bf16 operands into fp32, not %s x %s into %s",
		p.arch, a.Type.Kind, dot.Args[1].Type.Kind, dot.Type.Kind)
}
