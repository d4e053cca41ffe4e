package cudagen

// This file implements tl.dot on the CUDA cores: both operands are staged
// through the shared scratch memory in row-major order, then every thread
// computes the result elements it holds as a loop of fused multiply-adds
// along K, starting from the accumulator's element. fp16 and bf16 operands
// are widened to float (their products are exact there), fp32 operands are
// cut to tf32 first under input_precision="tf32" and split into a big
// and a small tf32 part under "tf32x3", as the tensor cores would see them;
// fp64 and int8 (into int32) multiply as they are. This form is correct
// for every dtype and shape Triton accepts whose operands fit the scratch
// memory.
//
// Dots whose result has the layout mmaBlocked chooses run on the tensor
// cores instead: fp16 and bf16 on mma.sync m16n8k16 (fp32 accumulation),
// tf32 and tf32x3 on m16n8k8, int8 on m16n8k32 (int32), fp8 on m16n8k32
// from sm_89 and, fp8e5 before it, as two fp16 m16n8k16 on its k32
// fragments widened (fp8MmaF16Helper). That Blocked layout
// gives each lane the (row g, columns 2t and 2t+1) elements of an mma
// accumulator fragment, with g = lane/4 and t = lane%4, so the result's
// registers are the accumulators themselves; the three forms share it.
// Two row repetitions of the layout make the 16 rows of one mma; ldmatrix
// reads the A fragment from the staged a, each lane giving the address of
// one of the 16 rows it needs (16 bytes of a row: the fragments of all three
// forms are 8x8 b16 matrices), ldmatrix.trans the fp16 B fragment from the
// staged b, and plain shared-memory loads the fp32 and int8 B fragments,
// whose elements ldmatrix cannot transpose.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// stagedDot writes v = tl.dot(a, b, acc) with its operands staged
// through shared memory where it stands: on mma.sync fed by ldmatrix, or
// on the CUDA cores.
func (e *emitter) stagedDot(v *ir.Value) {
	a, b, acc := v.Args[0], v.Args[1], v.Args[2]
	at := a.Type
	r := at.Shape.Rank()
	m, k, n := at.Shape[r-2], at.Shape[r-1], b.Type.Shape[r-1]
	aBytes, total := dotSharedBytes(v)
	mma := e.usesMma(v)
	if mma {
		op, _ := e.mmaOp(v)
		e.w.comment("tl.dot %s x %s on the tensor cores: operands staged in shared memory, %s along K = %d.", at, b.Type, op, k)
	} else {
		e.w.comment("tl.dot %s x %s on the CUDA cores: operands staged in shared memory, FMAs along K = %d.", at, b.Type, k)
	}
	if why := e.notPipelined(v); why != "" {
		e.w.comment("Its loop is not software-pipelined: %s.", why)
	}
	e.useShared(total)
	e.storeShared(a, 0)
	e.storeShared(b, aBytes)
	e.w.line("__syncthreads();")
	if mma {
		e.dotMma(v, aBytes)
		e.w.line("__syncthreads();")
		return
	}
	helper, compute := e.dotHelper(at.Kind, b.Type.Kind, v.Type.Kind, v.Precision)
	e.use(helper)
	d := e.layoutOf(v)
	name := e.names[v.ID]
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	// Element i is the dot of a's row and b's column that it lies on: the
	// body names their first elements.
	i, head := "e", fmt.Sprintf("for (int e = 0; e < %d; ++e)", d.Elems)
	if d.Elems == 1 {
		i, head = "0", ""
	}
	c := e.coords(d, i)
	row, col := c[r-2], c[r-1]
	aOff, bOff := fmt.Sprintf("(%s) * %d", row, k), col
	if r == 3 {
		aOff = fmt.Sprintf("(%s) * %d + %s", c[0], m*k, aOff)
		bOff = fmt.Sprintf("(%s) * %d + %s", c[0], k*n, bOff)
	}
	init := e.expr(acc, i)
	if compute != v.Type.Kind {
		init = e.toFloat(v.Type.Kind, init)
	}
	call := fmt.Sprintf("%s(tri_arow, tri_bcol, %d, %d, %s)", helper, k, n, init)
	if compute != v.Type.Kind {
		call = e.fromFloat(v.Type.Kind, call)
	}
	if head != "" {
		e.w.line("#pragma unroll")
		head += " "
	}
	e.w.open("%s{", head)
	e.w.line("const %s* const tri_arow = %s + %s;", e.cType(at.DType), e.smemPtr(at.DType, 0), aOff)
	e.w.line("const %s* const tri_bcol = %s + %s;", e.cType(b.Type.DType), e.smemPtr(b.Type.DType, aBytes), bOff)
	e.w.long(fmt.Sprintf("%s[%s] = %s;", name, i, call))
	e.w.close("}")
	e.w.line("__syncthreads();")
}

