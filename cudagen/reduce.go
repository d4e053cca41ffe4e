package cudagen

// This file implements reductions along an axis of a tile. Each output
// element is combined in three steps: over the elements a thread holds
// along the axis, then over the lanes spanning the axis with butterfly
// shuffles (every lane ends up with the result), then, when several warps
// span the axis, through shared memory: one lane per warp writes its
// partial, and after a barrier every thread combines the partials in warp
// order. The result is in Slice(axis, input layout), held by every thread
// that holds any element of its row. argmax and argmin carry (value,
// index) pairs and break ties toward the smaller index; a custom combine
// function is inlined at each step.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// withNames renames accumulators.
func withNames(acc []accumulator, f func(string) string) []string {
	out := make([]string, len(acc))
	for i, a := range acc {
		out[i] = f(a.Name)
	}
	return out
}

// combine writes the statements setting accs to accs (+) xs.
func (e *emitter) combine(v *ir.Value, comps []accumulator, accs, xs []string) {
	d := comps[0].Type
	var op ir.Op
	switch v.Combine {
	case ir.CombineSum:
		op = ir.OpAdd
	case ir.CombineProd:
		op = ir.OpMul
	case ir.CombineMax:
		op = ir.OpMax
	case ir.CombineMin:
		op = ir.OpMin
	case ir.CombineXor:
		op = ir.OpXor
	case ir.CombineOr:
		op = ir.OpOr
	case ir.CombineArgMax, ir.CombineArgMin:
		a, b := accs[0], xs[0]
		if isHalf(d.Kind) {
			a, b = e.toFloat(d.Kind, a), e.toFloat(d.Kind, b)
		}
		cmp := ">"
		if v.Combine == ir.CombineArgMin {
			cmp = "<"
		}
		e.w.open("{")
		e.w.line("bool tri_keep = %s %s %s || (%s == %s && %s < %s);", a, cmp, b, a, b, accs[1], xs[1])
		e.w.line("%s = tri_keep ? %s : %s;", accs[0], accs[0], xs[0])
		e.w.line("%s = tri_keep ? %s : %s;", accs[1], accs[1], xs[1])
		e.w.close("}")
		return
	case ir.CombineCustom:
		e.inlineRegion(v.Region, comps, accs, xs)
		return
	}
	for k := range accs {
		e.w.line("%s = %s;", accs[k], e.binExpr(op, comps[k].Type, v.Flags&ir.FlagPropagateNaN, accs[k], xs[k]))
	}
}

// binExpr is a op b on scalars of dtype d.
func (s nameSet) binExpr(op ir.Op, d ir.DType, flags ir.Flags, a, b string) string {
	k := d.Kind
	switch {
	case isHalf(k):
		return s.fromFloat(k, s.floatOp(op, ir.Float32, flags, []string{s.toFloat(k, a), s.toFloat(k, b)}))
	case k.IsFloat():
		return s.floatOp(op, k, flags, []string{a, b})
	}
	return intOp(op, k, []string{a, b})
}

// inlineRegion writes a custom combine function applied to accs and xs,
// its results assigned to accs.
func (e *emitter) inlineRegion(r *ir.Region, comps []accumulator, accs, xs []string) {
	e.w.open("{")
	saved := e.inRegion
	e.inRegion = true
	for i, a := range r.Args {
		src := ""
		if i < len(accs) {
			src = accs[i]
		} else {
			src = xs[i-len(accs)]
		}
		e.w.line("%s %s = %s;", e.cType(a.Type.DType), e.names[a.ID], src)
	}
	for _, s := range r.Body.Stmts {
		if v, ok := s.(*ir.Value); ok && v.Op != ir.OpRegionArg {
			e.nest.value(v)
		}
	}
	for k, y := range r.Yields {
		e.w.line("%s = %s;", accs[k], e.castExpr(y.Type.DType, comps[k].Type, e.expr(y, ""), 0))
	}
	e.inRegion = saved
	e.w.close("}")
}

