package conformance

// This file implements the references of the casts: float to int truncates
// toward zero, int to float rounds to nearest even, narrowing wraps,
// widening extends by the source's signedness, bool is "nonzero".

func refCastFloatToInt(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"i": eachInt(in["i"], func(i int) int64 { return int64(x.Float(i)) }),
		"j": eachInt(in["j"], func(i int) int64 { return int64(r32(x.Float(i) * 1000)) }),
	}
}

func refCastIntToFloat(in tensors, _ map[string]float64) tensors {
	x, s := in["x"], in["s"]
	return tensors{
		"f": eachFloat(in["f"], func(i int) float64 { return float64(float32(x.Int(i))) }),
		"h": eachFloat(in["h"], func(i int) float64 { return r16(float64(s.Int(i))) }),
	}
}

func refCastFP32ToHalf(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"h": eachFloat(in["h"], func(i int) float64 { return r16(x.Float(i)) }),
		"b": eachFloat(in["b"], func(i int) float64 { return rbf(x.Float(i)) }),
	}
}

func refCastIntWrap(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"b":  eachInt(in["b"], func(i int) int64 { return int64(int8(x.Int(i))) }),
		"ub": eachInt(in["ub"], func(i int) int64 { return int64(uint8(x.Int(i))) }),
		"w":  eachInt(in["w"], func(i int) int64 { return int64(int16(x.Int(i))) }),
		"l":  eachInt(in["l"], func(i int) int64 { return int64(int8(x.Int(i))) }),
		"ul": eachInt(in["ul"], func(i int) int64 { return int64(uint32(x.Int(i))) }),
	}
}

func refCastBool(in tensors, _ map[string]float64) tensors {
	iv, j := in["i"], in["j"]
	bi := func(i int) int64 { return b2i(iv.Int(i) != 0) }
	bf := func(i int) int64 { return b2i(float64(j.Int(i))*0.5 != 0) }
	return tensors{
		"bi": eachInt(in["bi"], bi),
		"bf": eachInt(in["bf"], bf),
		"ci": eachInt(in["ci"], func(i int) int64 { return bi(i)&bf(i) + bi(i) }),
		"cf": eachFloat(in["cf"], func(i int) float64 { return float64(bf(i)) * 1.5 }),
	}
}

func refCastUint8Float(in tensors, _ map[string]float64) tensors {
	u := in["u"]
	return tensors{
		"f": eachFloat(in["f"], func(i int) float64 { return float64(u.Int(i)) }),
		"h": eachFloat(in["h"], func(i int) float64 { return float64(u.Int(i)) }),
		"w": eachInt(in["w"], func(i int) int64 { return int64(uint8(u.Int(i) + 100)) }),
	}
}
