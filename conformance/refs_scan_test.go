package conformance

// This file implements the references of the scans: cumsum along each
// axis and reversed, int8 widened to int32, and associative_scan with
// combine functions that do not commute. A reversed scan folds from the
// last element toward the first, the value folded so far on the left of
// the combine function.

func refCumsum(in tensors, _ map[string]float64) tensors {
	a, c := in["a"], in["c"]
	n := a.Shape[1]
	prefix := func(t interface{ Int(int) int64 }, k int) int64 {
		i, j, s := k/n, k%n, int64(0)
		for q := 0; q <= j; q++ {
			s += t.Int(i*n + q)
		}
		return s
	}
	return tensors{
		"r1": eachInt(in["r1"], func(k int) int64 { return prefix(a, k) }),
		"r0": eachInt(in["r0"], func(k int) int64 {
			s := int64(0)
			for i := 0; i <= k/n; i++ {
				s += a.Int(i*n + k%n)
			}
			return s
		}),
		"rr": eachInt(in["rr"], func(k int) int64 {
			s := int64(0)
			for q := k % n; q < n; q++ {
				s += a.Int(k/n*n + q)
			}
			return s
		}),
		"rc": eachInt(in["rc"], func(k int) int64 { return prefix(c, k) }),
	}
}

func refCumsumFP32(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	n := x.Shape[1]
	return tensors{"out": eachFloat(in["out"], func(k int) float64 {
		s := 0.0
		for q := k / n * n; q <= k; q++ {
			s += x.Float(q)
		}
		return r32(s)
	})}
}

func refScanCustom(in tensors, _ map[string]float64) tensors {
	x, ma, mb := in["x"], in["ma"], in["mb"]
	n := x.Shape[1]
	v := func(k int) int64 { return min(x.Int(k), 0) }
	// _fill(a, b) keeps b unless it is zero: forward, the last nonzero
	// value at or before each element; reversed, the nearest nonzero value
	// at or after it.
	fwd := eachInt(in["fwd"], func(k int) int64 {
		for q := k; q >= k/n*n; q-- {
			if v(q) != 0 {
				return v(q)
			}
		}
		return 0
	})
	bwd := eachInt(in["bwd"], func(k int) int64 {
		for q := k; q < k/n*n+n; q++ {
			if v(q) != 0 {
				return v(q)
			}
		}
		return 0
	})
	ra, rb := in["ra"], in["rb"]
	for k := range x.NumElements() {
		a, b := int32(ma.Int(k)), int32(mb.Int(k))
		if k%n != 0 {
			pa, pb := int32(ra.Int(k-1)), int32(rb.Int(k-1))
			a, b = pa*a, pb*a+b
		}
		ra.SetInt(k, int64(a))
		rb.SetInt(k, int64(b))
	}
	return tensors{"fwd": fwd, "bwd": bwd, "ra": ra, "rb": rb}
}
