package cudagen

// This file implements the steps of the pipeline analysis (pipeplan.go's
// pipelineOf) that its two cases share, the K loop of one dot (pipeone.go)
// and a loop of several dots (multiplan.go): reading the loop's body once
// (loopScan) and each of its dots (loopDot: the dtypes the pipelines take,
// the shape, where b comes from, which operands are loads that may
// stream), how each streamed load is copied given the TMA boxes its case
// chose (streamCopy), the statements that run ahead of the dots with the
// Vars they carry (aheadSet), and how many stages of a size the shared
// memory holds (fitStages).

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/ir"
)

// loopScan is what the pipeline analysis reads of a loop before it
// chooses the loop's case: the num_stages it runs at, its body's
// statements and values, its dots in body order, and the assignments of
// each Var in the body.
type loopScan struct {
	loop    *ir.For
	stages  int // num_stages as asked for
	body    []ir.Stmt
	inBody  map[int]bool // by value ID
	dots    []*loopDot
	assigns map[*ir.Var][]*ir.Assign
}

// loopDot is a dot of the loop as both cases read it: its operands, the
// value its b comes from, whether the pipelines take its kinds, its shape
// where they do, and which of its operands are loads that may stream.
type loopDot struct {
	dot, a, b, acc *ir.Value
	// bSrc is the value b comes from: b, or the [N, K] value of which b
	// is the transpose (trans) that only this dot reads.
	bSrc  *ir.Value
	trans bool
	// taken and here: pipeKinds. m, n, k and elem (the bytes of an
	// operand element) are set where taken.
	taken, here   bool
	m, n, k, elem int
	// aStreams and bStreams: a and bSrc are loads of the body that may
	// stream (streamable).
	aStreams, bStreams bool
}

// scanLoop reads loop s for the pipeline analysis, or says why no case of
// it takes the loop: it runs at fewer than two stages, its step is not a
// positive constant, the warps are not whole warpgroups on wgmma, or its
// body holds more than values and assignments.
func (p *plan) scanLoop(s *ir.For) (*loopScan, string) {
	stages := p.stagesOf(s)
	switch {
	case stages < 2:
		return nil, fmt.Sprintf("its loop runs at num_stages=%d", stages)
	case s.Step.Op != ir.OpConst || s.Step.Const.Int <= 0:
		return nil, "its loop's step is not a positive constant"
	case p.wgmma && p.numWarps%4 != 0:
		return nil, fmt.Sprintf("num_warps=%d is not whole warpgroups", p.numWarps)
	}
	sc := &loopScan{loop: s, stages: stages, body: s.Body.Stmts, inBody: map[int]bool{}, assigns: map[*ir.Var][]*ir.Assign{}}
	var dots []*ir.Value
	for _, st := range sc.body {
		switch st := st.(type) {
		case *ir.Value:
			sc.inBody[st.ID] = true
			if st.Op == ir.OpDot {
				dots = append(dots, st)
			}
		case *ir.Assign:
			sc.assigns[st.Var] = append(sc.assigns[st.Var], st)
		default:
			return nil, "its body holds a loop, an if or a return"
		}
	}
	for _, d := range dots {
		sc.dots = append(sc.dots, p.readDot(sc, d))
	}
	return sc, ""
}

// readDot reads dot d of loop sc for both cases.
func (p *plan) readDot(sc *loopScan, d *ir.Value) *loopDot {
	ld := &loopDot{dot: d, a: d.Args[0], b: d.Args[1], acc: d.Args[2]}
	ld.bSrc, ld.trans = p.bSource(sc, d)
	ld.taken, ld.here = p.pipeKinds(d)
	if ld.taken {
		ld.m, ld.k, ld.n = ld.a.Type.Shape[0], ld.a.Type.Shape[1], ld.b.Type.Shape[1]
		ld.elem = ld.a.Type.Kind.Bytes()
	}
	ld.aStreams, ld.bStreams = p.streamable(sc, ld.a), p.streamable(sc, ld.bSrc)
	return ld
}

// inLoop reports whether v is made in the loop's body.
func (sc *loopScan) inLoop(v *ir.Value) bool { return sc.inBody[v.ID] }

// onlyFor reports whether v is a value of the body used once, by u, and
// by no control statement.
func (p *plan) onlyFor(sc *loopScan, v, u *ir.Value) bool {
	return sc.inBody[v.ID] && len(p.users[v.ID]) == 1 && p.users[v.ID][0] == u && p.ctlUse[v.ID] == 0
}

