package conformance

// This file implements the references of constructs taken from launches of
// Triton's own language tests that tri once ran to other values than
// Triton: tl.join and tl.interleave of two scalars.

func init() {
	references["join_scalars"] = refJoinScalars
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
