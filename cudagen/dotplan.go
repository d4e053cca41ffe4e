package cudagen

// This file implements what the planning passes decide of a dot, apart
// from any pipeline: the check of its shapes, the scratch memory it needs
// staged where it stands, its mma.sync instruction and accumulator layout
// (mmaBlocked), and whether it runs as mma.sync or as a pipelined dot.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// dotSharedBytes is the scratch memory a dot needs for its two operands.
func dotSharedBytes(v *ir.Value) (aBytes, total int) {
	a, b := v.Args[0].Type, v.Args[1].Type
	aBytes = (a.Shape.NumElements()*a.Kind.Bytes() + 15) / 16 * 16
	return aBytes, aBytes + b.Shape.NumElements()*b.Kind.Bytes()
}

// checkDot reports a dot whose operands do not fit the scratch memory.
func checkDot(v *ir.Value, errs *diag.List) {
	if _, n := dotSharedBytes(v); n > maxSharedBytes {
		errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported,
			"tl.dot of %s and %s needs %d KiB of shared memory to stage its operands; a program has at most %d KiB (use smaller blocks)",
			v.Args[0].Type, v.Args[1].Type, (n+1023)/1024, maxSharedBytes/1024)
	}
}

// mmaOp is the mma.sync instruction a tensor-core dot runs as.
type mmaOp struct {
	name string  // the helper's suffix: tri_mma_<name>
	k    int     // the K of one instruction: 32 bytes of operand
	acc  ir.Kind // the accumulator's kind
	// viaF16 is set for fp8 operands on a target without fp8 mma.sync:
	// each k32 step is two m16n8k16 on the operands widened to fp16.
	viaF16 bool
}

// String names the instruction, as --dump=layout and the comments say it.
func (o mmaOp) String() string {
	if o.viaF16 {
		return "mma.sync m16n8k16 on fp8 widened to fp16, two per 32 of K"
	}
	s := fmt.Sprintf("mma.sync m16n8k%d", o.k)
	if o.name == "tf32x3" {
		s = "3 x " + s
	}
	return s
}

// mmaOpOf is the mma.sync form of dot v: m16n8k16 for fp16 and bf16
// operands (into fp32, or fp16 through fp32), m16n8k8 for fp32 operands
// under input_precision "tf32" and "tf32x3" (three of them per step), and
// m16n8k32 for int8 into int32 and for fp8 (sm_89) into fp32. ok is false for the dots with no tensor
// core form: fp64, ieee fp32 and rank 3.
func mmaOpOf(v *ir.Value) (mmaOp, bool) {
	in, out := v.Args[0].Type.Kind, v.Type.Kind
	if v.Args[0].Type.Shape.Rank() != 2 {
		return mmaOp{}, false
	}
	switch {
	case isHalf(in) && (out == ir.Float32 || out == ir.Float16):
		return mmaOp{name: kindSuffix(in), k: 16, acc: ir.Float32}, true
	case in == ir.Float32 && out == ir.Float32 && v.Precision != ir.PrecisionIEEE:
		return mmaOp{name: v.Precision.String(), k: 8, acc: ir.Float32}, true
	case in == ir.Int8 && out == ir.Int32:
		return mmaOp{name: "i8", k: 32, acc: ir.Int32}, true
	case in.IsFP8() && (out == ir.Float32 || out == ir.Float16):
		return mmaOp{name: fp8MmaName(in, v.Args[1].Type.Kind), k: 32, acc: ir.Float32}, true
	}
	return mmaOp{}, false
}

// mmaOp is mmaOpOf(v) on the plan's target: before sm_89 a dot of fp8e5
// runs its k32 steps as two fp16 m16n8k16 (fp8MmaF16Helper), as Triton
// widens its operands to fp16 there.
func (p *plan) mmaOp(v *ir.Value) (mmaOp, bool) {
	op, ok := mmaOpOf(v)
	if ok && p.arch < 89 && v.Args[0].Type.Kind == ir.Float8E5 {
		op.name, op.viaF16 = "e5m2_f16", true
	}
	return op, ok
}

