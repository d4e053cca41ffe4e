package cudagen

// This file implements the stores of Hopper's TMA unit and the values the
// TMA copies make unneeded.
//
// A desc.store of a tensor descriptor made on the host, on sm_90a, writes
// its block through shared memory: every thread puts its elements there,
// row-major, and one thread has the TMA unit copy the box to the tensor
// (cp.async.bulk.tensor), which writes only what lies inside it, as the
// store's mask would. Where the pipelines copy loads and stores this way,
// the pointer and mask tiles computed for them are not needed; they are
// left out of the CUDA (deadValues), which keeps a persistent kernel's
// epilogue from holding 64-bit addresses for each of its elements.

import (
	"fmt"
	"math"

	"github.com/tri-lang/tri/ir"
)

// findTMAStores records the stores the TMA unit writes, by value ID.
func (p *plan) findTMAStores() {
	p.tmaStores = map[int]*tensorMap{}
	if !p.wgmma || !p.tma {
		return
	}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op != ir.OpStore || !tmaDesc(v.Desc) || v.Args[1].Type.Shape.Rank() != 2 {
			return
		}
		shape := v.Args[1].Type.Shape
		es := v.Args[1].Type.Kind.Bytes()
		rows, inner := shape[0], shape[1]
		if es == 0 || rows > 256 || inner > 256 || inner*es%16 != 0 || rows*inner*es > maxSharedBytes {
			return
		}
		// Rows of whole 128-byte chunks go in boxes of 128 bytes a row,
		// swizzled, so that the threads' stores into shared memory do not
		// conflict on banks (tmaStore).
		box, swizzle := inner, 0
		if inner*es%128 == 0 && rows%8 == 0 {
			box, swizzle = 128/es, 128
		}
		tm := p.tensorMapOf(v.Desc, rows, box, swizzle, es, nil)
		p.addTensorMap(tm, v)
		p.tmaStores[v.ID] = tm
	})
}

// findDirectStores records the stores through a tensor descriptor that
// the TMA unit does not write, on sm_90a: they are written by rows from the
// descriptor (directStore), without their pointer and mask tiles.
func (p *plan) findDirectStores() {
	p.directStores = map[int]bool{}
	if !p.wgmma {
		return
	}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op == ir.OpStore && p.tmaStores[v.ID] == nil && byRows(v.Desc) && v.Args[1].Type.Shape.Rank() == 2 {
			p.directStores[v.ID] = true
		}
	})
}

// findDirectLoads records the loads through a tensor descriptor into
// registers, on sm_90a, that are read by rows from the descriptor
// (directLoad) rather than through pointer and mask tiles: those whose
// padding is a constant.
func (p *plan) findDirectLoads() {
	p.directLoads = map[int]bool{}
	if !p.wgmma {
		return
	}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if v.Op != ir.OpLoad || !byRows(v.Desc) || v.Type.Shape.Rank() != 2 || v.Flags&ir.FlagVolatile != 0 {
			return
		}
		if o := v.Args[2]; o != nil && (o.Op != ir.OpSplat || o.Args[0].Op != ir.OpConst) {
			return
		}
		p.directLoads[v.ID] = true
	})
}

// byRows reports whether the blocks of descriptor access d can be read and
// written by rows from the descriptor: it is of rank 2, its last stride
// the constant 1.
func byRows(d *ir.DescAccess) bool {
	if d == nil || len(d.Offsets) != 2 || len(d.Shape) != 2 || len(d.Strides) != 2 {
		return false
	}
	s := d.Strides[1]
	return s.Op == ir.OpConst && s.Const.Int == 1
}

