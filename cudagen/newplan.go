package cudagen

// This file implements newPlan, the planning passes in their order: the
// index of where every value is defined and used, the check that the
// kernel is within what cudagen supports, the axis analysis, the software
// pipeliner (pipeplan.go) and the dots on wgmma outside it (wgdot.go),
// the choice of layouts (propagate.go), the TMA and direct copies
// (tma.go, tmapdev.go), and the record of each pipelined loop. Generate
// and Describe start from its plan. The checks are here too: each value's
// op, its fp8 dtypes on the target, a map_elementwise body's values.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// newPlan indexes k, checks it, and chooses layouts for target arch.
func newPlan(k *ir.Kernel, arch string, tma bool) (*plan, error) {
	arch = targetArch(arch)
	if err := CheckArch(arch); err != nil {
		return nil, err
	}
	p := &plan{k: k, numWarps: k.NumWarps, wgmma: arch == "sm_90a", tma: tma, arch: ArchVersion(arch), fp8Reported: map[ir.Kind]bool{}, defs: make([]site, k.NumValues), users: make([][]*ir.Value, k.NumValues),
		ctlUse: make([]int, k.NumValues), vars: make([]*ir.Var, k.NumVars), parent: map[*ir.Block]*ir.Block{}, varBlock: make([]*ir.Block, k.NumVars),
		mapUsers: map[*tensorMap][]ir.Stmt{}, owner: map[*ir.Block]ir.Stmt{}, ctlSite: map[ir.Stmt]site{}}
	if p.numWarps <= 0 {
		p.numWarps = 4
	}
	var errs diag.List
	varSeen := make([]bool, k.NumVars)
	loopVar := make([]bool, k.NumVars)
	useVar := func(v *ir.Var, b *ir.Block) {
		p.vars[v.ID] = v
		if loopVar[v.ID] {
			return
		}
		if !varSeen[v.ID] {
			varSeen[v.ID], p.varBlock[v.ID] = true, b
			return
		}
		p.varBlock[v.ID] = p.commonBlock(p.varBlock[v.ID], b)
	}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for i, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.Value:
				p.defs[s.ID] = site{b, i}
				for _, a := range s.Args {
					if a != nil {
						p.users[a.ID] = append(p.users[a.ID], s)
					}
				}
				if s.Op == ir.OpVarRead {
					useVar(s.Var, b)
				}
				p.check(s, &errs)
			case *ir.Assign:
				p.ctlUse[s.Value.ID]++
				useVar(s.Var, b)
			case *ir.For:
				p.ctlUse[s.Lo.ID]++
				p.ctlUse[s.Hi.ID]++
				p.ctlUse[s.Step.ID]++
				loopVar[s.Var.ID], p.vars[s.Var.ID] = true, s.Var
				p.parent[s.Body] = b
				p.owner[s.Body], p.ctlSite[s] = s, site{b, i}
				walk(s.Body)
			case *ir.While:
				p.ctlUse[s.CondValue.ID]++
				p.parent[s.Cond], p.parent[s.Body] = b, b
				p.owner[s.Cond], p.owner[s.Body], p.ctlSite[s] = s, s, site{b, i}
				walk(s.Cond)
				walk(s.Body)
			case *ir.If:
				p.ctlUse[s.Cond.ID]++
				p.parent[s.Then], p.parent[s.Else] = b, b
				p.owner[s.Then], p.owner[s.Else], p.ctlSite[s] = s, s, site{b, i}
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(k.Body)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	p.axes = analyzeAxes(k)
	if p.wgmma && !hasWgmmaDot(k, p.numWarps) {
		p.wgmma, p.mmaOnSM90 = false, true
	}
	p.spillBound = p.isSpillBound()
	p.findPipelines()
	p.findAloneDots()
	p.chooseLayouts()
	// A multi-dot pipeline whose operands in registers did not get
	// wgmma's layout is dropped, and the layouts chosen again without it.
	dropped := false
	for s, mp := range p.mloops {
		if !p.validMultiPipe(mp) {
			delete(p.mloops, s)
			for _, wd := range mp.dots {
				delete(p.wgDots, wd.dot.ID)
			}
			dropped = true
		}
	}
	if p.validAloneDots() {
		dropped = true
	}
	if dropped {
		p.chooseLayouts()
	}
	// A dot outside the pipelines may lose its layout to a family
	// another dropped dot shared: drop until the rest hold.
	for p.validAloneDots() {
		p.chooseLayouts()
	}
	p.findTMAInvariants()
	p.findTMAStores()
	p.placeTensorMaps()
	p.findDirectStores()
	p.findDirectLoads()
	p.findDeadValues()
	p.findKeptInvariants()
	p.placeAloneDots()
	p.fp8ARegisters()
	p.recordPipelines()
	return p, nil
}

