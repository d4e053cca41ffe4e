package conformance

// This file implements the references of the tile operations: sort and
// topk, flip, gather, histogram, cat, interleave, softmax, zeros_like,
// logical_and/logical_or and clamp with propagate_nan. The sort reference
// runs Triton's bitonic network in the textbook form (block size k, partner
// distance j), with standard.py's compare-and-swap rule: a lane takes its
// partner's value when (own > partner) differs from (flip xor is_right),
// which is what decides where -0.0 and +0.0 end up.

import (
	"math"
	"sort"
)

// tritonSortRows sorts each row of n values of v (rows one after the
// other) with Triton's network; gt is the dtype's >.
func tritonSortRows(v []float64, n int, desc bool, gt func(a, b float64) bool) []float64 {
	for k := 2; k <= n; k <<= 1 {
		v = bitonicStage(v, n, k, desc, gt)
	}
	return v
}

// bitonicStage is one merge stage of blocks of k: partner distances k/2
// down to 1, blocks alternating in direction until k is the row's n,
// which goes in the direction desc (the stage tl.bitonic_merge runs alone).
func bitonicStage(v []float64, n, k int, desc bool, gt func(a, b float64) bool) []float64 {
	for j := k / 2; j >= 1; j >>= 1 {
		next := make([]float64, len(v))
		for i := range v {
			flip := desc
			if k < n {
				flip = i&k != 0
			}
			right := i&j != 0
			if gt(v[i], v[i^j]) != (flip != right) {
				next[i] = v[i^j]
			} else {
				next[i] = v[i]
			}
		}
		v = next
	}
	return v
}

func floatGT(a, b float64) bool { return a > b }

// tileOpValues reads a tensor's elements as float64 (exact for every integer
// and float dtype used here).
func tileOpValues(t interface {
	NumElements() int
	Float(int) float64
}) []float64 {
	out := make([]float64, t.NumElements())
	for i := range out {
		out[i] = t.Float(i)
	}
	return out
}

func refSort1D(in tensors, _ map[string]float64) tensors {
	x := tileOpValues(in["x"])
	f := make([]float64, len(x))
	for i, v := range x {
		if v < 0 {
			f[i] = math.Copysign(0, -1)
		} else {
			f[i] = v * 0.25
		}
	}
	up, down, fup, fdown := []float64{}, []float64{}, []float64{}, []float64{}
	for p := range 4 {
		row, frow := x[p*256:(p+1)*256], f[p*256:(p+1)*256]
		up = append(up, tritonSortRows(row, 256, false, floatGT)...)
		down = append(down, tritonSortRows(row, 256, true, floatGT)...)
		fup = append(fup, tritonSortRows(frow, 256, false, floatGT)...)
		fdown = append(fdown, tritonSortRows(frow, 256, true, floatGT)...)
	}
	return tensors{
		"up":    eachInt(in["up"], func(i int) int64 { return int64(up[i]) }),
		"down":  eachInt(in["down"], func(i int) int64 { return int64(down[i]) }),
		"fup":   eachInt(in["fup"], func(i int) int64 { return int64(int32(math.Float32bits(float32(fup[i])))) }),
		"fdown": eachInt(in["fdown"], func(i int) int64 { return int64(int32(math.Float32bits(float32(fdown[i])))) }),
	}
}

func refSort2D(in tensors, _ map[string]float64) tensors {
	up := tritonSortRows(tileOpValues(in["x"]), 64, false, floatGT)
	hdown := tritonSortRows(tileOpValues(in["h"]), 64, true, floatGT)
	uup := tritonSortRows(tileOpValues(in["u"]), 64, false, floatGT)
	return tensors{
		"up":    eachInt(in["up"], func(i int) int64 { return int64(up[i]) }),
		"hdown": eachFloat(in["hdown"], func(i int) float64 { return hdown[i] }),
		"uup":   eachInt(in["uup"], func(i int) int64 { return int64(uup[i]) }),
	}
}

