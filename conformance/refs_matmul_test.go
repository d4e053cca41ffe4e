package conformance

// This file implements the references of the matmul samples: fp16
// operands, an fp32 accumulator that adds one block of K at a time (each
// block's products summed exactly, as the interpreter does, then rounded
// once to fp32), and an fp16 output.

func init() {
	references["sample/matmul_naive"] = refSampleMatmul
	references["sample/matmul_grouped"] = refSampleMatmul
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
