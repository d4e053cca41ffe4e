package conformance

// This file implements the references of the constructs that Triton
// accepts as written in real projects: .cast as a method, casts to the same
// type with a rounding mode, range with tl.range's keywords.

func refCastMethodSameType(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"s": eachFloat(in["s"], func(i int) float64 {
			acc := float32(0)
			for range 3 {
				acc += float32(x.Float(i))
			}
			return float64(acc)
		}),
		"h": eachFloat(in["h"], func(i int) float64 { return r16(x.Float(i)) }),
	}
}
