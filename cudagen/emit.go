package cudagen

// This file implements the emitter, which Generate (generate.go) prints a
// kernel with, and what every printer uses of it: the names of values and
// Vars, the C expression of an element, a local's declaration and
// definition, the element loop, source comments, conversions on the
// target, and the scratch shared memory's addressing and reservation. The
// printers stand above it: a statement is printed by stmt.go, a value's op
// by ops.go and the files it dispatches to, the tree's blocks and loops by
// walk.go.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// emitter prints one kernel.
type emitter struct {
	*plan
	// nameSet records the names the kernel's code uses beyond its own
	// locals: definitions for the prelude, and the locals its preamble
	// declares only where they are read.
	nameSet
	opt Options
	w   writer
	// whileDot, if set, is written by the next wgmmaDot between the issue
	// of its wgmmas and the wait for them (multipipe.go).
	whileDot func()
	// inFlight is the dot of the multi-dot pipeline being written that
	// runs on into the next iteration.
	inFlight  *wgDot
	tmapNames map[*tensorMap]string // the C parameters of the tensor maps
	names     []string              // by value ID; "" for values printed inline
	varNames  []string              // by var ID
	params    []string              // by param index
	inlined   []bool                // by value ID: a VarRead printed as its Var
	fused     []bool                // by value ID: computed straight into the Var its Assign writes
	lines     []string              // the source, for comments
	lastLine  int
	// fast is set while printing the full-tile path of a region; skip
	// marks the mask computations that path leaves out, and outside the
	// values declared before the full/partial split.
	fast       bool
	skip       []bool
	outside    []bool
	kernelName string
	// smemBytes is the scratch shared memory the printers reserved so far
	// (checked against the plan: checkedScratch); scratch is the kernel's,
	// as planned (scratch.go), which tri_smem declares. usesShuffles is
	// set when a reduction moves values between lanes.
	smemBytes    int
	scratch      int
	usesShuffles bool
	// alignedSmem is set by the printers that lay out swizzled tiles from
	// the scratch memory's start (the stages of a pipeline, the boxes of a
	// swizzled TMA store), whose swizzle is a function of the address. The
	// kernel declares tri_smem 1024-byte aligned from the plan
	// (alignedScratch) before they print; generate holds the two against
	// each other.
	alignedSmem bool
	helpers     helperSet
	// resNames are the C names of the results of multi-result values;
	// inRegion is set while inlining a combine function (no source
	// comments).
	resNames map[int][]string
	inRegion bool
	// override names the array that holds a value where it is read in
	// another layout (a store's value converted to its pointers' layout).
	override map[int]string
	// recordScratch is set where generate returns scratchUses: each
	// statement's planned scratch next to what its printers reserved.
	recordScratch bool
	scratchUses   []scratchUse
	// nest prints what a construct holds (see nested).
	nest nested
}

// nested prints the code nested in a construct that a printer below the
// tree's walk writes: a statement of a loop's body or of a straight-line
// region (stmt.go's statement), a value of a combine function (ops.go's
// value), a loop left as a plain C for (walk.go's plainFor). The walk
// (walk.go, stmt.go, ops.go, pipeprint.go) stands above the printers of
// regions, loops, pipelines, dots and reductions and chooses among them;
// these print what they hold through nest, which Generate binds to the
// walk's methods, so that the printers' files use the walk's through the
// emitter rather than by name.
type nested struct {
	stmt  func(ir.Stmt)
	value func(*ir.Value)
	loop  func(*ir.For)
}

// isStraight reports whether s is straight-line code (a value or an
// assignment).
func isStraight(s ir.Stmt) bool {
	switch s.(type) {
	case *ir.Value, *ir.Assign:
		return true
	}
	return false
}

func newEmitter(p *plan, opt Options) *emitter {
	e := &emitter{plan: p, nameSet: nameSet{}, opt: opt, names: make([]string, p.k.NumValues), varNames: make([]string, p.k.NumVars),
		inlined: make([]bool, p.k.NumValues), fused: make([]bool, p.k.NumValues), lines: strings.Split(p.k.Source, "\n"),
		skip: make([]bool, p.k.NumValues), outside: make([]bool, p.k.NumValues), resNames: map[int][]string{}, override: map[int]string{}}
	n := newNamer()
	e.kernelName = sanitize(p.k.Name)
	n.used[e.kernelName] = true
	for _, prm := range p.k.Params {
		e.params = append(e.params, n.name(prm.Name))
	}
	e.tmapNames = map[*tensorMap]string{}
	for _, tm := range p.tmaps {
		e.tmapNames[tm] = n.name(fmt.Sprintf("%s_tmap%dx%d", tm.Of, tm.BoxRows, tm.BoxInner))
	}
	for _, tm := range p.devMaps {
		e.tmapNames[tm] = n.name(fmt.Sprintf("%s_tmap%dx%d", descName(tm.dev), tm.BoxRows, tm.BoxInner))
	}
	n.used["tri_scratch"], n.used["tri_maps"] = true, true
	e.nameBlock(n, p.k.Body)
	e.scratch = p.blockScratch(p.k.Body)
	return e
}

