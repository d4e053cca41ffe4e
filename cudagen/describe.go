package cudagen

// This file implements Describe: the plan's decisions for one kernel as
// records a reviewer reads (tri review draws them): the layouts with the
// thread and register that hold each element, every tile value's layout
// and lowering, and for each loop that holds a dot its software pipeline,
// or why it has none.

import (
	"fmt"
	"slices"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// Description is what the plan decided for a kernel.
type Description struct {
	Kernel   string
	Arch     string
	NumWarps int
	Threads  int
	Layouts  []TileLayout // in the order the CUDA's header lists them
	Tiles    []Tile       // in program order
	Loops    []Loop       // the loops that hold a dot, in program order
	// Conversions counts the values whose operand changes layout through
	// shared memory.
	Conversions int
}

// TileLayout is a layout applied to one tile shape, as the CUDA's header
// lists it ("#L0 = Blocked(...) for [1024] tiles").
type TileLayout struct {
	Tag            string // "L0": the name the CUDA's comments and locals use
	Layout         Layout
	Shape          []int
	Threads        int  // threads of a program
	ElemsPerThread int  // elements each thread holds in registers
	Replicated     bool // some elements are held by several threads
	Words          string
	d              *dist
}

// Holder is a thread of a program and the index of one of its registers
// (the element of its per-thread array) holding an element of a tile.
type Holder struct{ Thread, Reg int }

// Holders returns, for each element of the tile in row-major order, the
// threads and registers holding it, by thread then register. It computes
// what the CUDA's index expressions (dist.coord) compute in C: along axis
// a, element e of a thread lies at
//
//	base_a + (e / RStride[a] % Reps[a]) * Span[a] + e / KStride[a] % Spt[a]
//
// where base_a is the thread's position along a (its warp's, then its
// lane's) times the layout's sizePerThread, taken modulo a shape smaller
// than the layout's tile.
func (l TileLayout) Holders() [][]Holder {
	d := l.d
	if d == nil {
		return nil
	}
	n := 1
	for _, s := range d.Shape {
		n *= s
	}
	out := make([][]Holder, n)
	base := make([]int, d.rank())
	for t := range d.Threads {
		lane, warp := t%32, t/32
		for a := range base {
			pos := warp/d.Warps[a].Div%d.Warps[a].Count*d.Lanes[a].Count + lane/d.Lanes[a].Div%d.Lanes[a].Count
			base[a] = pos * d.SptFull[a]
			if d.Shape[a] < d.Span[a] {
				base[a] %= d.Shape[a]
			}
		}
		for e := range d.Elems {
			idx := 0
			for a := range base {
				c := base[a] + e/d.RStride[a]%d.Reps[a]*d.Span[a] + e/d.KStride[a]%d.Spt[a]
				idx = idx*d.Shape[a] + c
			}
			if idx >= 0 && idx < n {
				out[idx] = append(out[idx], Holder{t, e})
			}
		}
	}
	return out
}

// Loop is a for loop that holds a dot, and its software pipeline.
type Loop struct {
	Pos       ir.Pos // the for statement
	Pipelined bool
	// Why says why a loop is not pipelined ("" where it is).
	Why string
	// Engine is the instruction the pipelined dots run on: "wgmma" or
	// "mma.sync".
	Engine string
	// Stages is num_stages as the pipeline runs it: the copies run
	// Stages-1 iterations ahead of the dots; Asked, where not 0, the
	// num_stages asked for, more than the shared memory holds.
	Stages, Asked int
	// Spill marks Stages cut below Asked to leave shared memory to L1, in
	// a kernel whose accumulators overflow the registers (its spills go
	// to L1).
	Spill bool
	// Buffers is the number of shared-memory stages: Stages, or one more
	// where a wgmma runs on while the next iteration's copies are issued.
	Buffers     int
	SharedBytes int
	Operands    []Operand // the operands of its dots, streamed ones first
	Dots        []LoopDot
	// InFlight names the dot whose wgmma keeps running into the next
	// iteration ("" for none).
	InFlight string
}

// Operand is one operand of a pipelined loop's dots.
type Operand struct {
	Pos  ir.Pos
	Name string // the C name of the load or value
	// Form is "streamed" (copied Stages-1 iterations ahead into each
	// stage), "stored once" (defined before the loop, stored into shared
	// memory before it), "in place" (defined before the loop and left in
	// shared memory by the pipelined loop before it), "in registers" or
	// "staged" (computed in the body and stored into shared memory where
	// its dot stands: an 8-bit a on wgmma, an a whose columns the warps
	// split on mma.sync).
	Form string
	// Copy is how a streamed operand is copied: "cp.async", "TMA" or
	// "cp.async by rows" (from a tensor descriptor).
	Copy string
}

// LoopDot is one dot of a loop.
type LoopDot struct {
	Pos   ir.Pos
	Name  string
	Words string // the instruction and its operands, as --dump=layout says
}

// Describe plans k for opt's target, as Generate does, and returns the
// plan's decisions.
func Describe(k *ir.Kernel, opt Options) (desc *Description, err error) {
	if k == nil || k.Body == nil {
		return nil, fmt.Errorf("cudagen.Describe: want a kernel with a body (nil)")
	}
	defer func() {
		if r := recover(); r != nil {
			desc, err = nil, diag.Errorf(diag.Pos{File: k.File}, diag.CodeInternal, "internal error describing the plan of kernel %s: %v", k.Name, r)
		}
	}()
	p, err := newPlan(k, opt.arch(), opt.tma())
	if err != nil {
		return nil, err
	}
	e := newEmitter(p, opt)
	desc = &Description{Kernel: k.Name, Arch: opt.arch(), NumWarps: p.numWarps, Threads: 32 * p.numWarps, Tiles: p.tiles(e)}
	for _, l := range p.layouts {
		desc.Layouts = append(desc.Layouts, TileLayout{Tag: l.Tag, Layout: l.Layout, Shape: slices.Clone(l.Shape), Threads: l.Threads,
			ElemsPerThread: l.Elems, Replicated: l.Repl, Words: l.describe(), d: l})
	}
	for _, t := range desc.Tiles {
		if t.Converted {
			desc.Conversions++
		}
	}
	desc.Loops = p.describeLoops(e)
	return desc, nil
}

// describeLoops returns the loops that hold a dot, each with its pipeline.
func (p *plan) describeLoops(e *emitter) []Loop {
	var fors []*ir.For
	dotsOf := map[*ir.For][]*ir.Value{}
	p.forEachValue(p.k.Body, func(v *ir.Value) {
		if v.Op != ir.OpDot {
			return
		}
		f := p.innermostFor(p.defs[v.ID].Block)
		if f == nil {
			return
		}
		if dotsOf[f] == nil {
			fors = append(fors, f)
		}
		dotsOf[f] = append(dotsOf[f], v)
	})
	var out []Loop
	for _, f := range fors {
		l := Loop{Pos: f.Pos}
		for _, v := range dotsOf[f] {
			l.Dots = append(l.Dots, LoopDot{Pos: v.Pos, Name: e.names[v.ID], Words: p.dotWords(v)})
		}
		r := p.piped[f]
		if r == nil {
			l.Why = p.loopWhy(f, dotsOf[f])
			out = append(out, l)
			continue
		}
		l.Pipelined, l.Engine = true, r.engine
		l.Stages, l.Asked, l.Spill, l.Buffers, l.SharedBytes = r.stages, r.asked, r.spill, r.buffers, r.sharedBytes()
		for _, o := range r.operands {
			op := Operand{Pos: o.src.Pos, Name: e.names[o.src.ID], Form: "streamed"}
			switch {
			case o.form == streamed:
				op.Copy = o.copy.String()
			case o.form == inRegisters:
				op.Form = "in registers"
			case o.form == staged:
				op.Form = "staged"
			case o.kept:
				op.Form = "in place"
			default:
				op.Form = "stored once"
			}
			l.Operands = append(l.Operands, op)
		}
		if r.inFlight != nil {
			l.InFlight = e.names[r.inFlight.ID]
		}
		out = append(out, l)
	}
	return out
}

// loopWhy says why loop f, holding dots, is not software-pipelined: the
// reason its verdict holds (pipelineOf), else the form it did not take.
func (p *plan) loopWhy(f *ir.For, dots []*ir.Value) string {
	if s := p.stagesOf(f); s < 2 {
		return fmt.Sprintf("it runs at num_stages=%d", s)
	}
	if why := p.verdicts[f].why; why != "" {
		return why
	}
	if why := p.verdicts[f].kinds; why != "" {
		return why
	}
	if pl := p.loops[f]; pl != nil {
		return "its dot did not get the accumulator layout of the pipeline's instruction"
	}
	for _, v := range dots {
		if p.innermostFor(p.defs[v.ID].Block) == f && p.defs[v.ID].Block != f.Body {
			return "its dot is inside an if or an inner loop of its body"
		}
	}
	if !p.wgmma {
		return "its body is not the K loop the mma.sync pipeliner takes: one fp16 or bf16 dot into an fp32 accumulator (acc = tl.dot(a, b, acc)), a and b loaded in the body for the dot alone, with nothing else but their addresses and masks"
	}
	return "its body is not one the wgmma pipeliners take"
}
