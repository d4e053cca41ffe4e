package conformance

// This file implements the references of type promotion and literal
// typing: the result dtype decides where each op rounds or wraps.

func refPromoteInt8Int32(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	return tensors{
		"wide":   eachInt(in["wide"], func(i int) int64 { return a.Int(i) + b.Int(i) }),
		"narrow": eachInt(in["narrow"], func(i int) int64 { return int64(int8(a.Int(i) + a.Int(i))) }),
	}
}

func refPromoteFP16FP32(in tensors, _ map[string]float64) tensors {
	h, f := in["h"], in["f"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 { return r32(h.Float(i) * f.Float(i)) })}
}

func refPromoteInt32FP16(in tensors, _ map[string]float64) tensors {
	iv, h := in["i"], in["h"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		return r16(r16(float64(iv.Int(i))) + h.Float(i))
	})}
}

func refPromoteUint32Int32(in tensors, _ map[string]float64) tensors {
	iv, u := in["i"], in["u"]
	return tensors{
		"lt": eachInt(in["lt"], func(i int) int64 { return b2i(uint32(iv.Int(i)) < uint32(u.Int(i))) }),
		"s":  eachInt(in["s"], func(i int) int64 { return int64(uint32(iv.Int(i)) + uint32(u.Int(i))) }),
	}
}

func refPromoteScalar(in tensors, _ map[string]float64) tensors {
	h, b := in["h"], in["b"]
	tenth := r16(float64(float32(0.1)))
	return tensors{
		"hs": eachFloat(in["hs"], func(i int) float64 { return r16(r16(h.Float(i)*tenth) * 3) }),
		"bs": eachInt(in["bs"], func(i int) int64 { return int64(int8(b.Int(i) + 100)) }),
		"hd": eachFloat(in["hd"], func(i int) float64 { return r32(h.Float(i) / 3) }),
	}
}

func refPromoteIntTruediv(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{"q": eachFloat(in["q"], func(i int) float64 {
		d := y.Int(i)
		if d == 0 {
			d = 3
		}
		return float64(float32(x.Int(i)) / float32(d))
	})}
}

func refLiteralInt64(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachInt(in["out"], func(i int) int64 { return x.Int(i)*4294967296 + 3000000000 })}
}

// refHalfArith is the reference of fp16_arith and bf16_arith, round being
// the rounding of the file's dtype: every op rounds; / computes in fp32.
func refHalfArith(round func(float64) float64) Reference {
	return func(in tensors, _ map[string]float64) tensors {
		a, b := in["a"], in["b"]
		return tensors{
			"p": eachFloat(in["p"], func(i int) float64 { return round(round(a.Float(i)+b.Float(i)) * b.Float(i)) }),
			"d": eachFloat(in["d"], func(i int) float64 { return round(a.Float(i) - b.Float(i)) }),
			"q": eachFloat(in["q"], func(i int) float64 { return round(r32(a.Float(i) / b.Float(i))) }),
		}
	}
}
