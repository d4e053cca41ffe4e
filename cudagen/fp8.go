package cudagen

// This file implements the fp8 storage types: their C types, their
// conversions to and from fp16, bf16 and fp32, and their tensor-core
// helpers. What a target supports is checked at planning (newplan.go's
// checkFP8).
//
// An fp8 value is kept as its byte, as Triton keeps it, and converted with
// the sm_89 cvt instructions Triton's NVIDIA backend uses: up through
// fp16 (cvt.rn.f16x2.e4m3x2, exact), down from fp32 or fp16 by
// cvt.rn.satfinite (round to nearest even; past the largest finite value,
// infinities included, to ±max; NaN to 0x7F), and, from fp32 to fp8e5
// only, toward zero by cvt.rz to fp16 and truncation of its bits. bf16
// goes through fp32, which is exact both ways. fp8e4b15 is converted in
// software with integer operations, as Triton does, on any target.
//
// Before sm_89, which has no fp8 cvt, fp8e5 is converted in software as
// Triton 3.6 lowers it there (FpToFpOp's conversions without native fp8,
// and its fp32 -> fp16 -> fp8 path below sm_90), which gives other
// results than the cvt instructions for some inputs:
//
//   - widening to fp16 is the code as the fp16's high byte and to fp32
//     that fp16's value (both exact, as the cvt's); to bf16 the code's
//     bits are moved into a bf16 whose exponent is 112 too small and the
//     value is scaled by 2^112 in fp32, which is exact for finite codes but
//     makes ±inf ±65536 and the NaNs ±81920, ±98304 and ±114688;
//   - narrowing from fp16 adds half of the dropped byte to the fp16's bits:
//     ties go away from zero (not to even), magnitudes from 61440 and
//     ±inf become ±inf (not ±57344), and a NaN becomes whatever its bits
//     round to (±inf, an e5m2 NaN, or a zero of the other sign: the GPU's
//     canonical NaN 0x7FFF gives 0x80);
//   - narrowing from fp32 goes through fp16 toward zero (cvt.rz, which
//     takes magnitudes past 65504 to 65504) and then as from fp16; the
//     truncation cannot move a value across a rounding boundary of the
//     byte, so this is the fp32's own rounding half away from zero, ±inf
//     from 61440, and NaN 0x80;
//   - narrowing from bf16 clamps the magnitude's bits to [0x3800, 0x57e0]
//     (2^-15 to 1.75 * 2^48), adds half of e5m2's step and shifts the bits
//     into the byte, so magnitudes below 2^-15 become zero, those below
//     2^-14 (e5m2's subnormals) land on wrong codes, ties go away from
//     zero, and from 61440 the byte runs on into inf, the NaNs and then
//     the sign bit (131072 gives 0x80, -0); ±inf and NaN give 0xFF;
//   - toward zero (from fp32) is already done in software, on any target.
//
// A dot of fp8e5 operands has no mma.sync form there either: Triton widens
// its operands to fp16 and runs the fp16 instruction (fp8MmaF16Helper).

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// fp8Prelude is the prelude group of the fp8 conversions, printed last.
var fp8Prelude = cgroup{`// fp8 values are kept as their byte and converted with the sm_89 cvt instructions, as Triton does.`, []cdef{
	{"tri_fp8e4nv", nil, `typedef unsigned char tri_fp8e4nv;`},
	{"tri_fp8e5", nil, `typedef unsigned char tri_fp8e5;`},
	{"tri_e4m3_to_h", []string{"tri_fp8e4nv", "tri_half"}, `TRI_DEV tri_half tri_e4m3_to_h(tri_fp8e4nv x) { unsigned int r; asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"((unsigned short)x)); return (tri_half)r; }`},
	{"tri_e5m2_to_h", []string{"tri_fp8e5", "tri_half"}, `TRI_DEV tri_half tri_e5m2_to_h(tri_fp8e5 x) { unsigned int r; asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"((unsigned short)x)); return (tri_half)r; }`},
	{"tri_f_to_e4m3", []string{"tri_fp8e4nv"}, `TRI_DEV tri_fp8e4nv tri_f_to_e4m3(float f) { unsigned short r; asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f)); return (tri_fp8e4nv)r; }`},
	{"tri_f_to_e5m2", []string{"tri_fp8e5"}, `TRI_DEV tri_fp8e5 tri_f_to_e5m2(float f) { unsigned short r; asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f)); return (tri_fp8e5)r; }`},
	{"tri_h_to_e4m3", []string{"tri_fp8e4nv", "tri_half"}, `TRI_DEV tri_fp8e4nv tri_h_to_e4m3(tri_half h) { unsigned short r; asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r) : "r"((unsigned int)h)); return (tri_fp8e4nv)r; }`},
	{"tri_h_to_e5m2", []string{"tri_fp8e5", "tri_half"}, `TRI_DEV tri_fp8e5 tri_h_to_e5m2(tri_half h) { unsigned short r; asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r) : "r"((unsigned int)h)); return (tri_fp8e5)r; }`},
	{"tri_h_to_e5m2_rz", []string{"tri_fp8e5", "tri_half"}, `// Toward zero: fp16 toward zero, then its high byte (e5m2 is the top byte of an fp16).
TRI_DEV tri_fp8e5 tri_h_to_e5m2_rz(tri_half h) { return (tri_fp8e5)(h >> 8); }`},
	{"tri_f_to_e5m2_rz", []string{"tri_f2h_rz", "tri_fp8e5", "tri_h_to_e5m2_rz"}, `TRI_DEV tri_fp8e5 tri_f_to_e5m2_rz(float f) { return tri_h_to_e5m2_rz(tri_f2h_rz(f)); }`},
	{"tri_fp8e4b15", nil, `// fp8e4b15 (bias 15, no NaN or infinity) is an fp16's bits 7..14 and its sign, converted in software as Triton does:
// narrowing (an fp32 to fp16 toward zero first) clamps the magnitude to 1.75 (NaN too) and rounds the dropped bits half up.
typedef unsigned char tri_fp8e4b15;`},
	{"tri_e4b15_to_h", []string{"tri_fp8e4b15", "tri_half"}, `TRI_DEV tri_half tri_e4b15_to_h(tri_fp8e4b15 x) { return (tri_half)(((x & 0x80u) << 8) | ((x & 0x7fu) << 7)); }`},
	{"tri_h_to_e4b15", []string{"tri_fp8e4b15", "tri_half"}, `TRI_DEV tri_fp8e4b15 tri_h_to_e4b15(tri_half h) {
  unsigned int a = h & 0x7fffu;
  a = a < 0x3f00u ? a : 0x3f00u;
  return (tri_fp8e4b15)(((a * 2u + 0x80u) >> 8) | ((h >> 8) & 0x80u));
}`},
	{"tri_f_to_e4b15", []string{"tri_f2h_rz", "tri_fp8e4b15", "tri_h_to_e4b15"}, `TRI_DEV tri_fp8e4b15 tri_f_to_e4b15(float f) { return tri_h_to_e4b15(tri_f2h_rz(f)); }`},
}}

