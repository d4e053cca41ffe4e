package cudagen

// This file implements the tile operations: tl.sort, tl.topk and
// tl.standard.bitonic_merge, tl.flip, tl.gather, tl.histogram and tl.cat,
// and tl.map_elementwise. All but the last (unless its pack needs it) go
// through shared memory: every thread stores its elements at
// their row-major index, a barrier, the whole program works on the
// scratch (the sort's compare-and-swap steps, the histogram's counters),
// then each thread reads the elements of the result's layout, and a
// last barrier frees the scratch.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// tileOp writes one tile operation.
func (e *emitter) tileOp(v *ir.Value) {
	switch v.Op {
	case ir.OpSort:
		e.sortOp(v)
	case ir.OpHistogram:
		e.histogramOp(v)
	case ir.OpGather:
		e.gatherOp(v)
	case ir.OpMapElementwise:
		e.mapElementwise(v)
	default: // flip and cat only move elements
		e.moveOp(v)
	}
}

// tileOpThreads is the number of threads of a program.
func (e *emitter) tileOpThreads() int { return 32 * e.numWarps }

// moveOp writes flip (the axis coordinate reversed) and cat (the two
// inputs stored one after the other).
func (e *emitter) moveOp(v *ir.Value) {
	d := e.layoutOf(v)
	in := v.Args[0]
	size := in.Type.Shape.NumElements() * in.Type.Kind.Bytes()
	e.w.line("// %s through shared memory: #%s -> #%s.", v.Op, e.layoutOf(in).Tag, d.Tag)
	e.useShared(tileOpSharedBytes(v))
	for k, a := range v.Args {
		e.storeShared(a, k*size)
	}
	e.w.line("__syncthreads();")
	e.define(v, func(i string) string {
		c := e.coords(d, i)
		if v.Op == ir.OpFlip {
			// The coordinate may be a sum (a thread's first element plus
			// its register, base + e % 4): n-1 minus all of it, or the
			// read runs past its row and, on the last, past the scratch.
			c[v.Axis] = fmt.Sprintf("%d - %s", d.Shape[v.Axis]-1, parenSum(c[v.Axis]))
		}
		return e.smem(v.Type.DType, 0, linearOf(d.Shape, c))
	})
	e.w.line("__syncthreads();")
}

// parenSum parenthesizes a C expression that is more than one name or
// number, so that it can follow a minus.
func parenSum(s string) string {
	if strings.ContainsAny(s, " +-*/%&|^<>?") {
		return "(" + s + ")"
	}
	return s
}

// gatherOp reads each element of the source at the coordinates of the
// result, the axis one from the index (kept in range: Triton leaves an
// index outside the source undefined, and the interpreter rejects it).
func (e *emitter) gatherOp(v *ir.Value) {
	d := e.layoutOf(v)
	src, idx := v.Args[0], v.Args[1]
	e.w.line("// Gather through shared memory: the source #%s, stored, is read at the index's coordinates.", e.layoutOf(src).Tag)
	e.useShared(tileOpSharedBytes(v))
	e.storeShared(src, 0)
	e.w.line("__syncthreads();")
	n := src.Type.Shape[v.Axis]
	e.define(v, func(i string) string {
		c := make([]string, d.rank())
		for a := range c {
			switch {
			case a == v.Axis:
				c[a] = fmt.Sprintf("((int)%s & %d)", e.expr(idx, i), n-1)
			case d.Shape[a] == 1:
				c[a] = "0"
			default:
				c[a] = e.coord(d, a, i)
			}
		}
		return e.smem(v.Type.DType, 0, linearOf(src.Type.Shape, c))
	})
	e.w.line("__syncthreads();")
}

