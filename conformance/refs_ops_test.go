package conformance

// This file implements the references of the operators: runtime integer
// division truncates toward zero and % takes the dividend's sign (Go's / and
// % on int64 do both), integer results wrap to their dtype (SetInt wraps),
// float results round to fp32 after each op.

import "math"

func refBinopFloat(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	op := func(name string, f func(a, b float64) float64) {
		eachFloat(in[name], func(i int) float64 { return r32(f(x.Float(i), y.Float(i))) })
	}
	op("s", func(a, b float64) float64 { return a + b })
	op("d", func(a, b float64) float64 { return a - b })
	op("p", func(a, b float64) float64 { return a * b })
	op("q", func(a, b float64) float64 { return a / b })
	op("r", math.Mod)
	return tensors{"s": in["s"], "d": in["d"], "p": in["p"], "q": in["q"], "r": in["r"]}
}

// refDivMod serves the // and % kernels of every integer dtype: the values
// of all of them fit in int64, where Go's / and % are C's.
func refDivMod(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	div := func(i int) (int64, int64) {
		a, b := x.Int(i), y.Int(i)
		if b == 0 {
			b = 7
		}
		return a, b
	}
	q := eachInt(in["q"], func(i int) int64 { a, b := div(i); return a / b })
	r := eachInt(in["r"], func(i int) int64 { a, b := div(i); return a % b })
	return tensors{"q": q, "r": r}
}

// refDivGuarded: 100 // x truncated and 100 % x with the dividend's sign
// (Triton's C semantics), -1 for q where x is 0, r untouched there.
func refDivGuarded(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	q := eachInt(in["q"], func(i int) int64 {
		if x.Int(i) == 0 {
			return -1
		}
		return 100 / x.Int(i)
	})
	return tensors{"q": q}
}

func refIntArith(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{
		"s":   eachInt(in["s"], func(i int) int64 { return x.Int(i) + y.Int(i) }),
		"d":   eachInt(in["d"], func(i int) int64 { return x.Int(i) - y.Int(i) }),
		"p":   eachInt(in["p"], func(i int) int64 { return x.Int(i) * y.Int(i) }),
		"neg": eachInt(in["neg"], func(i int) int64 { return -x.Int(i) }),
	}
}

// packCompare packs the six comparisons of a and b as compare_kernel does.
func packCompare(a, b float64) int64 {
	return b2i(a < b) + 2*b2i(a <= b) + 4*b2i(a > b) + 8*b2i(a >= b) + 16*b2i(a == b) + 32*b2i(a != b)
}

func refCompare(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{
		"ib": eachInt(in["ib"], func(i int) int64 { return packCompare(x.Float(i), y.Float(i)) }),
		"fb": eachInt(in["fb"], func(i int) int64 { return packCompare(x.Float(i)*0.5, y.Float(i)*0.5) }),
	}
}

func refBitwise(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{
		"a":   eachInt(in["a"], func(i int) int64 { return x.Int(i) & y.Int(i) }),
		"o":   eachInt(in["o"], func(i int) int64 { return x.Int(i) | y.Int(i) }),
		"e":   eachInt(in["e"], func(i int) int64 { return x.Int(i) ^ y.Int(i) }),
		"inv": eachInt(in["inv"], func(i int) int64 { return ^x.Int(i) }),
	}
}

// refShift shifts in the operands' own widths: int32 >> is arithmetic,
// uint32 >> logical.
func refShift(in tensors, _ map[string]float64) tensors {
	x, u, s := in["x"], in["u"], in["s"]
	return tensors{
		"sl": eachInt(in["sl"], func(i int) int64 { return int64(int32(x.Int(i)) << s.Int(i)) }),
		"sr": eachInt(in["sr"], func(i int) int64 { return int64(int32(x.Int(i)) >> s.Int(i)) }),
		"ul": eachInt(in["ul"], func(i int) int64 { return int64(uint32(u.Int(i)) << s.Int(i)) }),
		"ur": eachInt(in["ur"], func(i int) int64 { return int64(uint32(u.Int(i)) >> s.Int(i)) }),
	}
}

func refUnary(in tensors, _ map[string]float64) tensors {
	x, iv := in["x"], in["i"]
	flag := in["flag"]
	for pid := range flag.NumElements() {
		// FLAG=False and BLOCK=128: `not FLAG` adds 10, `not (BLOCK > 64)`
		// is false, so the else adds 100; a block whose first element is
		// not negative adds 10000.
		flag.SetInt(pid, int64(pid)+10+100+10000*b2i(iv.Int(pid*128) >= 0))
	}
	return tensors{
		"neg":  eachFloat(in["neg"], func(i int) float64 { return -x.Float(i) }),
		"inv":  eachInt(in["inv"], func(i int) int64 { return ^iv.Int(i) }),
		"flag": flag,
	}
}

func refWhere(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	a := eachFloat(in["a"], func(i int) float64 {
		if x.Float(i) > y.Float(i) {
			return x.Float(i)
		}
		return y.Float(i)
	})
	b := eachFloat(in["b"], func(i int) float64 {
		if i%3 == 0 {
			return -1
		}
		return x.Float(i)
	})
	return tensors{"a": a, "b": b}
}

func refZerosFull(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"a": eachFloat(in["a"], func(i int) float64 { return x.Float(i) }),
		"b": eachInt(in["b"], func(i int) int64 { return -5 * int64(i/128) }),
	}
}