// dotMma writes v with mma.sync, a and b staged at byte offsets 0 and
// bBytes of the scratch memory.
func (e *emitter) dotMma(v *ir.Value, bBytes int) {
	a, acc := v.Args[0], v.Args[2]
	op, _ := e.mmaOp(v)
	ad := a.Type.DType
	k, n := a.Type.Shape[1], v.Type.Shape[1]
	d := e.layoutOf(v)
	name := e.names[v.ID]
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	c := name
	if v.Type.Kind != op.acc {
		c = name + "_f32"
		e.w.line("float %s[%d];", c, d.Elems)
	}
	e.loop(d.Elems, func(i string) string {
		x := e.expr(acc, i)
		if v.Type.Kind != op.acc {
			x = e.toFloat(v.Type.Kind, x)
		}
		return fmt.Sprintf("%s[%s] = %s;", c, i, x)
	})
	e.helpers.add("mma", mmaHelpers)
	switch op.name {
	case "tf32", "tf32x3":
		e.helpers.add("mma_tf32", mmaTF32Helpers)
	case "i8":
		e.helpers.add("mma_i8", mmaInt8Helpers)
	default: // fp8
		e.helpers.add("mma_i8", mmaInt8Helpers)
		if op.viaF16 {
			e.helpers.add("mma_"+op.name, fp8MmaF16Helper)
		} else {
			e.helpers.add("mma_"+op.name, fp8MmaHelper(a.Type.Kind, v.Args[1].Type.Kind))
		}
	}
	// One ldmatrix row is 16 bytes of a: 8 fp16, 4 fp32 or 16 int8.
	half := 16 / a.Type.Kind.Bytes()
	wm, wn := e.pos(d.Warps[0], "warp_id"), e.pos(d.Warps[1], "warp_id")
	e.use("lane_id", "tri_ldmatrix_x4", "tri_mma_"+op.name)
	e.w.open("{")
	e.w.line("// This warp's rows of the mma tiles start at (%s) * 8, its columns at (%s) * 8;", wm, wn)
	e.w.line("// lane l gives ldmatrix the address of row l %% 8 of matrix l / 8.")
	e.w.line("const int tri_lrow = (%s) * 8 + lane_id %% 8 + (lane_id / 8 %% 2) * %d;", wm, d.Span[0])
	e.w.line("const %s* tri_a = %s + tri_lrow * %d + (lane_id / 16) * %d;", e.cType(ad), e.smemPtr(ad, 0), k, half)
	var loadB func() string
	switch op.name {
	case "f16", "bf16":
		e.w.line("const %s* tri_b = %s + (lane_id %% 16) * %d + (%s) * 8;", e.cType(ad), e.smemPtr(ad, bBytes), n, wn)
		e.use("tri_ldmatrix_x2_trans")
		loadB = func() string {
			return fmt.Sprintf("tri_ldmatrix_x2_trans(tri_bf, tri_b + tri_k * %d + tri_j * %d);", n, d.Span[1])
		}
	case "tf32", "tf32x3":
		// b's fragment is rows t and t + 4, column g of the k step.
		e.w.line("// Lane l reads b's fragment at rows l %% 4 and l %% 4 + 4, column l / 4.")
		e.w.line("const float* tri_b = %s + (lane_id %% 4) * %d + (%s) * 8 + lane_id / 4;", e.smemPtr(ad, bBytes), n, wn)
		e.use("tri_bits_f32")
		loadB = func() string {
			p := fmt.Sprintf("tri_b + tri_k * %d + tri_j * %d", n, d.Span[1])
			return fmt.Sprintf("tri_bf[0] = tri_bits_f32(*(%s)); tri_bf[1] = tri_bits_f32(*(%s + %d));", p, p, 4*n)
		}
	default: // int8 and fp8
		// b's fragment is rows 4t .. 4t + 3 and 16 + 4t .. 16 + 4t + 3,
		// column g, four bytes to a register.
		e.w.line("// Lane l packs b's fragment from rows 4 * (l %% 4) + 0..3 and 16 more, column l / 4.")
		e.w.line("const signed char* tri_b = %s + (lane_id %% 4) * %d + (%s) * 8 + lane_id / 4;", e.smemPtr(ir.TInt8, bBytes), 4*n, wn)
		e.use("tri_pack_i8")
		loadB = func() string {
			p := fmt.Sprintf("tri_b + tri_k * %d + tri_j * %d", n, d.Span[1])
			return fmt.Sprintf("tri_bf[0] = tri_pack_i8(%s, %d); tri_bf[1] = tri_pack_i8(%s + %d, %d);", p, n, p, 16*n, n)
		}
	}
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_k = 0; tri_k < %d; tri_k += %d) {", k, op.k)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_i = 0; tri_i < %d; ++tri_i) {", d.Reps[0]/2)
	e.w.line("unsigned int tri_af[4];")
	e.w.line("tri_ldmatrix_x4(tri_af, tri_a + tri_i * %d + tri_k);", 2*d.Span[0]*k)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_j = 0; tri_j < %d; ++tri_j) {", d.Reps[1])
	e.w.line("unsigned int tri_bf[2];")
	e.w.line("%s", loadB())
	idx := func(half, col int) string {
		return fmt.Sprintf("%s[(2 * tri_i + %d) * %d + tri_j * %d + %d]", c, half, d.RStride[0], d.RStride[1], col*d.KStride[1])
	}
	// The accumulators of m16n8 tile (tri_i, tri_j), named.
	for q := range 4 {
		e.w.line("%s& tri_c%d = %s;", e.cType(ir.Scalar(op.acc)), q, idx(q/2, q%2))
	}
	e.w.line("tri_mma_%s(tri_c0, tri_c1, tri_c2, tri_c3, tri_af, tri_bf);", op.name)
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
	if v.Type.Kind != op.acc {
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.fromFloat(v.Type.Kind, c+"["+i+"]"))
		})
	}
}

