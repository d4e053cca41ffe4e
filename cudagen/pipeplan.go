package cudagen

// This file implements the pipeline analysis's entry: pipelineOf reads a
// loop once (pipescan.go) and returns its verdict (pipeVerdict), the plan
// of one of its two cases, the K loop of one dot (pipeone.go) or a loop
// of several dots (multiplan.go), or why the loop is not pipelined.
// findPipelines stores every loop's verdict, which the dots' comments and
// Describe read, and indexes the plans for the layouts and the printers;
// once the layouts are chosen, recordPipelines makes the one record of
// each pipelined loop (pipePlan), whatever its case, which Describe
// reports.

import (
	"github.com/tri-lang/tri/ir"
)

// String names the copy as Describe reports it.
func (c copyKind) String() string {
	switch c {
	case tmaCopy:
		return "TMA"
	case rowsCopy:
		return "cp.async by rows"
	}
	return "cp.async"
}

// copyOf is the copyKind of a streamed load the TMA unit copies (tma),
// or cp.async from its descriptor (direct), or else through its pointers.
func copyOf(tma *tensorMap, direct bool) copyKind {
	switch {
	case tma != nil:
		return tmaCopy
	case direct:
		return rowsCopy
	}
	return cpAsyncCopy
}

// recordPipelines makes the record of each loop that is written as a
// pipeline (after the layouts, which may leave a K loop's dot without
// its instruction's accumulator layout), in program order.
func (p *plan) recordPipelines() {
	p.piped = map[*ir.For]*pipePlan{}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op != ir.OpDot {
			return
		}
		if pl := p.pipes[v.ID]; pl != nil && p.pipelined(v) {
			p.piped[pl.loop] = p.recordOne(pl)
		}
	})
	for s, mp := range p.mloops {
		p.piped[s] = p.recordMulti(s, mp)
	}
}

// recordOne is the record of the K loop of one dot pl.
func (p *plan) recordOne(pl *pipeline) *pipePlan {
	r := &pipePlan{loop: pl.loop, engine: p.dotEngine(), dots: []*ir.Value{pl.dot}, stagePlan: &pl.stagePlan, one: pl}
	for i, ld := range pl.loads {
		if ld != nil {
			r.operands = append(r.operands, pipeOperand{src: ld, form: streamed, copy: copyOf(pl.tma[i], pl.direct[i])})
		}
	}
	if pl.inFlight() {
		r.inFlight = pl.dot
	}
	return r
}

// recordMulti is the record of loop s of several dots mp: the streamed
// operands, then the others.
func (p *plan) recordMulti(s *ir.For, mp *multiPipe) *pipePlan {
	r := &pipePlan{loop: s, engine: p.dotEngine(), stagePlan: &mp.stagePlan, multi: mp}
	seen := map[*ir.Value]bool{}
	for _, o := range mp.streamed {
		if !seen[o.src] {
			seen[o.src] = true
			r.operands = append(r.operands, pipeOperand{src: o.src, form: streamed, copy: copyOf(o.tma, o.direct)})
		}
	}
	for _, wd := range mp.dots {
		r.dots = append(r.dots, wd.dot)
		for _, o := range []*wgOperand{&wd.a, &wd.b} {
			if o.form != streamed && !seen[o.src] {
				seen[o.src] = true
				r.operands = append(r.operands, pipeOperand{src: o.src, form: o.form, kept: o.storedBy != nil})
			}
		}
	}
	if mp.inFlight != nil {
		r.inFlight = mp.inFlight.dot
	}
	return r
}

// maps are the tensor maps the TMA copies of the plan read, in its
// order: a's, a's rows' view, b's (nil where the copies are not TMA's).
func (pl *pipeline) maps() []*tensorMap { return []*tensorMap{pl.tma[0], pl.aRows, pl.tma[1]} }

// maps are the tensor maps the TMA copies of the plan's streamed operands
// read, in their order (nil where the copies are not TMA's).
func (mp *multiPipe) maps() []*tensorMap {
	var tms []*tensorMap
	for _, o := range mp.streamed {
		tms = append(tms, o.tma)
	}
	return tms
}

// maps are the tensor maps of the verdict's plan, if any.
func (v pipeVerdict) maps() []*tensorMap {
	switch {
	case v.one != nil:
		return v.one.maps()
	case v.multi != nil:
		return v.multi.maps()
	}
	return nil
}

// pipelineOf is the pipeline analysis of loop s: it reads the loop once
// (scanLoop), and takes it as the K loop of its one dot (kLoopOf) where it
// is one, else as a loop of several dots (multiPipeOf), or says why not.
func (p *plan) pipelineOf(s *ir.For) pipeVerdict {
	sc, why := p.scanLoop(s)
	if sc == nil {
		return pipeVerdict{why: why}
	}
	var v pipeVerdict
	if len(sc.dots) == 1 {
		v.one, v.kinds = p.kLoopOf(sc)
	}
	if v.one == nil {
		v.multi, v.why = p.multiPipeOf(sc)
	}
	// The tensor maps of the plan's TMA copies are the kernel's.
	for _, tm := range v.maps() {
		p.addTensorMap(tm, s)
	}
	return v
}

// findPipelines records the pipeline analysis of each loop (verdicts),
// and indexes the loops it pipelines, by dot and by loop: onto wgmma on
// sm_90a, onto mma.sync elsewhere. The loops nested in one it does not
// pipeline are analysed in turn.
func (p *plan) findPipelines() {
	p.verdicts = map[*ir.For]pipeVerdict{}
	p.pipes = map[int]*pipeline{}
	p.loops = map[*ir.For]*pipeline{}
	p.mloops = map[*ir.For]*multiPipe{}
	p.wgDots = map[int]*wgDot{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.For:
				v := p.pipelineOf(s)
				p.verdicts[s] = v
				switch {
				case v.one != nil:
					p.pipes[v.one.dot.ID] = v.one
					p.loops[s] = v.one
				case v.multi != nil:
					p.mloops[s] = v.multi
					for _, wd := range v.multi.dots {
						p.wgDots[wd.dot.ID] = wd
					}
				default:
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