// findDeadValues marks the values nothing emitted needs: pure values all
// of whose users are dead, or read them only as the pointers, mask or
// other of an access made from its descriptor (by the TMA unit, or by rows:
// the loads of the pipelines that are written, the stores of tmaStores
// and directStores).
func (p *plan) findDeadValues() {
	p.dead = make([]bool, p.k.NumValues)
	var vals []*ir.Value
	ir.Inspect(p.k.Body, func(v *ir.Value) { vals = append(vals, v) })
	// A load issued again in its one user's layout is not issued in its
	// own, nor are the pointers only it reads: the load issued again
	// computes its indices from the user's coordinates, and reads only the
	// scalars (reloadable).
	reissued := map[int]bool{}
	for id := range p.reissued {
		p.dead[id], reissued[id] = true, true
	}
	for id := range p.onlyFeeding(vals, reissued, func(v *ir.Value) bool { return v.Type.IsScalar() }, func(*ir.Value) bool { return true }) {
		p.dead[id] = true
	}
	byDesc := map[int]bool{}
	for id := range p.tmaStores {
		byDesc[id] = true
	}
	for id := range p.directStores {
		byDesc[id] = true
	}
	for id := range p.directLoads {
		byDesc[id] = true
	}
	for id := range p.tmaInvariants {
		byDesc[id] = true
	}
	for _, mp := range p.mloops {
		for _, o := range mp.streamed {
			if o.direct || o.tma != nil {
				byDesc[o.src.ID] = true
			}
		}
	}
	for _, pl := range p.loops {
		if !p.pipelined(pl.dot) {
			continue
		}
		for i, tm := range pl.tma {
			if tm != nil || pl.direct[i] {
				byDesc[pl.loads[i].ID] = true
			}
		}
	}
	if len(byDesc) == 0 {
		return
	}
	// The copies read the descriptor's base, shape, strides and offsets.
	keep := map[int]bool{}
	ir.Inspect(p.k.Body, func(v *ir.Value) {
		if byDesc[v.ID] {
			for _, x := range v.Desc.Scalars() {
				keep[x.ID] = true
			}
		}
	})
	dead := p.onlyFeeding(vals, byDesc, func(v *ir.Value) bool { return keep[v.ID] }, func(*ir.Value) bool { return true })
	for id := range dead {
		p.dead[id] = true
	}
	for id := range p.tmaInvariants {
		p.dead[id] = true
	}
}

// tmaStore writes store v through shared memory and the TMA unit.
func (e *emitter) tmaStore(v *ir.Value, tm *tensorMap) {
	val := v.Args[1]
	d := e.layoutOf(val)
	e.tmaHelpers()
	cond := ""
	if d.Repl {
		cond = fmt.Sprintf("if (%s) ", e.layoutOf(v.Args[0]).owner())
	}
	if tm.Swizzle > 0 {
		e.swizzledTMAStore(v, tm, cond)
		return
	}
	e.useShared(tmaStoreBytes(v, tm))
	tmap := e.tmapRef(tm)
	e.w.line("// The block goes through shared memory to the TMA unit (%s), which writes what lies inside the tensor.", e.tmapNames[tm])
	e.w.line("__syncthreads();  // the scratch memory is free")
	e.loop(d.Elems, func(i string) string {
		return fmt.Sprintf("%s%s = %s;", cond, e.smem(ir.Scalar(val.Type.Kind), 0,
			fmt.Sprintf("(%s) * %d + (%s)", e.coord(d, 0, i), tm.BoxInner, e.coord(d, 1, i))), e.expr(val, i))
	})
	e.use("tri_tma_store_fence", "tri_thread_id", "tri_tma_store_2d", "tri_bulk_commit", "tri_bulk_wait_read")
	e.w.line("tri_tma_store_fence();  // the TMA unit (the async proxy) sees the stores")
	e.w.line("__syncthreads();")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("tri_tma_store_2d(%s, (int)(%s), (int)(%s), tri_smem);", tmap, e.expr(v.Desc.Offsets[1], ""), e.expr(v.Desc.Offsets[0], ""))
	e.w.line("tri_bulk_commit();")
	e.w.line("tri_bulk_wait_read();  // the TMA unit has read the block")
	e.w.close("}")
	e.w.line("__syncthreads();  // the scratch memory is free again")
}

