package conformance

// This file implements the references of the block pointer constructs:
// each walks the blocks of the launch grid and applies the boundary rules
// element by element (an element is read or written when its index is
// within the parent tensor's shape on every checked dimension; padding
// fills the others).

import "math"

func init() {
	references["block_ptr_2d"] = refBlockPtr2D
	references["block_ptr_transposed"] = refBlockPtrTransposed
	references["block_ptr_matmul"] = refBlockPtrMatmul
	references["block_ptr_1d"] = refBlockPtr1D
	references["block_ptr_one_dim"] = refBlockPtrOneDim
}

// refBlockPtr2D: y = 2x; zpad and npad hold x padded to 48 x 48 with zeros
// and NaNs; shifted holds, at (i, j), x at (i - 5, j - 3) relative to the
// start of (i, j)'s own 16 x 16 block, zero outside x.
func refBlockPtr2D(in tensors, num map[string]float64) tensors {
	m, n := int(num["M"]), int(num["N"])
	x := in["x"]
	at := func(i, j int, pad float64) float64 {
		if i < 0 || i >= m || j < 0 || j >= n {
			return pad
		}
		return x.Float(i*n + j)
	}
	y := eachFloat(in["y"], func(k int) float64 { return r32(2 * x.Float(k)) })
	zpad := eachFloat(in["zpad"], func(k int) float64 { return at(k/48, k%48, 0) })
	npad := eachFloat(in["npad"], func(k int) float64 { return at(k/48, k%48, math.NaN()) })
	shifted := eachFloat(in["shifted"], func(k int) float64 {
		i, j := k/48, k%48
		return at(i/16*16-5+i%16, j/16*16-3+j%16, 0)
	})
	return tensors{"y": y, "zpad": zpad, "npad": npad, "shifted": shifted}
}

// refBlockPtrTransposed: y = x.T.
func refBlockPtrTransposed(in tensors, num map[string]float64) tensors {
	m, n := int(num["M"]), int(num["N"])
	x := in["x"]
	return tensors{"y": eachFloat(in["y"], func(k int) float64 { return x.Float((k%n)*m + k/n) })}
}

// refBlockPtrMatmul: c = a @ b, rounded to float32 once.
func refBlockPtrMatmul(in tensors, _ map[string]float64) tensors {
	return tensors{"c": store(in["c"], matmul(in["a"], in["b"], nil, identity), r32)}
}

// refBlockPtr1D: y_j = sum of x_{16b + j%16} for b = 0 .. j/16, where
// indices past n read zero; the sum rounded to float32 at every step.
func refBlockPtr1D(in tensors, num map[string]float64) tensors {
	n := int(num["n"])
	x := in["x"]
	return tensors{"y": eachFloat(in["y"], func(j int) float64 {
		s := 0.0
		for b := 0; b <= j/16; b++ {
			if k := 16*b + j%16; k < n {
				s = r32(s + x.Float(k))
			}
		}
		return s
	})}
}

// refBlockPtrOneDim: column j of y is column j - 16 of x in odd 16-column
// blocks, column j of x in even ones.
func refBlockPtrOneDim(in tensors, num map[string]float64) tensors {
	n := int(num["N"])
	x := in["x"]
	return tensors{"y": eachFloat(in["y"], func(k int) float64 {
		i, j := k/n, k%n
		if j/16%2 == 1 {
			j -= 16
		}
		return x.Float(i*n + j)
	})}
}