// nameBlock names the vars and values of b in program order.
func (e *emitter) nameBlock(n *namer, b *ir.Block) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == b && e.varNames[x.ID] == "" {
			e.varNames[x.ID] = n.name(x.Name)
		}
	}
	for i, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			e.nameValue(n, s, b, i)
		case *ir.For:
			e.varNames[s.Var.ID] = n.name(s.Var.Name)
			e.nameBlock(n, s.Body)
		case *ir.While:
			e.nameBlock(n, s.Cond)
			e.nameBlock(n, s.Body)
		case *ir.If:
			e.nameBlock(n, s.Then)
			e.nameBlock(n, s.Else)
		}
	}
}

func (e *emitter) nameValue(n *namer, v *ir.Value, b *ir.Block, i int) {
	if v.Region != nil {
		for _, a := range v.Region.Args {
			s := a.Name
			if s == "" {
				s = fmt.Sprintf("arg%d", a.Axis)
			}
			e.names[a.ID] = n.name(s)
		}
		if v.Op == ir.OpMapElementwise {
			e.nameMapBody(n, v.Region.Body)
		}
		for j, s := range v.Region.Body.Stmts {
			if rv, ok := s.(*ir.Value); ok && rv.Op != ir.OpRegionArg && v.Op != ir.OpMapElementwise {
				e.nameValue(n, rv, v.Region.Body, j)
			}
		}
	}
	if len(v.Types) > 0 {
		s := v.Name
		if s == "" {
			s = v.Op.String()
		}
		base := n.name(s)
		e.names[v.ID] = base
		for j := range v.Types {
			e.resNames[v.ID] = append(e.resNames[v.ID], n.name(fmt.Sprintf("%s_%d", base, j)))
		}
		return
	}
	switch v.Op {
	case ir.OpConst, ir.OpParam, ir.OpSplat, ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpStore, ir.OpAssume, ir.OpBarrier, ir.OpGdcWait, ir.OpGdcLaunchDependents:
		return
	case ir.OpBroadcast, ir.OpExpandDims:
		if e.isRemap(v) {
			return
		}
	case ir.OpProgramID, ir.OpNumPrograms:
		if v.Name == "" {
			return
		}
	case ir.OpVarRead:
		if e.canInline(v, b, i) {
			e.inlined[v.ID] = true
			return
		}
	}
	if v.Type.Kind == ir.Void {
		return
	}
	if a := e.assignedBy(v); a != nil && e.varNames[a.Var.ID] != "" {
		e.names[v.ID], e.fused[v.ID] = e.varNames[a.Var.ID], true
		return
	}
	s := v.Name
	if us := e.users[v.ID]; s == "" && v.Op == ir.OpLoad && len(us) == 1 && us[0].Op == ir.OpCast && us[0].Name != "" {
		// x = tl.load(...).to(tl.float32): the load is x_fp16, the cast x.
		s = us[0].Name + "_" + v.Type.Kind.String()
	}
	if s == "" {
		s = roleName(v, func(a *ir.Value) string { return e.names[a.ID] })
	}
	if s == "" {
		s = fmt.Sprintf("t%d", v.ID)
	}
	e.names[v.ID] = n.name(s)
}

// canInline reports whether a VarRead may be printed as its Var: the Var
// is not assigned while the read's value is in use.
func (e *emitter) canInline(v *ir.Value, b *ir.Block, i int) bool {
	if e.varBlock[v.Var.ID] == nil { // a loop index: never assigned in its body
		return true
	}
	if e.ctlUse[v.ID] > 0 {
		return false
	}
	last := i
	for _, u := range e.users[v.ID] {
		d := e.defs[u.ID]
		if d.Block != b || d.Index < i {
			return false
		}
		last = max(last, d.Index)
	}
	for j := i + 1; j < last; j++ {
		if assignsVar(b.Stmts[j], v.Var) {
			return false
		}
	}
	return true
}

// source writes the comment quoting pos's source line, once per line:
// "N: text" for a line of the kernel's file, which the kernel's head
// names, and "file:N:" for a line of another (an imported @jit function).
func (e *emitter) source(pos ir.Pos) {
	if !pos.IsValid() || pos.Line == e.lastLine || e.inRegion {
		return
	}
	e.lastLine = pos.Line
	file := pos.File
	if file == "" {
		file = e.k.File
	}
	e.w.at = ir.Pos{File: file, Line: pos.Line, Col: pos.Col}
	if file != e.k.File {
		e.w.comment("%s:%d:", file, pos.Line)
	} else {
		text := ""
		if pos.Line <= len(e.lines) {
			text = strings.TrimSpace(e.lines[pos.Line-1])
		}
		e.w.comment("%d: %s", pos.Line, text)
	}
	if e.opt.LineInfo {
		e.w.raw(fmt.Sprintf("#line %d %s", pos.Line, cString(file)))
	}
}

