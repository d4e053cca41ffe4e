package conformance

// This file implements the references of the reductions: sum, max, min,
// argmax, argmin and xor_sum along each axis and over a whole block, with
// Triton's result dtypes (narrow ints widen to int32 for sum, max and min;
// fp16 widens to fp32 for max and min only; xor_sum keeps its dtype), NaN
// ignored by max and min, ties to the lowest index, and tl.reduce with
// combine functions.

import "math"

// reduceRows folds the rows (axis 1) of the M x N tensor x with f from
// the first element.
func reduceRows(x interface{ Float(int) float64 }, m, n int, f func(acc, v float64) float64) []float64 {
	out := make([]float64, m)
	for i := range m {
		acc := x.Float(i * n)
		for j := 1; j < n; j++ {
			acc = f(acc, x.Float(i*n+j))
		}
		out[i] = acc
	}
	return out
}

// reduceCols folds the columns (axis 0) of the M x N tensor x with f.
func reduceCols(x interface{ Float(int) float64 }, m, n int, f func(acc, v float64) float64) []float64 {
	out := make([]float64, n)
	for j := range n {
		acc := x.Float(j)
		for i := 1; i < m; i++ {
			acc = f(acc, x.Float(i*n+j))
		}
		out[j] = acc
	}
	return out
}

func add(a, b float64) float64 { return a + b }

func refSumAxes(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := x.Shape[0], x.Shape[1]
	// The inputs are small integers: every sum is exact.
	rows, cols := reduceRows(x, m, n, add), reduceCols(x, m, n, add)
	all := 0.0
	for _, v := range rows {
		all += v
	}
	sall := in["sall"]
	sall.SetFloat(0, all)
	return tensors{
		"s0":   eachFloat(in["s0"], func(j int) float64 { return cols[j] }),
		"s1":   eachFloat(in["s1"], func(i int) float64 { return rows[i] }),
		"sneg": eachFloat(in["sneg"], func(j int) float64 { return cols[j] }),
		"sall": sall,
		"sk":   eachFloat(in["sk"], func(i int) float64 { return rows[i] }),
		"k":    eachFloat(in["k"], func(k int) float64 { return x.Float(k) - rows[k/n] + all }),
	}
}

func refSumFP32(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := x.Shape[0], x.Shape[1]
	rows, cols := reduceRows(x, m, n, add), reduceCols(x, m, n, add)
	return tensors{
		"rs": eachFloat(in["rs"], func(i int) float64 { return r32(rows[i]) }),
		"cs": eachFloat(in["cs"], func(j int) float64 { return r32(cols[j]) }),
	}
}

// scaled is a float view of a tensor multiplied by a constant.
type scaled struct {
	t interface{ Float(int) float64 }
	s float64
}

func (v scaled) Float(i int) float64 { return v.t.Float(i) * v.s }

func refReduceFP16(in tensors, _ map[string]float64) tensors {
	x := scaled{in["x"], 0.25} // exact in fp16
	m, n := in["x"].Shape[0], in["x"].Shape[1]
	// Sums of multiples of 0.25 below 512 in magnitude are exact in fp16,
	// in any order. The sum stays fp16, so its product with 0.3 (taken as
	// fp16) rounds to fp16; max and min are fp32, and so are theirs.
	rows := reduceRows(x, m, n, add)
	all := 0.0
	for _, v := range rows {
		all += v
	}
	mx, mn := reduceRows(x, m, n, math.Max), reduceCols(x, m, n, math.Min)
	c16, c32 := r16(0.3), r32(0.3)
	sall := in["sall"]
	sall.SetFloat(0, r16(all*c16))
	return tensors{
		"s":    eachFloat(in["s"], func(i int) float64 { return r16(rows[i] * c16) }),
		"mx":   eachFloat(in["mx"], func(i int) float64 { return r32(mx[i] * c32) }),
		"mn":   eachFloat(in["mn"], func(j int) float64 { return r32(mn[j] * c32) }),
		"sall": sall,
	}
}

// intView reads a tensor's integers as floats, exact for int32 and int8.
type intView struct{ t interface{ Int(int) int64 } }

func (v intView) Float(i int) float64 { return float64(v.t.Int(i)) }

func refReduceInt(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	m, n := a.Shape[0], a.Shape[1]
	wrap32 := func(v int64) int64 { return int64(int32(v)) }
	rowFold := func(t interface{ Int(int) int64 }, i int, f func(x, y int64) int64) int64 {
		acc := t.Int(i * n)
		for j := 1; j < n; j++ {
			acc = f(acc, t.Int(i*n+j))
		}
		return acc
	}
	colFold := func(t interface{ Int(int) int64 }, j int, f func(x, y int64) int64) int64 {
		acc := t.Int(j)
		for i := 1; i < m; i++ {
			acc = f(acc, t.Int(i*n+j))
		}
		return acc
	}
	sum := func(x, y int64) int64 { return wrap32(x + y) }
	xor := func(x, y int64) int64 { return x ^ y }
	mx32 := in["mx32"]
	all := b.Int(0)
	for k := 1; k < m*n; k++ {
		all = max(all, b.Int(k))
	}
	mx32.SetInt(0, all)
	return tensors{
		"s8":   eachInt(in["s8"], func(i int) int64 { return rowFold(a, i, sum) }),
		"mx8":  eachInt(in["mx8"], func(j int) int64 { return colFold(a, j, func(x, y int64) int64 { return max(x, y) }) + 200 }),
		"mn8":  eachInt(in["mn8"], func(i int) int64 { return rowFold(a, i, func(x, y int64) int64 { return min(x, y) }) - 200 }),
		"x8":   eachInt(in["x8"], func(i int) int64 { return rowFold(a, i, xor) }),
		"s32":  eachInt(in["s32"], func(j int) int64 { return colFold(b, j, sum) }),
		"x32":  eachInt(in["x32"], func(i int) int64 { return rowFold(b, i, xor) }),
		"mx32": mx32,
		"mn32": eachInt(in["mn32"], func(j int) int64 { return colFold(b, j, func(x, y int64) int64 { return min(x, y) }) }),
	}
}