// sortOp writes Triton's bitonic network (standard.py's sort_impl) over
// the tile in shared memory. Positions are the flat row-major indices;
// the compare-and-swap on bit `bit` pairs positions i and j = i | 1<<bit,
// and, as _compare_and_swap does, the left one takes the right's value
// when (left > right) != flip, the right one the left's when
// (right > left) != !flip, each from the values before the step (so NaNs
// spread exactly as in Triton). flip is bit `stage` of the position in
// the alternating stages, descending in the last.
func (e *emitter) sortOp(v *ir.Value) {
	in := v.Args[0]
	t := in.Type.DType
	ct := e.cType(t)
	n := in.Type.Shape.NumElements()
	r := in.Type.Shape.Rank()
	logN := ceilLog2(in.Type.Shape[r-1])
	logK := int(v.Const.Int)
	desc := tileOpBool(v.Flags&ir.FlagReverse != 0)
	bytes := n * t.Kind.Bytes()
	halvings := logN - logK
	e.useShared(tileOpSharedBytes(v))
	what := "tl.sort"
	switch {
	case v.Axis == 1:
		what = "tl.bitonic_merge"
	case halvings > 0:
		what = fmt.Sprintf("tl.topk(k=%d)", 1<<logK)
	}
	e.w.line("// %s: Triton's bitonic network over the %d elements, rows of %d, in shared memory.", what, n, 1<<logN)
	e.storeShared(in, 0)
	e.w.line("__syncthreads();")
	e.w.open("{")
	e.w.line("%s* s = reinterpret_cast<%s*>(tri_smem);", ct, ct)
	gt := func(a, b string) string { return e.compareExpr(ir.OpGt, t, a, b) }
	swaps := func(pairs, flip string) {
		e.w.open("for (int bit = stage - 1; bit >= 0; --bit) {")
		e.use("tri_thread_id")
		e.w.open("for (int p = tri_thread_id(); p < %s; p += %d) {", pairs, e.tileOpThreads())
		e.w.line("int i = (p >> bit << (bit + 1)) | (p & ((1 << bit) - 1)), j = i | (1 << bit);")
		e.w.line("bool flip = %s;", flip)
		e.w.line("%s left = s[i], right = s[j];", ct)
		e.w.line("s[i] = (%s) != flip ? right : left;", gt("left", "right"))
		e.w.line("s[j] = (%s) != !flip ? left : right;", gt("right", "left"))
		e.w.close("}")
		e.w.line("__syncthreads();")
		e.w.close("}")
	}
	if v.Axis == 1 {
		e.w.line("const int stage = %d;  // the last merge only", logN)
		swaps(fmt.Sprint(n/2), desc)
	} else {
		e.w.open("for (int stage = 1; stage <= %d; ++stage) {", logK)
		swaps(fmt.Sprint(n/2), fmt.Sprintf("stage < %d ? ((i >> stage) & 1) != 0 : %s", logN, desc))
		e.w.close("}")
	}
	if halvings > 0 {
		e.w.line("// Bitonic top-k: keep the larger of the halves split by bit %d, merge again.", logK)
		e.w.line("%s* o = reinterpret_cast<%s*>(tri_smem + %d);", ct, ct, bytes)
		e.w.open("for (int step = %d; step <= %d; ++step) {", logK+1, logN)
		e.use("tri_thread_id")
		e.w.open("for (int p = tri_thread_id(); p < (%d >> (step - %d)); p += %d) {", n, logK, e.tileOpThreads())
		e.w.line("int i = (p >> %d << %d) | (p & %d);", logK, logK+1, (1<<logK)-1)
		maxOf := e.floatOrIntMax(t.Kind, "s[i]", fmt.Sprintf("s[i | %d]", 1<<logK))
		e.w.line("o[p] = %s;", maxOf)
		e.w.close("}")
		e.w.line("__syncthreads();")
		e.w.line("%s* w = s; s = o; o = w;", ct)
		e.w.line("const int stage = %d;", logK)
		swaps(fmt.Sprintf("(%d >> (step - %d))", n/2, logK), fmt.Sprintf("step < %d ? ((i >> %d) & 1) != 0 : %s", logN, logK, desc))
		e.w.close("}")
	}
	e.w.close("}")
	off := (halvings % 2) * bytes
	d := e.layoutOf(v)
	e.define(v, func(i string) string { return e.smem(t, off, linearOf(d.Shape, e.coords(d, i))) })
	e.w.line("__syncthreads();")
}

// floatOrIntMax is tl.maximum of two values of kind k (32 or 64 bits).
func (s nameSet) floatOrIntMax(k ir.Kind, a, b string) string {
	if k.IsFloat() {
		return s.floatOp(ir.OpMax, k, 0, []string{a, b})
	}
	return intOp(ir.OpMax, k, []string{a, b})
}