// mmaBlocked is the layout of a dot result that lets the tensor cores
// compute it: sizePerThread [1, 2], threadsPerWarp [8, 4], the warps split
// between rows (16 each) and columns (8 each) with no replication, as
// evenly as the shape allows. ok is false for dots that have no mma.sync
// form (see mmaOpOf) or shapes the warps cannot tile.
func mmaBlocked(v *ir.Value, numWarps int) (Blocked, bool) {
	op, ok := mmaOpOf(v)
	if !ok {
		return Blocked{}, false
	}
	m, k, n := v.Args[0].Type.Shape[0], v.Args[0].Type.Shape[1], v.Type.Shape[1]
	if m%16 != 0 || n%8 != 0 || k%op.k != 0 {
		return Blocked{}, false
	}
	// Of the splits that tile the result, the one whose warp tiles are
	// closest to square, so each warp reuses its A and B fragments best.
	best, bestSkew := 0, 0
	for wm := numWarps; wm >= 1; wm /= 2 {
		wn := numWarps / wm
		if m%(16*wm) != 0 || n%(8*wn) != 0 {
			continue
		}
		skew := max(m/wm, n/wn) / min(m/wm, n/wn)
		if best == 0 || skew < bestSkew {
			best, bestSkew = wm, skew
		}
	}
	if best > 0 {
		return Blocked{SizePerThread: []int{1, 2}, ThreadsPerWarp: []int{8, 4}, WarpsPerCTA: []int{best, numWarps / best}, Order: []int{1, 0}}, true
	}
	return Blocked{}, false
}

// mmaPipeBlocked is the accumulator layout of an m-row dot of a multi-dot
// pipeline on mma.sync: wgmmaBlocked's threads, the warps along the rows
// as far as the rows give each a whole m16 tile, and the rest along N, as
// Triton's MMAv2 splits a decode attention's 16 query rows over 4 warps.
// With every warp on whole rows, a softmax's row statistics need no shared
// memory; warps split along N share them through it.
func mmaPipeBlocked(m, numWarps int) Blocked {
	b := wgmmaBlocked(numWarps)
	wm := numWarps
	for wm > 1 && m < 16*wm {
		wm /= 2
	}
	b.WarpsPerCTA = []int{wm, numWarps / wm}
	return b
}

// dotBlocked is the layout dot v's result needs for the tensor cores:
// wgmma's for a dot on wgmma, else mma.sync's (pipelined or not).
func (p *plan) dotBlocked(v *ir.Value) (Blocked, bool) {
	if wd := p.wgDots[v.ID]; wd != nil && !p.wgmma {
		return mmaPipeBlocked(wd.m, p.numWarps), true
	}
	if pl := p.pipes[v.ID]; pl != nil && !pl.mma || p.wgDots[v.ID] != nil {
		return wgmmaBlocked(p.numWarps), true
	}
	return mmaBlocked(v, p.numWarps)
}

// usesMma reports whether dot v runs on the tensor cores with mma.sync:
// its result got the layout dotBlocked asks for.
func (p *plan) usesMma(v *ir.Value) bool {
	want, ok := p.dotBlocked(v)
	if !ok {
		return false
	}
	d := p.layoutOf(v)
	return d.Layout.String() == want.String() && !d.Repl && d.Reps[0]%2 == 0
}

// kindSuffix names a kind in helper names.
func kindSuffix(k ir.Kind) string {
	switch k {
	case ir.Float16:
		return "f16"
	case ir.BFloat16:
		return "bf16"
	case ir.Float32:
		return "f32"
	case ir.Float64:
		return "f64"
	case ir.Float8E4NV, ir.Float8E5:
		return fp8Names[k]
	}
	return "i8"
}

// usesWgmma reports whether dot v runs as a pipelined wgmma: its loop was
// found pipelinable on sm_90a and its result got the accumulator layout.
func (p *plan) usesWgmma(v *ir.Value) bool {
	return p.wgmma && p.pipelined(v)
}

// pipelined reports whether dot v's loop is written as its pipeline: the
// loop was found pipelinable and the dot's result got the accumulator
// layout of the pipeline's instruction (wgmma's, or mma.sync's).
func (p *plan) pipelined(v *ir.Value) bool {
	pl := p.pipes[v.ID]
	if pl == nil {
		return false
	}
	if pl.mma {
		return p.usesMma(v)
	}
	d := p.layoutOf(v)
	return d.Layout.String() == wgmmaBlocked(p.numWarps).String() && !d.Repl
}
