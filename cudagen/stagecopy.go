package cudagen

// This file implements the printing that every pipeline printer shares
// (pipeline.go, mmapipe.go, multipipe.go, mmamulti.go): the statements
// that run ahead of the dots, the copies of a streamed load into its
// stage (cp.async through its pointers, cp.async by rows from its
// descriptor, or the TMA unit), the operands stored once before a loop,
// the swizzled offsets of a stage, and the helpers those copies call.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// swizzle is the C expression of byte offset off (from a 1024-aligned
// base) in rows of row bytes, XOR-swizzled in 16-byte chunks.
func (s nameSet) swizzle(off string, row int) string {
	mask := row/16 - 1
	s.use("tri_swizzle")
	return fmt.Sprintf("tri_swizzle(%s, %d)", off, mask)
}

// permRow is the C expression of the shared-memory row of a that holds
// row r of the tile: the row wgmma's fragments give to the register that
// the Blocked accumulator layout gives it. With W warps, row r is in
// repetition i = r / (8W) of warp w = r / 8 % W, at g = r % 8; warpgroup
// w / 4 owns rows from (w / 4) * m/(W/4), in m64 blocks i / 2, where warp
// w % 4 holds rows 16 * (w % 4) + 8 * (i % 2) + g.
func permRow(r string, m, numWarps int) string {
	w := numWarps
	perGroup := m / (w / 4)
	r = group(r)
	return fmt.Sprintf("%s / %d %% %d / 4 * %d + %s / %d / 2 * 64 + %s / 8 %% 4 * 16 + %s / %d %% 2 * 8 + %s %% 8",
		r, 8, w, perGroup, r, 8*w, r, r, 8*w, r)
}

