package conformance

// This file implements the references of the inline asm constructs, which
// only the GPU runs: TestGPU compares it with them directly.

import (
	"math"
)

func init() {
	references["asm_shl"] = refAsmShl
	references["asm_pack4"] = refAsmPack4
	references["asm_two_outputs"] = refAsmTwoOutputs
	references["asm_pointer"] = refAsmPointer
	references["asm_f16x2"] = refAsmF16x2
}

// refAsmShl: shf.l.wrap.b32 is the high word of (y:x) << (s mod 32); then
// x << 5.
func refAsmShl(in tensors, num map[string]float64) tensors {
	x, y, s := in["x"], in["y"], in["s"]
	n := int(num["n"])
	z := eachInt(in["z"], func(i int) int64 {
		if i >= n {
			return 0
		}
		wide := uint64(uint32(y.Int(i)))<<32 | uint64(uint32(x.Int(i)))
		return int64(int32(uint32(wide << (uint64(s.Int(i)) & 31) >> 32)))
	})
	w := eachInt(in["w"], func(i int) int64 {
		if i >= n {
			return 0
		}
		return int64(uint32(x.Int(i)) << 5)
	})
	return tensors{"z": z, "w": w}
}

// refAsmPack4: (x & 31) << 3 on each byte.
func refAsmPack4(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	return tensors{"y": eachInt(in["y"], func(i int) int64 {
		if i >= n {
			return 0
		}
		return (x.Int(i) & 31) << 3
	})}
}

// refAsmTwoOutputs: c = a as int32, d = max.f32(float(a), b).
func refAsmTwoOutputs(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	c := eachInt(in["c"], func(i int) int64 { return a.Int(i) })
	d := eachFloat(in["d"], func(i int) float64 { return math.Max(float64(a.Int(i)), b.Float(i)) })
	return tensors{"c": c, "d": d}
}

// refAsmPointer: y[i] = x[i+1].
func refAsmPointer(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"y": eachFloat(in["y"], func(i int) float64 { return x.Float(i + 1) })}
}

// refAsmF16x2: g = |h|, by clearing the sign bit.
func refAsmF16x2(in tensors, _ map[string]float64) tensors {
	h := in["h"]
	return tensors{"g": eachFloat(in["g"], func(i int) float64 { return math.Abs(h.Float(i)) })}
}
