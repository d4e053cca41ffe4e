package cudagen

// This file implements scans (tl.cumsum, tl.cumprod, tl.associative_scan)
// along an axis of a tile, in any layout, through shared memory: the tile
// is stored there, then log2(n) Hillis-Steele steps each combine every
// element with the one 1, 2, 4, ... places before it (after it for a
// reverse scan), with barriers between steps. Combine order is kept (what
// was accumulated is always the left operand, as in Triton's combine
// functions), so custom combine functions need only be associative.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// scan writes an OpScan.
func (e *emitter) scan(v *ir.Value) {
	d := e.layoutOf(v.Args[0])
	ax := v.Axis
	n := d.Shape[ax]
	stride := 1
	for a := ax + 1; a < d.rank(); a++ {
		stride *= d.Shape[a]
	}
	comps := components(v)
	offs, total := scanOffsets(v)
	e.useShared(total)
	reverse := v.Flags&ir.FlagReverse != 0
	dir := "forward"
	if reverse {
		dir = "reverse"
	}
	e.w.line("// Scan (%s) along axis %d through shared memory: %d Hillis-Steele steps.", dir, ax, ceilLog2(n))
	for k, a := range v.Args {
		e.storeShared(a, offs[k])
	}
	e.w.line("__syncthreads();")
	lin := func(i string) string { return linearOf(d.Shape, e.coords(d, i)) }
	e.w.open("for (int tri_s = 1; tri_s < %d; tri_s *= 2) {", n)
	for k, c := range comps {
		e.w.line("%s tri_step%d[%d];", e.cType(c.Type), k, d.Elems)
	}
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; ++e) {", d.Elems)
	accs := make([]string, len(comps))
	xs := make([]string, len(comps))
	for k, c := range comps {
		accs[k], xs[k] = fmt.Sprintf("tri_acc%d", k), fmt.Sprintf("tri_x%d_in", k)
		e.w.line("%s %s = %s;", e.cType(c.Type), accs[k], e.smem(c.Type, offs[k], lin("e")))
	}
	c := e.coord(d, ax, "e")
	if reverse {
		e.w.open("if (%s + tri_s < %d) {", c, n)
	} else {
		e.w.open("if (%s >= tri_s) {", c)
	}
	sign := "-"
	if reverse {
		sign = "+"
	}
	nb := fmt.Sprintf("%s %s %s", lin("e"), sign, scaled("tri_s", stride))
	for k, cp := range comps {
		e.w.line("%s %s = %s;", e.cType(cp.Type), xs[k], e.smem(cp.Type, offs[k], nb))
	}
	// The neighbour holds what was accumulated before this element (after
	// it, for a reverse scan): it is the left operand.
	e.combine(v, comps, xs, accs)
	for k := range comps {
		e.w.line("%s = %s;", accs[k], xs[k])
	}
	e.w.close("}")
	for k := range comps {
		e.w.line("tri_step%d[e] = %s;", k, accs[k])
	}
	e.w.close("}")
	e.w.line("__syncthreads();")
	for k, cp := range comps {
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s = tri_step%d[%s];", e.smem(cp.Type, offs[k], lin(i)), k, i)
		})
	}
	e.w.line("__syncthreads();")
	e.w.close("}")
	names, types := e.resNames[v.ID], v.Types
	if len(types) == 0 {
		names, types = []string{e.names[v.ID]}, []ir.Type{v.Type}
	}
	for k, t := range types {
		if len(v.Types) > 0 || !e.outside[v.ID] && !e.fused[v.ID] {
			e.declare(t, d, names[k], "")
		}
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", names[k], i, e.castExpr(comps[k].Type, t.DType, e.smem(comps[k].Type, offs[k], lin(i)), 0))
		})
	}
	e.w.line("__syncthreads();")
}
