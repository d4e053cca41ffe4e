package conformance

// This file implements the references of loops, branches, early returns,
// calls and constexpr globals. Loops accumulate in fp32, one rounding per
// step, in the order the kernel runs them.

import "math"

func refLoopRange(in tensors, num map[string]float64) tensors {
	x, sums, counts := in["x"], in["sums"], in["counts"]
	m, n := int(num["M"]), int(num["N"])
	const lo, step = 3, 2
	for row := range m {
		acc, count := 0.0, int64(0)
		for j := lo; j < n-row; j += step {
			acc = r32(acc + x.Float(row*n+j))
			count++
		}
		sums.SetFloat(row, acc)
		counts.SetInt(row, count)
	}
	return tensors{"sums": sums, "counts": counts}
}

func refLoopTlRange(in tensors, num map[string]float64) tensors {
	return rowChunkSums(in, int(num["M"]), int(num["N"]))
}

// rowChunkSums sums each of the rows of x (n columns) in chunks of 32
// columns into lane j: out[r, j] = x[r, j] + x[r, j+32] + ..., in float32.
func rowChunkSums(in tensors, rows, n int) tensors {
	x, out := in["x"], in["out"]
	const block = 32
	for row := range rows {
		for lane := range block {
			acc := 0.0
			for start := 0; start < n; start += block {
				if start+lane < n {
					acc = r32(acc + x.Float(row*n+start+lane))
				}
			}
			out.SetFloat(row*block+lane, acc)
		}
	}
	return tensors{"out": out}
}

func refLoopCarriedBlock(in tensors, num map[string]float64) tensors {
	x, best, hits := in["x"], in["best"], in["hits"]
	m, n := int(num["M"]), int(num["N"])
	const block = 64
	for row := range m {
		for lane := range block {
			b, h := r32(-1.0e30), int64(0)
			for start := 0; start < n; start += block {
				if start+lane < n {
					v := x.Float(row*n + start + lane)
					b = math.Max(b, v)
					h += b2i(v > 1)
				}
			}
			best.SetFloat(row*block+lane, b)
			hits.SetInt(row*block+lane, h)
		}
	}
	return tensors{"best": best, "hits": hits}
}

func refLoopStaticRange(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachInt(in["out"], func(i int) int64 {
		acc := int32(0)
		for k := range int32(4) {
			acc += int32(x.Int(i)) * (k + 1)
		}
		for j := int32(1); j < 7; j += 2 {
			acc = acc*2 - j
		}
		return int64(acc)
	})}
}

func refWhileLoop(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"steps": eachInt(in["steps"], func(i int) int64 {
		v, count := int32(x.Int(i)), int64(0)
		for v != 1 {
			if v%2 == 0 {
				v /= 2
			} else {
				v = 3*v + 1
			}
			count++
		}
		return count
	})}
}

func refIfRuntime(in tensors, _ map[string]float64) tensors {
	sel, x := in["sel"], in["x"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		switch s := sel.Int(i / 128); {
		case s < 0:
			return r32(x.Float(i) * 2)
		case s == 0:
			return r32(x.Float(i) + 1)
		default:
			return -x.Float(i)
		}
	})}
}

func refIfProgramID(in tensors, _ map[string]float64) tensors {
	return tensors{"out": eachInt(in["out"], func(pid int) int64 {
		v := int64(pid * 10)
		switch {
		case pid%3 == 0:
			v++
		case pid == 4:
			v *= 2
		default:
			v -= 3
		}
		return v
	})}
}

// refIfConstexpr follows MODE=2 with no bias; A // B and A % B of the
// constexprs -7 and 2 follow Python: -4 and 1.
func refIfConstexpr(in tensors, _ map[string]float64) tensors {
	x, folded := in["x"], in["folded"]
	folded.SetInt(0, -4)
	folded.SetInt(1, 1)
	return tensors{
		"out":    eachFloat(in["out"], func(i int) float64 { return r32(x.Float(i) * 3) }),
		"folded": folded,
	}
}

func refEarlyReturn(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	const limit, block = 9, 64
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		if i/block >= limit {
			return 1
		}
		return -x.Float(i)
	})}
}

func refPassStmt(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 { return r32(x.Float(i) + 1) })}
}

func refJitCall(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	y := func(i int) float64 { return r32(r32(x.Float(i)+1) * 3) }
	return tensors{
		"lo": eachFloat(in["lo"], func(i int) float64 { return math.Min(y(i), 0) }),
		"hi": eachFloat(in["hi"], func(i int) float64 { return math.Max(y(i), 0) }),
	}
}

func refConstexprGlobal(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	return tensors{"out": eachInt(in["out"], func(i int) int64 { return x.Int(i)*3 - 11 })}
}
