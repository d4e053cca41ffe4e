package conformance

import "math"

// This file implements the references of the constructs that give
// tl.range (and Python's range) each of their keywords, and of
// tl.condition's disable_licm. None of the keywords changes what a loop
// computes, so each reference is the loop as written.

func init() {
	references["loop_num_stages"] = func(in tensors, num map[string]float64) tensors {
		k := int(num["K"])
		c := refBatchedMatmul(in, 1, 128, 64, k, 32, r32)["c"]
		d := in["d"]
		for i := range d.NumElements() {
			d.SetFloat(i, c.Float(i))
		}
		return tensors{"c": c, "d": d}
	}
	for _, name := range []string{"loop_disallow_acc_multi_buffer", "loop_warp_specialize"} {
		references[name] = func(in tensors, num map[string]float64) tensors {
			return refBatchedMatmul(in, 1, 128, 64, int(num["K"]), 32, r32)
		}
	}
	references["loop_unroll_factor"] = refLoopUnrollFactor
	references["loop_flatten"] = refLoopFlatten
	references["loop_disable_licm"] = refLoopDisableLICM
	references["loop_builtin_range_keywords"] = refLoopBuiltinRangeKeywords
	references["while_condition"] = refWhileCondition
}

// refLoopUnrollFactor hashes each row of x forward (h*31 + x) and backward
// (g*7 + x) in wrapping int32.
func refLoopUnrollFactor(in tensors, num map[string]float64) tensors {
	x, h, g := in["x"], in["h"], in["g"]
	n := int(num["N"])
	for r := range 16 {
		hv, gv := int32(0), int32(0)
		for i := range n {
			hv = hv*31 + int32(x.Int(r*n+i))
		}
		for i := n - 1; i >= 0; i-- {
			gv = gv*7 + int32(x.Int(r*n+i))
		}
		h.SetInt(r, int64(hv))
		g.SetInt(r, int64(gv))
	}
	return tensors{"h": h, "g": g}
}

// refLoopFlatten sums each row of x in chunks of 32 columns into lane j:
// out[r, j] = x[r, j] + x[r, j+32] + ..., in float32.
func refLoopFlatten(in tensors, num map[string]float64) tensors {
	return rowChunkSums(in, int(num["TILES"])*4, int(num["N"]))
}

// refLoopDisableLICM scales each row of x by w (repeated every 32
// columns) and exp(0.25), in float32 and in the kernel's order.
func refLoopDisableLICM(in tensors, num map[string]float64) tensors {
	x, w, out := in["x"], in["w"], in["out"]
	n := int(num["N"])
	scale := r32(math.Exp(float64(float32(0.25))))
	for i := range 4 * n {
		out.SetFloat(i, r32(r32(x.Float(i)*w.Float(i%n%32))*scale))
	}
	return tensors{"out": out}
}

// refLoopBuiltinRangeKeywords folds the rows of x into each lane: a over
// every row (a*3 + x), b over every row too (b*5 + x), as range's step=
// keyword is ignored, in wrapping int32.
func refLoopBuiltinRangeKeywords(in tensors, num map[string]float64) tensors {
	x, a, b := in["x"], in["a"], in["b"]
	n := int(num["N"])
	for l := range 16 {
		av, bv := int32(0), int32(0)
		for i := range n {
			av = av*3 + int32(x.Int(i*16+l))
			bv = bv*5 + int32(x.Int(i*16+l))
		}
		a.SetInt(l, int64(av))
		b.SetInt(l, int64(bv))
	}
	return tensors{"a": a, "b": b}
}

// refWhileCondition sums w[j] * x[i, j] over the rows i of x into lane j,
// in float32 (the product may fuse into the addition on the GPU, which the
// file's tolerance allows).
func refWhileCondition(in tensors, num map[string]float64) tensors {
	x, w, out := in["x"], in["w"], in["out"]
	n := int(num["N"])
	for j := range 32 {
		acc := 0.0
		for i := range n {
			acc = r32(acc + r32(w.Float(j)*x.Float(i*32+j)))
		}
		out.SetFloat(j, acc)
	}
	return tensors{"out": out}
}
