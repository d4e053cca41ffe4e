package cudagen

// This file prints the software-pipelined K loop of a matrix
// multiplication on sm_90a, after Triton's pipeliner, as pipeplan.go plans
// it (the pipeline record). A loop
//
//	for k in range(lo, hi, step):
//	    a = tl.load(a_ptrs, mask=..., other=0.0)
//	    b = tl.load(b_ptrs, mask=..., other=0.0)
//	    acc = tl.dot(a, b, acc)
//	    a_ptrs += ...
//	    b_ptrs += ...
//
// whose body holds nothing but one fp16, bf16 or fp8 dot into an fp32
// accumulator, the two loads that feed it and the computations of their
// addresses and masks, is cut in two stages. The first, the loads and
// everything they depend on (the "ahead" statements, which may update
// pointer Vars that nothing else reads), runs num_stages-1 iterations
// ahead of the second, the dot: its loads become cp.async copies straight
// from global into one of num_stages shared-memory buffers, and the dot of
// iteration i runs as wgmma.mma_async on the buffer that was filled
// num_stages-1 iterations earlier, while the copies for the next ones are
// in flight.
//
// The buffers hold a and b in the layouts wgmma reads through its matrix
// descriptors: a K-major (each row of a is one swizzle row of 32, 64 or
// 128 bytes), b MN-major for fp16 and bf16 (blocks of up to 64 columns,
// each row of a block one swizzle row) and K-major for fp8, whose wgmma
// takes no transposed operand (each column of b one swizzle row, which
// the copies fill from a b whose K axis is contiguous in memory, as
// Triton's fp8 matmuls pass it), all XOR-swizzled in 16-byte chunks
// (CUTLASS's Swizzle<B,4,3>) from a 1024-byte aligned base. The accumulator keeps the
// Blocked layout sizePerThread [1, 2], threadsPerWarp [8, 4], warpsPerCTA
// [num_warps, 1]: its rows are a permutation of the rows wgmma's fragments
// cover, so the rows of a are stored in that permuted order and the
// registers of the layout are the wgmma accumulators themselves.

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/tri-lang/tri/ir"
)

// swizzleMode is the descriptor's layout type for rows of n bytes: 1 for
// 128-byte, 2 for 64-byte, 3 for 32-byte swizzling.
func swizzleMode(n int) int {
	switch n {
	case 128:
		return 1
	case 64:
		return 2
	}
	return 3
}

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

// group is C expression x, in parentheses unless it is a name or a number.
func group(x string) string {
	for _, r := range x {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "(" + x + ")"
		}
	}
	return x
}