// nanView is x with NaN where the flat index is 3 mod 7 and on the last row.
type nanView struct {
	t    interface{ Float(int) float64 }
	m, n int
}

func (v nanView) Float(k int) float64 {
	if k%7 == 3 || k/v.n == v.m-1 {
		return math.NaN()
	}
	return v.t.Float(k)
}

func refReduceNaN(in tensors, _ map[string]float64) tensors {
	m, n := in["x"].Shape[0], in["x"].Shape[1]
	x := nanView{in["x"], m, n}
	rmax, rmin := reduceRows(x, m, n, maxNum), reduceRows(x, m, n, minNum)
	cmax := reduceCols(x, m, n, maxNum)
	all := math.NaN()
	for k := range m * n {
		all = maxNum(all, x.Float(k))
	}
	amax := in["amax"]
	amax.SetFloat(0, all)
	return tensors{
		"rmax": eachFloat(in["rmax"], func(i int) float64 { return rmax[i] }),
		"rmin": eachFloat(in["rmin"], func(i int) float64 { return rmin[i] }),
		"cmax": eachFloat(in["cmax"], func(j int) float64 { return cmax[j] }),
		"amax": amax,
	}
}

// argBest returns the index among count elements get(0..count-1) that
// better prefers, the lowest one on ties.
func argBest(count int, get func(int) float64, better func(a, b float64) bool) int {
	best := 0
	for k := 1; k < count; k++ {
		if better(get(k), get(best)) {
			best = k
		}
	}
	return best
}

func greater(a, b float64) bool { return a > b }
func less(a, b float64) bool    { return a < b }

func refArgmax(in tensors, _ map[string]float64) tensors {
	x, h, c := in["x"], in["h"], in["c"]
	m, n := x.Shape[0], x.Shape[1]
	row := func(t interface{ Float(int) float64 }, i int) func(int) float64 {
		return func(j int) float64 { return t.Float(i*n + j) }
	}
	col := func(t interface{ Float(int) float64 }, j int) func(int) float64 {
		return func(i int) float64 { return t.Float(i*n + j) }
	}
	return tensors{
		"amax1":  eachInt(in["amax1"], func(i int) int64 { return int64(argBest(n, row(x, i), greater)) }),
		"amin0":  eachInt(in["amin0"], func(j int) int64 { return int64(argBest(m, col(x, j), less)) }),
		"amaxk":  eachInt(in["amaxk"], func(j int) int64 { return int64(argBest(m, col(x, j), greater)) }),
		"amin8":  eachInt(in["amin8"], func(i int) int64 { return int64(argBest(n, row(intView{c}, i), less)) }),
		"amax16": eachInt(in["amax16"], func(i int) int64 { return int64(argBest(n, row(h, i), greater)) }),
		"mval": eachFloat(in["mval"], func(i int) float64 {
			return r32(x.Float(i*n+argBest(n, row(x, i), greater)) * 0.5)
		}),
		"midx": eachInt(in["midx"], func(i int) int64 { return int64(argBest(n, row(x, i), greater)) }),
	}
}

func refReduceCustom(in tensors, _ map[string]float64) tensors {
	a, x := in["a"], in["x"]
	m, n := a.Shape[0], a.Shape[1]
	return tensors{
		"ors": eachInt(in["ors"], func(j int) int64 {
			acc := int64(0)
			for i := range m {
				acc |= a.Int(i*n + j)
			}
			return acc
		}),
		"mags": eachFloat(in["mags"], func(i int) float64 {
			acc := 0.0
			for j := range n {
				acc = math.Max(acc, math.Abs(x.Float(i*n+j)))
			}
			return acc
		}),
		"prods": eachInt(in["prods"], func(i int) int64 {
			acc := int32(1)
			for j := range n {
				acc *= int32(a.Int(i*n+j)%3 + 1)
			}
			return int64(acc)
		}),
	}
}

func refReduceTuple(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	m, n := x.Shape[0], x.Shape[1]
	best := make([]int, m)
	for i := range m {
		best[i] = argBest(n, func(j int) float64 { return math.Abs(float64(x.Int(i*n + j))) }, greater)
	}
	return tensors{
		"val": eachInt(in["val"], func(i int) int64 { return x.Int(i*n + best[i]) }),
		"idx": eachInt(in["idx"], func(i int) int64 { return int64(best[i]) }),
	}
}

// refColReduce is colred_kernel: per block of 8 rows of x and y (16 x 16),
// the column sums and argmaxes of x (first of equal maxima) and maxima of y.
func refColReduce(in tensors, _ map[string]float64) tensors {
	x, y, s, m, a := in["x"], in["y"], in["s"], in["m"], in["a"]
	for b := range 2 {
		for c := range 16 {
			sum, best, arg, ymax := int64(0), int64(math.MinInt64), 0, math.Inf(-1)
			for r := range 8 {
				i := (b*8+r)*16 + c
				sum += x.Int(i)
				if x.Int(i) > best {
					best, arg = x.Int(i), r
				}
				ymax = math.Max(ymax, y.Float(i))
			}
			s.SetInt(b*16+c, sum)
			a.SetInt(b*16+c, int64(arg))
			m.SetFloat(b*16+c, ymax)
		}
	}
	return tensors{"s": s, "m": m, "a": a}
}