// refBitonicMerge runs the last stage of the network alone; the bitonic
// row is 0, 3, ..., 93 then 94, 91, ..., 1, which it must sort.
func refBitonicMerge(in tensors, _ map[string]float64) tensors {
	up := bitonicStage(tileOpValues(in["x"]), 32, 32, false, floatGT)
	fdown := bitonicStage(tileOpValues(in["f"]), 32, 32, true, floatGT)
	row := make([]float64, 64)
	for k := range row {
		if k < 32 {
			row[k] = float64(k * 3)
		} else {
			row[k] = float64((63-k)*3 + 1)
		}
	}
	bit := bitonicStage(row, 64, 64, false, floatGT)
	return tensors{
		"up":    eachInt(in["up"], func(i int) int64 { return int64(up[i]) }),
		"fdown": eachFloat(in["fdown"], func(i int) float64 { return fdown[i] }),
		"bit":   eachInt(in["bit"], func(i int) int64 { return int64(bit[i]) }),
	}
}

// topRows is the k largest of each row of n, largest first (the inputs
// have no NaN and no -0.0, so any correct top-k agrees with Triton's).
func topRows(v []float64, n, k int) []float64 {
	var out []float64
	for r := 0; r < len(v); r += n {
		row := append([]float64{}, v[r:r+n]...)
		sort.Sort(sort.Reverse(sort.Float64Slice(row)))
		out = append(out, row[:k]...)
	}
	return out
}

func refTopk(in tensors, _ map[string]float64) tensors {
	top := topRows(tileOpValues(in["x"]), 64, 8)
	stop := topRows(tileOpValues(in["s"]), 64, 8)
	return tensors{
		"top":  eachFloat(in["top"], func(i int) float64 { return top[i] }),
		"stop": eachInt(in["stop"], func(i int) int64 { return int64(stop[i]) }),
	}
}

func refFlip(in tensors, _ map[string]float64) tensors {
	x := tileOpValues(in["x"])
	for i, v := range x {
		if i%5 == 0 {
			v = r32(v / 0.0)
		}
		if i%7 == 0 {
			v = r32(r32(v*0.0) - 0.0)
		}
		x[i] = v
	}
	b := in["b"]
	return tensors{
		"fx": eachFloat(in["fx"], func(i int) float64 { return x[i/128*128+127-i%128] }),
		"fb": eachInt(in["fb"], func(i int) int64 { return b.Int(i/32*32 + 31 - i%32) }),
	}
}

func refHistogram(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	h64, h8 := in["h64"], in["h8"]
	c64, c8 := make([]int64, 256), make([]int64, 32)
	for i := range 1024 {
		pid, v := i/256, x.Int(i)
		if i < n {
			c64[pid*64+int(v&63)]++
		}
		if b := int(v & 31); b < 8 {
			c8[pid*8+b]++
		}
	}
	return tensors{
		"h64": eachInt(h64, func(i int) int64 { return c64[i] }),
		"h8":  eachInt(h8, func(i int) int64 { return c8[i] }),
	}
}

func refGather1D(in tensors, _ map[string]float64) tensors {
	src, idx := in["src"], in["idx"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		pid := i / 64
		return src.Float(pid*128 + int(idx.Int(i)))
	})}
}

func refGather2D(in tensors, _ map[string]float64) tensors {
	src, ci, ri := in["src"], in["ci"], in["ri"]
	return tensors{
		"by_col": eachInt(in["by_col"], func(i int) int64 { return src.Int(i/16*32 + int(ci.Int(i))) }),
		"by_row": eachInt(in["by_row"], func(i int) int64 { return src.Int(int(ri.Int(i))*32 + i%32) }),
	}
}

func refCat(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	var srt []int64
	sums := make([]int64, 4)
	for pid := range 4 {
		var c []int64
		for j := range 64 {
			c = append(c, a.Int(pid*64+j))
		}
		for j := range 64 {
			c = append(c, b.Int(pid*64+j))
		}
		sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
		for _, v := range c {
			sums[pid] += v
		}
		srt = append(srt, c...)
	}
	return tensors{
		"srt": eachInt(in["srt"], func(i int) int64 { return srt[i] }),
		"tot": eachInt(in["tot"], func(i int) int64 { return sums[i] }),
	}
}