// pipelinedFor writes loop s as the pipeline pl: its dot on wgmma, or on
// mma.sync (mmaPipelinedFor).
func (e *emitter) pipelinedFor(s *ir.For, pl *pipeline) {
	if pl.mma {
		e.mmaPipelinedFor(s, pl)
		return
	}
	e.useShared(pl.sharedBytes())
	e.helpers.add("mma", mmaHelpers)
	e.helpers.add("wgmma", wgmmaHelpers)
	ak, bk := pl.loads[0].Type.Kind, pl.loads[1].Type.Kind
	e.helpers.add(fmt.Sprintf("wgmma_m64n%dk%d_%s", pl.n, pl.instrK(), pl.instrKind()), wgmmaInstr(pl.n, ak, bk, pl.bKMajor, false))
	iv := e.varNames[s.Var.ID]
	it := e.cType(s.Var.Type.DType)
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	how := "cp.async"
	switch {
	case pl.tma[0] != nil && pl.tma[1] != nil:
		how = "the TMA unit"
	case pl.anyTMA():
		how = "the TMA unit and cp.async"
	}
	e.w.line("// Software-pipelined: the loads feeding tl.dot stream into %d shared-memory buffers with %s,", pl.buffers, how)
	bMajor := "MN-major"
	if pl.bKMajor {
		bMajor = "K-major"
	}
	e.w.line("// %d iteration(s) ahead of the wgmma that reads them (a: K-major, b: %s, %d- and %d-byte swizzled rows).",
		pl.stages-1, bMajor, pl.aRow, pl.bRow())
	if pl.inFlight() {
		e.w.line("// Each iteration's wgmma runs on while the next iteration is issued; the accumulators stay in wgmma's registers.")
	}
	if pl.asked > 0 {
		e.w.line("// (num_stages=%d: %d stages fit in shared memory.)", pl.asked, pl.stages)
	}
	e.w.open("{")
	e.alignedSmem = true
	e.use("tri_smem_addr")
	e.w.line("const unsigned int tri_stage0 = tri_smem_addr(tri_smem);  // shared address of stage 0, 1024-byte aligned")
	if pl.anyTMA() {
		copies := 0
		for _, tm := range pl.tma {
			if tm != nil {
				copies++
			}
		}
		e.initTMABarriers("buffer", pl.buffers, copies, pl.sharedBytes())
	}
	if pl.inFlight() {
		e.wgmmaLoad(pl)
	}
	e.pipelinePrologue(s, pl)
	e.w.line("int tri_read = 0, tri_write = %d;  // the stages the wgmma reads and the copies fill", pl.stages-1)
	e.w.open("for (%s %s = %s; %s < %s; %s += %s) {", it, iv, lo, iv, hi, iv, step)
	if pl.anyCpAsync() {
		e.use("tri_cp_async_wait")
		e.w.line("tri_cp_async_wait<%d>();  // this iteration's stage has landed", pl.stages-2)
	}
	if pl.anyTMA() {
		e.use("tri_mbar_wait", "tri_smem_addr")
		e.w.line("tri_mbar_wait(tri_smem_addr(&tri_mbar[tri_read]), (tri_parity >> tri_read) & 1u);  // this iteration's TMA copies have landed")
		e.w.line("tri_parity ^= 1u << tri_read;")
	}
	if e.storesElements(pl, 0) || e.storesElements(pl, 1) {
		// Plain shared-memory stores are generic-proxy writes, which
		// wgmma (the async proxy) sees only after a proxy fence. Copies
		// by cp.async get none after their wait and the barrier, as
		// Triton's fence insertion does (it fences only operands stored
		// from registers); the fence is a MEMBAR.ALL.CTA per iteration,
		// 2-6% of a 4-warp 128x128x64 matmul.
		e.use("tri_fence_proxy_async")
		e.w.line("tri_fence_proxy_async();  // the element-by-element stores are generic-proxy writes")
	}
	e.w.line("__syncthreads();")
	e.lastLine = 0
	if !pl.inFlight() {
		e.wgmmaLoad(pl)
	}
	e.wgmmaIssue(pl, fmt.Sprintf("tri_stage0 + tri_read * %d", pl.stageSize))
	e.pipelineCopies(s, pl)
	if pl.inFlight() {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<1>();  // the previous iteration's wgmma is done: its stage may be refilled after the next barrier")
	} else {
		e.wgmmaFinish(pl)
	}
	e.w.line("tri_read = tri_read == %d ? 0 : tri_read + 1;", pl.buffers-1)
	e.w.line("tri_write = tri_write == %d ? 0 : tri_write + 1;", pl.buffers-1)
	if !pl.inFlight() {
		e.assignDot(s, pl)
	}
	e.w.close("}")
	if pl.inFlight() {
		e.wgmmaFinish(pl)
		e.assignDot(s, pl)
	}
	e.use("tri_cp_async_wait")
	e.w.line("tri_cp_async_wait<0>();")
	e.w.line("__syncthreads();  // the stages are scratch memory again")
	if pl.anyTMA() {
		e.invalTMABarriers(pl.buffers)
	}
	e.w.close("}")
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
			e.statement(as)
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
			e.statement(st)
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

// wgmmaLoad declares wgmma's accumulator fragments and copies the
// accumulator into them, in wgmma's fragment order, and declares the
// dot's result.
func (e *emitter) wgmmaLoad(pl *pipeline) {
	v := pl.dot
	acc := v.Args[2]
	d := e.layoutOf(v)
	e.source(v.Pos)
	if !e.inlined[acc.ID] {
		e.statement(acc)
	}
	if !e.fused[v.ID] {
		e.declare(v.Type, d, e.names[v.ID], "")
	}
	for mb := 0; mb < pl.m/(16*e.numWarps); mb++ {
		e.w.line("float tri_d%d[%d];", mb, pl.n/2)
		e.w.line("#pragma unroll")
		e.w.line("for (int r = 0; r < %d; ++r) tri_d%d[r] = %s;", pl.n/2, mb, e.expr(acc, fragIndex(d, mb, "r")))
	}
}

// wgmmaIssue issues the wgmma of one stage.
func (e *emitter) wgmmaIssue(pl *pipeline, stage string) {
	v := pl.dot
	blocks := pl.m / (16 * e.numWarps)
	perGroup := pl.m / (e.numWarps / 4)
	ik := pl.instrK()
	e.w.line("// tl.dot %s x %s on wgmma m64n%dk%d: each warpgroup owns %d rows of a, in %d m64 block(s).", v.Args[0].Type, v.Args[1].Type, pl.n, ik, perGroup, blocks)
	e.use("tri_wgmma_fence")
	e.w.line("tri_wgmma_fence();")
	aSBO, bLBO, bSBO := 8*pl.aRow, pl.k*pl.bRow(), 8*pl.bRow()
	if pl.bKMajor {
		bLBO = 16
	}
	// The descriptors of the stage's a and b; each instruction's adds its
	// offset, in 16-byte units, to the start address field, which holds
	// any shared address (18 bits) without a carry.
	e.use("tri_wgmma_desc", "warp_id")
	e.w.line("const unsigned long long tri_da = tri_wgmma_desc(%s + warp_id / 4 * %d, 16, %d, %d);", stage, perGroup*pl.aRow, aSBO, swizzleMode(pl.aRow))
	e.w.line("const unsigned long long tri_db = tri_wgmma_desc(%s + %d, %d, %d, %d);", stage, pl.aBytes, bLBO, bSBO, swizzleMode(pl.bRow()))
	kind := pl.instrKind()
	for kk := 0; kk < pl.k/ik; kk++ {
		for mb := 0; mb < blocks; mb++ {
			// Each instruction takes the next 32 bytes of K.
			bOff := kk * 16 * pl.bRow()
			if pl.bKMajor {
				bOff = 32 * kk
			}
			e.use(fmt.Sprintf("tri_wgmma_m64n%dk%d_%s", pl.n, ik, kind))
			e.w.line("tri_wgmma_m64n%dk%d_%s(tri_d%d, %s, %s, 1);", pl.n, ik, kind, mb, descPlus("tri_da", 64*mb*pl.aRow+32*kk), descPlus("tri_db", bOff))
		}
	}
	e.use("tri_wgmma_commit")
	e.w.line("tri_wgmma_commit();")
}

// descPlus is the C expression of descriptor d moved off bytes on.
func descPlus(d string, off int) string {
	if off == 0 {
		return d
	}
	return fmt.Sprintf("%s + %d", d, off/16)
}

// wgmmaFinish waits for the wgmma and moves its fragments into the
// result's registers.
func (e *emitter) wgmmaFinish(pl *pipeline) {
	d := e.layoutOf(pl.dot)
	name := e.names[pl.dot.ID]
	e.use("tri_wgmma_wait")
	e.w.line("tri_wgmma_wait<0>();")
	for mb := 0; mb < pl.m/(16*e.numWarps); mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_d%d[r]); %s[%s] = tri_d%d[r]; }", pl.n/2, mb, name, fragIndex(d, mb, "r"), mb)
	}
}