// pipelinePrologue writes the copies of the first stages-1 iterations of
// pipeline pl's loop s, each a cp.async group of its own (empty past the
// loop's end), into stages 0 to stages-2.
func (e *emitter) pipelinePrologue(s *ir.For, pl *pipeline) {
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	e.w.line("#pragma unroll 1")
	e.w.open("for (int tri_s = 0; tri_s < %d; ++tri_s) {", pl.stages-1)
	e.w.line("%s tri_ahead = %s + tri_s * %s;", it, lo, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.aheadStatements(s, pl, "tri_s")
	e.w.close("}")
	e.use("tri_cp_async_commit")
	e.w.line("tri_cp_async_commit();")
	e.w.close("}")
}

// pipelineCopies writes, in an iteration of pipeline pl's loop s, the
// ahead statements of the iteration stages-1 further on, its loads as
// copies into stage tri_write, committed as one group (empty past the
// loop's end, so that the waits count groups alike to the last iteration).
func (e *emitter) pipelineCopies(s *ir.For, pl *pipeline) {
	it := e.cType(s.Var.Type.DType)
	iv, hi, step := e.varNames[s.Var.ID], e.expr(s.Hi, ""), e.expr(s.Step, "")
	e.w.line("%s tri_ahead = %s + %d * %s;", it, iv, pl.stages-1, step)
	e.w.open("if (tri_ahead < %s) {", hi)
	e.aheadStatements(s, pl, "tri_write")
	e.w.close("}")
	e.use("tri_cp_async_commit")
	e.w.line("tri_cp_async_commit();")
}

// storesElements reports whether load i of pl reaches the stage through
// element-by-element shared-memory stores (generic-proxy writes) rather
// than copies.
func (e *emitter) storesElements(pl *pipeline, i int) bool {
	ld := pl.loads[i]
	switch {
	case pl.tma[i] != nil:
		return false
	case pl.direct[i]:
		return e.directWidth(ld) == 1
	}
	return e.copyWidth(ld, pl.copyAxis(ld)) == 1
}

// assignDot writes the assignment of the dot's result to the accumulator
// Var.
func (e *emitter) assignDot(s *ir.For, pl *pipeline) {
	for _, st := range s.Body.Stmts {
		if as, ok := st.(*ir.Assign); ok && as.Value == pl.dot {
			e.nest.stmt(as)
		}
	}
}

// aheadStatements writes the ahead statements of pl's loop for the
// iteration tri_ahead, its loads as copies into the stage at shared
// address stage.
func (e *emitter) aheadStatements(s *ir.For, pl *pipeline, buf string) {
	stage := fmt.Sprintf("tri_stage0 + %s * %d", buf, pl.stageSize)
	e.aheadOf(s, pl.ahead, func(st ir.Stmt) bool {
		for i, ld := range pl.loads {
			if st == ld {
				e.source(st.Position())
				if pl.tma[i] != nil {
					e.tmaToStage(pl, ld, i == 0, stage, buf)
				} else {
					e.copyToStage(pl, ld, i == 0, stage, pl.direct[i])
				}
				return true
			}
		}
		return false
	})
}

// tmaToStage writes the TMA copies of load ld (a if isA, else b) into the
// stage at shared address stage, completing on buffer buf's mbarrier: one
// thread tells the barrier the bytes to expect and issues them. a goes in
// atoms of 8 rows, each to the place the row permutation gives it (atoms
// move whole, so TMA's swizzle, which is the stage's, holds); b, K-major
// and in order, in one box.
func (e *emitter) tmaToStage(pl *pipeline, ld *ir.Value, isA bool, stage, buf string) {
	tm := pl.tma[0]
	what, rows := "a", pl.m
	if !isA {
		tm, what, rows = pl.tma[1], "b", pl.n
	}
	bytes := rows * pl.aRow
	row, col := e.expr(ld.Desc.Offsets[0], ""), e.expr(ld.Desc.Offsets[1], "")
	tmap := e.tmapRef(tm)
	e.w.line("// %s: %d bytes copied by the TMA unit from %s, completing on the buffer's mbarrier", what, bytes, e.tmapNames[tm])
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_expect_tx")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[%s]);", buf)
	e.w.line("tri_mbar_expect_tx(tri_bar, %d);", bytes)
	if isA {
		e.tmaRowsOfA(stage, tm, pl.aRows, ld.Desc, pl.m, pl.aRow, 1)
	} else {
		e.use("tri_tma_load_2d")
		e.w.line("tri_tma_load_2d(%s + %d, %s, (int)(%s), (int)(%s), tri_bar);", stage, pl.aBytes, tmap, col, row)
	}
	e.w.close("}")
}

// tmaRowsOfA writes the TMA copies, completing on mbarrier tri_bar, of
// the block of m rows of a dot's a that descriptor access d reads, into
// shared memory at dst with its rows in permRow's order: chunks tiles of
// rows of rb bytes, chunk c (the columns from rb / elem * c) at dst + c *
// m * rb. Rows inside the tensor go in one box of the 5-D view rows a
// chunk, where there is one (wgmmaRowAxes); the tensor's last rows, and
// all rows without the view, in 8-row boxes of map8, each to its place
// (whole swizzle atoms, so that the TMA unit's swizzle is the tile's).
func (e *emitter) tmaRowsOfA(dst string, map8, rows *tensorMap, d *ir.DescAccess, m, rb, chunks int) {
	row, col := e.expr(d.Offsets[0], ""), e.expr(d.Offsets[1], "")
	// at and from are chunk c's place and first column.
	at := func(c int) string { return plusBytes(dst, c*m*rb) }
	from := func(c int) string { return plusBytes(fmt.Sprintf("(int)(%s)", col), c*rb/map8.elem) }
	if rows != nil {
		e.helpers.add("tma5d", tmaLoad5D)
		how := "one box of a 5-D view lands them"
		if chunks > 1 {
			how = "a box of a 5-D view a chunk lands them"
		}
		e.w.comment("Rows inside the tensor: %s in wgmma's order.", how)
		e.w.open("if ((int)(%s) >= 0 && (int)(%s) + %d <= %s) {", row, row, m, e.expr(d.Shape[0], ""))
		for c := range chunks {
			e.use("tri_tma_load_5d")
			e.w.line("tri_tma_load_5d(%s, %s, %s, (int)(%s), 0, 0, 0, tri_bar);", at(c), e.tmapRef(rows), from(c), row)
		}
		e.w.close("} else {  // the tensor's last rows: 8-row boxes, each to its place")
		e.w.indent++
	}
	for c := range chunks {
		e.w.line("#pragma unroll")
		e.use("tri_tma_load_2d")
		e.w.loop(fmt.Sprintf("for (int r = 0; r < %d; r += 8)", m),
			[]string{"int tri_srow = " + permRow("r", m, e.numWarps), fmt.Sprintf("unsigned int tri_dst = %s + tri_srow * %d", at(c), rb)},
			fmt.Sprintf("tri_tma_load_2d(tri_dst, %s, %s, (int)(%s) + r, tri_bar);", e.tmapRef(map8), from(c), row))
	}
	if rows != nil {
		e.w.close("}")
	}
}