// fp8SoftPrelude is fp8e5's conversions before sm_89, in software as
// Triton does them there (see the top of the file), printed after
// fp8Prelude.
var fp8SoftPrelude = cgroup{`// Before sm_89 fp8e5 is converted in software, as Triton does there: exactly up (to bf16 scaled by 2^112, which
// makes inf and NaN finite), and down half away from zero to ±inf from 61440, an fp32 through fp16 toward zero.`, []cdef{
	{"tri_e5m2_to_h_sw", []string{"tri_fp8e5", "tri_half"}, `TRI_DEV tri_half tri_e5m2_to_h_sw(tri_fp8e5 x) { return (tri_half)(x << 8); }`},
	{"tri_h_to_e5m2_sw", []string{"tri_fp8e5", "tri_half"}, `// Half of the dropped byte added to the bits: a NaN becomes what its bits round to.
TRI_DEV tri_fp8e5 tri_h_to_e5m2_sw(tri_half h) { return (tri_fp8e5)((h + 0x80u) >> 8); }`},
	{"tri_f_to_e5m2_sw", []string{"tri_f2h_rz", "tri_fp8e5", "tri_h_to_e5m2_sw"}, `TRI_DEV tri_fp8e5 tri_f_to_e5m2_sw(float f) { return tri_h_to_e5m2_sw(tri_f2h_rz(f)); }`},
	{"tri_e5m2_to_bf_sw", []string{"tri_bf16", "tri_bits_f32", "tri_f32_bits", "tri_fp8e5"}, `// The magnitude's bits as a bf16 whose exponent is 112 too small, times 2^112 (0x77800000) in fp32.
TRI_DEV tri_bf16 tri_e5m2_to_bf_sw(tri_fp8e5 x) {
  const float m = tri_f32_bits((x & 0x7fu) << 21) * tri_f32_bits(0x77800000u);
  return (tri_bf16)((tri_bits_f32(m) >> 16) | ((x & 0x80u) << 8));
}`},
	{"tri_bf_to_e5m2_sw", []string{"tri_bf16", "tri_fp8e5"}, `// The magnitude's bits clamped to [2^-15, 1.75 * 2^48], rounded half up to e5m2's normal step and shifted into
// the byte (from 61440 on into inf, the NaNs and the sign bit), the sign ORed in.
TRI_DEV tri_fp8e5 tri_bf_to_e5m2_sw(tri_bf16 b) {
  unsigned int a = b & 0x7fffu;
  a = a < 0x3800u ? 0x3800u : a > 0x57e0u ? 0x57e0u : a;
  return (tri_fp8e5)(((a + 0x10u - 0x3800u) >> 5) | ((b >> 8) & 0x80u));
}`},
}}

