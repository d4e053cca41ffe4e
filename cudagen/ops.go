package cudagen

// This file implements the printing of a value: the choice of its op's
// printer (loads and stores, shapes, reductions, scans, atomics, dots,
// tile operations, ...) and, for the elementwise ops, the value's
// definition from compute.go's expressions. Each tile value becomes a
// per-thread array filled by one unrolled loop (emit.go's define); a
// scalar becomes a plain local.

import (
	"github.com/tri-lang/tri/ir"
)

// value writes the code computing v.
func (e *emitter) value(v *ir.Value) {
	switch v.Op {
	case ir.OpConst, ir.OpParam, ir.OpSplat, ir.OpMultipleOf, ir.OpMaxContiguous, ir.OpAssume:
		return
	case ir.OpProgramID, ir.OpNumPrograms, ir.OpVarRead:
		if e.names[v.ID] == "" {
			return
		}
	case ir.OpLoad:
		e.source(v.Pos)
		if e.directLoads[v.ID] {
			e.directLoad(v)
			return
		}
		e.load(v)
		return
	case ir.OpStore:
		e.source(v.Pos)
		if tm := e.tmaStores[v.ID]; tm != nil {
			e.tmaStore(v, tm)
			return
		}
		if e.directStores[v.ID] {
			e.directStore(v)
			return
		}
		e.store(v)
		return
	case ir.OpBarrier:
		e.source(v.Pos)
		e.w.line("__syncthreads();")
		return
	case ir.OpGdcWait, ir.OpGdcLaunchDependents:
		e.source(v.Pos)
		e.gridDepControl(v)
		return
	case ir.OpRegionArg:
		return
	case ir.OpBroadcast, ir.OpExpandDims, ir.OpReshape, ir.OpTrans, ir.OpJoin, ir.OpSplit, ir.OpTupleGet:
		if (v.Op == ir.OpBroadcast || v.Op == ir.OpExpandDims) && e.isRemap(v) {
			return
		}
		e.source(v.Pos)
		e.shapeOp(v)
		return
	case ir.OpReduce:
		e.source(v.Pos)
		e.reduce(v)
		return
	case ir.OpScan:
		e.source(v.Pos)
		e.scan(v)
		return
	case ir.OpAtomicRMW, ir.OpAtomicCAS:
		e.source(v.Pos)
		e.atomic(v)
		return
	case ir.OpDot:
		e.source(v.Pos)
		e.dot(v)
		return
	// Printing and assertions (debug.go).
	case ir.OpPrint:
		e.source(v.Pos)
		e.print(v)
		return
	case ir.OpAssert:
		e.assert(v)
		return
	case ir.OpInlineAsm:
		e.source(v.Pos)
		e.inlineAsm(v)
		return
	case ir.OpSort, ir.OpFlip, ir.OpGather, ir.OpHistogram, ir.OpCat, ir.OpMapElementwise:
		e.source(v.Pos)
		e.tileOp(v)
		return
	}
	e.source(v.Pos)
	e.define(v, func(i string) string { return e.compute(v, i) })
}

// gridDepControl emits gdc_wait or gdc_launch_dependents: PTX's
// griddepcontrol, which exists from sm_90. Below it a launch cannot be
// programmatically dependent, so waiting and releasing are no-ops there
// (Triton's inline PTX would fail to assemble instead).
func (e *emitter) gridDepControl(v *ir.Value) {
	instr := "griddepcontrol.wait"
	what := "wait until the grids this launch depends on have finished (or released it) and their writes are visible"
	if v.Op == ir.OpGdcLaunchDependents {
		instr = "griddepcontrol.launch_dependents"
		what = "let the dependent launch start once every program has passed this point or exited"
	}
	if e.arch < 90 {
		e.w.line("// %s: needs sm_90; a no-op on this target.", instr)
		return
	}
	e.w.line("// %s.", what)
	e.w.line(`asm volatile("%s;" ::: "memory");`, instr)
}