// plusBytes is the C expression of x plus n, where n is not 0.
func plusBytes(x string, n int) string {
	if n == 0 {
		return x
	}
	return fmt.Sprintf("%s + %d", x, n)
}

// tmapRef is the C address of tensor map tm: its parameter's, or the
// pointer to the one the kernel built.
func (e *emitter) tmapRef(tm *tensorMap) string {
	if tm.dev != nil {
		return e.tmapNames[tm]
	}
	return "&" + e.tmapNames[tm]
}

// aheadOf writes the statements of loop s that ahead holds, for the
// iteration tri_ahead: each through copy, which writes the statement (a
// streamed load, as copies) and reports true, or else as it is.
func (e *emitter) aheadOf(s *ir.For, ahead map[ir.Stmt]bool, copy func(ir.Stmt) bool) {
	saved := e.varNames[s.Var.ID]
	e.varNames[s.Var.ID] = "tri_ahead"
	defer func() { e.varNames[s.Var.ID] = saved }()
	e.lastLine = 0
	for _, st := range s.Body.Stmts {
		if ahead[st] && !copy(st) {
			e.nest.stmt(st)
		}
	}
}

// copyToStage writes load ld (a if isA, else b) as copies into the stage.
func (e *emitter) copyToStage(pl *pipeline, ld *ir.Value, isA bool, stage string, direct bool) {
	l := e.layoutOf(ld.Args[0])
	w := e.copyWidth(ld, pl.copyAxis(ld))
	if direct {
		w = e.directWidth(ld)
	}
	locals, row, col := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e"))
	es := pl.elem
	var off string
	switch {
	case isA && pl.mma:
		off = e.swizzle(fmt.Sprintf("%s * %d + %s * %d", row, pl.aRow, col, es), pl.aRow)
	case isA:
		locals = append(locals, "int tri_srow = "+permRow(row, pl.m, e.numWarps))
		off = e.swizzle(fmt.Sprintf("tri_srow * %d + %s * %d", pl.aRow, col, es), pl.aRow)
	case pl.bTrans:
		// Row row of the [N, K] load is column row of b: row row of the
		// stage's b.
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s * %d + %s * %d", row, pl.bRow(), col, es), pl.bRow())
	case pl.bKMajor:
		// Column col of b is row col of the stage's b, its k-th byte row.
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s * %d + %s", col, pl.bRow(), row), pl.bRow())
	default:
		off = fmt.Sprintf("%d + ", pl.aBytes) + e.swizzle(fmt.Sprintf("%s / %d * %d + %s * %d + %s %% %d * %d",
			col, pl.bCols, pl.k*pl.bRow(), row, pl.bRow(), col, pl.bCols, es), pl.bRow())
	}
	switch {
	case direct:
		e.directStageCopies(ld, isA, w, es, stage, off, locals)
	case w == 1 && pl.mma:
		e.stageElements(ld, isA, es, stage, off, locals)
	default:
		e.stageCopies(ld, isA, w, es, stage, off, locals)
	}
}