// directStore writes store v, through a tensor descriptor, by rows: each
// thread's run of w elements along a row goes to base + row * stride +
// column as one vector store where the whole run lies inside the tensor,
// else element by element where each does.
func (e *emitter) directStore(v *ir.Value) {
	d := v.Desc
	val := v.Args[1]
	l := e.layoutOf(v.Args[0])
	w := e.directWidth(v)
	row, col := e.descRowCol(d, l)
	shape1 := e.expr(d.Shape[1], "")
	owner := ""
	if l.Repl {
		owner = l.owner() + " && "
	}
	e.w.line("// Written by rows from the descriptor: a run of %d element(s) a thread, only what lies inside the tensor.", w)
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, w)
	e.runStart(e.cType(ir.Scalar(val.Type.Kind)), d, row, col, owner)
	if w == 1 {
		e.w.line("if (tri_in && tri_col >= 0 && tri_col < %s) *tri_p = %s;", shape1, e.expr(val, "e"))
		e.w.close("}")
		return
	}
	vs := e.vectorShape(val.Type.Kind, w)
	e.w.open("if (tri_in && tri_col >= 0 && tri_col + %d <= %s) {", w, shape1)
	e.w.long(fmt.Sprintf("%s vec = %s;", vs.Type, e.vecInit(val, vs, w)))
	e.w.line("*reinterpret_cast<%s*>(tri_p) = vec;", vs.Type)
	e.w.indent--
	e.w.line("} else {")
	e.w.indent++
	for j := 0; j < w; j++ {
		e.w.line("if (tri_in && tri_col + %d >= 0 && tri_col + %d < %s) tri_p[%d] = %s;", j, j, shape1, j, e.expr(val, fmt.Sprintf("e + %d", j)))
	}
	e.w.close("}")
	e.w.close("}")
}

// directLoad writes load v, through a tensor descriptor, by rows: each
// thread's run of w elements along a row comes from base + row * stride +
// column as one vector load where the whole run lies inside the tensor,
// element by element with the padding elsewhere (directStore's reverse).
func (e *emitter) directLoad(v *ir.Value) {
	d := v.Desc
	l := e.layoutOf(v)
	k := v.Type.Kind
	w := e.directWidth(v)
	pad, padding := e.zero(v.Type.DType), "zero"
	if o := v.Args[2]; o != nil {
		pad = e.expr(o.Args[0], "")
		if math.IsNaN(o.Args[0].Const.Float) {
			padding = "NaN"
		}
	}
	name := e.names[v.ID]
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, l, name, "")
	}
	row, col := e.descRowCol(d, l)
	shape0, shape1 := e.expr(d.Shape[0], ""), e.expr(d.Shape[1], "")
	t := e.cType(ir.Scalar(k))
	base, stride := e.expr(d.Base, ""), e.expr(d.Strides[0], "")
	if w == 1 {
		e.w.line("// Read by rows from the descriptor: a run of 1 element(s) a thread, %s past the tensor's edge.", padding)
		e.w.line("#pragma unroll")
		e.w.open("for (int e = 0; e < %d; e += 1) {", l.Elems)
		e.runStart("const "+t, d, row, col, "")
		e.w.line("%s[e] = tri_in && tri_col >= 0 && tri_col < %s ? *tri_p : %s;", name, shape1, pad)
		e.w.close("}")
		return
	}
	// A block wholly inside the tensor is read without a check per run: its
	// loads are then issued back to back, not each behind its own branch.
	r0, c0 := e.expr(d.Offsets[0], ""), e.expr(d.Offsets[1], "")
	e.w.line("// Read by rows from the descriptor: a run of %d elements a thread, %s past the tensor's edge;", w, padding)
	e.w.line("// a block wholly inside the tensor without a check per run.")
	e.w.open("if (%s >= 0 && %s + %d <= %s && %s >= 0 && %s + %d <= %s) {",
		r0, r0, v.Type.Shape[0], shape0, c0, c0, v.Type.Shape[1], shape1)
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, w)
	e.w.line("const %s* tri_p = %s + %s * %s + %s;", t, base, row, stride, col)
	e.loadVector(name, k, w, "tri_p")
	e.w.close("}")
	e.w.indent--
	e.w.line("} else {")
	e.w.indent++
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, w)
	e.runStart("const "+t, d, row, col, "")
	e.w.open("if (tri_in && tri_col >= 0 && tri_col + %d <= %s) {", w, shape1)
	e.loadVector(name, k, w, "tri_p")
	e.w.indent--
	e.w.line("} else {")
	e.w.indent++
	for j := 0; j < w; j++ {
		e.w.line("%s[e + %d] = tri_in && tri_col + %d >= 0 && tri_col + %d < %s ? tri_p[%d] : %s;", name, j, j, j, shape1, j, pad)
	}
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
}