// bSource is the value the b of dot d comes from: b itself, or, where b
// is the transpose of a rank-2 value that only d reads through it (b.T of
// an [N, K] load), that value, with trans set.
func (p *plan) bSource(sc *loopScan, d *ir.Value) (src *ir.Value, trans bool) {
	b := d.Args[1]
	if b.Op == ir.OpTrans && p.onlyFor(sc, b, d) && b.Args[0].Type.Shape.Rank() == 2 {
		return b.Args[0], true
	}
	return b, false
}

// pipeKinds reports whether the pipelines take dot d for its kinds
// (taken): a rank-2 fp32 result of two fp16, two bf16 or two fp8
// operands, as wgmma takes them; and whether they do on this target
// (here): mma.sync takes the fp16 and bf16 ones. It is the one place
// that says which dtypes a pipeline (and a dot on wgmma outside them,
// wgdot.go) takes.
func (p *plan) pipeKinds(d *ir.Value) (taken, here bool) {
	a, b := d.Args[0].Type.Kind, d.Args[1].Type.Kind
	half := halfKinds(a, b)
	taken = d.Type.Shape.Rank() == 2 && d.Type.Kind == ir.Float32 && (half || a.IsFP8() && b.IsFP8())
	return taken, taken && (p.wgmma || half)
}

// wgmmaTileShape reports whether an m x n x k dot of es-byte operands has
// the wgmma form of the dots of several (multipipe.go) and of the dots
// outside the pipelines (wgdot.go): M whole m64 blocks of each warpgroup's
// rows, K whole 32-byte instruction steps, and N a multiple of 16 up to
// 256, in whole 64-column blocks above 64.
func (p *plan) wgmmaTileShape(m, n, k, es int) bool {
	return m%(16*p.numWarps) == 0 && k*es%32 == 0 && n%16 == 0 && n <= 256 && (n <= 64 || n%64 == 0)
}

// streamable reports whether ld is a load of the body that may be copied
// ahead into the stages: not volatile, with no other (or a zero one),
// read by no control statement, and read only by dots of the body,
// directly or through a transpose that one dot reads (attention
// backward's qT feeds tl.dot(k, qT) and tl.dot(dsT, tl.trans(qT))).
func (p *plan) streamable(sc *loopScan, ld *ir.Value) bool {
	if ld.Op != ir.OpLoad || !sc.inBody[ld.ID] || p.ctlUse[ld.ID] > 0 || ld.Flags&ir.FlagVolatile != 0 || !isZeroOrNil(ld.Args[2]) {
		return false
	}
	for _, u := range p.users[ld.ID] {
		dot := u.Op == ir.OpDot && sc.inBody[u.ID]
		trans := u.Op == ir.OpTrans && len(p.users[u.ID]) == 1 && p.onlyFor(sc, u, p.users[u.ID][0]) && p.users[u.ID][0].Op == ir.OpDot
		if !dot && !trans {
			return false
		}
	}
	return true
}

// aheadSet is the statements of a loop body that run ahead of its dots:
// the streamed loads and everything they read in the body, with the
// assignments of the Vars they read (carried). ok is cleared where they
// would read a dot.
type aheadSet struct {
	sc      *loopScan
	stmts   map[ir.Stmt]bool
	carried map[*ir.Var]bool
	ok      bool
}

// newAheadSet is the empty ahead set of loop sc.
func newAheadSet(sc *loopScan) *aheadSet {
	return &aheadSet{sc: sc, stmts: map[ir.Stmt]bool{}, carried: map[*ir.Var]bool{}, ok: true}
}

// add puts v, what it reads in the body, and the assignments of the Vars
// it reads there, in the set.
func (a *aheadSet) add(v *ir.Value) {
	if v == nil || !a.sc.inBody[v.ID] || a.stmts[v] {
		return
	}
	if v.Op == ir.OpDot {
		a.ok = false
		return
	}
	a.stmts[v] = true
	for _, x := range v.Args {
		a.add(x)
	}
	if as := a.sc.assigns[v.Var]; v.Op == ir.OpVarRead && len(as) > 0 && !a.carried[v.Var] {
		a.carried[v.Var] = true
		for _, st := range as {
			a.stmts[st] = true
			a.add(st.Value)
		}
	}
}

// addLoad puts streamed load ld in the set: with its pointers and mask,
// or, where the TMA unit or copies by rows read its block from its
// descriptor (fromDesc), with the descriptor's scalars only.
func (a *aheadSet) addLoad(ld *ir.Value, fromDesc bool) {
	if !fromDesc {
		a.add(ld)
		return
	}
	a.stmts[ld] = true
	for _, x := range ld.Desc.Scalars() {
		a.add(x)
	}
}