// tileCoords binds the C expressions of element e's row and column in a
// tile to the locals tri_row and tri_col, which the loops writing stage
// copies declare: it returns the declarations and the names.
func tileCoords(row, col string) (locals []string, r, c string) {
	return []string{"int tri_row = " + row, "int tri_col = " + col}, "tri_row", "tri_col"
}

// dstLocal appends to locals the shared address stage + off as the
// local tri_dst (every copy and store helper takes its destination as an
// unsigned int), and returns them.
func dstLocal(locals []string, stage, off string) []string {
	return append(locals[:len(locals):len(locals)], fmt.Sprintf("unsigned int tri_dst = %s + %s", stage, off))
}

// directStageCopies writes the copies of descriptor load ld (a if isA,
// else b) into the stage, w elements of es bytes at a time along the
// block's rows, each from the descriptor's base, strides and offsets, with
// the byte count that stops it at the tensor's edge (0 outside it: the
// stage is zero-filled there, the descriptor's zero padding); off is the
// C expression of element e's byte offset in the stage, over the locals
// tileCoords declares (tri_row and tri_col, the element's place in the
// block).
func (e *emitter) directStageCopies(ld *ir.Value, isA bool, w, es int, stage, off string, locals []string) {
	d := ld.Desc
	l := e.layoutOf(ld.Args[0])
	what := "b"
	if isA {
		what = "a"
	}
	// The element's row and column in the tensor, as descRowCol gives them.
	locals = append(dstLocal(locals, stage, off),
		fmt.Sprintf("auto tri_trow = %s + (long long)(tri_row)", e.expr(d.Offsets[0], "")),
		fmt.Sprintf("auto tri_tcol = %s + (long long)(tri_col)", e.expr(d.Offsets[1], "")))
	row, col := "tri_trow", "tri_tcol"
	locals = append(locals, fmt.Sprintf("auto tri_src = %s + %s * %s + %s", e.expr(d.Base, ""), row, e.expr(d.Strides[0], ""), col))
	inRow := fmt.Sprintf("%s >= 0 && %s < %s", row, row, e.expr(d.Shape[0], ""))
	shape1 := e.expr(d.Shape[1], "")
	if w == 1 {
		bits := 8 * es
		e.w.line("// %s, element by element from the descriptor, zero outside the tensor", what)
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", bits))
		locals = append(locals, fmt.Sprintf("bool tri_in = %s && %s >= 0 && %s < %s", inRow, col, col, shape1))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals,
			fmt.Sprintf("tri_st_shared_u%d(tri_dst, tri_in ? *(tri_src) : (unsigned %s)0);", bits, cUnsigned(es)))
		return
	}
	e.w.line("// %s: %d-byte copies of rows from the descriptor, each cut at the tensor's edge (zero-filled past it)", what, es*w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_cp_async_%dn", es*w), "tri_clamp_ll")
	locals = append(locals, fmt.Sprintf("bool tri_in = %s && %s >= 0", inRow, col),
		fmt.Sprintf("int tri_bytes = tri_in ? (int)tri_clamp_ll(%s - %s, 0, %d) * %d : 0", shape1, col, w, es))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), locals,
		fmt.Sprintf("tri_cp_async_%dn(tri_dst, tri_src, tri_bytes);", es*w))
	e.helpers.add("cp_async_n", cpAsyncNHelpers)
}

