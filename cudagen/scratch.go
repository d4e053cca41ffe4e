package cudagen

// This file plans the scratch shared memory of each statement: the bytes
// at the start of tri_smem that a statement stores its operands in while
// it runs (a reduction across warps, a scan, a layout conversion, a dot's
// staged operands, a TMA store's box, ...), then gives back. The printers
// of those statements reserve what the size functions below give, and a
// loop whose pipeline or hoisted operands lie after its body's scratch
// (multipipe.go, mmamulti.go, wgdot.go's hoistedFor) starts them at its
// planned figure, loopReserve, known before anything of the loop is
// printed. scratch_test.go holds every statement's planned figure against
// what its printer reserved.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// scratchRound is n bytes of scratch as a statement reserves them: in
// 16-byte units, so that every buffer after it is vector aligned.
func scratchRound(n int) int { return (n + 15) / 16 * 16 }

// loopReserve is where a loop's own shared memory (the stages of its
// pipeline, its hoisted operands) starts: after the scratch of the
// statements printed inside it, rounded up to the 1024-byte alignment of
// swizzled tiles.
func loopReserve(scratch int) int { return (scratch + 1023) / 1024 * 1024 }

// blockScratch is the scratch of block b: the most any of its statements
// needs, as they run one after the other.
func (p *plan) blockScratch(b *ir.Block) int {
	n := 0
	for _, s := range b.Stmts {
		n = max(n, p.stmtScratch(s))
	}
	return n
}

// stmtScratch is the scratch that statement s needs while it runs,
// nested statements included.
func (p *plan) stmtScratch(s ir.Stmt) int {
	switch s := s.(type) {
	case *ir.Value:
		if p.dead[s.ID] {
			return 0
		}
		return p.valueScratch(s)
	case *ir.For:
		return p.loopScratch(s)
	case *ir.While:
		return max(p.blockScratch(s.Cond), p.blockScratch(s.Body))
	case *ir.If:
		return max(p.blockScratch(s.Then), p.blockScratch(s.Else))
	}
	return 0
}

// alignedScratch reports whether the start of the kernel's scratch
// memory must be 1024-byte aligned: some statement printed lays out
// swizzled tiles at a fixed offset from it, and the swizzle is a function
// of the address. Those are a pipelined loop's stages, a loop's hoisted
// operands, the operands a dot on wgmma stores where it stands (a dot
// outside the pipelines, or an 8-bit a computed in a pipelined body), and
// the boxes of a swizzled TMA store. kernel declares tri_smem from it
// before the body is printed; generate holds it against the printers.
func (p *plan) alignedScratch(b *ir.Block) bool {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			if !p.dead[s.ID] && p.alignedValue(s) {
				return true
			}
		case *ir.For:
			if p.piped[s] != nil || p.hoists[s] != nil || p.alignedScratch(s.Body) {
				return true
			}
		case *ir.While:
			if p.alignedScratch(s.Cond) || p.alignedScratch(s.Body) {
				return true
			}
		case *ir.If:
			if p.alignedScratch(s.Then) || p.alignedScratch(s.Else) {
				return true
			}
		}
	}
	return false
}

// alignedValue reports whether value v lays out swizzled tiles in the
// scratch memory (alignedScratch): a dot on wgmma that stores operands
// where it stands (as dotScratch counts them) or a swizzled TMA store.
func (p *plan) alignedValue(v *ir.Value) bool {
	switch v.Op {
	case ir.OpDot:
		wd := p.wgDots[v.ID]
		return wd != nil && (wd.alone || wd.a.form == staged)
	case ir.OpStore:
		tm := p.tmaStores[v.ID]
		return tm != nil && tm.Swizzle > 0
	}
	return false
}

// loopScratch is the shared memory loop s uses, as its printer lays it
// out (pipelinedLoop, hoistedFor, peeledFor, plainFor).
func (p *plan) loopScratch(s *ir.For) int {
	if r := p.piped[s]; r != nil {
		if r.one != nil {
			return scratchRound(p.onePipeScratch(s, r.one))
		}
		return scratchRound(p.multiPipeScratch(s, r.multi))
	}
	if h := p.hoists[s]; h != nil {
		return scratchRound(loopReserve(p.blockScratch(s.Body)) + h.bytes)
	}
	return p.blockScratch(s.Body)
}