// streamCopy is how a streamed load is copied into its stage: by the TMA
// unit with the map the case chose (tma), else by rows from its
// descriptor (direct, where directCopies allows it: innerRows tells
// whether the stage's rows run along the block's inner dimension), else
// by cp.async through its pointers.
type streamCopy struct {
	ld        *ir.Value
	tma       *tensorMap
	innerRows bool
	direct    bool // set by copyStreams
}

// fromDesc reports whether the copy reads the load's block from its
// descriptor, without the load's pointers and mask.
func (c *streamCopy) fromDesc() bool { return c.tma != nil || c.direct }

// copyStreams decides which of the streamed loads' copies go by rows
// from their descriptors, and returns the ahead set of all the copies.
func (p *plan) copyStreams(sc *loopScan, copies []*streamCopy) *aheadSet {
	ahead := newAheadSet(sc)
	for _, c := range copies {
		c.direct = c.tma == nil && p.directCopies(c.ld, c.innerRows)
		ahead.addLoad(c.ld, c.fromDesc())
	}
	return ahead
}

// spillStages is the most stages a pipeline of a spill-bound kernel
// runs (isSpillBound): two iterations of copies ahead.
const spillStages = 3

// isSpillBound reports whether some loop of the kernel carries dot
// accumulators that alone take more than three quarters of the 255
// registers a thread may have (in tutorial 06's backward at head dimension 128, dk and dv take
// all 256 of theirs): the kernel then spills registers whatever else it
// does, and its spills go to local memory through L1, which takes the
// part of the SM's 256 KB that shared memory leaves. Its pipelines then
// run at most spillStages stages, two iterations of copies ahead, which
// hide the loads' latency in iterations as long as these are, and the
// shared memory more stages would take is left to L1: tutorial 06's
// backward at head dimension 128 runs 1.3 times as fast with 3 stages
// as with its 5 (112 KB rather than 144 KB of shared memory).
func (p *plan) isSpillBound() bool {
	threads := 32 * p.numWarps
	for st := range p.ctlSite {
		f, ok := st.(*ir.For)
		if !ok {
			continue
		}
		regs := 0
		for _, x := range f.Body.Stmts {
			if as, ok := x.(*ir.Assign); ok && !as.Var.Type.IsScalar() && accumulates(as.Value) {
				regs += as.Var.Type.Shape.NumElements() * max(as.Var.Type.Kind.Bytes(), 4) / 4 / threads
			}
		}
		if 4*regs > 3*255 {
			return true
		}
	}
	return false
}

// accumulates reports whether v, assigned to a loop's Var, is a dot's
// result or a sum with one (acc = tl.dot(a, b, acc), acc += tl.dot(a, b)).
func accumulates(v *ir.Value) bool {
	if v.Op == ir.OpAdd {
		return slices.ContainsFunc(v.Args, func(x *ir.Value) bool { return x.Op == ir.OpDot })
	}
	return v.Op == ir.OpDot
}

// stagesNote says why the pipeline runs fewer stages than num_stages
// asked for ("" where it runs them all).
func (sp *stagePlan) stagesNote() string {
	switch {
	case sp.asked == 0:
		return ""
	case sp.spill:
		return fmt.Sprintf("num_stages=%d: %d stages; the kernel's accumulators overflow the registers, and the shared memory more stages would take is left to L1, where the spills go.", sp.asked, sp.stages)
	}
	return fmt.Sprintf("num_stages=%d: %d stages fit in shared memory.", sp.asked, sp.stages)
}

// fitStages sets sp's stages and buffers (as many) from the asked
// num_stages: as many stages of sp.stageSize bytes as fit after sp.invSize
// bytes in the shared memory a program may use here, less the mbarriers
// of the TMA copies where they have some (tma), which also bound the
// buffers. It returns that shared memory.
func (p *plan) fitStages(sp *stagePlan, asked int, tma bool) int {
	most, stages := maxDynamicShared, asked
	if p.spillBound && stages > spillStages {
		stages, sp.spill = spillStages, true
	}
	if !p.wgmma {
		most = sharedPerProgram(p.arch)
	}
	if tma {
		// The stages' mbarriers are static shared memory besides them.
		most -= 8 * maxTMABuffers
		stages = min(stages, maxTMABuffers)
	}
	sp.stages = min(stages, (most-sp.invSize)/sp.stageSize)
	sp.buffers = sp.stages
	if sp.stages < asked {
		sp.asked = asked
	}
	return most
}