// cpAsyncNHelpers are cp.async copies of a byte count that may be short
// of the copy's size (the rest of the destination is zero-filled).
var cpAsyncNHelpers = cgroup{`// cp.async of n bytes (n at most the copy's size; the rest of it zero-filled).`, []cdef{
	{"tri_clamp_ll", nil, `TRI_DEV long long tri_clamp_ll(long long x, long long lo, long long hi) { return x < lo ? lo : x > hi ? hi : x; }`},
	{"tri_cp_async_16n", nil, `TRI_DEV void tri_cp_async_16n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
	{"tri_cp_async_8n", nil, `TRI_DEV void tri_cp_async_8n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
	{"tri_cp_async_4n", nil, `TRI_DEV void tri_cp_async_4n(unsigned int dst, const void* src, int n) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(n) : "memory");
}`},
}}

// stagedLoad is what the writers of a stage need of load ld (a if isA,
// else b): its pointer tile and layout, the C expression of element e's
// mask ("true" where it has none), and the operand's name for comments
// and C names.
func (e *emitter) stagedLoad(ld *ir.Value, isA bool) (ptr *ir.Value, l *dist, pred, what string) {
	ptr, mask := ld.Args[0], ld.Args[1]
	l = e.layoutOf(ptr)
	pred = "true"
	if mask != nil {
		pred = e.expr(mask, "e")
	}
	what = "b"
	if isA {
		what = "a"
	}
	return ptr, l, pred, what
}

// stageCopies writes the copies of load ld (a if isA, else b) into the
// stage: w elements of es bytes at a time with cp.async, zero-filled where
// masked off, or element by element through registers when w is 1. off is
// the C expression of element e's byte offset in the stage, over locals.
func (e *emitter) stageCopies(ld *ir.Value, isA bool, w, es int, stage, off string, locals []string) {
	ptr, l, pred, what := e.stagedLoad(ld, isA)
	locals = dstLocal(locals, stage, off)
	if w == 1 {
		bits := 8 * es
		e.w.line("// %s, element by element (no 4-byte run is contiguous, aligned and under one mask)", what)
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", bits))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals,
			fmt.Sprintf("tri_st_shared_u%d(tri_dst, %s ? *%s : (unsigned %s)0);", bits, pred, e.expr(ptr, "e"), cUnsigned(es)))
		return
	}
	e.w.line("// %s: %d-byte copies into the stage, zero-filled where masked off", what, es*w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_cp_async_%d", es*w))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), locals,
		fmt.Sprintf("tri_cp_async_%d(tri_dst, %s, %s);", es*w, e.expr(ptr, "e"), pred))
}

// tmaLoad5D copies a box of a 5-D tensor map (PTX ISA 8.0, sm_90).
var tmaLoad5D = cgroup{``, []cdef{
	{"tri_tma_load_5d", []string{"tri_tmap"}, `TRI_DEV void tri_tma_load_5d(unsigned int dst, const tri_tmap* map, int c0, int c1, int c2, int c3, int c4, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar) : "memory");
}`},
}}

// cUnsigned is the unsigned C type of n bytes (1 or 2).
func cUnsigned(n int) string {
	if n == 1 {
		return "char"
	}
	return "short"
}

// stageElements writes load ld (a if isA, else b), whose elements no
// copy of 4 bytes or more can move, into the stage element by element
// through registers: every load first, then the stores, so that the loads
// are in flight together (a store, inline PTX that clobbers memory, would
// keep the next load behind it). off is the C expression of element e's
// byte offset in the stage, over locals.
func (e *emitter) stageElements(ld *ir.Value, isA bool, es int, stage, off string, locals []string) {
	ptr, l, pred, what := e.stagedLoad(ld, isA)
	t := "unsigned " + cUnsigned(es)
	e.w.line("// %s, element by element through registers (no 4-byte run is contiguous, aligned and under one mask)", what)
	e.w.line("%s tri_%s_elems[%d];", t, what, l.Elems)
	e.w.line("#pragma unroll")
	e.w.line("for (int e = 0; e < %d; ++e) tri_%s_elems[e] = %s ? *%s : (%s)0;", l.Elems, what, pred, e.expr(ptr, "e"), t)
	e.use(fmt.Sprintf("tri_st_shared_u%d", 8*es))
	e.w.line("#pragma unroll")
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), dstLocal(locals, stage, off),
		fmt.Sprintf("tri_st_shared_u%d(tri_dst, tri_%s_elems[e]);", 8*es, what))
}

