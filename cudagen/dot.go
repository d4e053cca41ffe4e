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
// fp16 and bf16 dots whose result has the layout mmaBlocked chooses run on
// the tensor cores instead (mma.sync m16n8k16, fp32 accumulation): that
// Blocked layout gives each lane the (row g, columns 2t and 2t+1) elements
// of an mma accumulator fragment, with g = lane/4 and t = lane%4, so the
// result's registers are the accumulators themselves. Two row repetitions
// of the layout make the 16 rows of one mma; ldmatrix reads the A fragment
// from the staged a, each lane giving the address of one of the 16 rows it
// needs, and ldmatrix.trans the B fragment from the staged b.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// dotSharedBytes is the scratch memory a dot needs for its two operands.
func dotSharedBytes(v *ir.Value) (aBytes, total int) {
	a, b := v.Args[0].Type, v.Args[1].Type
	aBytes = (a.Shape.NumElements()*a.Kind.Bytes() + 15) / 16 * 16
	return aBytes, aBytes + b.Shape.NumElements()*b.Kind.Bytes()
}

// checkDot reports a dot whose operands do not fit the scratch memory.
func checkDot(v *ir.Value, errs *diag.List) {
	if _, n := dotSharedBytes(v); n > maxSharedBytes {
		errs.Errorf(v.Pos, diag.CodeUnsupported,
			"tl.dot of %s and %s needs %d KiB of shared memory to stage its operands; a program has at most %d KiB (use smaller blocks)",
			v.Args[0].Type, v.Args[1].Type, (n+1023)/1024, maxSharedBytes/1024)
	}
}

// mmaBlocked is the layout of a dot result that lets the tensor cores
// compute it: sizePerThread [1, 2], threadsPerWarp [8, 4], the warps split
// between rows (16 each) and columns (8 each) with no replication, as
// evenly as the shape allows. ok is
// false for dots that have no mma.sync m16n8k16 form here: operands other
// than fp16 and bf16, rank 3, or shapes the warps cannot tile.
func mmaBlocked(v *ir.Value, numWarps int) (Blocked, bool) {
	at, rt := v.Args[0].Type, v.Type
	if at.Shape.Rank() != 2 || !isHalf(at.Kind) || rt.Kind != ir.Float32 && rt.Kind != ir.Float16 {
		return Blocked{}, false
	}
	m, k, n := at.Shape[0], at.Shape[1], rt.Shape[1]
	if m%16 != 0 || n%8 != 0 || k%16 != 0 {
		return Blocked{}, false
	}
	// Of the splits that tile the result, the one whose warp tiles are
	// closest to square, so each warp reuses its A and B fragments best.
	best, bestSkew := 0, 0
	for wm := numWarps; wm >= 1; wm /= 2 {
		wn := numWarps / wm
		if m%(16*wm) != 0 || n%(8*wn) != 0 {
			continue
		}
		skew := max(m/wm, n/wn) / min(m/wm, n/wn)
		if best == 0 || skew < bestSkew {
			best, bestSkew = wm, skew
		}
	}
	if best > 0 {
		return Blocked{SizePerThread: []int{1, 2}, ThreadsPerWarp: []int{8, 4}, WarpsPerCTA: []int{best, numWarps / best}, Order: []int{1, 0}}, true
	}
	return Blocked{}, false
}

// dotBlocked is the layout dot v's result needs for the tensor cores:
// wgmma's for a pipelined dot, else mma.sync's.
func (p *plan) dotBlocked(v *ir.Value) (Blocked, bool) {
	if p.pipes[v.ID] != nil {
		return wgmmaBlocked(p.numWarps), true
	}
	return mmaBlocked(v, p.numWarps)
}

// usesMma reports whether dot v runs on the tensor cores with mma.sync:
// its result got the layout dotBlocked asks for.
func (p *plan) usesMma(v *ir.Value) bool {
	want, ok := p.dotBlocked(v)
	if !ok {
		return false
	}
	d := p.layoutOf(v)
	return d.Layout.String() == want.String() && !d.Repl && d.Reps[0]%2 == 0
}

