package cudagen

// This file implements the software pipeliner's entry: findPipelines asks
// each loop of the kernel for its pipeline, the K loop of one dot
// (pipeone.go) or a loop of several dots (multiplan.go), and records what
// it finds for the layouts and the printers.

import (
	"github.com/tri-lang/tri/ir"
)

// findPipelines records the loops whose dot can be pipelined, by dot and
// by loop: onto wgmma on sm_90a, onto mma.sync elsewhere (mmapipe.go,
// and mmamulti.go for loops of several dots).
func (p *plan) findPipelines() {
	p.pipes = map[int]*pipeline{}
	p.loops = map[*ir.For]*pipeline{}
	p.mloops = map[*ir.For]*multiPipe{}
	p.wgDots = map[int]*wgDot{}
	p.unpiped = map[int]string{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.For:
				if pl := p.pipelineOf(s); pl != nil {
					p.pipes[pl.dot.ID] = pl
					p.loops[s] = pl
				} else if mp := p.multiPipeOf(s); mp != nil {
					p.mloops[s] = mp
					for _, wd := range mp.dots {
						p.wgDots[wd.dot.ID] = wd
					}
				} else {
					walk(s.Body)
				}
			case *ir.While:
				walk(s.Body)
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(p.k.Body)
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
