package cudagen

// This file implements Generate: the header, the kernel's signature, its
// blocks and control flow. Values are printed by ops.go and memory.go; the
// full-tile fast path is chosen in fastpath.go.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/version"
)

// Generate lowers k to one self-contained CUDA C translation unit.
func Generate(k *ir.Kernel, opt Options) (res *Result, err error) {
	if k == nil {
		// The recovery below names k's file, so a nil kernel is caught first.
		return nil, fmt.Errorf("cudagen.Generate: no kernel (nil)")
	}
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(stopped); ok {
				res, err = nil, stopError(opt.Context, k, s.pos)
				return
			}
			if s, ok := r.(tooMuchShared); ok {
				pos := s.pos
				if !pos.IsValid() {
					pos = ir.Pos{File: k.File}
				}
				res, err = nil, diag.Errorf(diag.Pos(pos), diag.CodeUnsupported,
					"out of resource: shared memory: this statement needs %d bytes (%d KiB) of scratch shared memory in tri's CUDA, more than the %d KiB a program has; use smaller blocks",
					s.bytes, (s.bytes+1023)/1024, maxSharedBytes/1024)
				return
			}
			res, err = nil, diag.Errorf(diag.Pos{File: k.File}, diag.CodeInternal, "internal error generating CUDA for kernel %s: %v", k.Name, r)
		}
	}()
	p, err := newPlan(k, opt.arch(), opt.tma())
	if err != nil {
		return nil, err
	}
	e := newEmitter(p, opt)
	e.header()
	head := e.w
	e.w = writer{}
	e.kernel()
	e.checkStop(ir.Pos{})
	body := e.w
	e.w = head
	e.w.at = ir.Pos{}
	e.w.raw(preludeFor(e.nameSet, e.helpers.list()))
	e.w.append(&body)
	res = &Result{Source: e.w.String(), Lines: e.w.lines, Kernel: e.kernelName, Threads: 32 * e.numWarps}
	if e.smemBytes > maxStaticShared {
		res.SharedBytes = e.smemBytes
	}
	for i, prm := range k.Params {
		res.Params = append(res.Params, Param{Name: e.params[i], DType: prm.DType})
	}
	for _, tm := range e.tmaps {
		res.TensorMaps = append(res.TensorMaps, tm.param(k, e.tmapNames[tm]))
	}
	res.ScratchBytes = p.scratchBytes()
	return res, nil
}

// Result is the CUDA of one kernel and what launching it takes.
type Result struct {
	Source string // the whole .cu file
	// Kernel is the name of the extern "C" __global__ function: the
	// kernel's, with a trailing underscore where it would clash with a C,
	// CUDA or tri name (printf, main, tri_add). A launch looks it up.
	Kernel  string
	Threads int // threads per program (block): 32 * num_warps
	// SharedBytes is the dynamic shared memory each launch must pass (0
	// where the kernel declares all of its shared memory statically).
	SharedBytes int
	Params      []Param // the kernel's parameters, in order
	// TensorMaps are CUtensorMap parameters that follow Params, each 128
	// bytes, 64-byte aligned, passed by value: the launch encodes them
	// from the descriptor parameters they name.
	TensorMaps []TensorMap
	// ScratchBytes, where not 0, is the global scratch memory each program
	// needs: the last parameter, after the tensor maps, is a device buffer
	// of ScratchBytes times the number of programs (the tensor maps the
	// kernel builds for its descriptors).
	ScratchBytes int
	Lines        []ir.Pos // Lines[i] is the source position of CUDA line i+1; zero where none
}

// Param is one parameter of a generated kernel.
type Param struct {
	Name  string // its C name
	DType ir.DType
}

// SourceLine returns the source position of CUDA line n (1-based), for
// mapping compiler messages back to the kernel's source.
func (r *Result) SourceLine(n int) (ir.Pos, bool) {
	if n < 1 || n > len(r.Lines) || !r.Lines[n-1].IsValid() {
		return ir.Pos{}, false
	}
	return r.Lines[n-1], true
}

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
	// smemBytes is the size of the scratch shared memory; usesShuffles
	// is set when a reduction moves values between lanes.
	smemBytes    int
	usesShuffles bool
	// alignedSmem is set where the scratch memory's start must be
	// 1024-byte aligned: it holds the stages of a pipeline or the boxes of
	// a swizzled TMA store, whose swizzle is a function of the address.
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