// dot writes v = tl.dot(a, b, acc).
func (e *emitter) dot(v *ir.Value) {
	a, b, acc := v.Args[0], v.Args[1], v.Args[2]
	at := a.Type
	r := at.Shape.Rank()
	m, k, n := at.Shape[r-2], at.Shape[r-1], b.Type.Shape[r-1]
	aBytes, total := dotSharedBytes(v)
	mma := e.usesMma(v)
	if mma {
		e.w.line("// tl.dot %s x %s on the tensor cores: operands staged in shared memory, mma.sync m16n8k16 along K = %d.", at, b.Type, k)
	} else {
		e.w.line("// tl.dot %s x %s on the CUDA cores: operands staged in shared memory, FMAs along K = %d.", at, b.Type, k)
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
	helper, compute := e.dotHelper(at.Kind, v.Type.Kind, v.Precision)
	d := e.layoutOf(v)
	e.define(v, func(i string) string {
		c := coords(d, i)
		row, col := c[r-2], c[r-1]
		aOff, bOff := fmt.Sprintf("(%s) * %d", row, k), col
		if r == 3 {
			aOff = fmt.Sprintf("(%s) * %d + %s", c[0], m*k, aOff)
			bOff = fmt.Sprintf("(%s) * %d + %s", c[0], k*n, bOff)
		}
		init := e.expr(acc, i)
		if compute != v.Type.Kind {
			init = toFloat(v.Type.Kind, init)
		}
		call := fmt.Sprintf("%s(%s + %s, %s + %s, %d, %d, %s)", helper,
			smemPtr(at.DType, 0), aOff, smemPtr(at.DType, aBytes), bOff, k, n, init)
		if compute != v.Type.Kind {
			return fromFloat(v.Type.Kind, call)
		}
		return call
	})
	e.w.line("__syncthreads();")
}

// dotMma writes v with mma.sync, a and b staged at byte offsets 0 and
// bBytes of the scratch memory.
func (e *emitter) dotMma(v *ir.Value, bBytes int) {
	a, acc := v.Args[0], v.Args[2]
	in := a.Type.Kind
	k, n := a.Type.Shape[1], v.Type.Shape[1]
	d := e.layoutOf(v)
	name := e.names[v.ID]
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, d, name, "")
	}
	c := name
	if v.Type.Kind != ir.Float32 {
		c = name + "_f32"
		e.w.line("float %s[%d];", c, d.Elems)
	}
	e.loop(d.Elems, func(i string) string {
		x := e.expr(acc, i)
		if v.Type.Kind != ir.Float32 {
			x = toFloat(v.Type.Kind, x)
		}
		return fmt.Sprintf("%s[%s] = %s;", c, i, x)
	})
	e.helpers.add("mma", mmaHelpers)
	kind := "f16"
	if in == ir.BFloat16 {
		kind = "bf16"
	}
	wm, wn := d.Warps[0].pos("warp_id"), d.Warps[1].pos("warp_id")
	e.w.open("{")
	e.w.line("// This warp's rows of the mma tiles start at (%s) * 8, its columns at (%s) * 8;", wm, wn)
	e.w.line("// lane l gives ldmatrix the address of row l %% 8 of matrix l / 8.")
	e.w.line("const %s* tri_a = %s + ((%s) * 8 + lane_id %% 8 + (lane_id / 8 %% 2) * %d) * %d + (lane_id / 16) * 8;",
		cType(a.Type.DType), smemPtr(a.Type.DType, 0), wm, d.Tile[0], k)
	e.w.line("const %s* tri_b = %s + (lane_id %% 16) * %d + (%s) * 8;", cType(a.Type.DType), smemPtr(a.Type.DType, bBytes), n, wn)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_k = 0; tri_k < %d; tri_k += 16) {", k)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_i = 0; tri_i < %d; ++tri_i) {", d.Reps[0]/2)
	e.w.line("unsigned int tri_af[4];")
	e.w.line("tri_ldmatrix_x4(tri_af, tri_a + tri_i * %d + tri_k);", 2*d.Tile[0]*k)
	e.w.line("#pragma unroll")
	e.w.open("for (int tri_j = 0; tri_j < %d; ++tri_j) {", d.Reps[1])
	e.w.line("unsigned int tri_bf[2];")
	e.w.line("tri_ldmatrix_x2_trans(tri_bf, tri_b + tri_k * %d + tri_j * %d);", n, d.Tile[1])
	idx := func(half, col int) string {
		return fmt.Sprintf("%s[(2 * tri_i + %d) * %d + tri_j * %d + %d]", c, half, d.RStride[0], d.RStride[1], col*d.KStride[1])
	}
	e.w.line("tri_mma_%s(%s, %s, %s, %s, tri_af, tri_bf);", kind, idx(0, 0), idx(0, 1), idx(1, 0), idx(1, 1))
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
	e.w.close("}")
	if v.Type.Kind != ir.Float32 {
		e.loop(d.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, fromFloat(v.Type.Kind, c+"["+i+"]"))
		})
	}
}