// declare writes the declaration of a local of type t (a tile in layout
// l); init, if not empty, initializes a scalar.
func (e *emitter) declare(t ir.Type, l *dist, name, init string) {
	switch {
	case !t.IsScalar():
		e.w.line("%s %s[%d];", e.cType(t.DType), name, l.Elems)
	case init != "":
		e.w.line("%s %s = %s;", e.cType(t.DType), name, init)
	default:
		e.w.line("%s %s;", e.cType(t.DType), name)
	}
}

// loop writes a per-thread loop over n elements whose body is one line.
func (e *emitter) loop(n int, body func(i string) string) {
	if n == 1 {
		e.w.line("%s", body("0"))
		return
	}
	e.w.line("#pragma unroll")
	e.w.line("for (int e = 0; e < %d; ++e) %s", n, body("e"))
}

// expr is the C expression of element i of v ("" for a scalar).
func (e *emitter) expr(v *ir.Value, i string) string {
	if name, ok := e.override[v.ID]; ok {
		return e.elem(name, v.Type, i)
	}
	switch v.Op {
	case ir.OpConst:
		return e.literal(v.Type.DType, v.Const)
	case ir.OpParam:
		return e.params[v.Param.Index]
	case ir.OpSplat:
		return e.expr(v.Args[0], "")
	case ir.OpMultipleOf, ir.OpMaxContiguous:
		return e.expr(v.Args[0], i)
	case ir.OpBroadcast, ir.OpExpandDims:
		if e.isRemap(v) {
			src := v.Args[0]
			if src.Type.IsScalar() {
				return e.expr(src, "")
			}
			return e.expr(src, e.layoutOf(v).remap(e.layoutOf(src), keptAxes(v), i))
		}
	case ir.OpProgramID, ir.OpNumPrograms:
		if e.names[v.ID] == "" {
			return e.specialReg(v)
		}
	case ir.OpVarRead:
		if e.inlined[v.ID] {
			return e.elem(e.varNames[v.Var.ID], v.Type, i)
		}
	}
	return e.elem(e.names[v.ID], v.Type, i)
}

func (e *emitter) elem(name string, t ir.Type, i string) string {
	if t.IsScalar() {
		return name
	}
	return name + "[" + i + "]"
}

// specialReg reads program_id or num_programs.
func (s nameSet) specialReg(v *ir.Value) string {
	f := "tri_num_programs_" + string("xyz"[min(max(v.Axis, 0), 2)])
	if v.Op == ir.OpProgramID {
		f = "tri_program_id_" + string("xyz"[min(max(v.Axis, 0), 2)])
	}
	s.use(f)
	return f + "()"
}

// tooMuchShared unwinds the emitter when a statement needs more scratch
// shared memory than a program has: a limit of the kernel's block sizes
// (Generate reports it at pos), not a fault of tri.
type tooMuchShared struct {
	pos   ir.Pos
	bytes int
}

// useShared reserves n bytes of scratch shared memory.
func (e *emitter) useShared(n int) {
	if n > maxSharedBytes {
		panic(tooMuchShared{e.w.at, n})
	}
	e.smemBytes = max(e.smemBytes, (n+15)/16*16)
}

// scratchUse is one printed statement's planned scratch shared memory
// (scratch.go) next to what its printers reserved while printing it; a
// nil stmt stands for the whole kernel, whose record also holds the
// planned alignment of the scratch's start (alignedScratch) next to the
// printers' (alignedSmem).
type scratchUse struct {
	stmt                           ir.Stmt
	planned, printed               int
	alignedPlanned, alignedPrinted bool
}

// checkedScratch prints statement s with print; where recordScratch is
// set, it records the scratch s's printers reserved next to its planned
// figure.
func (e *emitter) checkedScratch(s ir.Stmt, print func()) {
	if !e.recordScratch {
		print()
		return
	}
	outer := e.smemBytes
	e.smemBytes = 0
	print()
	e.scratchUses = append(e.scratchUses, scratchUse{stmt: s, planned: e.stmtScratch(s), printed: e.smemBytes})
	e.smemBytes = max(outer, e.smemBytes)
}

// checkStop unwinds the emitter if its context has ended.
func (e *emitter) checkStop(pos ir.Pos) {
	if e.opt.Context != nil && e.opt.Context.Err() != nil {
		panic(stopped{pos})
	}
}

