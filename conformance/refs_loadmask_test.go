package conformance

// This file implements the reference of load_mask_widens: a mask that
// widens the pointer block of tl.load.

func init() {
	references["load_mask_widens"] = refLoadMaskWidens
}

// refLoadMaskWidens: out is 16 rows of 32; row i, column j holds x_j where
// i < m and j < n, and zero elsewhere.
func refLoadMaskWidens(in tensors, num map[string]float64) tensors {
	m, n := int(num["m"]), int(num["n"])
	x := in["x"]
	return tensors{"out": eachFloat(in["out"], func(k int) float64 {
		i, j := k/32, k%32
		if i < m && j < n {
			return x.Float(j)
		}
		return 0
	})}
}