// mmaHelpers are ldmatrix and mma.sync as inline PTX.
const mmaHelpers = `// Tensor cores: ldmatrix from shared memory and mma.sync m16n8k16 with fp32 accumulators.
TRI_DEV unsigned int tri_smem_addr(const void* p) {
  unsigned int a; asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p)); return a;
}
TRI_DEV void tri_ldmatrix_x4(unsigned int* r, const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(tri_smem_addr(p)));
}
TRI_DEV void tri_ldmatrix_x2_trans(unsigned int* r, const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(tri_smem_addr(p)));
}
TRI_DEV void tri_mma_f16(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
TRI_DEV void tri_mma_bf16(float& c0, float& c1, float& c2, float& c3, const unsigned int* a, const unsigned int* b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}`

// smemPtr is the C expression of the scratch memory at byte offset off, as
// a pointer to dtype d.
func smemPtr(d ir.DType, off int) string {
	if off == 0 {
		return fmt.Sprintf("reinterpret_cast<const %s*>(tri_smem)", cType(d))
	}
	return fmt.Sprintf("reinterpret_cast<const %s*>(tri_smem + %d)", cType(d), off)
}

// dotHelper adds the device function that computes one result element of
// a dot of operands of kind in into a result of kind out, and returns its
// name and the kind it accumulates in.
func (e *emitter) dotHelper(in, out ir.Kind, p ir.Precision) (string, ir.Kind) {
	acc, step := "float", ""
	compute := ir.Float32
	ak, bk := "a[k]", "b[k * ldb]"
	switch in {
	case ir.Float16, ir.BFloat16:
		step = fmt.Sprintf("acc = tri_fma_f32(%s, %s, acc);", toFloat(in, ak), toFloat(in, bk))
	case ir.Float32:
		switch p {
		case ir.PrecisionTF32:
			step = fmt.Sprintf("acc = tri_fma_f32(tri_tf32(%s), tri_tf32(%s), acc);", ak, bk)
		case ir.PrecisionTF32x3:
			// The small parts' products first, then the big one, as
			// Triton's 3xTF32 does.
			step = fmt.Sprintf("float ab = tri_tf32(%s), as = tri_tf32(%s - ab), bb = tri_tf32(%s), bs = tri_tf32(%s - bb); "+
				"acc = tri_fma_f32(ab, bb, tri_fma_f32(as, bb, tri_fma_f32(ab, bs, acc)));", ak, ak, bk, bk)
		default:
			step = fmt.Sprintf("acc = tri_fma_f32(%s, %s, acc);", ak, bk)
		}
	case ir.Float64:
		acc, compute = "double", ir.Float64
		step = fmt.Sprintf("acc = tri_fma_f64(%s, %s, acc);", ak, bk)
	default: // int8 into int32, wrapping
		acc, compute = "int", out
		step = fmt.Sprintf("acc = (int)((unsigned int)acc + (unsigned int)((int)%s * (int)%s));", ak, bk)
	}
	name := fmt.Sprintf("tri_dot_%s", kindSuffix(in))
	if in == ir.Float32 {
		name += "_" + p.String()
	}
	if in == ir.Float32 && p != ir.PrecisionIEEE {
		e.helpers.add("tf32", tf32Helper)
	}
	e.helpers.add(name, fmt.Sprintf(`// One element of a dot: acc + the sum over k of a[k] * b[k * ldb], from shared memory.
TRI_DEV %s %s(const %s* a, const %s* b, int K, int ldb, %s acc) {
  #pragma unroll 8
  for (int k = 0; k < K; ++k) { %s }
  return acc;
}`, acc, name, regType(in), regType(in), acc, step))
	return name, compute
}

// kindSuffix names a kind in helper names.
func kindSuffix(k ir.Kind) string {
	switch k {
	case ir.Float16:
		return "f16"
	case ir.BFloat16:
		return "bf16"
	case ir.Float32:
		return "f32"
	case ir.Float64:
		return "f64"
	}
	return "i8"
}

// tf32Helper cuts a float to tf32 (10 mantissa bits) as an mma.sync of
// kind tf32 reads an fp32 register: the low 13 bits are ignored. Real
// Triton's tf32 dots on an H100 match this, not cvt.rna's rounding.
const tf32Helper = `// Cuts a float to tf32 as tensor cores read fp32 registers: the low 13 bits are ignored.
TRI_DEV float tri_tf32(float x) { return x != x ? x : tri_f32_bits(tri_bits_f32(x) & 0xffffe000u); }`
