package conformance

// This file implements the reference of the dtype introspection construct:
// the numbers Triton's dtype class gives, written out by hand.

import (
	"math"
)

func init() {
	references["dtype_introspect"] = refDtypeIntrospect
	references["block_type"] = refBlockType
}

// refBlockType: a [16] fp32 block type's numel (16), a [2, 8] fp16 one's
// nbytes (32) and shape (2, 8 as 208), fp32's and fp16's widths; y is x
// rounded to fp16.
func refBlockType(in tensors, _ map[string]float64) tensors {
	facts := []int64{16, 32, 208, 32, 16}
	x := in["x"]
	return tensors{
		"facts": eachInt(in["facts"], func(i int) int64 {
			if i < len(facts) {
				return facts[i]
			}
			return 0
		}),
		"y": eachFloat(in["y"], func(i int) float64 { return r16(x.Float(i)) }),
	}
}

// refDtypeIntrospect: fp32's width (32), int16's itemsize (2),
// int_bitwidth (16) and largest value (32767), the width of an int64
// pointer's element (64), fp32's scalar width (32), 32 // 2, BLOCK times
// int16's itemsize (32); then x's bits read as int32.
func refDtypeIntrospect(in tensors, _ map[string]float64) tensors {
	facts := []int64{32, 2, 16, 32767, 64, 32, 16, 32}
	x := in["x"]
	return tensors{
		"facts": eachInt(in["facts"], func(i int) int64 {
			if i < len(facts) {
				return facts[i]
			}
			return 0
		}),
		"bits": eachInt(in["bits"], func(i int) int64 { return int64(int32(math.Float32bits(float32(x.Float(i))))) }),
	}
}