func refInterleave(in tensors, _ map[string]float64) tensors {
	a, b := in["a"], in["b"]
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		r, c := i/32, i%32
		if c%2 == 0 {
			return a.Float(r*16 + c/2)
		}
		return b.Float(r*16 + c/2)
	})}
}

// softmaxRows is fp32 softmax of each row of n: x - max, tl.exp as
// Triton lowers it, a sum, a division.
func softmaxRows(x []float64, n int) []float64 {
	out := make([]float64, len(x))
	for r := 0; r < len(x); r += n {
		m := math.Inf(-1)
		for _, v := range x[r : r+n] {
			m = math.Max(m, v)
		}
		s := 0.0
		for i := r; i < r+n; i++ {
			out[i] = exp32(r32(x[i] - m))
			s = r32(s + out[i])
		}
		for i := r; i < r+n; i++ {
			out[i] = r32(out[i] / s)
		}
	}
	return out
}

func refSoftmaxTL(in tensors, _ map[string]float64) tensors {
	p := softmaxRows(tileOpValues(in["x"]), 128)
	q := softmaxRows(tileOpValues(in["y"]), 32)
	return tensors{
		"p": eachFloat(in["p"], func(i int) float64 { return p[i] }),
		"q": eachFloat(in["q"], func(i int) float64 { return q[i] }),
	}
}

func refZerosLike(in tensors, _ map[string]float64) tensors {
	return tensors{
		"zb": eachInt(in["zb"], func(int) int64 { return 0 }),
		"zh": eachFloat(in["zh"], func(int) float64 { return 0 }),
	}
}

func refLogical(in tensors, num map[string]float64) tensors {
	x, y, n := in["x"], in["y"], int(num["n"])
	out := tensors{}
	for _, name := range []string{"a", "o", "a2", "o2"} {
		t := in[name]
		isAnd := name[0] == 'a'
		for i := range n {
			p, q := x.Int(i) > 0, y.Int(i) < 2
			r := p || q
			if isAnd {
				r = p && q
			}
			t.SetInt(i, b2i(r))
		}
		out[name] = t
	}
	return out
}

func refClampNaN(in tensors, _ map[string]float64) tensors {
	x, z := in["x"], in["z"]
	val := func(i int) float64 {
		if z.Float(i) == 0 {
			return math.NaN()
		}
		return x.Float(i)
	}
	return tensors{
		"a": eachFloat(in["a"], func(i int) float64 {
			if math.IsNaN(val(i)) {
				return math.NaN()
			}
			return math.Min(math.Max(val(i), -0.5), 0.75)
		}),
		// With NONE a NaN loses to each bound in turn: max(NaN, lo) is lo.
		"b": eachFloat(in["b"], func(i int) float64 { return minNum(maxNum(val(i), -0.5), 0.75) }),
	}
}

func refMapElementwise(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	r, s, c := in["r"], in["s"], in["c"]
	for i := range n {
		v := x.Float(i)
		if v > 0 {
			r.SetFloat(i, v)
		} else {
			r.SetFloat(i, r32(v*0.125))
		}
		s.SetInt(i, b2i(v > 0)-b2i(v < 0))
		c.SetFloat(i, r32(r32(v*v)*v))
	}
	return tensors{"r": r, "s": s, "c": c}
}

func refMapBranch(in tensors, num map[string]float64) tensors {
	x, y := in["x"], in["y"]
	for i := range int(num["n"]) {
		// Triton's // on integers truncates, like Go's /.
		v := x.Int(i)
		r := v / 2
		if v%2 != 0 {
			r = 3*v + 1
		}
		steps := int64(0)
		for r > 1 {
			r /= 2
			steps++
		}
		y.SetInt(i, r*100+steps)
	}
	return tensors{"y": y}
}