// elemIndex is the C expression of the index, among the thread's elements
// of s, of the element at position o of the reduced layout and t along
// axis ax.
func elemIndex(s *dist, ax int, o, t string) string {
	var terms []string
	// o enumerates the kept axes in s's order, the k parts then the reps.
	stride := 1
	for _, a := range s.Order {
		if a != ax && s.Spt[a] > 1 {
			terms = append(terms, scaled(part(o, stride, s.Spt[a]), s.KStride[a]))
		}
		if a != ax {
			stride *= s.Spt[a]
		}
	}
	for _, a := range s.Order {
		if a != ax && s.Reps[a] > 1 {
			terms = append(terms, scaled(part(o, stride, s.Reps[a]), s.RStride[a]))
		}
		if a != ax {
			stride *= s.Reps[a]
		}
	}
	if t == "0" {
		// the first element along the axis
	} else if s.Spt[ax] > 1 {
		terms = append(terms, scaled(part(t, 1, s.Spt[ax]), s.KStride[ax]))
	}
	if t != "0" && s.Reps[ax] > 1 {
		r := t
		if s.Spt[ax] > 1 {
			r = fmt.Sprintf("%s / %d", t, s.Spt[ax])
		}
		terms = append(terms, scaled(r, s.RStride[ax]))
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// reduce writes an OpReduce.
func (e *emitter) reduce(v *ir.Value) {
	s := e.layoutOf(v.Args[0])
	ax := v.Axis
	comps := components(v)
	accs := withNames(comps, func(n string) string { return n })
	xs := withNames(comps, func(n string) string { return strings.Replace(n, "tri_acc", "tri_x", 1) + "_in" })
	isArg := v.Combine == ir.CombineArgMax || v.Combine == ir.CombineArgMin
	// Where the result goes: the value itself, its tuple results, or a
	// temporary in the slice layout when it must then be converted.
	out := e.reduceOutputs(v)
	od := e.sliceOf[v.ID] // nil: the result is a scalar
	outElems := 1
	if od != nil {
		outElems = od.Elems
	}
	perThread := s.Spt[ax] * s.Reps[ax]
	lanes := min(s.Lanes[ax].Count, max(1, s.Shape[ax]/s.SptFull[ax]))
	warps := e.reduceWarps(v)
	o := "tri_o"
	if outElems == 1 {
		o = "0"
	}
	read := func(t string, names []string, decl bool) {
		idx := elemIndex(s, ax, o, t)
		for k, a := range v.Args {
			pre := ""
			if decl {
				pre = e.cType(comps[k].Type) + " "
			}
			e.w.line("%s%s = %s;", pre, names[k], e.expr(a, idx))
		}
		if isArg {
			pre := ""
			if decl {
				pre = "int "
			}
			e.w.line("%s%s = %s;", pre, names[len(names)-1], e.coord(s, ax, "("+idx+")"))
		}
	}
	e.w.line("// Reduce along axis %d: %d element(s) in each thread, %d lane(s), %d warp(s).", ax, perThread, lanes, warps)
	if outElems > 1 {
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_o = 0; tri_o < %d; ++tri_o) {", outElems)
	} else {
		e.w.open("{")
	}
	read("0", accs, true)
	if perThread > 1 {
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_t = 1; tri_t < %d; ++tri_t) {", perThread)
		read("tri_t", xs, true)
		e.combine(v, comps, accs, xs)
		e.w.close("}")
	}
	if lanes > 1 {
		e.usesShuffles = true
		e.helpers.add("shfl", shuffleHelpers)
		div := s.Lanes[ax].Div
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_m = %d; tri_m < %d; tri_m *= 2) {", div, div*lanes)
		for k, c := range comps {
			e.use("tri_shfl_xor")
			e.w.line("%s %s = tri_shfl_xor(%s, tri_m);", e.cType(c.Type), xs[k], accs[k])
		}
		e.combine(v, comps, accs, xs)
		e.w.close("}")
	}
	// Each component's partial results of the warps, in the scratch.
	offs, total := e.crossWarpOffsets(v)
	if warps > 1 {
		e.useShared(total)
		lin := "0"
		if od != nil {
			lin = e.linear(od, o)
		}
		// Where the tile has fewer rows along ax than the warps span, warps
		// warps apart hold the same elements: they share a slot, which
		// keeps the writes inside the buffer of outElems*warps slots.
		w := e.pos(s.Warps[ax], "warp_id")
		if s.Warps[ax].Count > warps {
			w = fmt.Sprintf("(%s) %% %d", w, warps)
		}
		slot := fmt.Sprintf("(%s) * %d + %s", lin, warps, w)
		if lin == "0" {
			slot = w
		}
		if len(comps) == 1 {
			e.w.line("if (%s == 0) { %s = %s; }", e.pos(s.Lanes[ax], "lane_id"), e.smem(comps[0].Type, offs[0], slot), accs[0])
		} else {
			e.w.open("if (%s == 0) {", e.pos(s.Lanes[ax], "lane_id"))
			for k, c := range comps {
				e.w.line("%s = %s;", e.smem(c.Type, offs[k], slot), accs[k])
			}
			e.w.close("}")
		}
	} else {
		e.writeOut(v, comps, out, o, accs)
	}
	e.w.close("}")
	if warps > 1 {
		e.w.line("__syncthreads();")
		if outElems > 1 {
			e.w.line("#pragma unroll")
			e.w.open("for (int tri_o = 0; tri_o < %d; ++tri_o) {", outElems)
		} else {
			e.w.open("{")
		}
		lin := "0"
		if od != nil {
			lin = e.linear(od, o)
		}
		base := fmt.Sprintf("(%s) * %d", lin, warps)
		if lin == "0" {
			base = "0"
		}
		for k, c := range comps {
			e.w.line("%s %s = %s;", e.cType(c.Type), accs[k], e.smem(c.Type, offs[k], base))
		}
		e.w.line("#pragma unroll")
		e.w.open("for (int tri_w = 1; tri_w < %d; ++tri_w) {", warps)
		for k, c := range comps {
			idx := "tri_w"
			if base != "0" {
				idx = base + " + tri_w"
			}
			e.w.line("%s %s = %s;", e.cType(c.Type), xs[k], e.smem(c.Type, offs[k], idx))
		}
		e.combine(v, comps, accs, xs)
		e.w.close("}")
		e.writeOut(v, comps, out, o, accs)
		e.w.close("}")
		e.w.line("__syncthreads();")
	}
	if e.converts[v.ID] {
		e.convertReduced(v, out)
	}
}

// reduceOutputs declares where a reduction's results go: the C names of
// one array (or scalar) per result.
func (e *emitter) reduceOutputs(v *ir.Value) []string {
	var names []string
	var types []ir.Type
	if len(v.Types) > 0 {
		names, types = e.resNames[v.ID], v.Types
	} else {
		names, types = []string{e.names[v.ID]}, []ir.Type{v.Type}
	}
	if e.converts[v.ID] {
		tmp := make([]string, len(names))
		for k := range names {
			tmp[k] = names[k] + "_slice"
			e.declare(types[k], e.sliceOf[v.ID], tmp[k], "")
		}
		return tmp
	}
	for k := range names {
		if len(v.Types) > 0 || !e.outside[v.ID] && !e.fused[v.ID] {
			e.declare(types[k], e.sliceOf[v.ID], names[k], "")
		}
	}
	return names
}

// writeOut stores the accumulators as output element o.
func (e *emitter) writeOut(v *ir.Value, comps []accumulator, out []string, o string, accs []string) {
	types := v.Types
	if len(types) == 0 {
		types = []ir.Type{v.Type}
	}
	if v.Combine == ir.CombineArgMax || v.Combine == ir.CombineArgMin {
		e.w.line("%s = %s;", e.elem(out[0], types[0], o), e.castExpr(ir.TInt32, types[0].DType, accs[len(accs)-1], 0))
		return
	}
	for k := range out {
		e.w.line("%s = %s;", e.elem(out[k], types[k], o), e.castExpr(comps[k].Type, types[k].DType, accs[k], 0))
	}
}

// convertReduced moves a reduction's results from the slice layout to the
// layout the rest of the kernel wants.
func (e *emitter) convertReduced(v *ir.Value, tmp []string) {
	od, d := e.sliceOf[v.ID], e.layoutOf(v)
	types := v.Types
	names := e.resNames[v.ID]
	if len(types) == 0 {
		types, names = []ir.Type{v.Type}, []string{e.names[v.ID]}
	}
	e.w.line("// Layout conversion #%s -> #%s through shared memory.", od.Tag, d.Tag)
	size := convertReducedSlot(v)
	e.useShared(convertReducedBytes(v))
	for k, t := range types {
		e.loop(od.Elems, func(i string) string {
			return fmt.Sprintf("%s = %s[%s];", e.smem(t.DType, k*size, linearOf(od.Shape, e.coords(od, i))), tmp[k], i)
		})
	}
	e.w.line("__syncthreads();")
	for k, t := range types {
		if len(v.Types) > 0 || !e.outside[v.ID] && !e.fused[v.ID] {
			e.declare(t, d, names[k], "")
		}
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", names[k], i, e.smem(t.DType, k*size, linearOf(d.Shape, e.coords(d, i))))
		})
	}
	e.w.line("__syncthreads();")
}