// cpAsyncHelpers are the cp.async copies and swizzle arithmetic of the
// pipelines on mma.sync.
var cpAsyncHelpers = cgroup{`// cp.async copies into shared memory, in rows XOR-swizzled in 16-byte chunks.`, cpAsyncDefs}

// ldmatrixSharedHelpers are ldmatrix from a shared address: four 8x8 b16
// matrices, or two, as they lie or transposed.
var ldmatrixSharedHelpers = cgroup{`// ldmatrix from shared addresses: x4 and x2, as stored or transposed (.trans).`, []cdef{
	{"tri_ldsm_x4", nil, `TRI_DEV void tri_ldsm_x4(unsigned int* r, unsigned int a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}`},
	{"tri_ldsm_x2", nil, `TRI_DEV void tri_ldsm_x2(unsigned int* r, unsigned int a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
}`},
	{"tri_ldsm_x4_trans", nil, `TRI_DEV void tri_ldsm_x4_trans(unsigned int* r, unsigned int a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
}`},
	{"tri_ldsm_x2_trans", nil, `TRI_DEV void tri_ldsm_x2_trans(unsigned int* r, unsigned int a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
}`},
}}

// offset is the C expression of the byte offset, from the 1024-aligned
// base of the stage or region, of the element at row r (along M or N)
// and column c (along K) of the operand, and the const locals it reads
// (tri_srow, the row of the tile that holds row r, where rows are
// permuted), for the loop body that writes it to declare.
func (t smemTile) offset(s nameSet, r, c string, numWarps, m int) (locals []string, off string) {
	rb := t.rowBytes()
	if !t.kMajor {
		// MN-major b: blocks of 64 columns, each row of a block one
		// swizzle row; c is the row of b, r its column.
		cols := rb / t.elem
		return nil, fmt.Sprintf("%d + %s / %d * %d + ", t.off, group(r), cols, t.k*rb) +
			s.swizzle(fmt.Sprintf("%s * %d + %s %% %d * %d", group(c), rb, group(r), cols, t.elem), rb)
	}
	row := r
	if t.perm {
		locals, row = []string{"int tri_srow = " + permRow(r, m, numWarps)}, "tri_srow"
	}
	in := fmt.Sprintf("%s * %d", group(c), t.elem)
	chunk := ""
	if t.k*t.elem > rb {
		in = fmt.Sprintf("%s * %d %% %d", group(c), t.elem, rb)
		chunk = fmt.Sprintf("%s * %d / %d * %d + ", group(c), t.elem, rb, t.chunkBytes())
	}
	return locals, fmt.Sprintf("%d + %s", t.off, chunk) + s.swizzle(fmt.Sprintf("%s * %d + %s", group(row), rb, in), rb)
}

// multiBody writes the statements of mp's iteration, declaring first the
// Vars that live in the body.
func (e *emitter) multiBody(s *ir.For, mp *multiPipe) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == s.Body {
			e.declare(x.Type, e.varDists[x.ID], e.varNames[x.ID], "")
		}
	}
	e.lastLine = 0
	for _, st := range s.Body.Stmts {
		// The in-flight dot's assignment happens where its wgmmas are
		// waited for (landInFlight).
		if as, ok := st.(*ir.Assign); ok && mp.inFlight != nil && as.Value == mp.inFlight.dot {
			continue
		}
		if mp.compute[st] {
			e.nest.stmt(st)
		}
	}
}