// mmaTF32Helpers are mma.sync m16n8k8 of kind tf32, which reads fp32
// registers and ignores their low 13 mantissa bits, and its 3xTF32 form:
// each operand split into a big part (cut to tf32) and a small one (the
// rest), and the products big x small, small x big and big x big added in
// that order, as the CUDA-core form does.
var mmaTF32Helpers = cgroup{`// Tensor cores: mma.sync m16n8k8 on tf32 (fp32 registers, low 13 bits ignored), and three of them for tf32x3.`, []cdef{
	{"tri_mma_tf32", nil, `TRI_DEV void tri_mma_tf32(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`},
	{"tri_mma_tf32x3", []string{"tri_bits_f32", "tri_f32_bits", "tri_mma_tf32"}, `TRI_DEV void tri_mma_tf32x3(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  unsigned int ab[4], as[4], bb[2], bs[2];
  for (int i = 0; i < 4; ++i) {
    ab[i] = a[i] & 0xffffe000u;
    as[i] = tri_bits_f32(tri_f32_bits(a[i]) - tri_f32_bits(ab[i]));
  }
  for (int i = 0; i < 2; ++i) {
    bb[i] = b[i] & 0xffffe000u;
    bs[i] = tri_bits_f32(tri_f32_bits(b[i]) - tri_f32_bits(bb[i]));
  }
  tri_mma_tf32(c0, c1, c2, c3, ab, bs);
  tri_mma_tf32(c0, c1, c2, c3, as, bb);
  tri_mma_tf32(c0, c1, c2, c3, ab, bb);
}`},
}}

// mmaInt8Helpers are mma.sync m16n8k32 on int8 into int32 (wrapping, as
// without .satfinite) and the packing of four int8 of a column of b, one
// row apart, into a register.
var mmaInt8Helpers = cgroup{`// Tensor cores: mma.sync m16n8k32 on int8 with int32 accumulators.`, []cdef{
	{"tri_pack_i8", nil, `TRI_DEV unsigned int tri_pack_i8(const signed char* p, int ld) {
  return (unsigned int)(unsigned char)p[0] | (unsigned int)(unsigned char)p[ld] << 8 |
         (unsigned int)(unsigned char)p[2 * ld] << 16 | (unsigned int)(unsigned char)p[3 * ld] << 24;
}`},
	{"tri_mma_i8", nil, `TRI_DEV void tri_mma_i8(int& c0, int& c1, int& c2, int& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`},
}}

