package conformance

// This file implements the references of the matmul samples: fp16
// operands, an fp32 accumulator that adds one block of K at a time (each
// block's products summed exactly, as the interpreter does, then rounded
// once to fp32), and an fp16 output. The batched sample runs that matmul on
// each matrix of the batch; the ieee sample's fp32 operands have products
// exact in float64 but sums that are not, so its reference adds them to the
// accumulator in the interpreter's order (acc first, then k in order, in
// float64) before rounding once to fp32.

func init() {
	references["sample/matmul_naive"] = refSampleMatmul
	references["sample/matmul_grouped"] = refSampleMatmul
	references["sample/matmul_batched"] = func(in tensors, num map[string]float64) tensors {
		return refBatchedMatmul(in, int(num["B"]), int(num["M"]), int(num["N"]), int(num["K"]), int(num["bk"]), r16)
	}
	references["sample/matmul_ieee"] = func(in tensors, num map[string]float64) tensors {
		return refBatchedMatmul(in, 1, int(num["M"]), int(num["N"]), int(num["K"]), int(num["bs"]), r32)
	}
}

func refSampleMatmul(in tensors, num map[string]float64) tensors {
	a, b, c := in["a"], in["b"], in["c"]
	m, n, k, bk := int(num["m"]), int(num["n"]), int(num["k"]), int(num["bs"])
	for i := range m {
		for j := range n {
			acc := 0.0
			for k0 := 0; k0 < k; k0 += bk {
				s := 0.0
				for kk := k0; kk < min(k0+bk, k); kk++ {
					s += a.Float(i*k+kk) * b.Float(kk*n+j)
				}
				acc = r32(acc + s)
			}
			c.SetFloat(i*n+j, r16(acc))
		}
	}
	return tensors{"c": c}
}

// refBatchedMatmul computes c[z] = a[z] @ b[z] for contiguous a (batch x m
// x k), b (batch x k x n) and c (batch x m x n), with an fp32 accumulator
// that takes bk columns of a at a time: acc plus that block's products in
// k order, summed in float64 (each product converted on its own, so that
// it is not fused into the addition) and rounded to fp32. out rounds the
// accumulator to c's dtype.
func refBatchedMatmul(in tensors, batch, m, n, k, bk int, out func(float64) float64) tensors {
	a, b, c := in["a"], in["b"], in["c"]
	for z := range batch {
		az, bz, cz := z*m*k, z*k*n, z*m*n
		for i := range m {
			for j := range n {
				acc := 0.0
				for k0 := 0; k0 < k; k0 += bk {
					s := acc
					for kk := k0; kk < min(k0+bk, k); kk++ {
						s += float64(a.Float(az+i*k+kk) * b.Float(bz+kk*n+j))
					}
					acc = r32(s)
				}
				c.SetFloat(cz+i*n+j, out(acc))
			}
		}
	}
	return tensors{"c": c}
}