// header writes the comment that opens the file.
func (e *emitter) header() {
	k := e.k
	e.w.comment("Generated by tri %s from %s: kernel %s. Do not edit; regenerate instead.", version.Version, k.File, k.Name)
	var spec []string
	for _, s := range k.Spec {
		switch s.Kind {
		case "runtime":
			spec = append(spec, s.Name+": "+s.Value)
		default:
			spec = append(spec, s.Name+"="+s.Value)
		}
	}
	if len(spec) > 0 {
		e.w.comment("Specialization: %s", strings.Join(spec, ", "))
	}
	e.w.comment("Target %s. Launch with %d threads per program (num_warps=%d), one program per grid point.", e.opt.arch(), 32*e.numWarps, e.numWarps)
	var params []string
	for i, prm := range k.Params {
		params = append(params, fmt.Sprintf("%s (%s)", e.params[i], cType(prm.DType)))
	}
	for _, tm := range e.tmaps {
		swz := "unswizzled"
		if tm.Swizzle > 0 {
			swz = fmt.Sprintf("%d-byte swizzle", tm.Swizzle)
		}
		if len(tm.rows) > 0 {
			swz += ", rows in wgmma's order: a 5-D view"
		}
		params = append(params, fmt.Sprintf("%s (a 128-byte CUtensorMap of %s, by value: boxes of %d x %d elements, %s)",
			e.tmapNames[tm], tm.Of, tm.BoxRows, tm.BoxInner, swz))
	}
	if n := e.scratchBytes(); n > 0 {
		params = append(params, fmt.Sprintf("tri_scratch (a device buffer of %d bytes per program, 128-byte aligned, where the kernel builds the tensor maps of its descriptors)", n))
	}
	if len(params) == 0 {
		params = []string{"none"}
	}
	e.w.comment("Parameters, in order: %s", strings.Join(params, ", "))
	if len(e.layouts) > 0 {
		e.w.comment("Layouts:")
		for _, l := range e.layouts {
			if line := fmt.Sprintf("  #%s = %s for %s tiles: %s", l.Tag, l.Layout, ints(l.Shape), l.describe()); len(line)+3 <= lineWidth {
				e.w.comment("%s", line)
			} else {
				e.w.comment("  #%s = %s", l.Tag, l.Layout)
				e.w.comment("    for %s tiles: %s", ints(l.Shape), l.describe())
			}
		}
	}
	e.w.line("")
}

// signature opens the kernel's function: head, then the parameters on
// its line or, where that would be wider than lineWidth, on the next
// lines, as many on each as fit.
func (e *emitter) signature(head string, params []string) {
	if one := head + "(" + strings.Join(params, ", ") + ") {"; len(one) <= lineWidth {
		e.w.open("%s", one)
		return
	}
	e.w.line("%s(", head)
	for _, l := range wrapText(strings.Join(params, ", ")+") {", lineWidth-4, 0) {
		e.w.line("    %s", l)
	}
	e.w.indent++
}

