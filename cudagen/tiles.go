package cudagen

// This file implements the record of each tile value's layout and
// lowering, which DumpLayouts prints and Describe returns.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// Tile is one value of a kernel that is a tile (or a store of one, or a
// reduction), with the layout it was given and how it is lowered.
type Tile struct {
	Pos  ir.Pos
	Name string // its C name, or "(op)" for a value printed inline
	Type string // its type, as "fp32[128, 64]"; "(a, b)" for several results
	// Layout is the tag of its layout ("L0"), "" for a scalar.
	Layout string
	// Converted marks a value whose operand changes layout through shared
	// memory.
	Converted bool
	// Notes says, where there is something to say, how it is lowered: a
	// conversion, the width of its memory accesses, the instruction of a
	// dot and its pipeline. It starts with two spaces, as --dump=layout
	// prints it after the layout.
	Notes string
}

// tiles lists the kernel's tile values in program order.
func (p *plan) tiles(e *emitter) []Tile {
	var out []Tile
	p.forEachValue(p.k.Body, func(v *ir.Value) {
		tile := v
		if v.Op == ir.OpStore {
			tile = v.Args[0]
		}
		if tile.Type.IsScalar() && len(v.Types) == 0 && v.Op != ir.OpReduce {
			return
		}
		t := Tile{Pos: v.Pos, Name: e.names[v.ID], Type: v.Type.String(), Converted: p.converts[v.ID]}
		if t.Name == "" {
			t.Name = "(" + v.Op.String() + ")"
		}
		if len(v.Types) > 0 {
			var ts []string
			for _, t := range v.Types {
				ts = append(ts, t.String())
			}
			t.Type = "(" + strings.Join(ts, ", ") + ")"
		}
		if l := p.layoutOf(tile); l != nil {
			t.Layout = l.Tag
		}
		t.Notes = p.tileNotes(v)
		out = append(out, t)
	})
	return out
}

// tileNotes says how v is lowered, for Tile.Notes.
func (p *plan) tileNotes(v *ir.Value) string {
	var b strings.Builder
	if p.converts[v.ID] {
		from := v.Args[0]
		if s := p.sliceOf[v.ID]; s != nil {
			fmt.Fprintf(&b, "  converted from #%s through shared memory", s.Tag)
		} else if l := p.layoutOf(from); l != nil {
			fmt.Fprintf(&b, "  converted from #%s through shared memory", l.Tag)
		}
	}
	if s := p.remat[v.ID]; s != nil {
		fmt.Fprintf(&b, "  index recomputed in #%s", s.Tag)
	}
	if v.Op == ir.OpReduce {
		fmt.Fprintf(&b, "  reduced along axis %d of #%s", v.Axis, p.layoutOf(v.Args[0]).Tag)
	}
	if v.Op == ir.OpDot {
		b.WriteString("  " + p.dotWords(v))
	}
	if a, ok := accessOf(v); ok {
		if wd := p.vectorWidth(a); wd > 1 {
			if q, ok := p.laneTransposeOf(a, wd); ok {
				fmt.Fprintf(&b, "  %s of %d-byte vectors, the %d-byte runs of %d lanes transposed among them", v.Op, q.vectorBytes(), wd*a.Bytes, q.Lanes)
			} else {
				fmt.Fprintf(&b, "  %s of %d-byte vectors", v.Op, wd*a.Bytes)
			}
		} else {
			fmt.Fprintf(&b, "  %s element by element", v.Op)
		}
	}
	return b.String()
}

// dotWords says which instruction dot v runs on and how its operands
// reach it.
func (p *plan) dotWords(v *ir.Value) string {
	var b strings.Builder
	if pl := p.pipes[v.ID]; pl != nil && pl.mma && p.pipelined(v) {
		op, _ := mmaOpOf(v)
		fmt.Fprintf(&b, "dot on the tensor cores (%s, ldmatrix), operands streamed by cp.async %d iteration(s) ahead through %d swizzled shared-memory stages", op, pl.stages-1, pl.buffers)
	} else if pl != nil && p.usesWgmma(v) {
		fmt.Fprintf(&b, "dot on the tensor cores (wgmma m64n%dk16), operands streamed by cp.async %d iteration(s) ahead through %d swizzled shared-memory buffers", pl.n, pl.stages-1, pl.buffers)
		if pl.inFlight() {
			b.WriteString(", one wgmma kept in flight")
		}
	} else if wd := p.wgDots[v.ID]; wd != nil && !p.wgmma {
		fmt.Fprintf(&b, "dot on the tensor cores (mma.sync m16n8k16, ldmatrix; a %s), in a loop pipelined with %d dot(s)", map[operandForm]string{streamed: "streamed", invariant: "stored once, its fragments in registers", inRegisters: "from registers", staged: "stored to shared memory where it stands"}[wd.a.form], len(p.mloopOf(wd).dots))
	} else if wd := p.wgDots[v.ID]; wd != nil && wd.alone {
		fmt.Fprintf(&b, "dot on the tensor cores (wgmma m64n%dk16, a %s), not pipelined: %s", wd.n, map[operandForm]string{staged: "stored to shared memory", hoisted: "stored before the loop", inRegisters: "from registers"}[wd.a.form], p.aloneWhy(wd))
	} else if wd := p.wgDots[v.ID]; wd != nil {
		a := map[operandForm]string{streamed: "streamed", invariant: "stored once", inRegisters: "from registers", staged: "stored to shared memory where it stands"}[wd.a.form]
		if wd.a.storedBy != nil {
			a = "in place from the loop before"
		}
		fmt.Fprintf(&b, "dot on the tensor cores (wgmma m64n%dk16, a %s), in a loop pipelined with %d dot(s)", wd.n, a, len(p.mloopOf(wd).dots))
	} else if p.usesMma(v) {
		op, _ := p.mmaOp(v)
		fmt.Fprintf(&b, "dot on the tensor cores (%s, ldmatrix), operands staged in shared memory", op)
	} else {
		b.WriteString("dot on the CUDA cores (FMA), operands staged in shared memory")
	}
	if why := p.notPipelined(v); why != "" {
		fmt.Fprintf(&b, "; its loop is not software-pipelined: %s", why)
	}
	return b.String()
}
