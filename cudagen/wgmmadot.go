package cudagen

// This file implements the printing of one dot on wgmma where it stands,
// in the iteration of a multi-dot pipeline or outside the pipelines
// (wgdot.go): its operands stored where the dot needs them, every wgmma
// of it issued and waited for, and its result read out of wgmma's
// registers.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// wgmmaDot writes dot wd in its iteration: its accumulators start from
// the accumulator operand (or from nothing), every wgmma of it is issued
// and waited for, and the result is read out of wgmma's registers.
func (e *emitter) wgmmaDot(wd *wgDot) {
	v := wd.dot
	d := e.layoutOf(v)
	blocks := wd.m / (16 * e.numWarps)
	perGroup := wd.m / (e.numWarps / 4)
	from := map[operandForm]string{streamed: "the stage", invariant: "shared memory, stored before the loop", inRegisters: "registers", staged: "shared memory", hoisted: "shared memory, stored before the loop"}
	if wd.alone {
		e.w.comment("tl.dot %s x %s on wgmma m64n%dk%d, not pipelined (%s): a from %s, b from shared memory;",
			v.Args[0].Type, v.Args[1].Type, wd.n, wd.instrK(), e.aloneWhy(wd), from[wd.a.form])
		e.w.line("// each warpgroup owns %d rows, in %d m64 block(s).", perGroup, blocks)
	} else {
		e.w.comment("tl.dot %s x %s on wgmma m64n%dk%d: a from %s, b from the stage; each warpgroup owns %d rows, in %d m64 block(s).",
			v.Args[0].Type, v.Args[1].Type, wd.n, wd.instrK(), from[wd.a.form], perGroup, blocks)
	}
	flying := e.inFlight == wd
	if !e.outside[v.ID] && !e.fused[v.ID] && !flying {
		e.declare(v.Type, d, e.names[v.ID], "")
	}
	frag := "tri_d"
	if flying {
		frag = "tri_f"
	}
	e.w.open("{")
	if wd.alone && (wd.a.form == staged || wd.b.form == staged) {
		e.use("tri_smem_addr")
		e.w.line("const unsigned int tri_stage = tri_smem_addr(tri_smem);")
	}
	for mb := 0; mb < blocks; mb++ {
		if !flying {
			e.w.line("float tri_d%d[%d];", mb, wd.n/2)
		}
		if !wd.zeroAcc {
			e.w.line("#pragma unroll")
			e.w.line("for (int r = 0; r < %d; ++r) %s%d[r] = %s;", wd.n/2, frag, mb, e.expr(v.Args[2], fragIndex(d, mb, "r")))
		}
	}
	aRegs := e.wgmmaARegisters(wd)
	if aRegs != nil && wd.a.src.Type.Kind.IsFP8() {
		// An 8-bit a's registers are all written before the fence: written
		// between two wgmmas, their shuffles made ptxas wait for the
		// wgmmas before them (it injects warpgroup.arrive), one by one.
		// fp16 and bf16 registers stay beside their wgmma, where ptxas
		// does not wait and fewer are live at once (all first: tutorial
		// 06's backward at head dim 128 ran 2% slower on an H200).
		pre := make([][]string, wd.k/wd.instrK())
		for kk := range pre {
			for mb := range blocks {
				pre[kk] = append(pre[kk], aRegs(kk, mb))
			}
		}
		aRegs = func(kk, mb int) string { return pre[kk][mb] }
	}
	e.use("tri_wgmma_fence")
	e.w.line("tri_wgmma_fence();")
	aBase, bBase := "tri_stage", "tri_stage"
	if wd.a.form == invariant {
		aBase = "tri_inv"
	}
	if wd.a.base != "" {
		aBase = wd.a.base
	}
	if wd.a.form == staged && !wd.alone {
		// An 8-bit a computed in the body: its registers are not wgmma's A
		// fragments (those hold 4 consecutive k), so it goes through the
		// scratch memory, which the body's other statements share.
		e.alignedSmem = true
		e.useShared(wd.a.tile.bytes())
		e.use("tri_smem_addr", "tri_fence_proxy_async")
		e.w.line("const unsigned int tri_staged = tri_smem_addr(tri_smem);  // 1024-byte aligned")
		e.storeOperand(&wd.a, true, wd.m, "tri_staged")
		e.w.line("tri_fence_proxy_async();  // wgmma reads what the generic stores wrote")
		e.w.line("__syncthreads();")
		aBase = "tri_staged"
	}
	if wd.b.base != "" {
		bBase = wd.b.base
	}
	// The descriptors of the operands in shared memory, which each wgmma
	// below offsets by the 16-byte units of its k step and m64 block.
	if aRegs == nil {
		e.w.line("const unsigned long long tri_adesc = %s;", wd.a.tile.descBase(e.nameSet, aBase, perGroup))
	}
	e.w.line("const unsigned long long tri_bdesc = %s;", wd.b.tile.descBase(e.nameSet, bBase, 0))
	for kk := 0; kk < wd.k/wd.instrK(); kk++ {
		scale := 1
		if wd.zeroAcc && kk == 0 {
			scale = 0
		}
		db := descPlus("tri_bdesc", wd.b.tile.descOff(kk, 0))
		for mb := 0; mb < blocks; mb++ {
			aArg := ""
			if aRegs != nil {
				aArg = aRegs(kk, mb)
			} else {
				aArg = descPlus("tri_adesc", wd.a.tile.descOff(kk, mb))
			}
			e.use("tri_wgmma_" + wd.instr())
			e.w.line("tri_wgmma_%s(%s%d, %s, %s, %d);", wd.instr(), frag, mb, aArg, db, scale)
		}
	}
	e.use("tri_wgmma_commit")
	e.w.line("tri_wgmma_commit();")
	if f := e.whileDot; f != nil && (e.inFlight == nil || flying) {
		e.whileDot = nil
		f()
	}
	if flying {
		e.w.line("// Not waited for here: the next iteration's first wait lands it in %s.", e.varNames[wd.assign.ID])
		e.w.close("}")
		return
	}
	if f := e.inFlight; f != nil {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<0>();  // and the last iteration's tl.dot at line %d", f.dot.Pos.Line)
		e.landInFlight(f)
	} else {
		e.use("tri_wgmma_wait")
		e.w.line("tri_wgmma_wait<0>();")
	}
	name := e.names[v.ID]
	for mb := 0; mb < blocks; mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_d%d[r]); %s[%s] = tri_d%d[r]; }", wd.n/2, mb, name, fragIndex(d, mb, "r"), mb)
	}
	if wd.a.form == staged && !wd.alone {
		e.w.line("__syncthreads();  // the scratch memory is free again")
	}
	e.w.close("}")
}