// fragIndex is the C expression of the element of the accumulator layout
// d that wgmma register r of m64 block mb holds: register 4j + 2h + c
// holds row 8h + g of the warp's 16, column 8j + 2t + c, which is
// repetition 2mb + h along the rows, j along the columns, element c.
func fragIndex(d *dist, mb int, r string) string {
	return fmt.Sprintf("(%d + %s / 2 %% 2) * %d + %s / 4 * %d + %s %% 2 * %d", 2*mb, r, d.RStride[0], r, d.RStride[1], r, d.KStride[1])
}

// wgmmaHelpers are cp.async, the proxy fence and wgmma's fences, with the
// descriptor and swizzle arithmetic.
var wgmmaHelpers = cgroup{`// Hopper: cp.async copies into shared memory, wgmma.mma_async reading it through matrix descriptors.`, slices.Concat(cpAsyncDefs, []cdef{
	{"tri_fence_proxy_async", nil, `TRI_DEV void tri_fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }`},
	{"tri_wgmma_fence", nil, `TRI_DEV void tri_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }`},
	{"tri_wgmma_commit", nil, `TRI_DEV void tri_wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }`},
	{"tri_wgmma_wait", nil, `template <int N> TRI_DEV void tri_wgmma_wait(void) { asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory"); }`},
	{"tri_pack2", nil, `// Two halves (fp16 or bf16 bits) in one register, lo in the low half: an A fragment register.
TRI_DEV unsigned int tri_pack2(unsigned short lo, unsigned short hi) { return (unsigned int)lo | (unsigned int)hi << 16; }`},
	{"tri_fence_reg", nil, `// Keeps the compiler from moving an accumulator across the wait.
TRI_DEV void tri_fence_reg(float& r) { asm volatile("" : "+f"(r) :: "memory"); }`},
	{"tri_wgmma_desc", nil, `// A shared-memory matrix descriptor: start address, leading and stride byte offsets, swizzle mode.
TRI_DEV unsigned long long tri_wgmma_desc(unsigned int addr, unsigned int lbo, unsigned int sbo, unsigned int mode) {
  return (unsigned long long)((addr & 0x3ffffu) >> 4) | (unsigned long long)((lbo & 0x3ffffu) >> 4) << 16 |
         (unsigned long long)((sbo & 0x3ffffu) >> 4) << 32 | (unsigned long long)mode << 62;
}`},
})}

