package cudagen

// This file implements what the pipeline analysis's two cases
// (pipeone.go, the K loop of one dot; multiplan.go, loops of several
// dots) and their printers share besides the steps of pipescan.go: the
// num_stages a loop asks for, the shared memory a program may use, the
// statements a pipelined loop may leave out, and how wide the cp.async
// copies of a streamed load can be.

import (
	"github.com/tri-lang/tri/ir"
)

// sharedBytes is the shared memory of the stages and the operands stored
// once, from a 1024-byte aligned start.
func (sp *stagePlan) sharedBytes() int { return sp.invSize + sp.buffers*sp.stageSize }

// maxDynamicShared is the most shared memory a program may use on sm_90
// (227 KiB), with the opt-in attribute.
const maxDynamicShared = 232448

// wgmmaBlocked is the accumulator layout of a pipelined dot.
func wgmmaBlocked(numWarps int) Blocked {
	return Blocked{SizePerThread: []int{1, 2}, ThreadsPerWarp: []int{8, 4}, WarpsPerCTA: []int{numWarps, 1}, Order: []int{1, 0}}
}

// directCopies reports whether pipelined load ld, through a rank-2 tensor
// descriptor, may be copied by rows from the descriptor (innerRows: the
// stage's rows run along the block's inner dimension, as they do for a,
// an MN-major fp16/bf16 b and b.T). Its rows must be aligned for copies of
// 4 bytes or more: the descriptor's base and leading strides are (16
// bytes, Triton's contract), the offset along the inner dimension must be.
func (p *plan) directCopies(ld *ir.Value, innerRows bool) bool {
	d := ld.Desc
	if !innerRows || d == nil || len(d.Offsets) != 2 || len(d.Shape) != 2 || len(d.Strides) != 2 || ld.Type.Shape.Rank() != 2 {
		return false
	}
	if s := d.Strides[1]; s.Op != ir.OpConst || s.Const.Int != 1 {
		return false
	}
	a, _ := accessOf(ld)
	return p.idealWidth(a, 1)*a.Bytes >= 4
}

// maxTMABuffers bounds a pipeline's buffers (each has an mbarrier when
// the TMA unit fills it).
const maxTMABuffers = 8

// onlyFeeding returns the values of vals (in program order) that are
// pure and read only as the pointers, mask or other of the accesses in
// access, or by values it returns, where every reader is in scope; keep
// says which values to leave out. A store in access still reads the value
// it writes.
func (p *plan) onlyFeeding(vals []*ir.Value, access map[int]bool, keep, inScope func(*ir.Value) bool) map[int]bool {
	out := map[int]bool{}
	if len(access) == 0 {
		return out
	}
	for changed := true; changed; {
		changed = false
		for i := len(vals) - 1; i >= 0; i-- {
			v := vals[i]
			if out[v.ID] || keep(v) || !ir.IsPure(v) || p.ctlUse[v.ID] > 0 || len(p.users[v.ID]) == 0 {
				continue
			}
			all := true
			for _, u := range p.users[v.ID] {
				if !inScope(u) || !out[u.ID] && !(access[u.ID] && !(u.Op == ir.OpStore && u.Args[1] == v)) {
					all = false
					break
				}
			}
			if all {
				out[v.ID], changed = true, true
			}
		}
	}
	return out
}

// unusedPure reports whether v is a read, a constant or a hint whose
// result nothing uses: the loop counter of a loop that advances block
// pointers, or tutorial 08's tl.multiple_of(a_ptrs, [16, 16]) as a
// statement. The pipelines leave such values out of both stages.
func (p *plan) unusedPure(v *ir.Value) bool {
	switch v.Op {
	case ir.OpVarRead, ir.OpConst, ir.OpMultipleOf, ir.OpMaxContiguous:
		return len(p.users[v.ID]) == 0 && p.ctlUse[v.ID] == 0
	}
	return false
}

