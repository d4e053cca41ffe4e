package cudagen

// This file implements the tensor-core instructions' pieces that their
// printers share: the mma.sync helpers, the helper that issues one
// wgmma.mma_async for a shape and operand kinds, the shared-memory matrix
// descriptors of an operand's tile, the places of the accumulator
// fragments in a thread's registers, the cp.async definitions the
// copies into shared memory use, and the TMA unit's copies and mbarriers.

import (
	"fmt"
	"slices"
	"strings"

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

// descPlus is the C expression of descriptor d moved off bytes on.
func descPlus(d string, off int) string {
	if off == 0 {
		return d
	}
	return fmt.Sprintf("%s + %d", d, off/16)
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
	{"tri_warpgroup", []string{"tri_thread_id"}, `// The calling thread's warpgroup, broadcast from lane 0 so that ptxas knows it is the same across
// the warp: descriptors built from it stay in uniform registers instead of moving there before each wgmma.
TRI_DEV int tri_warpgroup(void) {
  int r; asm("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(tri_thread_id() / 128)); return r;
}`},
	{"tri_wgmma_desc", nil, `// A shared-memory matrix descriptor: start address, leading and stride byte offsets, swizzle mode.
TRI_DEV unsigned long long tri_wgmma_desc(unsigned int addr, unsigned int lbo, unsigned int sbo, unsigned int mode) {
  return (unsigned long long)((addr & 0x3ffffu) >> 4) | (unsigned long long)((lbo & 0x3ffffu) >> 4) << 16 |
         (unsigned long long)((sbo & 0x3ffffu) >> 4) << 32 | (unsigned long long)mode << 62;
}`},
})}

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

// descBase is the C expression of the matrix descriptor of the operand
// at stage or region base (for a, at the calling warp's warpgroup's rows,
// perGroup of them; groupRows), which a dot binds to a local once; each
// wgmma adds descOff to its start address field (it holds any shared
// address without a carry).
func (t smemTile) descBase(s nameSet, base string, perGroup int) string {
	rb := t.rowBytes()
	s.use("tri_wgmma_desc")
	if !t.kMajor {
		return fmt.Sprintf("tri_wgmma_desc(%s, %d, %d, %d)", base, t.k*rb, 8*rb, swizzleMode(rb))
	}
	rows := ""
	if t.perm {
		rows = groupRows(s, t.rows, perGroup, rb)
	}
	return fmt.Sprintf("tri_wgmma_desc(%s%s, 16, %d, %d)", base, rows, 8*rb, swizzleMode(rb))
}

// groupRows is the C term that moves an address of a's rows, which the
// warpgroups share out perGroup rows each (rows in all, rowBytes bytes a
// row), to the calling warpgroup's: none when one warpgroup holds them
// all. The warpgroup comes from tri_warpgroup, which ptxas knows is the
// same across the warp, so the descriptor stays in uniform registers.
func groupRows(s nameSet, rows, perGroup, rowBytes int) string {
	if perGroup >= rows {
		return ""
	}
	s.use("tri_warpgroup")
	return fmt.Sprintf(" + tri_warpgroup() * %d", perGroup*rowBytes)
}

// descOff is the byte offset from descBase's address of the operand of
// the kk-th wgmma along k of m64 block mb.
func (t smemTile) descOff(kk, mb int) int {
	rb := t.rowBytes()
	if !t.kMajor {
		return t.off + kk*16*rb
	}
	at := t.off + 32*kk/rb*t.chunkBytes() + 32*kk%rb
	if t.perm {
		at += 64 * mb * rb
	}
	return at
}

// instr names the wgmma helper of wd.
func (wd *wgDot) instr() string {
	a, b := wd.a.src.Type.Kind, wd.b.src.Type.Kind
	name := fmt.Sprintf("m64n%dk%d_%s", wd.n, wd.instrK(), wgmmaKind(a, b))
	if wd.b.tile.kMajor && !a.IsFP8() {
		name += "_kb"
	}
	if wd.a.form == inRegisters {
		name += "_ra"
	}
	return name
}

// instrK is the K of one wgmma of wd: 32 bytes of operand.
func (wd *wgDot) instrK() int { return 32 / wd.a.src.Type.Kind.Bytes() }

// fragIndexConst is fragIndex for a known register r, as a number.
func fragIndexConst(d *dist, mb, r int) string {
	return fmt.Sprint((2*mb+r/2%2)*d.RStride[0] + r/4*d.RStride[1] + r%2*d.KStride[1])
}

// packHelpers round two fp32 values to fp16 or bf16 (to nearest even) into
// one register, lo in the low half: cvt.rn.f16x2.f32 takes the high half
// first.
var packHelpers = map[ir.Kind]cgroup{
	ir.Float16: cgroup{`// Two fp32 values rounded to fp16 in one register (lo in the low half): an A fragment register.`, []cdef{
		{"tri_pack2_f16", nil, `TRI_DEV unsigned int tri_pack2_f16(float lo, float hi) { unsigned int r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }`},
	}},
	ir.BFloat16: cgroup{`// Two fp32 values rounded to bf16 in one register (lo in the low half): an A fragment register.`, []cdef{
		{"tri_pack2_bf16", nil, `TRI_DEV unsigned int tri_pack2_bf16(float lo, float hi) { unsigned int r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }`},
	}},
}

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

// mmaHelpers are ldmatrix and mma.sync as inline PTX.
var mmaHelpers = cgroup{`// Tensor cores: ldmatrix from shared memory and mma.sync m16n8k16 with fp32 accumulators.`, []cdef{
	{"tri_smem_addr", nil, `TRI_DEV unsigned int tri_smem_addr(const void* p) {
  unsigned int a; asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p)); return a;
}`},
	{"tri_ldmatrix_x4", []string{"tri_smem_addr"}, `TRI_DEV void tri_ldmatrix_x4(unsigned int* r, const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(tri_smem_addr(p)));
}`},
	{"tri_ldmatrix_x2_trans", []string{"tri_smem_addr"}, `TRI_DEV void tri_ldmatrix_x2_trans(unsigned int* r, const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(tri_smem_addr(p)));
}`},
	{"tri_mma_f16", nil, `TRI_DEV void tri_mma_f16(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`},
	{"tri_mma_bf16", nil, `TRI_DEV void tri_mma_bf16(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`},
}}

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