// onePipeScratch is the shared memory of pipeline pl's loop s: its
// buffers, its mbarriers after them where the TMA unit copies, and the
// scratch of the statements its iterations print besides the dot (which
// reads the buffers) and the loads (copies into them).
func (p *plan) onePipeScratch(s *ir.For, pl *pipeline) int {
	n := pl.sharedBytes()
	if pl.anyTMA() {
		n = tmaBarriersEnd(pl.sharedBytes(), pl.buffers)
	}
	for _, st := range s.Body.Stmts {
		if v, ok := st.(*ir.Value); ok && (v == pl.dot || v == pl.loads[0] || v == pl.loads[1]) {
			continue
		}
		n = max(n, p.stmtScratch(st))
	}
	return n
}

// multiBodyScratch is the scratch of the statements a multi-dot pipeline
// prints inside its loop and before it: those of its own iteration
// (multiBody) and those that run ahead of the dots (multiAhead on wgmma,
// written while the first dot's wgmmas run; mmaMultiAhead, whose copies
// of the first stages are in flight while the loop starts).
func (p *plan) multiBodyScratch(s *ir.For, mp *multiPipe) int {
	n := 0
	for _, st := range s.Body.Stmts {
		if mp.compute[st] || mp.ahead[st] {
			n = max(n, p.stmtScratch(st))
		}
	}
	return n
}

// multiPipeScratch is the shared memory of loop s, the multi-dot
// pipeline mp: its body's scratch, then its operands stored once and its stages,
// then the stages' mbarriers where the TMA unit copies.
func (p *plan) multiPipeScratch(s *ir.For, mp *multiPipe) int {
	end := loopReserve(p.multiBodyScratch(s, mp)) + mp.sharedBytes()
	if mp.tmaOperands() > 0 && p.wgmma {
		return tmaBarriersEnd(end, mp.stages)
	}
	return end
}

// tmaBarriersEnd is the end of the n mbarriers that initTMABarriers places
// at byte at.
func tmaBarriersEnd(at, n int) int { return at + 8*n }

// valueScratch is the scratch value v needs while it runs, following the
// choices of its printer (ops.go's value).
func (p *plan) valueScratch(v *ir.Value) int {
	n := 0
	switch v.Op {
	case ir.OpStore:
		n = p.storeScratch(v)
	case ir.OpBroadcast, ir.OpExpandDims, ir.OpReshape, ir.OpTrans, ir.OpJoin, ir.OpSplit:
		n = p.shapeScratch(v)
	case ir.OpReduce:
		n = max(p.crossWarpBytes(v), 0)
		if p.converts[v.ID] {
			n = max(n, convertReducedBytes(v))
		}
	case ir.OpScan:
		_, n = scanOffsets(v)
	case ir.OpAtomicRMW, ir.OpAtomicCAS:
		n = p.atomicScratch(v)
	case ir.OpDot:
		n = p.dotScratch(v)
	case ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat:
		n = tileOpSharedBytes(v)
	case ir.OpMapElementwise:
		if pack := v.MapPack(); pack > 1 && !packsInRegisters(p.layoutOf(v), pack) {
			n = mapSharedBytes(v)
		}
	}
	return scratchRound(n)
}

// storeScratch is the scratch of store v: a TMA store's boxes, or the
// tile moved to its pointers' layout (convertForStore).
func (p *plan) storeScratch(v *ir.Value) int {
	if tm := p.tmaStores[v.ID]; tm != nil {
		return tmaStoreBytes(v, tm)
	}
	ptr, val := v.Args[0], v.Args[1]
	if p.directStores[v.ID] || ptr.Type.IsScalar() || p.layoutOf(val) == p.layoutOf(ptr) {
		return 0
	}
	return storeConvertBytes(val)
}

// shapeScratch is the scratch of a shape operation (shapeOp): a split or
// a layout conversion through shared memory.
func (p *plan) shapeScratch(v *ir.Value) int {
	src := v.Args[0]
	switch {
	case (v.Op == ir.OpBroadcast || v.Op == ir.OpExpandDims) && p.isRemap(v):
		return 0
	case src.Type.IsScalar(), p.remat[v.ID] != nil:
		return 0
	case v.Op == ir.OpSplit:
		return splitBytes(v)
	}
	return convertBytes(v)
}

// atomicScratch is the scratch of atomic v: the result thread 0 shares
// (a scalar pointer) or the old values the owners of a replicated layout
// share.
func (p *plan) atomicScratch(v *ir.Value) int {
	used := len(p.users[v.ID]) > 0 || p.ctlUse[v.ID] > 0
	if !used || v.Type.Kind == ir.Void {
		return 0
	}
	if v.Args[0].Type.IsScalar() {
		return atomicScalarBytes
	}
	if p.layoutOf(v.Args[0]).Repl {
		return atomicShareBytes(v)
	}
	return 0
}