// landInFlight moves the in-flight dot's accumulators, waited for, into
// its Var.
func (e *emitter) landInFlight(f *wgDot) {
	d := e.layoutOf(f.dot)
	for mb := 0; mb < f.m/(16*e.numWarps); mb++ {
		e.w.line("#pragma unroll")
		e.use("tri_fence_reg")
		e.w.line("for (int r = 0; r < %d; ++r) { tri_fence_reg(tri_f%d[r]); %s[%s] = tri_f%d[r]; }", f.n/2, mb, e.varNames[f.assign.ID], fragIndex(d, mb, "r"), mb)
	}
}

// storeOperand stores operand o of a dot of m rows from its registers into
// its tile at shared address base, a thread's run along the tile's
// rows in one vector store of up to 16 bytes (a run aligned to its size
// stays in one 16-byte chunk of a swizzled row, which the swizzle moves
// whole), else element by element.
func (e *emitter) storeOperand(o *wgOperand, isA bool, m int, base string) {
	v, t := o.src, o.tile
	l := e.layoutOf(v)
	r, c := e.coord(l, 0, "e"), e.coord(l, 1, "e") // a: (m, k); b: (k, n); b.T: (n, k)
	if !isA && !o.trans {
		r, c = c, r
	}
	// The axis of v along which the tile's rows run.
	axis := 1
	if !isA {
		kAxis, nAxis := o.axes()
		axis = nAxis
		if t.kMajor {
			axis = kAxis
		}
	}
	name := map[bool]string{true: "a", false: "b"}[isA]
	major := map[bool]string{true: "K-major", false: "MN-major"}[t.kMajor]
	w := runAlong(l, axis, t.elem, 16)
	how := "element by element"
	if w*t.elem >= 4 {
		how = fmt.Sprintf("%d-byte vectors", w*t.elem)
	} else {
		w = 1
	}
	e.w.line("// %s (%s, %s): %d bytes stored %s, %s", name, e.names[v.ID], major, t.rows*t.k*t.elem, plusBytes("at "+base, t.off), how)
	// A run is consecutive registers along either axis (runAlong), and a
	// thread's element e lies at (row, col) of the tile.
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, w)
	locals, row, col := tileCoords(r, c)
	more, off := t.offset(e.nameSet, row, col, e.numWarps, m)
	for _, l := range dstLocal(append(locals, more...), base, off) {
		e.w.line("const %s;", l)
	}
	at := "tri_dst"
	if w == 1 {
		e.use(fmt.Sprintf("tri_st_shared_u%d", 8*t.elem))
		e.w.line("tri_st_shared_u%d(%s, %s);", 8*t.elem, at, e.expr(v, "e"))
		e.w.close("}")
		return
	}
	e.helpers.add("stshared", stSharedHelpers)
	e.use(fmt.Sprintf("tri_st_shared_b%d", 8*w*t.elem))
	vs := e.vectorShape(v.Type.Kind, w)
	fields := e.vecFields(v, vs, w)
	if len(fields) == 1 {
		e.w.line("tri_st_shared_b%d(%s, %s);", 8*w*t.elem, at, fields[0])
		e.w.close("}")
		return
	}
	e.w.line("%s vec;", vs.Type)
	for i, f := range fields {
		e.w.long(fmt.Sprintf("vec%s = %s;", vs.Fields[i], f))
	}
	e.w.line("tri_st_shared_b%d(%s, vec);", 8*w*t.elem, at)
	e.w.close("}")
}

