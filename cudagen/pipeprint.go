package cudagen

// This file implements the choice of printer for a dot and for a
// pipelined loop's record (pipePlan, pipeplan.go): the K loop of one dot
// on wgmma (pipeline.go) or mma.sync (mmapipe.go), a loop of several dots
// on wgmma (multipipe.go) or mma.sync (mmamulti.go); a dot of such a loop,
// a dot on wgmma outside the pipelines (wgdot.go), or one staged through
// shared memory where it stands (dot.go).

import "github.com/tri-lang/tri/ir"

// pipelinedLoop writes loop s as its pipeline r.
func (e *emitter) pipelinedLoop(s *ir.For, r *pipePlan) {
	switch {
	case r.one != nil && r.one.mma:
		e.mmaPipelinedFor(s, r.one)
	case r.one != nil:
		e.pipelinedFor(s, r.one)
	case e.wgmma:
		e.multiPipedFor(s, r.multi)
	default:
		e.mmaMultiPipedFor(s, r.multi)
	}
}

// dot writes v = tl.dot(a, b, acc).
func (e *emitter) dot(v *ir.Value) {
	switch wd := e.wgDots[v.ID]; {
	case wd == nil:
		e.stagedDot(v)
	case wd.alone:
		e.aloneDot(wd)
	case e.wgmma:
		e.wgmmaDot(wd)
	default:
		e.mmaMultiDot(wd)
	}
}

// pipeBlocks is the number of programs per SM to ask ptxas for in a
// kernel with multi-dot pipelines (multiPipeBlocks, mmaMultiBlocks).
func (e *emitter) pipeBlocks() int {
	if e.wgmma {
		return e.multiPipeBlocks()
	}
	return e.mmaMultiBlocks()
}
