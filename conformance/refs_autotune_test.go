package conformance

// This file implements the references of the autotuned matmul samples.
// The interpreter runs config 0 of each (bk = BLOCK_SIZE_K = 32): fp16
// operands, an fp32 accumulator that adds one block of K at a time (each
// block's products summed exactly, then rounded once to fp32), and an fp16
// output; tutorial 03's epilogue applies its leaky ReLU to the fp32
// accumulator before the conversion.

func init() {
	references["sample/matmul_autotuned"] = func(in tensors, num map[string]float64) tensors {
		return refBlockedMatmul(in, int(num["m"]), int(num["n"]), int(num["k"]), 32, nil)
	}
	references["sample/matmul_tutorial03"] = func(in tensors, num map[string]float64) tensors {
		return refBlockedMatmul(in, int(num["M"]), int(num["N"]), int(num["K"]), 32, leakyReLU)
	}
}

// refBlockedMatmul computes c = epilogue(a @ b) for row-major a (m x k),
// b (k x n) and c (m x n), accumulating bk columns of a at a time.
func refBlockedMatmul(in tensors, m, n, k, bk int, epilogue func(float64) float64) tensors {
	a, b, c := in["a"], in["b"], in["c"]
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
			if epilogue != nil {
				acc = epilogue(acc)
			}
			c.SetFloat(i*n+j, r16(acc))
		}
	}
	return tensors{"c": c}
}

// leakyReLU is tutorial 03's tl.where(x >= 0, x, 0.01 * x) in fp32.
func leakyReLU(x float64) float64 {
	if x >= 0 {
		return x
	}
	return r32(r32(0.01) * x)
}
