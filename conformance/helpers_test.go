package conformance

// This file implements the arithmetic the references are written in:
// rounding to fp32, fp16 and bf16, and small loops over tensors.

import (
	"math"

	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

// tensors is the map of tensor bindings a reference takes and returns.
type tensors = map[string]*tensor.Tensor

// r32 rounds to the nearest fp32 value.
func r32(x float64) float64 { return float64(float32(x)) }

// r16 rounds an fp32 value to the nearest fp16 value (ties to even).
func r16(x float64) float64 {
	return float64(float16.Fromfloat32(float32(x)).Float32())
}

// rbf rounds an fp32 value to the nearest bf16 value (ties to even).
// It shares no code with the tensor package's rounding, which it checks:
// bf16 is the top half of fp32's bits, and adding 0x7fff plus the kept
// half's lowest bit before cutting rounds to nearest, ties to even.
func rbf(x float64) float64 {
	b := math.Float32bits(float32(x))
	if b&0x7fffffff > 0x7f800000 {
		return x // NaN
	}
	b += 0x7fff + (b>>16)&1
	return float64(math.Float32frombits(b &^ 0xffff))
}

// eachFloat sets every element i of out to f(i).
func eachFloat(out *tensor.Tensor, f func(i int) float64) *tensor.Tensor {
	for i := range out.NumElements() {
		out.SetFloat(i, f(i))
	}
	return out
}

// eachInt sets every element i of out to f(i), wrapped to out's width.
func eachInt(out *tensor.Tensor, f func(i int) int64) *tensor.Tensor {
	for i := range out.NumElements() {
		out.SetInt(i, f(i))
	}
	return out
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// maxNum and minNum are IEEE maxNum/minNum, what tl.maximum and tl.minimum
// compute by default: a NaN operand loses to a number.
func maxNum(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Max(x, y)
}

func minNum(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Min(x, y)
}

// exp32 is tl.exp on fp32 as Triton lowers it: ex2 of the fp32 product
// x*log2(e). The rounding of that product is what separates the GPU's exp
// from the exact one by several ulp when |x| is large.
func exp32(x float64) float64 { return r32(math.Exp2(r32(x * r32(math.Log2E)))) }

// log32 is tl.log on fp32: libdevice's logf, as Triton lowers it, is within
// an ulp of the correctly rounded logarithm.
func log32(x float64) float64 { return r32(math.Log(x)) }

// sigmoid32 is Triton's 1 / (1 + exp(-x)) on fp32, each op rounded.
func sigmoid32(x float64) float64 { return r32(1 / r32(1+exp32(-x))) }