// kernel writes the __global__ function.
func (e *emitter) kernel() {
	var params []string
	for i, prm := range e.k.Params {
		params = append(params, e.cType(prm.DType)+" "+e.params[i])
	}
	for _, tm := range e.tmaps {
		e.tmaHelpers()
		e.use("tri_tmap")
		params = append(params, "const __grid_constant__ tri_tmap "+e.tmapNames[tm])
	}
	if e.scratchBytes() > 0 {
		e.tmaHelpers()
		params = append(params, "unsigned char* __restrict__ tri_scratch")
	}
	e.w.line("")
	// The file is named here once; each statement's comment gives its line.
	e.w.comment("Source %s: each statement's comment quotes its line (N: text), or names another file's (file:N:).", e.k.File)
	if b := e.minBlocks(); b > 1 {
		// The same as __launch_bounds__(threads, blocks), which the clang
		// prelude's one-argument macro cannot take.
		if len(e.mloops) > 0 {
			e.w.line("// Ask for %d programs per SM (at most %d registers a thread): one's softmax runs while another's %s do.", b, 65536/(b*32*e.numWarps), e.tensorOps())
		} else {
			e.w.line("// Each thread holds many elements: ask for %d programs per SM so loads stay in flight (at most %d registers a thread).", b, 65536/(b*32*e.numWarps))
		}
		e.signature(fmt.Sprintf("extern \"C\" __global__ void __attribute__((launch_bounds(%d, %d))) %s", 32*e.numWarps, b, e.kernelName), params)
	} else {
		e.signature(fmt.Sprintf("extern \"C\" __global__ void __launch_bounds__(%d) %s", 32*e.numWarps, e.kernelName), params)
	}
	head := e.w
	e.w = writer{indent: head.indent, at: head.at}
	e.declareDeviceMaps()
	e.block(e.k.Body)
	body := e.w
	e.w = head
	switch {
	case e.smemBytes > maxStaticShared:
		e.w.line("// Scratch shared memory for dots, layout conversions, reductions, scans and scalar atomics,")
		e.w.line("// more than a kernel may declare statically: the launch passes its size.")
		e.w.line("// Dynamic shared memory: %d bytes", e.smemBytes)
		e.w.line("extern __shared__ __attribute__((aligned(1024))) unsigned char tri_smem[];")
	case e.smemBytes > 0:
		e.w.line("// Scratch shared memory for layout conversions, reductions, scans and scalar atomics.")
		align := 16
		switch {
		case e.alignedSmem:
			align = 1024
		case len(e.tmaStores) > 0:
			align = 128 // the TMA unit reads a box from a 128-byte aligned address
		}
		e.w.line("__shared__ __attribute__((aligned(%d))) unsigned char tri_smem[%d];", align, e.smemBytes)
	}
	if e.alignedSmem {
		// The kernel declares no other shared memory, so the compiler and
		// the driver put tri_smem at the start of the program's shared
		// memory, which is 1024-byte aligned; should that ever not hold,
		// the kernel stops rather than swizzle wrongly.
		e.helpers.add("mma", mmaHelpers)
		e.use("tri_smem_addr")
		e.w.line("if ((tri_smem_addr(tri_smem) & 1023u) != 0u) asm volatile(\"trap;\");  // the stages and swizzled boxes below need a 1024-byte aligned start")
	}
	// Only the coordinates the body was recorded reading: the layouts of
	// values left out (the pointers of TMA copies) declare none.
	var bases writer
	bases.indent = e.w.indent
	for _, l := range e.layouts {
		for a := range l.Shape {
			if e.nameSet[l.base(a)] {
				bases.line("int %s = %s;  // %s", l.base(a), e.baseInit(l, a), baseComment(l, a))
			}
		}
		if l.Repl && e.storesTo(l) {
			bases.line("bool %s = %s;  // #%s is replicated: only this thread's copy is stored", l.owner(), e.ownerInit(l), l.Tag)
		}
	}
	if e.needLaneWarp() && (e.nameSet["lane_id"] || e.nameSet["warp_id"]) {
		e.use("tri_thread_id")
		e.w.line("int lane_id = tri_thread_id() %% 32, warp_id = tri_thread_id() / 32;")
	}
	e.w.append(&bases)
	e.w.append(&body)
	e.w.at = ir.Pos{}
	e.w.close("}")
}

// minBlocks is the number of programs per SM to ask ptxas for: when
// threads hold 32 or more elements of a tile and a program has at most
// 256 threads, enough programs for 512 threads per SM, so registers are
// capped at 128 and memory latency stays hidden; else (and for kernels
// with a pipelined dot, or dots on wgmma whose accumulators take more
// than 100 registers a thread) 1, no request.
func (e *emitter) minBlocks() int {
	threads := 32 * e.numWarps
	most := 0
	for _, l := range e.layouts {
		most = max(most, l.Elems)
	}
	if len(e.mloops) > 0 && len(e.loops) == 0 {
		return e.pipeBlocks()
	}
	if e.aloneDotRegisters() > 100 {
		// Wide accumulators need more than 128 registers a thread. The
		// bound is measured: attention at num_stages=1 runs faster capped
		// at head dimension 64 (96 registers of dots) and uncapped at 128
		// (144), a 128 x 128 matmul block at 4 warps (128) needs no cap.
		return 1
	}
	if most < 32 || threads > 256 || len(e.loops) > 0 || len(e.mloops) > 0 {
		// A pipelined dot keeps its accumulators and the copies in
		// flight in registers; one program per SM is what it is sized for.
		return 1
	}
	return 512 / threads
}

// baseComment explains a layout's base local.
func baseComment(l *dist, a int) string {
	if l.rank() == 1 {
		return fmt.Sprintf("index of this thread's first element in #%s tiles", l.Tag)
	}
	return fmt.Sprintf("coordinate along axis %d of this thread's first element in #%s tiles", a, l.Tag)
}