// dotScratch is the scratch of dot v where it stands (pipeprint.go's
// dot): its operands staged for mma.sync or the CUDA cores, the operands a
// dot on wgmma outside the pipelines stores, or an a computed in a
// pipelined body that goes through shared memory (an 8-bit one on wgmma,
// one whose columns the warps split on mma.sync).
func (p *plan) dotScratch(v *ir.Value) int {
	wd := p.wgDots[v.ID]
	switch {
	case wd == nil:
		_, total := dotSharedBytes(v)
		return total
	case wd.alone:
		return wd.stagedEnd()
	case wd.a.form == staged:
		return wd.a.tile.bytes()
	}
	return 0
}

// isRemap reports whether v, a broadcast or expand_dims, only re-indexes
// its operand's registers: it is then printed inline where used.
func (p *plan) isRemap(v *ir.Value) bool { return !p.converts[v.ID] && p.remat[v.ID] == nil }

// atomicScalarBytes is the scratch in which thread 0 shares the result of
// an atomic on a scalar pointer (8 bytes hold every result type).
const atomicScalarBytes = 8

// atomicShareBytes is the scratch in which the owners of a replicated
// layout share the old values of atomic v: the whole tile.
func atomicShareBytes(v *ir.Value) int { return v.Type.Shape.NumElements() * v.Type.Kind.Bytes() }

// storePitch is the row pitch, in elements, of the rank-2 tile val moved
// through shared memory to its store's layout: a row padded by 16 bytes so
// that the column reads spread over the banks.
func storePitch(val *ir.Value) int { return val.Type.Shape[1] + max(16/val.Type.Kind.Bytes(), 1) }

// storeConvertBytes is the scratch of convertForStore for the value val.
func storeConvertBytes(val *ir.Value) int {
	return val.Type.Shape[0] * storePitch(val) * val.Type.Kind.Bytes()
}

// convertBytes is the scratch of a layout conversion (convertValue): each
// operand stored whole.
func convertBytes(v *ir.Value) int {
	in := v.Args[0]
	return len(v.Args) * in.Type.Shape.NumElements() * in.Type.Kind.Bytes()
}

// splitBytes is the scratch of a split (convertSplit): its input stored.
func splitBytes(v *ir.Value) int {
	in := v.Args[0]
	return in.Type.Shape.NumElements() * in.Type.Kind.Bytes()
}

// convertReducedSlot is the bytes of one result in the conversion of a
// reduction's results out of their slice layout: 8 an element, whatever
// its type.
func convertReducedSlot(v *ir.Value) int {
	if len(v.Types) > 0 {
		return v.Types[0].Shape.NumElements() * 8
	}
	return v.Type.Shape.NumElements() * 8
}

// convertReducedBytes is the scratch of convertReduced: a slot per result.
func convertReducedBytes(v *ir.Value) int {
	n := 1
	if len(v.Types) > 0 {
		n = len(v.Types)
	}
	return n * convertReducedSlot(v)
}

// reduceWarps is the number of warps reduction v combines across along
// its axis (those whose elements differ).
func (p *plan) reduceWarps(v *ir.Value) int {
	s := p.layoutOf(v.Args[0])
	ax := v.Axis
	return min(s.Warps[ax].Count, max(1, s.Shape[ax]/(s.SptFull[ax]*s.Lanes[ax].Count)))
}

// crossWarpOffsets are where each component of reduction v keeps the
// partial results of its warps, and the bytes they take (0 where the
// reduction stays within a warp).
func (p *plan) crossWarpOffsets(v *ir.Value) (offs []int, total int) {
	warps := p.reduceWarps(v)
	if warps <= 1 {
		return nil, 0
	}
	for _, c := range components(v) {
		offs = append(offs, total)
		total += (outElemsTotal(v)*warps*c.Type.Kind.Bytes() + 15) / 16 * 16
	}
	return offs, total
}

// crossWarpBytes is the scratch of reduction v across warps.
func (p *plan) crossWarpBytes(v *ir.Value) int {
	_, n := p.crossWarpOffsets(v)
	return n
}

// scanOffsets are where each component of scan v is stored, and the bytes
// they take.
func scanOffsets(v *ir.Value) (offs []int, total int) {
	numel := v.Args[0].Type.Shape.NumElements()
	for _, c := range components(v) {
		offs = append(offs, total)
		total += (numel*c.Type.Kind.Bytes() + 15) / 16 * 16
	}
	return offs, total
}