// smem is the C expression of element idx of the scratch memory seen as an
// array of dtype d, starting at byte offset off.
func (s nameSet) smem(d ir.DType, off int, idx string) string {
	t := s.cType(d)
	if off == 0 {
		return fmt.Sprintf("reinterpret_cast<%s*>(tri_smem)[%s]", t, idx)
	}
	return fmt.Sprintf("reinterpret_cast<%s*>(tri_smem + %d)[%s]", t, off, idx)
}

// storeShared writes every element of tile x (layout s) to the scratch at
// byte offset off, at its row-major index.
func (e *emitter) storeShared(x *ir.Value, off int) {
	s := e.layoutOf(x)
	e.forElems(s.Elems, func(i string) string { return linearOf(s.Shape, e.coords(s, i)) }, func(i, j string) string {
		return fmt.Sprintf("%s = %s;", e.smem(x.Type.DType, off, j), e.expr(x, i))
	})
}

// castExpr is nameSet's castExpr on the emitter's target: before sm_89
// fp8e5 is converted in software (fp8SoftCastExpr).
func (e *emitter) castExpr(from, to ir.DType, x string, flags ir.Flags) string {
	if e.arch < 89 && (from.Kind == ir.Float8E5 || to.Kind == ir.Float8E5) {
		return e.fp8SoftCastExpr(from, to, x, flags&ir.FlagRoundTZ != 0)
	}
	return e.nameSet.castExpr(from, to, x, flags)
}

// define declares v (unless declared before a full/partial split) and
// assigns each of its elements the expression body(i).
func (e *emitter) define(v *ir.Value, body func(i string) string) {
	name := e.names[v.ID]
	if v.Type.IsScalar() {
		if e.outside[v.ID] || e.fused[v.ID] {
			e.w.line("%s = %s;", name, body(""))
		} else {
			e.declare(v.Type, nil, name, body(""))
		}
		return
	}
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, e.layoutOf(v), name, "")
	}
	e.loop(e.layoutOf(v).Elems, func(i string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, body(i)) })
}

// defineAt declares tile v and writes each element i of it as body(j),
// where j, the local tri_j, is at(i): an element index computed once, not
// pasted into each place body reads it.
func (e *emitter) defineAt(v *ir.Value, at, body func(i string) string) {
	name, d := e.names[v.ID], e.layoutOf(v)
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	e.forElems(d.Elems, at, func(i, j string) string { return fmt.Sprintf("%s[%s] = %s;", name, i, body(j)) })
}

// forElems writes stmt(i, j) for each of the n elements i of a thread's
// tile, where j is the int index at(i): pasted into stmt where the line
// fits in lineWidth, else bound to the local tri_j in a block of its own.
// stmt holds no string literal.
func (e *emitter) forElems(n int, at func(i string) string, stmt func(i, j string) string) {
	i, head := "e", fmt.Sprintf("for (int e = 0; e < %d; ++e) ", n)
	if n == 1 {
		i, head = "0", ""
	} else {
		e.w.line("#pragma unroll")
	}
	if one := head + stmt(i, at(i)); 2*e.w.indent+len(one) <= lineWidth {
		e.w.line("%s", one)
		return
	}
	e.w.open("%s{", head)
	e.w.line("const int tri_j = %s;", at(i))
	e.w.long(stmt(i, "tri_j"))
	e.w.close("}")
}

// nameMapBody names the values and Vars of a map_elementwise body. Unlike
// the kernel's, its Var reads are copied into locals of their own: the
// body is not analysed for reassignments.
func (e *emitter) nameMapBody(n *namer, b *ir.Block) {
	nameVar := func(x *ir.Var) {
		if e.varNames[x.ID] == "" {
			e.varNames[x.ID] = n.name(x.Name)
		}
	}
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			if s.Op == ir.OpConst || s.Op == ir.OpRegionArg || s.Type.Kind == ir.Void {
				continue
			}
			name := s.Name
			if name == "" {
				name = fmt.Sprintf("t%d", s.ID)
			}
			e.names[s.ID] = n.name(name)
		case *ir.Assign:
			nameVar(s.Var)
		case *ir.If:
			e.nameMapBody(n, s.Then)
			e.nameMapBody(n, s.Else)
		case *ir.For:
			nameVar(s.Var)
			e.nameMapBody(n, s.Body)
		case *ir.While:
			e.nameMapBody(n, s.Cond)
			e.nameMapBody(n, s.Body)
		}
	}
}

// keptAxes lists, for an expand_dims or a broadcast v, the axis of v that
// each axis of its operand becomes.
func keptAxes(v *ir.Value) []int {
	var axes []int
	for a := range v.Type.Shape {
		if v.Op == ir.OpExpandDims && a == v.Axis {
			continue
		}
		axes = append(axes, a)
	}
	return axes
}