// histogramOp counts the active input elements as Triton's GPU lowering
// does: each value's low log2(max(bins, 32)) bits pick its bin, and bins
// past the last are dropped. The input (and mask) go through shared
// memory, so that replicated elements count once.
func (e *emitter) histogramOp(v *ir.Value) {
	in, mask := v.Args[0], v.Args[1]
	n := in.Type.Shape.NumElements()
	bins := v.Type.Shape[0]
	inBytes := n * in.Type.Kind.Bytes()
	binsOff := histogramBinsOffset(v)
	e.useShared(tileOpSharedBytes(v))
	e.w.line("// tl.histogram of %d elements into %d bins through shared memory (the bin is the value's low bits, as Triton's GPU lowering takes it).", n, bins)
	e.storeShared(in, 0)
	if mask != nil {
		e.storeShared(mask, inBytes)
	}
	e.w.open("{")
	e.w.line("int* bins = reinterpret_cast<int*>(tri_smem + %d);", binsOff)
	e.use("tri_thread_id")
	e.w.line("for (int j = tri_thread_id(); j < %d; j += %d) bins[j] = 0;", bins, e.tileOpThreads())
	e.w.line("__syncthreads();")
	e.w.open("for (int p = tri_thread_id(); p < %d; p += %d) {", n, e.tileOpThreads())
	e.w.line("int bin = (int)(%s & %d);", e.smem(in.Type.DType, 0, "p"), max(bins, 32)-1)
	cond := fmt.Sprintf("bin < %d", bins)
	if mask != nil {
		cond = e.smem(ir.TBool, inBytes, "p") + " && " + cond
	}
	e.w.line("if (%s) asm volatile(\"red.add.u32 [%%0], 1;\" :: \"l\"(bins + bin) : \"memory\");", cond)
	e.w.close("}")
	e.w.line("__syncthreads();")
	e.w.close("}")
	d := e.layoutOf(v)
	e.define(v, func(i string) string { return e.smem(ir.TInt32, binsOff, linearOf(d.Shape, e.coords(d, i))) })
	e.w.line("__syncthreads();")
}

// tileOpBool is a C boolean literal.
func tileOpBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// mapElementwise writes tl.map_elementwise: one loop over the thread's
// elements, whose body binds the function's arguments to the operands'
// elements, runs the inlined function on scalars (its branches and loops
// as C ones, per element) and stores its results. With pack > 1 the loop
// steps over groups of pack consecutive elements along the last axis,
// which the thread's consecutive registers are when its layout holds runs
// of a multiple of pack along that axis, fastest; other layouts go
// through shared memory (mapElementwiseShared).
func (e *emitter) mapElementwise(v *ir.Value) {
	d := e.layoutOf(v)
	pack := v.MapPack()
	if pack > 1 && !packsInRegisters(d, pack) {
		e.mapElementwiseShared(v)
		return
	}
	names, types := e.mapResultNames(v)
	for j, name := range names {
		if len(v.Types) > 0 || !e.outside[v.ID] && !e.fused[v.ID] {
			e.declare(types[j], d, name, "")
		}
	}
	// index is the register of element j of the group at e.
	index := func(j int) string {
		if j == 0 {
			return "e"
		}
		return fmt.Sprintf("e + %d", j)
	}
	switch {
	case pack > 1:
		e.w.line("// tl.map_elementwise: the function, inlined, on each group of %d consecutive elements along the last axis.", pack)
	default:
		e.w.line("// tl.map_elementwise: the function, inlined, on each element.")
	}
	switch {
	case d.Elems > pack && pack > 1:
		e.w.line("#pragma unroll")
		e.w.open("for (int e = 0; e < %d; e += %d) {", d.Elems, pack)
	case d.Elems > 1 && pack == 1:
		e.w.line("#pragma unroll")
		e.w.open("for (int e = 0; e < %d; ++e) {", d.Elems)
	case pack > 1:
		e.w.open("{")
		e.w.line("const int e = 0;  // the thread's one group")
	default:
		e.w.open("{")
		e.w.line("const int e = 0;  // the thread's one element")
	}
	e.mapGroup(v, func(i, j int) string { return e.expr(v.Args[i], index(j)) },
		func(i, j int) string { return fmt.Sprintf("%s[%s]", names[i], index(j)) })
	e.w.close("}")
}

// mapGroup writes the inlined function of map_elementwise v on one group:
// its arguments bound to arg(i, j), element j of the group of operand i,
// and each result j of element k stored to res(j, k).
func (e *emitter) mapGroup(v *ir.Value, arg, res func(i, j int) string) {
	r, pack := v.Region, v.MapPack()
	saved := e.inRegion
	e.inRegion = true
	for i, a := range r.Args {
		e.w.line("%s %s = %s;", e.cType(a.Type.DType), e.names[a.ID], arg(i/pack, i%pack))
	}
	for _, x := range mapVars(r.Body, nil) {
		e.declare(x.Type, nil, e.varNames[x.ID], "")
	}
	e.mapBody(r.Body)
	for j, y := range r.Yields {
		e.w.line("%s = %s;", res(j/pack, j%pack), e.expr(y, ""))
	}
	e.inRegion = saved
}

