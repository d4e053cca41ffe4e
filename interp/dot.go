package interp

// This file implements OpDot (tl.dot). Products of fp16, bf16, tf32 and
// fp32 operands are exact in float64 (at most 2*24 significand bits), so
// each result is acc plus the products in k order, summed in float64 and
// rounded once to the result's dtype. The tensor cores also multiply
// exactly but round the sum at the end of each mma instruction's k-chunk,
// so the GPU's result may differ from this one by rounding. With
// input_precision tf32, fp32 operands are first cut to tf32 as the tensor
// cores read them (the low 13 bits ignored, which real Triton's results on
// an H100 match, not cvt.rna's rounding); tf32x3 is taken to be as
// accurate as ieee. fp64 products and sums round in float64; int8 products
// sum exactly and the result wraps to int32 once acc is added.
//
// The loops run m, k, n over row-major slices: each result row starts as
// acc's row and takes x[m, k] * y[k, :] for k in order, so the innermost
// loop reads y and writes the result contiguously.

import (
	"math"

	"github.com/tri-lang/tri/ir"
)

// dot computes acc + a @ b for tiles of shape [(B,) M, K], [(B,) K, N] and
// [(B,) M, N], with prec applying to fp32 operands.
func dot(a, b, acc *tile, prec ir.Precision) *tile {
	r := len(a.shape)
	batch := 1
	if r == 3 {
		batch = a.shape[0]
	}
	m, k, n := a.shape[r-2], a.shape[r-1], b.shape[r-1]
	t := &tile{kind: acc.kind, shape: acc.shape}
	if acc.flts != nil {
		x, y := a.flts, b.flts
		if a.kind == ir.Float32 && prec == ir.PrecisionTF32 {
			x, y = tf32s(x), tf32s(y)
		}
		t.flts = append([]float64(nil), acc.flts...)
		for i := range batch {
			matmulAdd(t.flts[i*m*n:(i+1)*m*n], x[i*m*k:(i+1)*m*k], y[i*k*n:(i+1)*k*n], k, n)
		}
		roundFloats(t.kind, t.flts)
		return t
	}
	t.ints = append([]int64(nil), acc.ints...)
	for i := range batch {
		matmulAdd(t.ints[i*m*n:(i+1)*m*n], a.ints[i*m*k:(i+1)*m*k], b.ints[i*k*n:(i+1)*k*n], k, n)
	}
	wrapInts(t.kind, t.ints)
	return t
}

// matmulAdd adds x @ y to out, x of shape [M, k], y of [k, n] and out of
// [M, n], row-major: floats, or canonical integers without wrapping. Each
// element of out takes its products in k order; the conversion of each
// product keeps the compiler from fusing it with the addition (fp64
// products round; the others are exact anyway).
func matmulAdd[T float64 | int64](out, x, y []T, k, n int) {
	for row := range len(out) / max(n, 1) {
		o := out[row*n : (row+1)*n]
		for j, xj := range x[row*k : (row+1)*k] {
			yr := y[j*n : (j+1)*n]
			yr = yr[:len(o)]
			for c, yc := range yr {
				o[c] += T(xj * yc)
			}
		}
	}
}

// tf32s returns the elements of s cut to tf32.
func tf32s(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = truncTF32(x)
	}
	return out
}

// truncTF32 cuts the fp32 value x to tf32 (10 stored significand bits) as
// an mma.sync of kind tf32 reads an fp32 register: the low 13 bits are
// ignored, so the magnitude rounds toward zero. NaN passes through.
func truncTF32(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	return float64(math.Float32frombits(math.Float32bits(float32(x)) &^ 0x1fff))
}
