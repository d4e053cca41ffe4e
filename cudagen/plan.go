package cudagen

// This file implements the plan, everything known about a kernel before
// printing it, and the questions every pass asks of it: where a value is
// defined and used, its layout, how wide its accesses are. newPlan
// (newplan.go) fills it in.

import (
	"slices"

	"github.com/tri-lang/tri/ir"
)

// site is where a statement sits: its block and its index there.
type site struct {
	Block *ir.Block
	Index int
}

// plan is everything known about a kernel before printing it.
type plan struct {
	k        *ir.Kernel
	numWarps int
	axes     *axisAnalysis
	defs     []site        // by value ID
	users    [][]*ir.Value // by value ID: the values that use it as an operand
	ctlUse   []int         // by value ID: uses by statements other than values (Assign, For, If, While)
	parent   map[*ir.Block]*ir.Block
	varBlock []*ir.Block // by var ID: the block whose top declares it (nil: a for loop's index)
	vars     []*ir.Var   // by var ID
	layouts  []*dist     // in order of first use
	dists    []*dist     // by value ID: the layout of each tile value (nil for scalars)
	varDists []*dist     // by var ID
	converts []bool      // by value ID: its operand changes layout through shared memory
	// storeSplit holds the stores whose layout is chosen apart from their
	// value's, by value ID (propagate.go).
	storeSplit map[int]bool
	sliceOf    map[int]*dist // by value ID of a reduction: the slice layout it computes in
	remat      map[int]*dist // by value ID of an expand_dims: its index operand is recomputed in this layout
	// reissued holds, by value ID of a load issued again in its user's
	// layout (reloadable), that user: an expand_dims printed where the
	// load stands, so that the load is in flight across what lies between.
	reissued map[int]*ir.Value
	tags     map[string]*dist
	// wgmma is set for sm_90a targets.
	wgmma bool
	// mmaOnSM90 is set for an sm_90a kernel none of whose dots has a
	// wgmma shape: its dots take the mma.sync lowering (hasWgmmaDot).
	mmaOnSM90 bool
	// spillBound is set for a kernel whose loops' accumulators alone
	// overflow the registers: its pipelines run fewer stages
	// (isSpillBound, fitStages).
	spillBound bool
	arch       int // the target's compute capability (90 for sm_90a)
	// fp8Reported holds the fp8 kinds an error was reported for.
	fp8Reported map[ir.Kind]bool
	// verdicts holds the pipeline analysis of each loop (pipeplan.go):
	// its plan, or why it is not pipelined, which the comments and
	// Describe read. pipes and loops index its K loops of one dot, by dot
	// ID and by loop.
	verdicts map[*ir.For]pipeVerdict
	pipes    map[int]*pipeline
	loops    map[*ir.For]*pipeline
	// mloops are the loops pipelined with several dots (multipipe.go),
	// wgDots their dots by ID.
	mloops map[*ir.For]*multiPipe
	wgDots map[int]*wgDot
	// piped is the record of each loop written as a software pipeline
	// (pipeplan.go), whatever its form.
	piped map[*ir.For]*pipePlan
	// hoists are the loops whose dots on wgmma outside the pipelines read
	// operands stored once before them (wgdot.go).
	hoists map[*ir.For]*hoistRegion
	// tmaps are the tensor maps (CUtensorMap parameters) the pipelines'
	// TMA copies read, in order of first use.
	tmaps []*tensorMap
	// tma lets the pipelines copy with the TMA unit (Options.tma).
	tma bool
	// tmaStores are the stores the TMA unit writes (tma.go), by value ID;
	// dead, by value ID, the values no emitted code needs.
	tmaStores    map[int]*tensorMap
	directStores map[int]bool
	// directLoads are the loads through a descriptor read by rows from it
	// (directLoad), by value ID.
	directLoads map[int]bool
	// tmaInvariants are the invariant operands of multi-dot pipelines
	// that the TMA unit copies before each loop (findTMAInvariants), by
	// value ID: their loads are not emitted.
	tmaInvariants map[int]bool
	dead          []bool
	// devMaps are the tensor maps of descriptors made in the kernel, which
	// it builds (tmapdev.go); mapUsers their pipelined loops and stores;
	// builds, by statement, the maps built just before it.
	devMaps  []*tensorMap
	mapUsers map[*tensorMap][]ir.Stmt
	builds   map[ir.Stmt][]*tensorMap
	// owner is the statement whose block each block is (nil for the
	// kernel's body); ctlSite where each control statement sits.
	owner   map[*ir.Block]ir.Stmt
	ctlSite map[ir.Stmt]site
}

// assignedBy returns the Assign that is the only use of v, when it
// immediately follows v: v can then be computed straight into the Var.
func (p *plan) assignedBy(v *ir.Value) *ir.Assign {
	d := p.defs[v.ID]
	if d.Block == nil || p.ctlUse[v.ID] != 1 || len(p.users[v.ID]) > 0 || d.Index+1 >= len(d.Block.Stmts) {
		return nil
	}
	if a, ok := d.Block.Stmts[d.Index+1].(*ir.Assign); ok && a.Value == v {
		return a
	}
	return nil
}