// multiAhead writes the ahead statements of mp for the iteration
// tri_ahead, its streamed loads as copies into the stage at shared
// address stage.
func (e *emitter) multiAhead(s *ir.For, mp *multiPipe, stage, buf string) {
	e.aheadOf(s, mp.ahead, func(st ir.Stmt) bool {
		// A load that two dots read in different places of the stage is
		// copied into each.
		copied := false
		for _, o := range mp.streamed {
			if ir.Stmt(o.src) != st {
				continue
			}
			if !copied {
				e.source(st.Position())
			}
			if o.tma != nil {
				e.tmaOperand(o, stage, buf)
			} else {
				e.copyOperand(o, mp.aIsA[o], stage)
			}
			copied = true
		}
		return copied
	})
}

// tmaOperand writes the TMA copies of streamed operand o into the stage at
// shared address stage, completing on stage buf's mbarrier: one box per
// swizzle-row chunk of the tile, each a 1024-aligned tile of its own.
func (e *emitter) tmaOperand(o *wgOperand, stage, buf string) {
	ld, t := o.src, o.tile
	rows, inner := ld.Type.Shape[0], ld.Type.Shape[1]
	rb := t.rowBytes()
	bytes := rows * inner * t.elem
	row, col := e.expr(ld.Desc.Offsets[0], ""), e.expr(ld.Desc.Offsets[1], "")
	e.w.line("// b: %d bytes copied by the TMA unit from %s in %d box(es) of %d-byte rows, completing on the stage's mbarrier", bytes, e.tmapNames[o.tma], inner*t.elem/rb, rb)
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_expect_tx")
	e.w.open("if (tri_thread_id() == 0) {")
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[%s]);", buf)
	e.w.line("tri_mbar_expect_tx(tri_bar, %d);", bytes)
	for c := 0; c < inner*t.elem/rb; c++ {
		e.use("tri_tma_load_2d")
		e.w.line("tri_tma_load_2d(%s + %d, %s, (int)(%s) + %d, (int)(%s), tri_bar);", stage, t.off+c*rows*rb, e.tmapRef(o.tma), col, c*rb/t.elem, row)
	}
	e.w.close("}")
}

// stagePlace is where a thread's element e of the streamed load of o lies
// in a stage: the const locals it needs and its byte offset. When o is
// copied directly (o.direct), stagePlace writes the copies too and
// reports done.
func (e *emitter) stagePlace(o *wgOperand, isA bool, stage string) (locals []string, off string, done bool) {
	l := e.layoutOf(o.src.Args[0])
	locals, r, c := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e")) // a: (m, k); b: (k, n); b.T: (n, k)
	if !isA && !o.trans {
		r, c = c, r
	}
	more, off := o.tile.offset(e.nameSet, r, c, e.numWarps, o.tile.rows)
	locals = append(locals, more...)
	if o.direct {
		e.directStageCopies(o.src, isA, e.directWidth(o.src), o.tile.elem, stage, off, locals)
		return nil, "", true
	}
	return locals, off, false
}

// copyOperand writes the streamed load of o as copies into the stage.
func (e *emitter) copyOperand(o *wgOperand, isA bool, stage string) {
	locals, off, done := e.stagePlace(o, isA, stage)
	if done {
		return
	}
	e.stageCopies(o.src, isA, e.copyWidth(o.src, o.copyAxis(isA)), o.tile.elem, stage, off, locals)
}