// smemPtr is the C expression of the scratch memory at byte offset off, as
// a pointer to dtype d.
func (s nameSet) smemPtr(d ir.DType, off int) string {
	if off == 0 {
		return fmt.Sprintf("reinterpret_cast<const %s*>(tri_smem)", s.cType(d))
	}
	return fmt.Sprintf("reinterpret_cast<const %s*>(tri_smem + %d)", s.cType(d), off)
}

// dotHelper adds the device function that computes one result element of
// a dot of operands of kind in into a result of kind out, and returns its
// name and the kind it accumulates in.
func (e *emitter) dotHelper(in, bIn, out ir.Kind, p ir.Precision) (string, ir.Kind) {
	deps := nameSet{}
	acc, step := "float", ""
	compute := ir.Float32
	ak, bk := "a[k]", "b[k * ldb]"
	name := fmt.Sprintf("tri_dot_%s", kindSuffix(in))
	switch in {
	case ir.Float8E4NV, ir.Float8E5:
		// fp8 products are exact in float, like fp16's.
		deps.use("tri_fma_f32")
		widen := deps.fp8CastExpr
		if e.arch < 89 {
			widen = deps.fp8SoftCastExpr // fp8e5 without the fp8 cvt
		}
		step = fmt.Sprintf("acc = tri_fma_f32(%s, %s, acc);", widen(ir.Scalar(in), ir.TFloat32, ak, false), widen(ir.Scalar(bIn), ir.TFloat32, bk, false))
		if bIn != in {
			name += "_" + kindSuffix(bIn)
		}
	case ir.Float16, ir.BFloat16:
		deps.use("tri_fma_f32")
		step = fmt.Sprintf("acc = tri_fma_f32(%s, %s, acc);", deps.toFloat(in, ak), deps.toFloat(in, bk))
	case ir.Float32:
		switch p {
		case ir.PrecisionTF32:
			deps.use("tri_fma_f32", "tri_tf32")
			step = fmt.Sprintf("acc = tri_fma_f32(tri_tf32(%s), tri_tf32(%s), acc);", ak, bk)
		case ir.PrecisionTF32x3:
			// The small parts' products first, then the big one, as
			// Triton's 3xTF32 does.
			deps.use("tri_fma_f32", "tri_tf32")
			step = fmt.Sprintf("float ab = tri_tf32(%s), as = tri_tf32(%s - ab), bb = tri_tf32(%s), bs = tri_tf32(%s - bb); "+
				"acc = tri_fma_f32(ab, bb, tri_fma_f32(as, bb, tri_fma_f32(ab, bs, acc)));", ak, ak, bk, bk)
		default:
			deps.use("tri_fma_f32")
			step = fmt.Sprintf("acc = tri_fma_f32(%s, %s, acc);", ak, bk)
		}
	case ir.Float64:
		acc, compute = "double", ir.Float64
		deps.use("tri_fma_f64")
		step = fmt.Sprintf("acc = tri_fma_f64(%s, %s, acc);", ak, bk)
	default: // int8 into int32, wrapping
		acc, compute = "int", out
		step = fmt.Sprintf("acc = (int)((unsigned int)acc + (unsigned int)((int)%s * (int)%s));", ak, bk)
	}
	if in == ir.Float32 {
		name += "_" + p.String()
	}
	if in == ir.Float32 && p != ir.PrecisionIEEE {
		e.helpers.add("tf32", tf32Helper)
	}
	aType, bType := deps.regType(in), deps.regType(bIn)
	e.helpers.add(name, cgroup{"// One element of a dot: acc + the sum over k of a[k] * b[k * ldb], from shared memory.", []cdef{{name, deps.sorted(), fmt.Sprintf(`TRI_DEV %s %s(const %s* a, const %s* b, int K, int ldb, %s acc) {
  #pragma unroll 8
  for (int k = 0; k < K; ++k) { %s }
  return acc;
}`, acc, name, aType, bType, acc, step)}}})
	return name, compute
}

// tf32Helper cuts a float to tf32 (10 mantissa bits) as an mma.sync of
// kind tf32 reads an fp32 register: the low 13 bits are ignored. Real
// Triton's tf32 dots on an H100 match this, not cvt.rna's rounding.
var tf32Helper = cgroup{`// Cuts a float to tf32 as tensor cores read fp32 registers: the low 13 bits are ignored.`, []cdef{
	{"tri_tf32", []string{"tri_bits_f32", "tri_f32_bits"}, `TRI_DEV float tri_tf32(float x) { return x != x ? x : tri_f32_bits(tri_bits_f32(x) & 0xffffe000u); }`},
}}
