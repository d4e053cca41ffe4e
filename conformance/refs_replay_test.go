package conformance

// This file implements the references of constructs taken from launches of
// Triton's own language tests that tri once ran to other values than
// Triton: tl.join and tl.interleave of two scalars, float atomic max and
// min with -0.0.

import "math"

func init() {
	references["join_scalars"] = refJoinScalars
	references["atomic_neg_zero"] = refAtomicNegZero
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
