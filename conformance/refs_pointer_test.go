package conformance

// This file implements the references of the pointer constructs: pointer
// tables and pointers seen as integers.

import (
	"math"
)

func init() {
	references["ptr_table"] = refPtrTable
	references["ptr_table_store"] = refPtrTableStore
	references["ptr_int64_math"] = refPtrInt64Math
}

// refPtrTable: program g scales the first sizes[g] elements of the g-th
// tensor of the table by g+1 into row g of out.
func refPtrTable(in tensors, _ map[string]float64) tensors {
	out := in["out"]
	for g, name := range []string{"a", "b", "c"} {
		src := in[name]
		for j := range src.NumElements() {
			out.SetFloat(g*64+j, r32(src.Float(j)*float64(g+1)))
		}
	}
	return tensors{"out": out}
}

// refPtrTableStore: y_i = x_i * 2 + i in fp16, each op rounded.
func refPtrTableStore(in tensors, num map[string]float64) tensors {
	n := int(num["n"])
	res := tensors{}
	for i, name := range []string{"0", "1"} {
		x, y := in["x"+name], in["y"+name]
		res["y"+name] = eachFloat(y, func(j int) float64 {
			if j >= n {
				return 0
			}
			return r16(r16(x.Float(j)*2) + float64(i))
		})
	}
	return res
}

// refPtrInt64Math: y = x + 1 through computed addresses, the byte
// offsets 4*i, x's bits as int32 twice, and 1 for every non-null pointer.
func refPtrInt64Math(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	y := eachFloat(in["y"], func(i int) float64 { return r32(x.Float(i) + 1) })
	diffs := eachInt(in["diffs"], func(i int) int64 { return 4 * int64(i) })
	bits := eachInt(in["bits"], func(i int) int64 { return int64(int32(math.Float32bits(float32(x.Float(i % 64))))) })
	flags := eachInt(in["flags"], func(int) int64 { return 1 })
	return tensors{"y": y, "diffs": diffs, "bits": bits, "flags": flags}
}