// runStart writes the start of a thread's run of a block read or written
// by rows through descriptor access d: its row and column (C expressions
// row and col), its pointer tri_p (to ptr) and tri_in, whether its row
// lies inside the tensor (and, with a replicated layout, owner holds).
func (e *emitter) runStart(ptr string, d *ir.DescAccess, row, col, owner string) {
	e.w.line("const long long tri_row = %s, tri_col = %s;", row, col)
	e.w.line("%s* tri_p = %s + tri_row * %s + tri_col;", ptr, e.expr(d.Base, ""), e.expr(d.Strides[0], ""))
	e.w.line("const bool tri_in = %stri_row >= 0 && tri_row < %s;", owner, e.expr(d.Shape[0], ""))
}

// descRowCol are the C expressions of the row and column, in the tensor of
// descriptor access d, of element e of a block of layout l.
func (e *emitter) descRowCol(d *ir.DescAccess, l *dist) (row, col string) {
	row = fmt.Sprintf("(%s + (long long)(%s))", e.expr(d.Offsets[0], ""), e.coord(l, 0, "e"))
	col = fmt.Sprintf("(%s + (long long)(%s))", e.expr(d.Offsets[1], ""), e.coord(l, 1, "e"))
	return row, col
}

// initTMABarriers places at byte at of the scratch memory, and
// initialises, the n mbarriers of a pipeline's buffers (what: "buffer" or
// "stage"), on each of which copies arrivals
// (one per operand the TMA unit copies) complete a phase once the copies
// into its buffer have landed; then it fences the generic accesses to the
// buffers before the copies.
func (e *emitter) initTMABarriers(what string, n, copies, at int) {
	e.tmaHelpers()
	e.useShared(tmaBarriersEnd(at, n))
	e.w.line("// One mbarrier per %s, after the %ss: its phase completes when the TMA copies into the %s have landed.", what, what, what)
	e.w.line("unsigned long long* const tri_mbar = reinterpret_cast<unsigned long long*>(tri_smem + %d);", at)
	e.w.line("unsigned int tri_parity = 0;  // bit b: the phase of %s b's mbarrier the next wait is for", what)
	e.use("tri_thread_id", "tri_mbar_init", "tri_smem_addr", "tri_fence_mbar_init", "tri_fence_proxy_async")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("for (int b = 0; b < %d; ++b) tri_mbar_init(tri_smem_addr(&tri_mbar[b]), %d);", n, copies)
	e.w.line("tri_fence_mbar_init();")
	e.w.close("}")
	e.w.line("__syncthreads();")
	e.w.line("if (tri_thread_id() == 0) tri_fence_proxy_async();  // earlier generic accesses to the stages come before the copies")
}

// invalTMABarriers invalidates the n mbarriers of a pipeline, after its
// loop.
func (e *emitter) invalTMABarriers(n int) {
	e.use("tri_thread_id", "tri_mbar_inval", "tri_smem_addr")
	e.w.line("if (tri_thread_id() == 0) for (int b = 0; b < %d; ++b) tri_mbar_inval(tri_smem_addr(&tri_mbar[b]));", n)
}

