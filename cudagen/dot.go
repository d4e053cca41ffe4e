package cudagen

// This file implements tl.dot on the CUDA cores: both operands are staged
// through the shared scratch memory in row-major order, then every thread
// computes the result elements it holds as a loop of fused multiply-adds
// along K, starting from the accumulator's element. fp16 and bf16 operands
// are widened to float (their products are exact there), fp32 operands are
// cut to tf32 first under input_precision="tf32" and split into a big
// and a small tf32 part under "tf32x3", as the tensor cores would see them;
// fp64 and int8 (into int32) multiply as they are. Tensor-core lowering
// (mma.sync) is the later step; this form is correct for every dtype and
// shape Triton accepts whose operands fit the scratch memory.

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
			"tl.dot of %s and %s needs %d KiB of shared memory to stage its operands; tri's CUDA-core lowering of tl.dot supports at most %d KiB (use smaller blocks)",
			v.Args[0].Type, v.Args[1].Type, (n+1023)/1024, maxSharedBytes/1024)
	}
}

// dot writes v = tl.dot(a, b, acc).
func (e *emitter) dot(v *ir.Value) {
	a, b, acc := v.Args[0], v.Args[1], v.Args[2]
	at := a.Type
	r := at.Shape.Rank()
	m, k, n := at.Shape[r-2], at.Shape[r-1], b.Type.Shape[r-1]
	aBytes, total := dotSharedBytes(v)
	e.w.line("// tl.dot %s x %s on the CUDA cores: operands staged in shared memory, FMAs along K = %d.", at, b.Type, k)
	e.useShared(total)
	e.storeShared(a, 0)
	e.storeShared(b, aBytes)
	e.w.line("__syncthreads();")
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