// needLaneWarp reports whether the kernel reads lane_id and warp_id.
func (e *emitter) needLaneWarp() bool {
	if e.usesShuffles {
		return true
	}
	for _, l := range e.layouts {
		if l.usesLaneWarp() {
			return true
		}
	}
	return false
}

// storesTo reports whether the kernel stores tiles of layout l, applies
// atomics to them, or prints them.
func (e *emitter) storesTo(l *dist) bool {
	found := false
	e.forEachValue(e.k.Body, func(v *ir.Value) {
		switch v.Op {
		case ir.OpStore, ir.OpAtomicRMW, ir.OpAtomicCAS:
			if !v.Args[0].Type.IsScalar() && e.layoutOf(v.Args[0]) == l {
				found = true
			}
		case ir.OpPrint:
			for _, a := range v.Args {
				found = found || !a.Type.IsScalar() && e.layoutOf(a) == l
			}
		}
	})
	return found
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

// block writes the statements of b, declaring first the Vars that live in
// it.
func (e *emitter) block(b *ir.Block) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == b {
			e.declare(x.Type, e.varDists[x.ID], e.varNames[x.ID], "")
		}
	}
	for i := 0; i < len(b.Stmts); {
		j := i
		for j < len(b.Stmts) && isStraight(b.Stmts[j]) {
			j++
		}
		if j > i {
			e.region(b, i, j)
			i = j
			continue
		}
		e.control(b.Stmts[i])
		i++
	}
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

// control writes a for, while, if or return.
func (e *emitter) control(s ir.Stmt) {
	e.source(s.Position())
	e.buildMaps(s)
	switch s := s.(type) {
	case *ir.For:
		if r := e.piped[s]; r != nil {
			e.pipelinedLoop(s, r)
			break
		}
		if h := e.hoists[s]; h != nil {
			e.hoistedFor(s, h)
			break
		}
		if e.peeledFor(s) {
			break
		}
		e.plainFor(s)
	case *ir.While:
		e.w.open("for (;;) {")
		e.block(s.Cond)
		e.w.line("if (!%s) break;", e.expr(s.CondValue, ""))
		e.block(s.Body)
		e.w.close("}")
	case *ir.If:
		e.w.open("if (%s) {", e.expr(s.Cond, ""))
		e.block(s.Then)
		if len(s.Else.Stmts) > 0 {
			e.w.indent--
			e.w.line("} else {")
			e.w.indent++
			e.lastLine = 0
			e.block(s.Else)
		}
		e.w.close("}")
	case *ir.Return:
		e.w.line("return;")
	}
	e.lastLine = 0
}

// plainFor writes loop s as a C for loop.
func (e *emitter) plainFor(s *ir.For) {
	i := e.varNames[s.Var.ID]
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	cond := fmt.Sprintf("%s < %s", i, hi)
	switch {
	case s.Step.Op == ir.OpConst && s.Step.Const.Int < 0:
		cond = fmt.Sprintf("%s > %s", i, hi)
	case s.Step.Op != ir.OpConst:
		cond = fmt.Sprintf("%s > 0 ? %s < %s : %s > %s", step, i, hi, i, hi)
	}
	e.w.open("for (%s %s = %s; %s; %s += %s) {", e.cType(s.Var.Type.DType), i, lo, cond, i, step)
	e.block(s.Body)
	e.w.close("}")
}

// statement writes one value or assignment.
func (e *emitter) statement(s ir.Stmt) {
	e.checkStop(s.Position())
	e.buildMaps(s)
	switch s := s.(type) {
	case *ir.Assign:
		name := e.varNames[s.Var.ID]
		if s.Value.Op == ir.OpVarRead && s.Value.Var == s.Var || e.fused[s.Value.ID] {
			return
		}
		e.source(s.Pos)
		if s.Var.Type.IsScalar() {
			e.w.line("%s = %s;", name, e.expr(s.Value, ""))
			return
		}
		e.loop(e.varDists[s.Var.ID].Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.expr(s.Value, i))
		})
	case *ir.Value:
		if e.fast && e.skip[s.ID] || e.dead[s.ID] {
			return
		}
		e.value(s)
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

// isRemap reports whether v, a broadcast or expand_dims, only re-indexes
// its operand's registers: it is then printed inline where used.
func (e *emitter) isRemap(v *ir.Value) bool { return !e.converts[v.ID] && e.remat[v.ID] == nil }

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
