package cudagen

// This file implements the lowering of tl.umulhi, the high half of an
// unsigned product, which Triton's Philox rounds (tl.rand and the rest,
// expanded by sema) call twice per round. 32- and 64-bit operands use
// PTX's mul.hi, as Triton's __nv_umulhi and __nv_umul64hi compile to;
// narrower ones (which sema does not emit, but the IR allows) multiply in
// 32 bits.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// umulhiHelpers are the wrappers of mul.hi for 32- and 64-bit operands.
var umulhiHelpers = map[int]cgroup{
	32: cgroup{`// High half of the 64-bit product of two unsigned 32-bit integers (tl.umulhi).`, []cdef{
		{"tri_umulhi_u32", nil, `TRI_DEV unsigned int tri_umulhi_u32(unsigned int a, unsigned int b) {
  unsigned int r; asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r;
}`},
	}},
	64: cgroup{`// High half of the 128-bit product of two unsigned 64-bit integers (tl.umulhi).`, []cdef{
		{"tri_umulhi_u64", nil, `TRI_DEV unsigned long long tri_umulhi_u64(unsigned long long a, unsigned long long b) {
  unsigned long long r; asm("mul.hi.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b)); return r;
}`},
	}},
}

// umulhi is the C expression of umulhi(a, b) on integers of kind k.
func (e *emitter) umulhi(k ir.Kind, a, b string) string {
	w := k.Bits()
	u := map[int]string{8: "unsigned char", 16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}[w]
	if !k.IsUnsigned() {
		a, b = fmt.Sprintf("(%s)%s", u, a), fmt.Sprintf("(%s)%s", u, b)
	}
	var s string
	if def, ok := umulhiHelpers[w]; ok {
		name := fmt.Sprintf("tri_umulhi_u%d", w)
		e.helpers.add(name, def)
		e.use(name)
		s = fmt.Sprintf("%s(%s, %s)", name, a, b)
	} else {
		s = fmt.Sprintf("(unsigned int)%s * (unsigned int)%s >> %d", a, b, w)
	}
	if k.IsUnsigned() && w >= 32 {
		return s
	}
	return fmt.Sprintf("(%s)(%s)", e.regType(k), s)
}
