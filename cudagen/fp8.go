package cudagen

// This file implements the fp8 storage types: their C types, their
// conversions to and from fp16, bf16 and fp32, and the checks of what a
// target supports.
//
// An fp8 value is kept as its byte, as Triton keeps it, and converted with
// the sm_89 cvt instructions Triton's NVIDIA backend uses: up through
// fp16 (cvt.rn.f16x2.e4m3x2, exact), down from fp32 or fp16 by
// cvt.rn.satfinite (round to nearest even; past the largest finite value,
// infinities included, to ±max; NaN to 0x7F), and, from fp32 to fp8e5
// only, toward zero by cvt.rz to fp16 and truncation of its bits. bf16
// goes through fp32, which is exact both ways. fp8e4b15 is converted in
// software with integer operations, as Triton does, on any target.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
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
		return s.castExpr(ir.TFloat32, to, call("tri_h2f", h), 0)
	}
	name := fp8Names[tk]
	switch {
	case rz:
		return call("tri_f_to_"+name+"_rz", s.castExpr(from, ir.TFloat32, x, 0))
	case fk == ir.Float16:
		return call("tri_h_to_"+name, x)
	}
	return call("tri_f_to_"+name, s.castExpr(from, ir.TFloat32, x, 0))
}

// supportedFP8 lists the fp8 dtypes Triton supports on a target, as its
// NVIDIA backend does (fp8e4b15 everywhere, fp8e4nv from sm_89).
func supportedFP8(arch int) string {
	if arch >= 89 {
		return "('fp8e4b15', 'fp8e4nv', 'fp8e5')"
	}
	return "('fp8e4b15', 'fp8e5')"
}

// checkFP8 reports fp8 dtypes the target cannot take, once per kind: the
// AMD (fnuz) formats with Triton's message, and conversions before sm_89,
// which tri lowers with the sm_89 cvt instructions only.
func (p *plan) checkFP8(v *ir.Value, errs *diag.List) bool {
	arch := p.arch
	kinds := []ir.Kind{v.Type.Kind, v.Type.Elem}
	for _, a := range v.Args {
		if a != nil {
			kinds = append(kinds, a.Type.Kind, a.Type.Elem)
		}
	}
	for _, k := range kinds {
		if !k.IsFP8() {
			continue
		}
		if p.fp8Reported[k] {
			return false
		}
		if _, ok := fp8Names[k]; !ok || k == ir.Float8E4NV && arch < 89 {
			p.fp8Reported[k] = true
			errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "type %s not supported in this architecture. The supported fp8 dtypes are %s", k, supportedFP8(arch))
			return false
		}
		if (v.Op == ir.OpCast || v.Op == ir.OpDot) && arch < 89 && k != ir.Float8E4B15 {
			p.fp8Reported[k] = true
			errs.Errorf(diag.Pos(v.Pos), diag.CodeUnsupported, "converting %s needs sm_89 or newer in tri (the cvt instructions for fp8); the target is sm_%d", k, arch)
			return false
		}
	}
	return true
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

// fp8Literal is the C literal of the fp8 constant x of kind k: its code.
func (s nameSet) fp8Literal(k ir.Kind, x float64) string {
	f, _ := k.FP8()
	return fmt.Sprintf("((%s)0x%02x)", s.regType(k), f.Encode(f.RoundSat(x, false)))
}