// mapResultNames are the C names and types of v's results.
func (e *emitter) mapResultNames(v *ir.Value) ([]string, []ir.Type) {
	if len(v.Types) > 0 {
		return e.resNames[v.ID], v.Types
	}
	return []string{e.names[v.ID]}, []ir.Type{v.Type}
}

// mapElementwiseShared writes a map_elementwise with pack > 1 whose layout
// does not hold its groups in consecutive registers: the operands are
// stored in shared memory at their row-major indices, the program's
// threads take the groups in turn (group g is the elements g*pack up),
// store the results there too, and each thread reads its elements back.
func (e *emitter) mapElementwiseShared(v *ir.Value) {
	d := e.layoutOf(v)
	pack := v.MapPack()
	names, types := e.mapResultNames(v)
	e.useShared(mapSharedBytes(v))
	groups := d.Shape[0]
	for _, n := range d.Shape[1:] {
		groups *= n
	}
	groups /= pack
	e.w.line("// tl.map_elementwise through shared memory: #%s does not give each thread runs of %d elements along the last axis.", d.Tag, pack)
	argOff, resOff, _ := mapSharedOffsets(v)
	for i, a := range v.Args {
		e.storeShared(a, argOff[i])
	}
	e.w.line("__syncthreads();")
	e.use("tri_thread_id")
	e.w.open("for (int g = tri_thread_id(); g < %d; g += %d) {", groups, d.Threads)
	at := func(j int) string {
		if j == 0 {
			return fmt.Sprintf("g * %d", pack)
		}
		return fmt.Sprintf("g * %d + %d", pack, j)
	}
	e.mapGroup(v, func(i, j int) string { return e.smem(v.Args[i].Type.DType, argOff[i], at(j)) },
		func(i, j int) string { return e.smem(types[i].DType, resOff[i], at(j)) })
	e.w.close("}")
	e.w.line("__syncthreads();")
	for j, name := range names {
		if len(v.Types) > 0 || !e.outside[v.ID] && !e.fused[v.ID] {
			e.declare(types[j], d, name, "")
		}
		t, off := types[j], resOff[j]
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.smem(t.DType, off, linearOf(d.Shape, e.coords(d, i))))
		})
	}
	e.w.line("__syncthreads();")
}

// mapVars lists the Vars a map_elementwise body assigns (loop indices
// excepted: their for declares them), each once.
func mapVars(b *ir.Block, out []*ir.Var) []*ir.Var {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Assign:
			if !slices.Contains(out, s.Var) {
				out = append(out, s.Var)
			}
		case *ir.If:
			out = mapVars(s.Else, mapVars(s.Then, out))
		case *ir.For:
			out = mapVars(s.Body, out)
		case *ir.While:
			out = mapVars(s.Body, mapVars(s.Cond, out))
		}
	}
	return out
}

// mapBody writes the statements of a map_elementwise body, all scalar.
func (e *emitter) mapBody(b *ir.Block) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			if s.Op != ir.OpRegionArg {
				e.nest.value(s)
			}
		case *ir.Assign:
			e.w.line("%s = %s;", e.varNames[s.Var.ID], e.expr(s.Value, ""))
		case *ir.If:
			e.w.open("if (%s) {", e.expr(s.Cond, ""))
			e.mapBody(s.Then)
			if len(s.Else.Stmts) > 0 {
				e.w.indent--
				e.w.line("} else {")
				e.w.indent++
				e.mapBody(s.Else)
			}
			e.w.close("}")
		case *ir.For:
			i := e.varNames[s.Var.ID]
			cond := fmt.Sprintf("%s < %s", i, e.expr(s.Hi, ""))
			if s.Step.Op != ir.OpConst || s.Step.Const.Int < 0 {
				step := e.expr(s.Step, "")
				cond = fmt.Sprintf("%s > 0 ? %s < %s : %s > %s", step, i, e.expr(s.Hi, ""), i, e.expr(s.Hi, ""))
			}
			e.w.open("for (%s %s = %s; %s; %s += %s) {", e.cType(s.Var.Type.DType), i, e.expr(s.Lo, ""), cond, i, e.expr(s.Step, ""))
			e.mapBody(s.Body)
			e.w.close("}")
		case *ir.While:
			e.w.open("for (;;) {")
			e.mapBody(s.Cond)
			e.w.line("if (!%s) break;", e.expr(s.CondValue, ""))
			e.mapBody(s.Body)
			e.w.close("}")
		}
	}
}
