package conformance

// This file implements the references of constructs taken from launches of
// Triton's own language tests that tri once ran to other values than
// Triton: tl.join and tl.interleave of two scalars, float atomic max and
// min with -0.0, sums of bools, tl.flip along an axis where a thread
// holds several elements.

import "math"

func init() {
	references["join_scalars"] = refJoinScalars
	references["atomic_neg_zero"] = refAtomicNegZero
	references["bool_sum"] = refBoolSum
	references["flip_inner_vector"] = refFlipInnerVector
}

// refFlipInnerVector mirrors a [16, 64] block of x along its rows (z) and
// along its columns (y).
func refFlipInnerVector(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{
		"z": eachInt(in["z"], func(k int) int64 { return x.Int(k/64*64 + 63 - k%64) }),
		"y": eachInt(in["y"], func(k int) int64 { return x.Int((15-k/64)*64 + k%64) }),
	}
}

func refJoinScalars(in tensors, num map[string]float64) tensors {
	x, y := in["x"], in["y"]
	u, v := int64(num["u"]), int64(num["v"])
	return tensors{
		"j": eachFloat(in["j"], func(k int) float64 {
			if k%2 == 0 {
				return float64(x.Int(k / 2))
			}
			return float64(y.Int(k / 2))
		}),
		"w": eachInt(in["w"], func(k int) int64 {
			if k%2 == 0 {
				return u + int64(k/2)
			}
			return v - int64(k/2)
		}),
	}
}

// refAtomicNegZero folds each column of x into the initial values with
// IEEE's order extended by -0.0 < +0.0 (what the sign-bit rule of Triton's
// float atomics gives on non-NaN values).
func refAtomicNegZero(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	cols := x.Shape[1]
	less := func(a, b float64) bool {
		return a < b || (a == b && math.Signbit(a) && !math.Signbit(b))
	}
	fold := func(name string, isMax bool) {
		out := in[name]
		for c := range cols {
			acc := out.Float(c)
			for r := range x.Shape[0] {
				v := x.Float(r*cols + c)
				if isMax && less(acc, v) || !isMax && less(v, acc) {
					acc = v
				}
			}
			out.SetFloat(c, acc)
		}
	}
	fold("fmax", true)
	fold("fmin", false)
	fold("dmax", true)
	fold("dmin", false)
	return tensors{"fmax": in["fmax"], "fmin": in["fmin"], "dmax": in["dmax"], "dmin": in["dmin"]}
}

// refBoolSum counts the positive elements of each row of a: the count, its
// parity, the parity of all, and the exclusive or of a > 0 and b > 0.
func refBoolSum(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	m, n := a.Shape[0], a.Shape[1]
	counts := make([]int64, m)
	var total int64
	for r := range m {
		for c := range n {
			if a.Int(r*n+c) > 0 {
				counts[r]++
				total++
			}
		}
	}
	in["pall"].SetInt(0, total%2)
	return tensors{
		"par":  eachInt(in["par"], func(r int) int64 { return counts[r] % 2 }),
		"pall": in["pall"],
		"cnt":  eachInt(in["cnt"], func(r int) int64 { return counts[r] }),
		"add":  eachInt(in["add"], func(k int) int64 { return b2i((a.Int(k) > 0) != (b.Int(k) > 0)) }),
	}
}