// fp8AFragments binds the words of the four A registers of wgmma k32
// step kk for the m64 block mb, from an 8-bit a held in the accumulator
// layout pd, and returns their names. wgmma's 8-bit A fragment gives lane
// 4g+t the 4 consecutive k 4t..4t+3 (and 16+4t..) of rows g and g+8,
// while the accumulator layout gives it k 2t, 2t+1, 8+2t and 9+2t of
// each 16. Each lane packs its four bytes of a row's first 16 k into one
// word and those of the next 16 into another; two shuffles within the
// quad then move the halves each lane needs for both registers of that
// row (tri_fp8_afrag2). Where a is the conversion of an fp32 value of the
// same layout, the bytes come from that value, two to a cvt.
func (e *emitter) fp8AFragments(src *ir.Value, pd *dist, mb, kk int) []string {
	e.helpers.add("shfl_idx", shflIdxHelper)
	e.use("tri_fp8_afrag2", "lane_id")
	word := func(row, half int) string {
		j0 := 4*kk + 2*half // the 8-column group of k 32kk+16half .. +7
		x := func(v *ir.Value, j, p int) string { return e.expr(v, fragIndexConst(pd, mb, 4*j+2*row+p)) }
		if f, cvt := fp8Source(e, src, pd); f != nil {
			e.use(cvt)
			return fmt.Sprintf("%s(%s, %s, %s, %s)", cvt, x(f, j0, 0), x(f, j0, 1), x(f, j0+1, 0), x(f, j0+1, 1))
		}
		e.use("tri_pack4_u8")
		return fmt.Sprintf("tri_pack4_u8(%s, %s, %s, %s)", x(src, j0, 0), x(src, j0, 1), x(src, j0+1, 0), x(src, j0+1, 1))
	}
	regs := make([]string, 4)
	for row := range 2 {
		lo, hi := fmt.Sprintf("tri_fa%d_%d_%d", mb, kk, row), fmt.Sprintf("tri_fb%d_%d_%d", mb, kk, row)
		e.w.line("unsigned int %s, %s;", lo, hi)
		e.w.line("tri_fp8_afrag2(%s, %s, lane_id, %s, %s);", word(row, 0), word(row, 1), lo, hi)
		regs[row], regs[row+2] = lo, hi
	}
	return regs
}

// wgmmaARegisters returns, for a dot wd whose a is in registers, a
// function that binds the four A fragment registers of the wgmma of k
// step kk and m64 block mb to names and returns them (nil when a is in
// shared memory): two fp16 or bf16 values a register, packed from their
// fp32 source where a is its conversion, or four 8-bit values
// (fp8AFragments).
func (e *emitter) wgmmaARegisters(wd *wgDot) func(kk, mb int) string {
	if wd.a.form != inRegisters {
		return nil
	}
	pd := e.layoutOf(wd.a.src)
	pack, src := "tri_pack2", wd.a.src
	if wd.a.cvt != nil {
		pack, src = "tri_pack2_"+kindSuffix(wd.a.src.Type.Kind), wd.a.cvt
		e.helpers.add(pack, packHelpers[wd.a.src.Type.Kind])
	}
	ar := 0 // the A registers declared so far
	return func(kk, mb int) string {
		var regs []string
		if wd.a.src.Type.Kind.IsFP8() {
			regs = e.fp8AFragments(src, pd, mb, kk)
		} else {
			for q := range 4 {
				lo := e.expr(src, fragIndexConst(pd, mb, 8*kk+2*q))
				hi := e.expr(src, fragIndexConst(pd, mb, 8*kk+2*q+1))
				e.use(pack)
				regs = append(regs, fmt.Sprintf("%s(%s, %s)", pack, lo, hi))
			}
		}
		// The A fragment's registers, each bound to a name before the wgmma.
		for q, r := range regs {
			e.w.line("const unsigned int tri_ar%d = %s;", ar, r)
			regs[q] = fmt.Sprintf("tri_ar%d", ar)
			ar++
		}
		return strings.Join(regs, ", ")
	}
}