// cpAsyncDefs are the swizzle arithmetic, cp.async copies of 16, 8 and 4
// bytes (zero-filled where the predicate is false), shared-memory stores
// of one element and cp.async's group commit and wait.
var cpAsyncDefs = []cdef{
	{"tri_swizzle", nil, `TRI_DEV unsigned int tri_swizzle(unsigned int off, unsigned int mask) { return off ^ (((off >> 7) & mask) << 4); }`},
	{"tri_cp_async_16", nil, `TRI_DEV void tri_cp_async_16(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(pred ? 16 : 0) : "memory");
}`},
	{"tri_cp_async_8", nil, `TRI_DEV void tri_cp_async_8(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(dst), "l"(src), "r"(pred ? 8 : 0) : "memory");
}`},
	{"tri_cp_async_4", nil, `TRI_DEV void tri_cp_async_4(unsigned int dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(pred ? 4 : 0) : "memory");
}`},
	{"tri_st_shared_u16", nil, `TRI_DEV void tri_st_shared_u16(unsigned int dst, unsigned short x) { asm volatile("st.shared.u16 [%0], %1;" :: "r"(dst), "h"(x) : "memory"); }`},
	{"tri_st_shared_u8", nil, `TRI_DEV void tri_st_shared_u8(unsigned int dst, unsigned char x) { asm volatile("st.shared.u8 [%0], %1;" :: "r"(dst), "h"((unsigned short)x) : "memory"); }`},
	{"tri_cp_async_commit", nil, `TRI_DEV void tri_cp_async_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }`},
	{"tri_cp_async_wait", nil, `template <int N> TRI_DEV void tri_cp_async_wait(void) { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }`},
}

// tmaHelpers adds the TMA copy and mbarrier helpers.
func (e *emitter) tmaHelpers() {
	e.helpers.add("tma", tmaHelpers)
}

// tmaHelpers are the TMA unit's 2-D tiled copy and the mbarrier
// operations its completion goes through (PTX ISA 8.0, sm_90).
var tmaHelpers = cgroup{`// Hopper's TMA unit: copies of tensor-map boxes into shared memory, completing on an mbarrier.
#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
#define __grid_constant__
#endif`, []cdef{
	{"tri_tmap", nil, `struct alignas(64) tri_tmap { unsigned long long opaque[16]; };  // a CUtensorMap`},
	{"tri_mbar_init", nil, `TRI_DEV void tri_mbar_init(unsigned int bar, unsigned int count) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory"); }`},
	{"tri_mbar_inval", nil, `TRI_DEV void tri_mbar_inval(unsigned int bar) { asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(bar) : "memory"); }`},
	{"tri_fence_mbar_init", nil, `TRI_DEV void tri_fence_mbar_init(void) { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }`},
	{"tri_mbar_expect_tx", nil, `TRI_DEV void tri_mbar_expect_tx(unsigned int bar, unsigned int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}`},
	{"tri_mbar_wait", nil, `TRI_DEV void tri_mbar_wait(unsigned int bar, unsigned int parity) {
  unsigned int done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  }
}`},
	{"tri_tma_store_2d", []string{"tri_tma_store_fence", "tri_tmap"}, `// A box from shared memory at src (generic address) to the tensor, after tri_tma_store_fence and a barrier.
TRI_DEV void tri_tma_store_2d(const tri_tmap* map, int c0, int c1, const void* src) {
  asm volatile("{ .reg .u64 t; .reg .u32 s; cvta.to.shared.u64 t, %3; cvt.u32.u64 s, t;\n"
               "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [s]; }" :: "l"(map), "r"(c0), "r"(c1), "l"(src) : "memory");
}`},
	{"tri_tma_store_fence", nil, `TRI_DEV void tri_tma_store_fence(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }`},
	{"tri_bulk_commit", nil, `TRI_DEV void tri_bulk_commit(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }`},
	{"tri_bulk_wait_read", nil, `TRI_DEV void tri_bulk_wait_read(void) { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }`},
	{"tri_tma_load_2d", []string{"tri_tmap"}, `TRI_DEV void tri_tma_load_2d(unsigned int dst, const tri_tmap* map, int c0, int c1, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}`},
}}

