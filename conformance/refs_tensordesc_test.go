package conformance

// This file implements the references of the tensor descriptor
// constructs: each walks the blocks of the launch grid and reads or writes
// an element only where its index lies inside the parent tensor on every
// dimension (reads outside give the descriptor's padding).

import "math"

func init() {
	references["tensor_desc_2d"] = refTensorDesc2D
	references["tensor_desc_host"] = refTensorDescHost
	references["tensor_desc_matmul"] = refTensorDescMatmul
	references["tensor_desc_tma"] = refTensorDescMatmul
	references["tensor_desc_store_halves"] = refTensorDescMatmul
	references["tensor_desc_persistent"] = refTensorDescPersistent
	references["tensor_desc_loop"] = refTensorDescLoop
	references["tensor_desc_atomic"] = refTensorDescAtomic
	references["tensor_desc_gather"] = refTensorDescGather
	references["tensor_desc_autotune"] = refTensorDescAutotune
}

// refTensorDesc2D: y = 2x; zpad and npad hold x padded to 48 x 48 with
// zeros and NaNs; shifted holds, at (i, j), x at (i - 5, j - 4) relative
// to the start of (i, j)'s own 16 x 16 block, zero outside x.
func refTensorDesc2D(in tensors, num map[string]float64) tensors {
	m, n := int(num["M"]), int(num["N"])
	x := in["x"]
	at := func(i, j int, pad float64) float64 {
		if i < 0 || i >= m || j < 0 || j >= n {
			return pad
		}
		return x.Float(i*n + j)
	}
	return tensors{
		"y":    eachFloat(in["y"], func(k int) float64 { return r32(2 * x.Float(k)) }),
		"zpad": eachFloat(in["zpad"], func(k int) float64 { return at(k/48, k%48, 0) }),
		"npad": eachFloat(in["npad"], func(k int) float64 { return at(k/48, k%48, math.NaN()) }),
		"shifted": eachFloat(in["shifted"], func(k int) float64 {
			i, j := k/48, k%48
			return at(i/16*16-5+i%16, j/16*16-4+j%16, 0)
		}),
	}
}

// refTensorDescHost: y = 2x and z = x + 1 in float16 (the 3 x 3 blocks of
// 16 x 16 cover x, so every element is written once); npad holds x padded
// to 48 x 48 with NaNs.
func refTensorDescHost(in tensors, num map[string]float64) tensors {
	m, n := int(num["M"]), int(num["N"])
	x := in["x"]
	return tensors{
		"y": eachFloat(in["y"], func(k int) float64 { return r16(2 * x.Float(k)) }),
		"z": eachFloat(in["z"], func(k int) float64 { return r16(x.Float(k) + 1) }),
		"npad": eachFloat(in["npad"], func(k int) float64 {
			i, j := k/48, k%48
			if i >= m || j >= n {
				return math.NaN()
			}
			return x.Float(i*n + j)
		}),
	}
}

// refTensorDescMatmul: c = a @ b.T (b is [N, K]), rounded to float32 once.
func refTensorDescMatmul(in tensors, _ map[string]float64) tensors {
	return tensors{"c": eachFloat(in["c"], func(o int) float64 { return r32(dotBT(in, o)) })}
}

// dotBT is element o of a @ b.T (b is [N, K]), a and b from in.
func dotBT(in tensors, o int) float64 {
	a, b := in["a"], in["b"]
	k, n := a.Shape[1], b.Shape[0]
	i, j := o/n, o%n
	s := 0.0
	for kk := range k {
		s += a.Float(i*k+kk) * b.Float(j*k+kk)
	}
	return s
}

// refTensorDescPersistent: c = 2 (a @ b.T) in float16 (b is [N, K]): each
// tile's product is accumulated twice, through a's descriptor and through
// one made at the tile's rows.
func refTensorDescPersistent(in tensors, _ map[string]float64) tensors {
	return tensors{"c": eachFloat(in["c"], func(o int) float64 { return r16(2 * dotBT(in, o)) })}
}

// refTensorDescLoop: row i of y (even 16-row blocks) or z (odd ones) sums
// the four 16-column blocks of row i of x, block 2 from x2, in float32 in
// block order.
func refTensorDescLoop(in tensors, num map[string]float64) tensors {
	n := int(num["N"])
	x, x2 := in["x"], in["x2"]
	sum := func(o int, odd bool) float64 {
		i, c := o/16, o%16
		if i/16%2 == 1 != odd {
			return 0
		}
		s := 0.0
		for j := range n / 16 {
			src := x
			if j == 2 {
				src = x2
			}
			s = r32(s + src.Float(i*n+j*16+c))
		}
		return s
	}
	return tensors{
		"y": eachFloat(in["y"], func(o int) float64 { return sum(o, false) }),
		"z": eachFloat(in["z"], func(o int) float64 { return sum(o, true) }),
	}
}

// refTensorDescAtomic: each element of s, mx and xr combines (sum, max
// from 0, xor) the values 7p + 3i + j of the programs p = 3 pm + pn whose
// 16 x 16 block, at (8 pm, 8 pn), holds it at (i, j).
func refTensorDescAtomic(in tensors, num map[string]float64) tensors {
	n := int(num["N"])
	combine := func(o int, f func(acc, v int64) int64) int64 {
		r, c := o/n, o%n
		acc := int64(0)
		for pm := range 3 {
			for pn := range 3 {
				i, j := r-8*pm, c-8*pn
				if i >= 0 && i < 16 && j >= 0 && j < 16 {
					acc = f(acc, int64(7*(3*pm+pn)+3*i+j))
				}
			}
		}
		return acc
	}
	return tensors{
		"s":  eachInt(in["s"], func(o int) int64 { return combine(o, func(a, v int64) int64 { return a + v }) }),
		"mx": eachInt(in["mx"], func(o int) int64 { return combine(o, func(a, v int64) int64 { return max(a, v) }) }),
		"xr": eachInt(in["xr"], func(o int) int64 { return combine(o, func(a, v int64) int64 { return a ^ v }) }),
	}
}

// refTensorDescGather: g[r][c] is x at row idx[r], column 24 + c, zero
// outside x; row 39 - idx[r] of s, from column 24, holds row r of g where
// it lies inside s (rows that repeat in idx write the same values).
func refTensorDescGather(in tensors, num map[string]float64) tensors {
	nx, ny := int(num["X"]), int(num["Y"])
	x, idx := in["x"], in["idx"]
	gather := func(r, c int) float64 {
		i, j := int(idx.Int(r)), 24+c
		if i < 0 || i >= nx || j >= ny {
			return 0
		}
		return x.Float(i*ny + j)
	}
	return tensors{
		"g": eachFloat(in["g"], func(o int) float64 { return gather(o/16, o%16) }),
		"s": eachFloat(in["s"], func(o int) float64 {
			i, j := o/ny, o%ny
			for r := range 16 {
				if 39-int(idx.Int(r)) == i && j >= 24 {
					return gather(r, j-24)
				}
			}
			return 0
		}),
	}
}

// refTensorDescAutotune: y = x + 1 in float32.
func refTensorDescAutotune(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"y": eachFloat(in["y"], func(k int) float64 { return r32(x.Float(k) + 1) })}
}