// fp8Names are the short names of the formats in the prelude's functions.
var fp8Names = map[ir.Kind]string{ir.Float8E4NV: "e4m3", ir.Float8E5: "e5m2", ir.Float8E4B15: "e4b15"}

// fp8CastExpr converts x from dtype from to dtype to where either is fp8
// (sema allows only fp8 <-> fp16, bf16, fp32, fp8e4b15 widened to any
// float through fp32, and toward zero only from fp32 to fp8e5, and to
// fp8e4b15, whose conversion ignores it).
func (s nameSet) fp8CastExpr(from, to ir.DType, x string, rz bool) string {
	fk, tk := from.Kind, to.Kind
	rz = rz && tk == ir.Float8E5
	call := func(f, x string) string {
		s.use(f)
		return f + "(" + x + ")"
	}
	if fk.IsFP8() {
		h := call("tri_"+fp8Names[fk]+"_to_h", x)
		switch tk {
		case ir.Float16:
			return h
		case ir.Float32:
			return call("tri_h2f", h)
		}
		return s.fromF32(to, call("tri_h2f", h))
	}
	name := fp8Names[tk]
	switch {
	case rz:
		return call("tri_f_to_"+name+"_rz", s.toF32(from, x))
	case fk == ir.Float16:
		return call("tri_h_to_"+name, x)
	}
	return call("tri_f_to_"+name, s.toF32(from, x))
}

// fromF32 and toF32 convert x from fp32 to dtype to, and from dtype from
// to fp32, fp8 or not, as castExpr does.
func (s nameSet) fromF32(to ir.DType, x string) string {
	if to.Kind.IsFP8() {
		return s.fp8CastExpr(ir.TFloat32, to, x, false)
	}
	return s.plainCast(ir.TFloat32, to, x, 0)
}

func (s nameSet) toF32(from ir.DType, x string) string {
	if from.Kind.IsFP8() {
		return s.fp8CastExpr(from, ir.TFloat32, x, false)
	}
	return s.plainCast(from, ir.TFloat32, x, 0)
}