// tmaLoad5D copies a box of a 5-D tensor map (PTX ISA 8.0, sm_90).
var tmaLoad5D = cgroup{``, []cdef{
	{"tri_tma_load_5d", []string{"tri_tmap"}, `TRI_DEV void tri_tma_load_5d(unsigned int dst, const tri_tmap* map, int c0, int c1, int c2, int c3, int c4, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar) : "memory");
}`},
}}

// instrKind names the wgmma helper of pl: its operand kinds, with _kb
// for 16-bit operands whose b is K-major.
func (pl *pipeline) instrKind() string {
	a, b := pl.loads[0].Type.Kind, pl.loads[1].Type.Kind
	if pl.bKMajor && !a.IsFP8() {
		return wgmmaKind(a, b) + "_kb"
	}
	return wgmmaKind(a, b)
}

// wgmmaKind names the operand kinds of a wgmma helper.
func wgmmaKind(a, b ir.Kind) string {
	if a.IsFP8() {
		return fp8MmaName(a, b)
	}
	return kindSuffix(a)
}

// cUnsigned is the unsigned C type of n bytes (1 or 2).
func cUnsigned(n int) string {
	if n == 1 {
		return "char"
	}
	return "short"
}

// wgmmaInstr is the helper that issues one wgmma.mma_async with fp32
// accumulators: m64nNk16 on fp16 or bf16, a K-major and b MN-major (its
// transpose bit set) or K-major (bKMajor), or m64nNk32 on fp8, both
// K-major (fp8 takes no transposed operand). With regA, a comes from
// registers (four 32-bit registers of two halves each: wgmma's A
// fragment) instead of a descriptor. scale_d 0 makes the instruction
// ignore the accumulators' values (d = a * b).
func wgmmaInstr(n int, a, b ir.Kind, bKMajor, regA bool) cgroup {
	regs := n / 2
	var ops, outs []string
	for i := 0; i < regs; i++ {
		ops = append(ops, fmt.Sprintf("%%%d", i))
		outs = append(outs, fmt.Sprintf("\"+f\"(d[%d])", i))
	}
	var lines []string
	for i := 0; i < len(outs); i += 8 {
		lines = append(lines, "      "+strings.Join(outs[i:min(i+8, len(outs))], ", "))
	}
	kind := wgmmaKind(a, b)
	name := kind
	k, types, imm, what := 16, kind+"."+kind, "1, 1, 0, 1", kind+" inputs, fp32 accumulators d += a * b (a K-major, b MN-major)"
	if bKMajor && !a.IsFP8() {
		name, imm, what = kind+"_kb", "1, 1, 0, 0", kind+" inputs, fp32 accumulators d += a * b (a and b K-major)"
	}
	if a.IsFP8() {
		k, types, imm = 32, fp8Names[a]+"."+fp8Names[b], "1, 1"
		what = fp8Names[a] + " x " + fp8Names[b] + " inputs, fp32 accumulators d += a * b (a and b K-major)"
	}
	aParams, aOperand, aInputs := "unsigned long long da", fmt.Sprintf("%%%d", regs), `"l"(da)`
	next := regs + 1
	if regA {
		// No transpose bit for a from registers.
		name += "_ra"
		switch {
		case a.IsFP8():
			// 8-bit operands have no transpose bits at all.
		case bKMajor:
			imm = "1, 1, 0"
		default:
			imm = "1, 1, 1"
		}
		what = strings.Replace(what, "(a K-major, ", "(a from registers, ", 1)
		what = strings.Replace(what, "(a and b K-major)", "(a from registers, b K-major)", 1)
		aParams = "unsigned int a0, unsigned int a1, unsigned int a2, unsigned int a3"
		aOperand = fmt.Sprintf("{%%%d, %%%d, %%%d, %%%d}", regs, regs+1, regs+2, regs+3)
		aInputs = `"r"(a0), "r"(a1), "r"(a2), "r"(a3)`
		next = regs + 4
	}
	return cgroup{fmt.Sprintf("// wgmma.mma_async m64n%dk%d, %s.", n, k, what), []cdef{{fmt.Sprintf("tri_wgmma_m64n%dk%d_%s", n, k, name), nil, fmt.Sprintf(`TRI_DEV void tri_wgmma_m64n%[1]dk%[2]d_%[12]s(float* d, %[13]s, unsigned long long db, int scale_d) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %%%[5]d, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n%[1]dk%[2]d.f32.%[6]s {%[7]s}, %[8]s, %%%[9]d, p, %[10]s; }"
    : %[11]s
    : %[14]s, "l"(db), "r"(scale_d) : "memory");
}`, n, k, what, kind, next+1, types, strings.Join(ops, ", "), aOperand, next, imm, strings.TrimSpace(strings.Join(lines, ",\n")), name, aParams, aInputs)}}}
}