// readOutside reports whether a Var of vars is read outside the loop
// body whose values inBody holds.
func (p *plan) readOutside(vars map[*ir.Var]bool, inBody map[int]bool) bool {
	found := false
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op == ir.OpVarRead && vars[v.Var] && !inBody[v.ID] && (len(p.users[v.ID]) > 0 || p.ctlUse[v.ID] > 0) {
			found = true
		}
	})
	return found
}

// isZeroOrNil reports whether a load's other is absent or zero.
func isZeroOrNil(v *ir.Value) bool {
	for v != nil && v.Op == ir.OpSplat {
		v = v.Args[0]
	}
	return v == nil || v.Op == ir.OpConst && v.Const.Int == 0 && v.Const.Float == 0
}

// copyWidth is the number of elements one copy of load ld moves along
// axis: as wide as the pointers' contiguity and alignment, the mask's
// constancy and the thread's run of elements along the axis allow, up to
// 16 bytes; 1 where that is under the 4 bytes cp.async moves at least.
func (p *plan) copyWidth(ld *ir.Value, axis int) int {
	a, _ := accessOf(ld)
	l := p.layoutOf(ld.Args[0])
	w := p.idealWidth(a, axis)
	if mask := ld.Args[1]; mask != nil && !mask.Type.IsScalar() {
		w = min(w, int(pow2Floor(p.axes.dims(mask)[axis].Constancy)))
	}
	if l.KStride[axis] != 1 {
		return 1
	}
	w = max(1, min(w, l.Spt[axis]))
	if w*a.Bytes < 4 {
		return 1
	}
	return w
}

// directWidth is the number of elements one copy of a descriptor load
// copied by rows moves: copyWidth without the mask, which the byte count
// of each copy replaces.
func (p *plan) directWidth(ld *ir.Value) int {
	a, _ := accessOf(ld)
	l := p.layoutOf(ld.Args[0])
	if l.KStride[1] != 1 {
		return 1
	}
	w := max(1, min(p.idealWidth(a, 1), l.Spt[1]))
	if w*a.Bytes < 4 {
		return 1
	}
	return w
}

// sharedPerProgram is the most shared memory one program may use, with
// the opt-in attribute, on a target of compute capability arch (CUDA's
// table): 163 KiB on sm_80 and sm_87, 227 KiB on sm_90 and sm_100 to
// sm_110, 99 KiB on the others (sm_86, sm_89, sm_120).
func sharedPerProgram(arch int) int {
	switch {
	case arch == 80 || arch == 87:
		return 163 * 1024
	case arch >= 90 && arch < 120:
		return maxDynamicShared
	}
	return 99 * 1024
}

// innermostFor is the innermost for loop whose body is block b or holds
// it, or nil.
func (p *plan) innermostFor(b *ir.Block) *ir.For {
	for ; b != nil; b = p.parent[b] {
		if f, ok := p.owner[b].(*ir.For); ok {
			return f
		}
	}
	return nil
}

// stagesOf is the num_stages loop s runs at: its own, else the kernel's.
func (p *plan) stagesOf(s *ir.For) int {
	if s.NumStages > 0 {
		return s.NumStages
	}
	return p.k.NumStages
}

// swizzleRows reports whether rows of n bytes lie in shared memory as
// wgmma's swizzle modes read them: 32- or 64-byte rows, or 128-byte chunks.
func swizzleRows(n int) bool { return n == 32 || n == 64 || n%128 == 0 }

// halfKinds reports whether a dot's operands are both fp16 or both bf16.
func halfKinds(a, b ir.Kind) bool { return isHalf(a) && a == b }

// maxSharedBytes is the shared memory a kernel may use: above the 48 KiB
// a kernel may declare statically, the scratch memory becomes dynamic and
// the launch asks for it (see DynamicSharedBytes).
const maxSharedBytes = maxDynamicShared

// maxStaticShared is the most shared memory a kernel declares statically.
const maxStaticShared = 48 * 1024