func refMapReturn(in tensors, num map[string]float64) tensors {
	x, n := in["x"], int(num["n"])
	s, r, t, u := in["s"], in["r"], in["t"], in["u"]
	sign := func(v float64) int64 { return b2i(v > 0) - b2i(v < 0) }
	for i := range n {
		v := x.Float(i)
		r.SetFloat(i, r32(max(v, 0)*2))
		if i%9 == 0 {
			v = 0
		}
		s.SetInt(i, sign(v))
	}
	for pid := range 8 {
		t.SetInt(pid, sign(float64(pid-3)))
		u.SetInt(pid, int64(max(pid-3, 0)))
	}
	return tensors{"s": s, "r": r, "t": t, "u": u}
}

// refMapSelu is Triton's SELU with alpha 1.5: x where positive, else
// 1.5 * (exp(x) - 1), each op rounded to fp32.
func refMapSelu(in tensors, num map[string]float64) tensors {
	x, y := in["x"], in["y"]
	for i := range int(num["n"]) {
		v := x.Float(i)
		if v > 0 {
			y.SetFloat(i, v)
		} else {
			y.SetFloat(i, r32(1.5*r32(exp32(v)-1)))
		}
	}
	return tensors{"y": y}
}

// refMapPack2 reads x and y as interleaved complex numbers, pairs of
// consecutive elements (tri's groups of pack=2): z is their product in
// fp32, s the signs of its parts, p each pair of x in order.
func refMapPack2(in tensors, num map[string]float64) tensors {
	x, y, n := in["x"], in["y"], int(num["n"])
	z, s, p := in["z"], in["s"], in["p"]
	sign := func(v float64) int64 { return b2i(v > 0) - b2i(v < 0) }
	for i := 0; i+1 < n; i += 2 {
		xr, xi, yr, yi := x.Float(i), x.Float(i+1), y.Float(i), y.Float(i+1)
		zr := r32(r32(xr*yr) - r32(xi*yi))
		zi := r32(r32(xr*yi) + r32(xi*yr))
		z.SetFloat(i, zr)
		z.SetFloat(i+1, zi)
		s.SetInt(i, sign(zr))
		s.SetInt(i+1, sign(zi))
		p.SetFloat(i, xr)
		p.SetFloat(i+1, xi)
		if xi < xr {
			p.SetFloat(i, xi)
			p.SetFloat(i+1, xr)
		}
	}
	return tensors{"z": z, "s": s, "p": p}
}

// refMapPack4 takes groups of four consecutive elements along each row of
// the fp16 x (tri's groups of pack=4), scales them by the row's sc in fp32
// and gives each less the group's mean (c), and the position of the
// group's first largest scaled element (a).
func refMapPack4(in tensors, num map[string]float64) tensors {
	x, sc, m := in["x"], in["sc"], int(num["M"])
	c, a := in["c"], in["a"]
	for r := range m {
		for g := 0; g < 64; g += 4 {
			var v [4]float64
			for j := range v {
				v[j] = r32(x.Float(r*64+g+j) * sc.Float(r))
			}
			mean := r32(r32(r32(r32(v[0]+v[1])+v[2])+v[3]) * 0.25)
			best := 0
			for j := 1; j < 4; j++ {
				if v[j] > v[best] {
					best = j
				}
			}
			for j := range v {
				c.SetFloat(r*64+g+j, r32(v[j]-mean))
				a.SetInt(r*64+g+j, int64(best))
			}
		}
	}
	return tensors{"c": c, "a": a}
}

// refMapPackShared is a*b + a and floor(a - b) as int32, element by
// element, in fp32.
func refMapPackShared(in tensors, _ map[string]float64) tensors {
	a, b, u, w := in["a"], in["b"], in["u"], in["w"]
	for i := range 16 * 32 {
		x, y := a.Float(i), b.Float(i)
		u.SetFloat(i, r32(r32(x*y)+x))
		w.SetInt(i, int64(math.Floor(r32(x-y))))
	}
	return tensors{"u": u, "w": w}
}
