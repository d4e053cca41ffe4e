package conformance

// This file implements the references of the two- and three-dimensional
// tile constructs: indexing with None, expand_dims, broadcast_to, reshape,
// trans and permute, join and split, .shape, 2-D masks and 2-D and 3-D
// grids.

func refIndexNone(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	m, n := a.NumElements(), b.NumElements()
	return tensors{
		"out": eachInt(in["out"], func(k int) int64 { return a.Int(k/n)*100 + b.Int(k%n) }),
		"t":   eachInt(in["t"], func(k int) int64 { return b.Int(k/m) - a.Int(k%m) }),
	}
}

func refExpandDims(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	n := b.NumElements()
	outer := func(k int) float64 { return r32(a.Float(k/n) * b.Float(k%n)) }
	return tensors{
		"outer": eachFloat(in["outer"], outer),
		"cube":  eachFloat(in["cube"], func(k int) float64 { return outer(k/2) * float64(k%2+1) }),
	}
}

func refBroadcastTo(in tensors, _ map[string]float64) tensors {
	a, b, s := in["a"], in["b"], in["s"].Int(0)
	n := b.NumElements()
	return tensors{"out": eachInt(in["out"], func(k int) int64 { return a.Int(k/n)*s - b.Int(k%n) })}
}

func refReshape(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := in["t"].Shape[1], in["t"].Shape[0]
	return tensors{
		// t[j, i] = x[i, j] + i * 10000 with x the flat block as M x N.
		"t": eachInt(in["t"], func(k int) int64 {
			j, i := k/m, k%m
			return x.Int(i*n+j) + int64(i)*10000
		}),
		// w is the flat block as N x M plus its column index.
		"w": eachInt(in["w"], func(k int) int64 { return x.Int(k) + int64(k%m)*10000 }),
		// c is the flat block as 2 x M/2 x N plus its first index.
		"c": eachInt(in["c"], func(k int) int64 { return x.Int(k) + int64(k/(m/2*n))*10000 }),
	}
}

func refTrans(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := x.Shape[0], x.Shape[1]
	// Element k of an N x M output holds x[i, j] with j = k / M, i = k % M.
	at := func(k int) (int64, int64) { return x.Int((k%m)*n + k/m), int64(k % m) }
	return tensors{
		"a": eachInt(in["a"], func(k int) int64 { v, _ := at(k); return v }),
		"b": eachInt(in["b"], func(k int) int64 { v, _ := at(k); return v * 2 }),
		"c": eachInt(in["c"], func(k int) int64 { v, _ := at(k); return v + 1 }),
		"d": eachInt(in["d"], func(k int) int64 { v, i := at(k); return v - i }),
	}
}

func refPermute3D(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	na, nb, nc := x.Shape[0], x.Shape[1], x.Shape[2]
	xat := func(i, j, k int) int64 { return x.Int((i*nb+j)*nc + k) }
	return tensors{
		// p[k, i, j] = x[i, j, k]
		"p": eachInt(in["p"], func(f int) int64 {
			k, i, j := f/(na*nb), f/nb%na, f%nb
			return xat(i, j, k)
		}),
		// q[j, i, k] = x[i, j, k] + j
		"q": eachInt(in["q"], func(f int) int64 {
			j, i, k := f/(na*nc), f/nc%na, f%nc
			return xat(i, j, k) + int64(j)
		}),
	}
}

func refJoinSplit(in tensors, _ map[string]float64) tensors {
	xy := in["xy"]
	x := func(i int) float64 { return xy.Float(2 * i) }
	y := func(i int) float64 { return xy.Float(2*i + 1) }
	return tensors{
		"s": eachFloat(in["s"], func(i int) float64 { return r32(x(i) + y(i)) }),
		"d": eachFloat(in["d"], func(i int) float64 { return r32(x(i) - y(i)) }),
		"j": eachFloat(in["j"], func(k int) float64 {
			if k%2 == 0 {
				return r32(y(k/2) * 2)
			}
			return x(k / 2)
		}),
		"il": eachFloat(in["il"], func(k int) float64 {
			if k%2 == 0 {
				return r32(x(k/2) + 1)
			}
			return y(k / 2)
		}),
	}
}

func refShapeIndex(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := int64(x.Shape[0]), int64(x.Shape[1])
	dims := in["dims"]
	dims.SetInt(0, m)
	dims.SetInt(1, n)
	return tensors{
		"out":  eachInt(in["out"], func(k int) int64 { return x.Int(k)*n + m }),
		"dims": dims,
	}
}

func refMask2D(in tensors, _ map[string]float64) tensors {
	x, out, tile := in["x"], in["out"], in["tile"]
	m, n := x.Shape[0], x.Shape[1]
	const bm, bn = 16, 32
	for r := range m {
		for c := range n {
			k := r*n + c
			if c >= r {
				out.SetFloat(k, r32(x.Float(k)*2))
			}
			tile.SetInt(k, int64(r/bm*100+c/bn))
		}
	}
	return tensors{"out": out, "tile": tile}
}

func refGrid3D(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := x.Shape[1], x.Shape[2]
	return tensors{"y": eachFloat(in["y"], func(k int) float64 {
		b, j, i := k/(m*n), k/m%n, k%m
		return x.Float(b*m*n + i*n + j)
	})}
}