// commonBlock is the innermost block enclosing both a and b.
func (p *plan) commonBlock(a, b *ir.Block) *ir.Block {
	depth := func(x *ir.Block) int {
		n := 0
		for ; x != nil; x = p.parent[x] {
			n++
		}
		return n
	}
	da, db := depth(a), depth(b)
	for ; da > db; da-- {
		a = p.parent[a]
	}
	for ; db > da; db-- {
		b = p.parent[b]
	}
	for a != b {
		a, b = p.parent[a], p.parent[b]
	}
	return a
}

// lowered lists the ops the emitter lowers besides libmFuncs.
var lowered = func() map[ir.Op]bool {
	m := map[ir.Op]bool{}
	for _, op := range []ir.Op{
		ir.OpConst, ir.OpParam, ir.OpProgramID, ir.OpNumPrograms, ir.OpArange, ir.OpVarRead, ir.OpSplat,
		ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem, ir.OpNeg, ir.OpMax, ir.OpMin, ir.OpFma,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot, ir.OpShl, ir.OpShr,
		ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe,
		ir.OpExp, ir.OpExp2, ir.OpLog, ir.OpLog2, ir.OpSqrt, ir.OpRsqrt, ir.OpAbs, ir.OpSin, ir.OpCos, ir.OpFloor, ir.OpCeil,
		ir.OpCast, ir.OpBitcast, ir.OpWhere, ir.OpPtrAdd, ir.OpLoad, ir.OpStore,
		ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpAssume, ir.OpBarrier, ir.OpGdcWait, ir.OpGdcLaunchDependents,
		ir.OpBroadcast, ir.OpExpandDims, ir.OpReshape, ir.OpTrans, ir.OpJoin, ir.OpSplit, ir.OpTupleGet,
		ir.OpReduce, ir.OpScan, ir.OpRegionArg, ir.OpAtomicRMW, ir.OpAtomicCAS, ir.OpDot,
		// Random numbers.
		ir.OpUmulhi,
		ir.OpLibdevice,          // libdevice.go
		ir.OpPrint, ir.OpAssert, // debug.go
		ir.OpInlineAsm,
		ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat, ir.OpMapElementwise, // tileops.go
	} {
		m[op] = true
	}
	return m
}()

// memAccess is one load or store of a tile.
type memAccess struct {
	V     *ir.Value
	Ptr   *ir.Value
	Bytes int // element size in memory
}

func accessOf(v *ir.Value) (memAccess, bool) {
	if (v.Op != ir.OpLoad && v.Op != ir.OpStore) || v.Args[0].Type.IsScalar() {
		return memAccess{}, false
	}
	ptr := v.Args[0]
	return memAccess{V: v, Ptr: ptr, Bytes: ptr.Type.Elem.Bytes()}, true
}

// idealWidth is the widest access, in elements, that the analysis allows
// for a pointer tile along axis: contiguous, aligned, and at most 16 bytes.
func (p *plan) idealWidth(a memAccess, axis int) int {
	info := p.axes.dims(a.Ptr)[axis]
	w := min(info.Contig, info.Div/int64(a.Bytes), int64(16/a.Bytes))
	return int(pow2Floor(w))
}

// vectorWidth is the width used for an access under its layout, along the
// layout's fastest axis; 1 when the access is done element by element.
func (p *plan) vectorWidth(a memAccess) int {
	l := p.layoutOf(a.Ptr)
	ax := l.Order[0]
	w := min(p.idealWidth(a, ax), l.Spt[ax])
	if w < 2 || w*a.Bytes < 4 || l.KStride[ax] != 1 {
		return 1
	}
	return w
}

// layoutOf is the layout of a tile value.
func (p *plan) layoutOf(v *ir.Value) *dist { return p.dists[v.ID] }

// forEachValue calls f on every value of b and its nested blocks, in order.
func (p *plan) forEachValue(b *ir.Block, f func(*ir.Value)) { ir.Inspect(b, f) }

// assignsVar reports whether statement s is or contains an Assign to x.
func assignsVar(s ir.Stmt, x *ir.Var) bool {
	switch s := s.(type) {
	case *ir.Assign:
		return s.Var == x
	case *ir.For:
		return s.Var == x || slices.ContainsFunc(s.Body.Stmts, func(t ir.Stmt) bool { return assignsVar(t, x) })
	case *ir.While:
		return slices.ContainsFunc(s.Cond.Stmts, func(t ir.Stmt) bool { return assignsVar(t, x) }) ||
			slices.ContainsFunc(s.Body.Stmts, func(t ir.Stmt) bool { return assignsVar(t, x) })
	case *ir.If:
		return slices.ContainsFunc(s.Then.Stmts, func(t ir.Stmt) bool { return assignsVar(t, x) }) ||
			slices.ContainsFunc(s.Else.Stmts, func(t ir.Stmt) bool { return assignsVar(t, x) })
	}
	return false
}
