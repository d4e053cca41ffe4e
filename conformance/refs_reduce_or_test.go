package conformance

// This file implements the reference of tl.reduce_or: the bitwise or of
// the integers along an axis or over the whole block, in their own dtype.

func refReduceOr(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	m, n := a.Shape[0], a.Shape[1]
	all := in["all32"]
	acc := int64(0)
	for k := range m * n {
		acc |= a.Int(k)
	}
	all.SetInt(0, acc)
	return tensors{
		"r32": eachInt(in["r32"], func(i int) int64 {
			v := int64(0)
			for j := range n {
				v |= a.Int(i*n + j)
			}
			return v
		}),
		"c8": eachInt(in["c8"], func(j int) int64 {
			v := int64(0)
			for i := range m {
				v |= b.Int(i*n + j)
			}
			return v
		}),
		"all32": all,
	}
}
