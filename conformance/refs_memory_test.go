package conformance

// This file implements the references of the grid, arange and memory
// constructs.

func refProgramID3D(in tensors, _ map[string]float64) tensors {
	ids, nums := in["ids"], in["nums"]
	for p2 := range 2 {
		for p1 := range 3 {
			for p0 := range 4 {
				linear := p0 + 4*(p1+3*p2)
				ids.SetInt(linear, int64(p0*100+p1*10+p2))
				nums.SetInt(linear, 4*100+3*10+2)
			}
		}
	}
	return tensors{"ids": ids, "nums": nums}
}

func refArange(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	for pid := range 3 {
		for j := range 64 {
			a.SetInt(pid*64+j, int64(j+pid*1000))
		}
		for j := range 32 {
			b.SetInt(pid*32+j, int64((8+j)*(pid+1)))
		}
	}
	return tensors{"a": a, "b": b}
}

func refLoadStoreMask(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	out := eachFloat(in["out"], func(i int) float64 {
		if i < n {
			return x.Float(i)
		}
		return -7.5
	})
	kept := eachFloat(in["kept"], func(i int) float64 {
		if i < n {
			return r32(x.Float(i) * 2)
		}
		return 0
	})
	return tensors{"out": out, "kept": kept}
}

func refLoadStoreScalar(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	out := eachInt(in["out"], func(i int) int64 {
		next := int64(1000)
		if i+1 < n {
			next = x.Int(i + 1)
		}
		return x.Int(i)*3 - next
	})
	return tensors{"out": out}
}

func refPtrReassign(in tensors, _ map[string]float64) tensors {
	x, y := in["x"], in["y"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 { return r32(x.Float(i) - y.Float(i)) })}
}

// refLoopPeelMixed is constructs/loop_peel_mixed.tri: y = x * w below N,
// x read as 0 from M on.
func refLoopPeelMixed(in tensors, num map[string]float64) tensors {
	x, w, n, m := in["x"], in["w"], int(num["N"]), int(num["M"])
	y := eachFloat(in["y"], func(i int) float64 {
		switch {
		case i >= n:
			return 0
		case i >= m:
			return 0 * w.Float(i)
		}
		return r32(x.Float(i) * w.Float(i))
	})
	return tensors{"y": y}
}

// refLoopPeelStep is constructs/loop_peel_step.tri: y = x + 1 below N.
func refLoopPeelStep(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["N"])
	y := eachFloat(in["y"], func(i int) float64 {
		if i >= n {
			return 0
		}
		return r32(x.Float(i) + 1)
	})
	return tensors{"y": y}
}

// refLoopPeelUnroll is constructs/loop_peel_unroll.tri: each row's sum of
// squares below N.
func refLoopPeelUnroll(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["N"])
	y := eachFloat(in["y"], func(r int) float64 {
		s := 0.0
		for c := range n {
			s += x.Float(r*1024+c) * x.Float(r*1024+c)
		}
		return r32(s)
	})
	return tensors{"y": y}
}