// tmaInvariant writes the TMA copies of the loop-invariant a of wd into
// its place before the stages, issued where the loop runs at all (lo <
// hi): they complete on stage 0's mbarrier, with the first iteration's
// copies, which add their arrivals to the bytes these add (tmaRowsOfA).
func (e *emitter) tmaInvariant(wd *wgDot, lo, hi string) {
	o := &wd.a
	ld, t := o.src, o.tile
	rb := t.rowBytes()
	e.helpers.add("mbar_add_tx", mbarAddTx)
	e.w.line("// %s, a of the tl.dot at line %d, is the same in every iteration: the TMA unit copies it once, with the first", e.names[ld.ID], wd.dot.Pos.Line)
	e.w.line("// iteration's copies, on stage 0's mbarrier (%d bytes from %s).", wd.m*t.k*t.elem, e.tmapNames[o.tma])
	e.use("tri_thread_id", "tri_smem_addr", "tri_mbar_add_tx")
	e.w.open("if (%s < %s && tri_thread_id() == 0) {", lo, hi)
	e.w.line("const unsigned int tri_bar = tri_smem_addr(&tri_mbar[0]);")
	e.w.line("tri_mbar_add_tx(tri_bar, %d);", wd.m*t.k*t.elem)
	e.tmaRowsOfA(plusBytes("tri_inv", t.off), o.tma, o.rows, ld.Desc, wd.m, rb, t.k*t.elem/rb)
	e.w.close("}")
}

// mbarAddTx adds transactions to an mbarrier's phase without arriving
// (PTX ISA 8.0, sm_90).
var mbarAddTx = cgroup{`// Adds bytes to the transactions the current phase of mbarrier bar waits for, without arriving on it.`, []cdef{
	{"tri_mbar_add_tx", nil, `TRI_DEV void tri_mbar_add_tx(unsigned int bar, unsigned int bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}`},
}}

// storeInvariant stores the loop-invariant a of wd into its place before
// the stages, from its registers.
func (e *emitter) storeInvariant(wd *wgDot) {
	v := wd.a.src
	l := e.layoutOf(v)
	locals, r, c := tileCoords(e.coord(l, 0, "e"), e.coord(l, 1, "e"))
	more, off := wd.a.tile.offset(e.nameSet, r, c, e.numWarps, wd.m)
	locals = dstLocal(append(locals, more...), "tri_inv", off)
	e.w.line("// %s, a of the tl.dot at line %d, is the same in every iteration: stored once", e.names[v.ID], wd.dot.Pos.Line)
	// A thread's run along K goes in one vector store of up to 16 bytes:
	// a run aligned to its size stays in one 16-byte chunk of a swizzled
	// row, which the swizzle moves whole.
	es := wd.a.tile.elem
	w := rowRun(l, es, 16)
	if w*es < 4 {
		e.w.line("#pragma unroll")
		e.use(fmt.Sprintf("tri_st_shared_u%d", 8*es))
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; ++e)", l.Elems), locals, fmt.Sprintf("tri_st_shared_u%d(tri_dst, %s);", 8*es, e.expr(v, "e")))
		return
	}
	e.helpers.add("stshared", stSharedHelpers)
	vs := e.vectorShape(v.Type.Kind, w)
	e.w.line("#pragma unroll")
	e.use(fmt.Sprintf("tri_st_shared_b%d", 8*w*es))
	e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", l.Elems, w), append(locals, e.vecLocal(v, vs, w)), fmt.Sprintf("tri_st_shared_b%d(tri_dst, tri_v);", 8*w*es))
}

// stSharedHelpers store 4, 8 or 16 bytes at a shared address.
var stSharedHelpers = cgroup{`// Vector stores to a shared address.`, []cdef{
	{"tri_st_shared_b32", nil, `TRI_DEV void tri_st_shared_b32(unsigned int dst, unsigned int x) { asm volatile("st.shared.b32 [%0], %1;" :: "r"(dst), "r"(x) : "memory"); }`},
	{"tri_st_shared_b64", []string{"tri_u32x2"}, `TRI_DEV void tri_st_shared_b64(unsigned int dst, tri_u32x2 x) { asm volatile("st.shared.v2.b32 [%0], {%1, %2};" :: "r"(dst), "r"(x.x), "r"(x.y) : "memory"); }`},
	{"tri_st_shared_b128", []string{"tri_u32x4"}, `TRI_DEV void tri_st_shared_b128(unsigned int dst, tri_u32x4 x) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" :: "r"(dst), "r"(x.x), "r"(x.y), "r"(x.z), "r"(x.w) : "memory");
}`},
}}