// tmaStoreBytes is the scratch of TMA store v through tensor map tm: its
// boxes, of 128 bytes a row where swizzled.
func tmaStoreBytes(v *ir.Value, tm *tensorMap) int {
	if tm.Swizzle > 0 {
		return v.Args[1].Type.Shape[1] / tm.BoxInner * tm.BoxRows * 128
	}
	return tm.BoxRows * tm.BoxInner * tm.elem
}

// stagedEnd is the end of the scratch in which a dot on wgmma outside the
// pipelines stores its staged operands (0 where none is staged).
func (wd *wgDot) stagedEnd() int {
	end := 0
	for _, o := range []*wgOperand{&wd.a, &wd.b} {
		if o.form == staged {
			end = max(end, o.tile.off+o.tile.bytes())
		}
	}
	return end
}

// accumulator is one component of what a reduction or scan combines.
type accumulator struct {
	Name string
	Type ir.DType
}

// components are the accumulators of v: one per operand, plus the index
// of argmax and argmin.
func components(v *ir.Value) []accumulator {
	var out []accumulator
	for k, a := range v.Args {
		out = append(out, accumulator{fmt.Sprintf("tri_acc%d", k), a.Type.DType})
	}
	if v.Combine == ir.CombineArgMax || v.Combine == ir.CombineArgMin {
		out = append(out, accumulator{"tri_index", ir.TInt32})
	}
	return out
}

// outElemsTotal is the number of elements of v's result tile.
func outElemsTotal(v *ir.Value) int {
	if len(v.Types) > 0 {
		return v.Types[0].Shape.NumElements()
	}
	return v.Type.Shape.NumElements()
}

// tileOpSharedBytes is the scratch a tile operation needs (0 for other
// ops): its operands stored, two buffers for a topk's halvings, a
// histogram's input, mask and counters.
func tileOpSharedBytes(v *ir.Value) int {
	size := func(a *ir.Value) int { return a.Type.Shape.NumElements() * a.Type.Kind.Bytes() }
	switch v.Op {
	case ir.OpSort:
		in := v.Args[0].Type.Shape
		if int(v.Const.Int) < ceilLog2(in[len(in)-1]) {
			return 2 * size(v.Args[0])
		}
		return size(v.Args[0])
	case ir.OpFlip, ir.OpGather:
		return size(v.Args[0])
	case ir.OpCat:
		return size(v.Args[0]) + size(v.Args[1])
	case ir.OpHistogram:
		return histogramBinsOffset(v) + 4*v.Type.Shape[0]
	case ir.OpMapElementwise:
		if v.MapPack() > 1 {
			return mapSharedBytes(v) // when its layout needs shared memory
		}
	}
	return 0
}

// histogramBinsOffset is where a histogram's counters start in the
// scratch: after the input and a byte of mask per element.
func histogramBinsOffset(v *ir.Value) int {
	in := v.Args[0]
	n := in.Type.Shape.NumElements()
	return (n*in.Type.Kind.Bytes() + n + 15) / 16 * 16
}

// packsInRegisters reports whether every pack consecutive registers of a
// thread in layout d, from a multiple of pack, hold a group of pack
// consecutive elements along the last axis from a multiple of pack: the
// last axis is the fastest and the thread's run along it a multiple of
// pack long (its start, a multiple of the run, is then one of pack too).
func packsInRegisters(d *dist, pack int) bool {
	last := d.rank() - 1
	return last >= 0 && d.KStride[last] == 1 && d.Spt[last]%pack == 0
}

// mapSharedOffsets are the byte offsets in the scratch of the operands
// and the results of a map_elementwise through shared memory (each
// 16-byte aligned, one after the other), and the bytes it needs.
func mapSharedOffsets(v *ir.Value) (args, results []int, n int) {
	next := func(t ir.Type) int {
		off := n
		n += (t.Shape.NumElements()*t.Kind.Bytes() + 15) / 16 * 16
		return off
	}
	for _, a := range v.Args {
		args = append(args, next(a.Type))
	}
	types := v.Types
	if len(types) == 0 {
		types = []ir.Type{v.Type}
	}
	for _, t := range types {
		results = append(results, next(t))
	}
	return args, results, n
}

// mapSharedBytes is the scratch mapElementwiseShared needs.
func mapSharedBytes(v *ir.Value) int {
	_, _, n := mapSharedOffsets(v)
	return n
}

// ceilLog2 is the base-2 logarithm of n, rounded up.
func ceilLog2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}