// hasWgmmaDot reports whether sm_90a runs some dot of k on wgmma, as
// Triton's AccelerateMatmul chooses the instruction: a rank-2 dot with
// num_warps a multiple of 4 and a result of whole 64-row blocks and
// 8-column groups (supportMMA for version 3); and every dot but one of
// fp16 or bf16 operands, which mma.sync also takes, counts as one here.
// Where no dot is, Triton runs them all on mma.sync (its version 2), and
// so does tri: every dot of such a kernel (a decode attention's 16 query
// heads, a skinny matmul's 16 rows) takes the sm_80 lowering, pipelined
// with cp.async, where the wgmma paths would leave it unpipelined.
func hasWgmmaDot(k *ir.Kernel, numWarps int) bool {
	dots, found := 0, false
	ir.Inspect(k.Body, func(v *ir.Value) {
		if v.Op != ir.OpDot {
			return
		}
		dots++
		a, b := v.Args[0].Type.Kind, v.Args[1].Type.Kind
		shape := v.Type.Shape
		if !isHalf(a) || a != b || shape.Rank() != 2 || numWarps%4 == 0 && shape[0]%64 == 0 && shape[1]%8 == 0 {
			found = true
		}
	})
	return found || dots == 0
}

// check reports what cudagen cannot lower yet.
func (p *plan) check(v *ir.Value, errs *diag.List) {
	if !Lowers(v.Op) {
		errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "%s is not yet supported by CUDA generation", v.Op)
		return
	}
	if v.Op == ir.OpDot {
		checkDot(v, errs)
	}
	if !p.checkFP8(v, errs) {
		return
	}
	if n := tileOpSharedBytes(v); n > maxSharedBytes {
		errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "%s of %s needs %d KiB of shared memory; at most %d KiB are available",
			v.Op, v.Args[0].Type, (n+1023)/1024, maxSharedBytes/1024)
		return
	}
	shapes := []ir.Shape{v.Type.Shape}
	for _, t := range v.Types {
		shapes = append(shapes, t.Shape)
	}
	for _, s := range shapes {
		for _, n := range s {
			if n <= 0 || n&(n-1) != 0 {
				errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "tile of shape %s: tile dimensions must be powers of two", s)
				return
			}
		}
	}
	if (v.Op == ir.OpReduce || v.Op == ir.OpScan) && v.Combine == ir.CombineCustom && v.Region == nil {
		errs.Errorf(diag.Pos(v.Pos), diag.CodeInternal, "%s with a custom combine function has no region", v.Op)
		return
	}
	if v.Op == ir.OpScan && (v.Combine == ir.CombineArgMax || v.Combine == ir.CombineArgMin) {
		errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "a scan with %s is not supported", v.Combine)
		return
	}
	if v.Op == ir.OpMapElementwise {
		p.checkMapBody(v.Region.Body, errs)
		return
	}
	if v.Region != nil {
		for _, s := range v.Region.Body.Stmts {
			if _, ok := s.(*ir.Value); !ok {
				errs.Errorf(diag.Pos(s.Position()), diag.CodeUnsupported, "control flow in a combine function is not yet supported by CUDA generation")
				return
			}
		}
		for _, s := range v.Region.Body.Stmts {
			r := s.(*ir.Value)
			// A combine function runs once per pair of elements, inside the
			// reduction's or scan's loops, where the threads of a tile are
			// not working together: there is no layout for a tile there.
			if !r.Type.IsScalar() && r.Op != ir.OpRegionArg {
				errs.Errorf(diag.Pos(r.Pos), diag.CodeUnsupported, "a tile (%s) inside the combine function of %s is not yet supported by CUDA generation", r.Type, v.Op)
				return
			}
			p.check(r, errs)
		}
	}
}

// supportedFP8 lists the fp8 dtypes Triton supports on a target, as its
// NVIDIA backend does (fp8e4b15 everywhere, fp8e4nv from sm_89).
func supportedFP8(arch int) string {
	if arch >= 89 {
		return "('fp8e4b15', 'fp8e4nv', 'fp8e5')"
	}
	return "('fp8e4b15', 'fp8e5')"
}

// checkFP8 reports fp8 dtypes the target cannot take, once per kind, with
// Triton's message: the AMD (fnuz) formats, and fp8e4nv before sm_89.
func (p *plan) checkFP8(v *ir.Value, errs *diag.List) bool {
	arch := p.arch
	kinds := []ir.Kind{v.Type.Kind, v.Type.Elem}
	for _, a := range v.Args {
		if a != nil {
			kinds = append(kinds, a.Type.Kind, a.Type.Elem)
		}
	}
	for _, k := range kinds {
		if !k.IsFP8() {
			continue
		}
		if p.fp8Reported[k] {
			return false
		}
		if _, ok := fp8Names[k]; !ok || k == ir.Float8E4NV && arch < 89 {
			p.fp8Reported[k] = true
			errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "type %s not supported in this architecture. The supported fp8 dtypes are %s", k, supportedFP8(arch))
			return false
		}
	}
	return true
}

// checkMapBody checks the values of a map_elementwise body, its branches
// and loops included; a return cannot occur there.
func (p *plan) checkMapBody(b *ir.Block, errs *diag.List) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			p.check(s, errs)
		case *ir.If:
			p.checkMapBody(s.Then, errs)
			p.checkMapBody(s.Else, errs)
		case *ir.For:
			p.checkMapBody(s.Body, errs)
		case *ir.While:
			p.checkMapBody(s.Cond, errs)
			p.checkMapBody(s.Body, errs)
		case *ir.Return:
			errs.Errorf(diag.Pos(s.Pos), diag.CodeUnsupported, "a return inside the function of tl.map_elementwise is not supported")
		}
	}
}