// fp8SoftCastExpr is fp8CastExpr before sm_89 for fp8e5: the conversions
// of fp8SoftPrelude, up through fp16 to fp32 (and through fp32 beyond), and
// down from fp32 (and through it from the rest). Toward zero, and the other
// formats, convert as on any target.
func (s nameSet) fp8SoftCastExpr(from, to ir.DType, x string, rz bool) string {
	call := func(f, x string) string {
		s.use(f)
		return f + "(" + x + ")"
	}
	fk, tk := from.Kind, to.Kind
	switch {
	case fk == ir.Float8E5 && tk == ir.BFloat16:
		return call("tri_e5m2_to_bf_sw", x)
	case fk == ir.Float8E5 && tk == ir.Float16:
		return call("tri_e5m2_to_h_sw", x)
	case fk == ir.Float8E5:
		return s.fromF32(to, call("tri_h2f", call("tri_e5m2_to_h_sw", x)))
	case tk != ir.Float8E5 || rz:
		return s.fp8CastExpr(from, to, x, rz)
	case fk == ir.BFloat16:
		return call("tri_bf_to_e5m2_sw", x)
	case fk == ir.Float16:
		return call("tri_h_to_e5m2_sw", x)
	}
	return call("tri_f_to_e5m2_sw", s.toF32(from, x))
}

// fp8MmaName names the mma.sync helper of a dot of fp8 kinds a and b.
func fp8MmaName(a, b ir.Kind) string {
	if a == b {
		return fp8Names[a]
	}
	return fp8Names[a] + "_" + fp8Names[b]
}

// fp8MmaHelper is mma.sync m16n8k32 on fp8 operands of kinds a and b with
// fp32 accumulators (sm_89). Its fragments are laid out as int8's.
func fp8MmaHelper(a, b ir.Kind) cgroup {
	name := fp8MmaName(a, b)
	return cgroup{fmt.Sprintf("// Tensor cores: mma.sync m16n8k32 on fp8 (%s x %s) with fp32 accumulators.", fp8Names[a], fp8Names[b]),
		[]cdef{{"tri_mma_" + name, nil, fmt.Sprintf(`TRI_DEV void tri_mma_%[1]s(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.%[2]s.%[3]s.f32 {%%0, %%1, %%2, %%3}, {%%4, %%5, %%6, %%7}, {%%8, %%9}, {%%0, %%1, %%2, %%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`, name, fp8Names[a], fp8Names[b])}}}
}

// fp8MmaF16Helper is fp8MmaHelper for fp8e5 before sm_89, which has no
// fp8 mma.sync: Triton widens such a dot's operands to fp16 (exactly) and
// runs mma.sync m16n8k16 on them. The k32 fragments loaded for fp8 hold
// k = 4t..4t+3 (and 16 more) in the four bytes of a register, a's and b's
// alike; widened, bytes 0-1 and 2-3 become the two fp16 pairs of a k16
// fragment (k = 2t, 2t+1 and 2t+8, 2t+9), so each half of the k32 step is
// one m16n8k16 over the same reordering of its 16 k for a and b.
var fp8MmaF16Helper = cgroup{`// Tensor cores before sm_89: mma.sync m16n8k32 on e5m2 as two m16n8k16 on the operands widened to fp16.`, []cdef{
	{"tri_e5m2_lo_h2", nil, `// The fp16 pairs of bytes 0-1 and 2-3 of four e5m2.
TRI_DEV unsigned int tri_e5m2_lo_h2(unsigned int r) { return (r & 0xffu) << 8 | (r & 0xff00u) << 16; }`},
	{"tri_e5m2_hi_h2", nil, `TRI_DEV unsigned int tri_e5m2_hi_h2(unsigned int r) { return (r >> 8 & 0xff00u) | (r & 0xff000000u); }`},
	{"tri_mma_e5m2_f16", []string{"tri_e5m2_hi_h2", "tri_e5m2_lo_h2", "tri_mma_f16"}, `TRI_DEV void tri_mma_e5m2_f16(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  #pragma unroll
  for (int h = 0; h < 2; ++h) {
    const unsigned int a0 = a[2 * h], a1 = a[2 * h + 1];
    const unsigned int ah[4] = {tri_e5m2_lo_h2(a0), tri_e5m2_lo_h2(a1), tri_e5m2_hi_h2(a0), tri_e5m2_hi_h2(a1)};
    const unsigned int bh[2] = {tri_e5m2_lo_h2(b[h]), tri_e5m2_hi_h2(b[h])};
    tri_mma_f16(c0, c1, c2, c3, ah, bh);
  }
}`},
}}