// why is the reason dot wd is not in a pipelined loop, for its comment.
func (p *plan) aloneWhy(wd *wgDot) string {
	f := p.innermostFor(p.defs[wd.dot.ID].Block)
	switch {
	case f == nil:
		return "it is in no loop"
	case p.stagesOf(f) < 2:
		return fmt.Sprintf("its loop runs at num_stages=%d", p.stagesOf(f))
	case p.verdicts[f].why != "":
		return p.verdicts[f].why
	}
	return "its loop is not one the pipeliners take"
}

// fp8Source is the fp32 value that the 8-bit a src converts, rounding to
// nearest, and the helper that converts four of its values into one word,
// where that value has src's layout pd; else nil.
func fp8Source(e *emitter, src *ir.Value, pd *dist) (*ir.Value, string) {
	if src.Op != ir.OpCast || src.Flags&ir.FlagRoundTZ != 0 || len(src.Args) != 1 || src.Args[0].Type.Kind != ir.Float32 {
		return nil, ""
	}
	f := src.Args[0]
	if fd := e.layoutOf(f); fd == nil || fd.Layout.String() != pd.Layout.String() || fd.Repl != pd.Repl {
		return nil, ""
	}
	switch src.Type.Kind {
	case ir.Float8E5:
		return f, "tri_cvt4_e5m2"
	case ir.Float8E4NV:
		return f, "tri_cvt4_e4m3"
	}
	return nil, ""
}

// shflIdxHelper packs four bytes into a word and reorders 8-bit
// accumulator-layout values within a quad of lanes into wgmma's A fragment.
var shflIdxHelper = cgroup{`// 8-bit wgmma A fragments from values in the accumulator layout: lane t of a quad holds k 2t, 2t+1,
// 8+2t, 9+2t of each 16, and needs 4t..4t+3, which lanes 2t and 2t+1 (t < 2) or 2t-4 and 2t-3 hold.`, []cdef{
	{"tri_pack4_u8", nil, `TRI_DEV unsigned int tri_pack4_u8(unsigned char a, unsigned char b, unsigned char c, unsigned char d) {
  return (unsigned int)a | (unsigned int)b << 8 | (unsigned int)c << 16 | (unsigned int)d << 24;
}`},
	{"tri_cvt4_e5m2", nil, `TRI_DEV unsigned int tri_cvt4_e5m2(float a, float b, float c, float d) {
  unsigned short lo, hi; unsigned int r;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(lo) : "f"(b), "f"(a));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(hi) : "f"(d), "f"(c));
  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(lo), "h"(hi)); return r;
}`},
	{"tri_cvt4_e4m3", nil, `TRI_DEV unsigned int tri_cvt4_e4m3(float a, float b, float c, float d) {
  unsigned short lo, hi; unsigned int r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(lo) : "f"(b), "f"(a));
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(hi) : "f"(d), "f"(c));
  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(lo), "h"(hi)); return r;
}`},
	{"tri_shfl_idx_b32", nil, `TRI_DEV unsigned int tri_shfl_idx_b32(unsigned int v, int lane) {
  unsigned int r; asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lane)); return r;
}`},
	// Words w0 (k 0..15 of a row) and w1 (k 16..31) hold, in lane t, the
	// byte pairs of k 2t and 8+2t of each. Lane t needs the pair at half
	// t/2 of lanes 2t%4 and 2t%4+1, for r0 from w0 and r1 from w1. The
	// first shuffle reads lane 2t (t < 2) or 2t-3, the second 2t+1 or
	// 2t-4, so each lane is read by one lane a shuffle and sends the half
	// its reader needs of both words, packed before the shuffle.
	{"tri_prmt", nil, `TRI_DEV unsigned int tri_prmt(unsigned int x, unsigned int y, unsigned int sel) {
  unsigned int r; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(sel)); return r;
}`},
	{"tri_fp8_afrag2", []string{"tri_prmt", "tri_shfl_idx_b32"}, `TRI_DEV void tri_fp8_afrag2(unsigned int w0, unsigned int w1, int lane, unsigned int& r0, unsigned int& r1) {
  const int t = lane & 3, quad = lane & ~3;
  const unsigned int y = tri_prmt(w0, w1, (t & 1) ? 0x7632u : 0x5410u), z = tri_prmt(w0, w1, (t & 1) ? 0x5410u : 0x7632u);
  const unsigned int a = tri_shfl_idx_b32(y, quad + (t < 2 ? 2 * t : 2 * t - 3));
  const unsigned int b = tri_shfl_idx_b32(z, quad + (t < 2 ? 2 * t + 1 : 2 * t - 4));
  r0 = tri_prmt(a, b, t < 2 ? 0x5410u : 0x1054u);
  r1 = tri_prmt(a, b, t < 2 ? 0x7632u : 0x3276u);
}`},
}}
