package cudagen

// This file implements DumpLayouts, behind --dump=layout.

import (
	"fmt"
	"io"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// DumpLayouts describes the layout chosen for every value, next to its
// source line (for --dump=layout): the layouts of the kernel, then each
// tile value with its type, layout and, for loads and stores, the width of
// its accesses; values whose operand changes layout through shared memory
// are marked, and the last line counts them.
func DumpLayouts(w io.Writer, k *ir.Kernel, arch string) error {
	if w == nil || k == nil || k.Body == nil {
		return fmt.Errorf("cudagen.DumpLayouts: want a writer and a kernel with a body (one is nil)")
	}
	p, err := newPlan(k, arch, Options{}.tma())
	if err != nil {
		return err
	}
	e := newEmitter(p, Options{})
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: %d threads per program (num_warps=%d)\n", k.Name, 32*p.numWarps, p.numWarps)
	for _, l := range p.layouts {
		fmt.Fprintf(&b, "#%s = %s for %s tiles: %s\n", l.Tag, l.Layout, ints(l.Shape), l.describe())
	}
	lastLine, conversions := 0, 0
	p.forEachValue(k.Body, func(v *ir.Value) {
		tile := v
		if v.Op == ir.OpStore {
			tile = v.Args[0]
		}
		if tile.Type.IsScalar() && len(v.Types) == 0 && v.Op != ir.OpReduce {
			return
		}
		if v.Pos.Line != lastLine && v.Pos.IsValid() {
			lastLine = v.Pos.Line
			text := ""
			if v.Pos.Line <= len(e.lines) {
				text = strings.TrimSpace(e.lines[v.Pos.Line-1])
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", k.File, v.Pos.Line, text)
		}
		name := e.names[v.ID]
		if name == "" {
			name = "(" + v.Op.String() + ")"
		}
		typ := v.Type.String()
		if len(v.Types) > 0 {
			var ts []string
			for _, t := range v.Types {
				ts = append(ts, t.String())
			}
			typ = "(" + strings.Join(ts, ", ") + ")"
		}
		tag := "scalar"
		if l := p.layoutOf(tile); l != nil {
			tag = "#" + l.Tag
		}
		fmt.Fprintf(&b, "    %-16s %-12s %s", name, typ, tag)
		if p.converts[v.ID] {
			conversions++
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
			if pl := p.pipes[v.ID]; pl != nil && pl.mma && p.pipelined(v) {
				op, _ := mmaOpOf(v)
				fmt.Fprintf(&b, "  dot on the tensor cores (%s, ldmatrix), operands streamed by cp.async %d iteration(s) ahead through %d swizzled shared-memory stages", op, pl.stages-1, pl.buffers)
			} else if pl != nil && p.usesWgmma(v) {
				fmt.Fprintf(&b, "  dot on the tensor cores (wgmma m64n%dk16), operands streamed by cp.async %d iteration(s) ahead through %d swizzled shared-memory buffers", pl.n, pl.stages-1, pl.buffers)
				if pl.inFlight() {
					b.WriteString(", one wgmma kept in flight")
				}
			} else if wd := p.wgDots[v.ID]; wd != nil && wd.alone {
				fmt.Fprintf(&b, "  dot on the tensor cores (wgmma m64n%dk16, a %s), not pipelined: %s", wd.n, map[operandForm]string{staged: "stored to shared memory", hoisted: "stored before the loop", inRegisters: "from registers"}[wd.a.form], p.aloneWhy(wd))
			} else if wd := p.wgDots[v.ID]; wd != nil {
				fmt.Fprintf(&b, "  dot on the tensor cores (wgmma m64n%dk16, a %s), in a loop pipelined with %d dot(s)", wd.n, map[operandForm]string{streamed: "streamed", invariant: "stored once", inRegisters: "from registers"}[wd.a.form], len(p.mloopOf(wd).dots))
			} else if p.usesMma(v) {
				op, _ := mmaOpOf(v)
				fmt.Fprintf(&b, "  dot on the tensor cores (%s, ldmatrix), operands staged in shared memory", op)
			} else {
				b.WriteString("  dot on the CUDA cores (FMA), operands staged in shared memory")
			}
			if why := p.unpiped[v.ID]; why != "" {
				fmt.Fprintf(&b, "; its loop is not software-pipelined: %s", why)
			}
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
		b.WriteString("\n")
	})
	fmt.Fprintf(&b, "%d layout conversion(s) through shared memory\n", conversions)
	_, err = io.WriteString(w, b.String())
	return err
}
