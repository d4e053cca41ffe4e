package conformance

// This file implements the references of the libdevice construct kernels
// (constructs/libdevice_*.tri) and of tutorial 07's sample. Float results
// are computed in float64 with Go's math (or exactly, for the correctly
// rounded operations) and rounded once; the files' tolerances are the
// errors CUDA documents for each function, which the GPU may add.

import "math"

func init() {
	for k, v := range map[string]Reference{
		"sample/extern_tutorial07": refSampleAsin,
	} {
		references[k] = v
	}
}

func refSampleAsin(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"output_triton": eachFloat(in["output_triton"], func(i int) float64 { return r32(math.Asin(x.Float(i))) })}
}