// swizzledTMAStore writes store v through shared memory and the TMA unit
// in boxes of 128 bytes a row (tm's), each 128-byte swizzled: the 16-byte
// chunk c of row r of a box is stored at chunk c ^ (r % 8), so that the
// rows one store instruction of a warp writes (8 of them in a dot's
// layout) fall on different banks. Each thread writes its runs along a
// row as vectors of up to 16 bytes, which stay in one chunk.
func (e *emitter) swizzledTMAStore(v *ir.Value, tm *tensorMap, cond string) {
	val := v.Args[1]
	d := e.layoutOf(val)
	k := val.Type.Kind
	es := tm.elem
	boxes := val.Type.Shape[1] / tm.BoxInner
	boxBytes := tm.BoxRows * 128
	e.useShared(tmaStoreBytes(v, tm))
	e.alignedSmem = true
	e.helpers.add("wgmma", wgmmaHelpers) // tri_swizzle
	tmap := e.tmapRef(tm)
	e.w.line("// The block goes through shared memory to the TMA unit (%s), which writes what lies inside the tensor:", e.tmapNames[tm])
	what := fmt.Sprintf("%d boxes of %d columns", boxes, tm.BoxInner)
	if boxes == 1 {
		what = "one box"
	}
	e.w.line("// %s, 128-byte swizzled so that the stores of a warp's rows do not conflict on banks.", what)
	e.w.open("{")
	e.w.line("__syncthreads();  // the scratch memory is free")
	e.w.line("unsigned char* const tri_box = tri_smem;  // 1024-byte aligned, as the swizzle needs")
	w := rowRun(d, es, 16)
	locals, r, c := tileCoords(e.coord(d, 0, "e"), e.coord(d, 1, "e"))
	e.use("tri_swizzle")
	off := fmt.Sprintf("tri_swizzle(%s * 128 + %s * %d, 7)", r, c, es)
	if boxes > 1 {
		off = fmt.Sprintf("%s / %d * %d + tri_swizzle(%s * 128 + %s %% %d * %d, 7)", c, tm.BoxInner, boxBytes, r, c, tm.BoxInner, es)
	}
	e.w.line("#pragma unroll")
	if w*es < 4 {
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", d.Elems), locals,
			fmt.Sprintf("%s*reinterpret_cast<%s*>(tri_box + %s) = %s;", cond, e.cType(ir.Scalar(k)), off, e.expr(val, "e")))
	} else {
		vs := e.vectorShape(k, w)
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", d.Elems, w), append(locals, e.vecLocal(val, vs, w)),
			fmt.Sprintf("%s*reinterpret_cast<%s*>(tri_box + %s) = tri_v;", cond, vs.Type, off))
	}
	e.use("tri_tma_store_fence", "tri_thread_id", "tri_tma_store_2d", "tri_bulk_commit", "tri_bulk_wait_read")
	e.w.line("tri_tma_store_fence();  // the TMA unit (the async proxy) sees the stores")
	e.w.line("__syncthreads();")
	e.w.open("if (tri_thread_id() == 0) {")
	col, row := e.expr(v.Desc.Offsets[1], ""), e.expr(v.Desc.Offsets[0], "")
	if boxes == 1 {
		e.w.line("tri_tma_store_2d(%s, (int)(%s), (int)(%s), tri_box);", tmap, col, row)
	} else {
		e.w.line("for (int b = 0; b < %d; ++b) tri_tma_store_2d(%s, (int)(%s) + b * %d, (int)(%s), tri_box + b * %d);",
			boxes, tmap, col, tm.BoxInner, row, boxBytes)
	}
	e.w.line("tri_bulk_commit();")
	e.w.line("tri_bulk_wait_read();  // the TMA unit has read the boxes")
	e.w.close("}")
	e.w.line("__syncthreads();  // the scratch memory is free again")
	e.w.close("}")
}
