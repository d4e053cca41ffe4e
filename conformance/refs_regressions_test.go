package conformance

// This file implements the references of constructs that once crashed
// tri: a split into two scalars (a nil layout in CUDA generation) and a
// return in one branch of a nested runtime if (a value used outside the
// branch that defined it).

func init() {
	references["tile_split_scalars"] = refSplitScalars
	references["if_return_nested"] = refIfReturnNested
}

func refSplitScalars(in tensors, _ map[string]float64) tensors {
	xy := in["xy"]
	return tensors{
		"s": eachFloat(in["s"], func(i int) float64 { return r32(xy.Float(2*i) + xy.Float(2*i+1)) }),
		"d": eachFloat(in["d"], func(i int) float64 { return r32(xy.Float(2*i) - xy.Float(2*i+1)) }),
	}
}

func refIfReturnNested(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	block := y.Shape[1]
	return tensors{"y": eachFloat(y, func(k int) float64 {
		pid := k / block
		if pid%4 == 3 || pid >= 6 {
			return 0 // the program returned before its store
		}
		v := x.Float(k)
		if pid%4 == 2 {
			v = r32(v + 1)
		}
		return r32(r32(v*3) - 0.5)
	})}
}
