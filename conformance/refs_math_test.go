package conformance

// This file implements the references of the math functions (computed in
// float64 and rounded once to fp32; the files' tolerances allow for the
// GPU's approximations) and of min, max, clamp, cdiv and the hints.

import "math"

// unaryRef maps one fp32 input through f into each named output.
func unaryRef(in tensors, x string, outs map[string]func(float64) float64) tensors {
	src := in[x]
	res := tensors{}
	for name, f := range outs {
		res[name] = eachFloat(in[name], func(i int) float64 { return r32(f(src.Float(i))) })
	}
	return res
}

func refExpLog(in tensors, _ map[string]float64) tensors {
	res := unaryRef(in, "x", map[string]func(float64) float64{"e": exp32, "e2": math.Exp2})
	for k, v := range unaryRef(in, "y", map[string]func(float64) float64{"lg": log32, "lg2": math.Log2}) {
		res[k] = v
	}
	return res
}

// refExp2FTZ: exp2 of the fp32 x (moved to [-2, 2) from index 900 on, as
// the kernel does), zero below 2^-126 as Triton's flush-to-zero exp2f.
func refExp2FTZ(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"e2": eachFloat(in["e2"], func(i int) float64 {
		v := x.Float(i)
		if i >= 900 {
			v = float64(float32(float32(v)*float32(0.02)) + 3)
		}
		if r := math.Exp2(v); r >= 0x1p-126 {
			return r
		}
		return 0
	})}
}

func refSqrt(in tensors, _ map[string]float64) tensors {
	return unaryRef(in, "x", map[string]func(float64) float64{
		"s": math.Sqrt,
		"r": func(v float64) float64 { return 1 / math.Sqrt(v) },
	})
}

func refTrig(in tensors, _ map[string]float64) tensors {
	return unaryRef(in, "x", map[string]func(float64) float64{"s": math.Sin, "c": math.Cos})
}

// refErf: erf computed in float64, rounded once to fp32 for y.
func refErf(in tensors, _ map[string]float64) tensors {
	res := unaryRef(in, "x", map[string]func(float64) float64{"y": math.Erf})
	xd := in["xd"]
	res["yd"] = eachFloat(in["yd"], func(i int) float64 { return math.Erf(xd.Float(i)) })
	return res
}

func refSigmoid(in tensors, _ map[string]float64) tensors {
	return unaryRef(in, "x", map[string]func(float64) float64{"y": sigmoid32})
}

func refAbs(in tensors, _ map[string]float64) tensors {
	x, iv, b := in["x"], in["i"], in["b"]
	iabs := func(v int64) int64 {
		if v < 0 {
			return -v
		}
		return v
	}
	return tensors{
		"ax": eachFloat(in["ax"], func(i int) float64 { return math.Abs(x.Float(i)) }),
		"ai": eachInt(in["ai"], func(i int) int64 { return iabs(iv.Int(i)) }),
		"ab": eachInt(in["ab"], func(i int) int64 { return iabs(b.Int(i)) }),
	}
}

func refFMA(in tensors, _ map[string]float64) tensors {
	x, y, z := in["x"], in["y"], in["z"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		return r32(math.FMA(x.Float(i), y.Float(i), z.Float(i)))
	})}
}

func refMinMaxNaN(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	operands := func(i int) (float64, float64) {
		a, b := x.Float(i), y.Float(i)
		if i%5 == 1 {
			a = math.NaN()
		}
		if i%7 == 1 {
			b = math.NaN()
		}
		return a, b
	}
	return tensors{
		"mx": eachFloat(in["mx"], func(i int) float64 { return maxNum(operands(i)) }),
		"mn": eachFloat(in["mn"], func(i int) float64 { return minNum(operands(i)) }),
	}
}

func refClamp(in tensors, _ map[string]float64) tensors {
	x, lo := in["x"], in["lo"]
	clamp := func(v, l, h float64) float64 { return math.Min(math.Max(v, l), h) }
	return tensors{
		"a": eachFloat(in["a"], func(i int) float64 { return clamp(x.Float(i), -0.5, 0.75) }),
		"b": eachFloat(in["b"], func(i int) float64 { return clamp(x.Float(i), lo.Float(i), r32(lo.Float(i)+1)) }),
	}
}

func refBuiltinMinMax(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{
		"a": eachFloat(in["a"], func(i int) float64 {
			return r32(math.Min(x.Float(i), y.Float(i)) + math.Max(x.Float(i), 0))
		}),
		// max(3, 10) - min(3, 10) = 7.
		"b": eachFloat(in["b"], func(i int) float64 { return r32(x.Float(i) * 7) }),
	}
}

func refCdiv(in tensors, num map[string]float64) tensors {
	n := int64(num["n"])
	out := in["out"]
	for pid := range int64(16) {
		d := pid + 1
		out.SetInt(int(pid), (n+d-1)/d)
		// cdiv(n, 128) + cdiv(128, 48) * 100.
		out.SetInt(int(16+pid), (n+127)/128+300)
	}
	return tensors{"out": out}
}

func refHints(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 { return r32(x.Float(i) * 2) })}
}

// refHintsStatement: out = x * 2 + 1 (x * 2 is exact, so fused or not the
// sum rounds once).
func refHintsStatement(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 { return r32(x.Float(i)*2 + 1) })}
}

// refMinMaxInt compares in int64, where int32 values keep their signed
// order and uint32 values (read zero-extended) their unsigned one.
func refMinMaxInt(in tensors, _ map[string]float64) tensors {
	x, y, u, v := in["x"], in["y"], in["u"], in["v"]
	return tensors{
		"mx":  eachInt(in["mx"], func(i int) int64 { return max(x.Int(i), y.Int(i)) }),
		"mn":  eachInt(in["mn"], func(i int) int64 { return min(x.Int(i), y.Int(i)) }),
		"umx": eachInt(in["umx"], func(i int) int64 { return max(u.Int(i), v.Int(i)) }),
		"umn": eachInt(in["umn"], func(i int) int64 { return min(u.Int(i), v.Int(i)) }),
	}
}
