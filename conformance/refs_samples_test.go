package conformance

// This file implements the references of the samples in samples/.

func refSampleAdd(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{"output": eachFloat(in["output"], func(i int) float64 { return r32(x.Float(i) + y.Float(i)) })}
}

func refSampleCopy(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"z": eachInt(in["z"], x.Int)}
}

// refSampleFusedFP16 computes silu(x) * y + 0.5 in fp32 from fp16 inputs
// and rounds once to fp16.
func refSampleFusedFP16(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		xv := x.Float(i)
		silu := r32(xv * sigmoid32(xv))
		return r16(r32(r32(silu*y.Float(i)) + 0.5))
	})}
}

// refSampleHelpers is leaky_relu with slope 0.01.
func refSampleHelpers(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		v := x.Float(i)
		if v >= 0 {
			return v
		}
		return r32(v * float64(float32(0.01)))
	})}
}

func refSampleRowChunks(in tensors, num map[string]float64) tensors {
	x, y, partial := in["x"], in["y"], in["partial"]
	m, n := int(num["M"]), int(num["N"])
	const block = 128
	for row := range m {
		for lane := range block {
			acc := 0.0
			for start := 0; start < n; start += block {
				if c := start + lane; c < n {
					v := x.Float(row*n + c)
					acc = r32(acc + r32(v*v))
					y.SetFloat(row*n+c, r32(v*2))
				}
			}
			partial.SetFloat(row*block+lane, acc)
		}
	}
	return tensors{"y": y, "partial": partial}
}
