package conformance

// This file implements the references of the samples with rank-2 tiles,
// reductions and atomics. Sums are computed in float64 and rounded once: the
// GPU and the interpreter add in different orders, so their files allow a
// few ulp.

import "math"

func init() {
	for k, v := range map[string]Reference{
		"sample/softmax":            refSampleSoftmax,
		"sample/softmax_persistent": refSampleSoftmax,
		"sample/grayscale":          refSampleGrayscale,
		"sample/colsum":             refSampleColsum,
		"sample/outer":              refSampleOuter,
		"sample/rmsnorm":            refSampleRMSNorm,
		"sample/rmsnorm_bf16_2pass": refSampleRMSNorm2Pass,
		"sample/layernorm_fwd":      refSampleLayerNormFwd,
		"sample/layernorm_bwd":      refSampleLayerNormBwd,
		"sample/layernorm_dwdb":     refSampleLayerNormDwdb,
	} {
		references[k] = v
	}
}

func refSampleSoftmax(in tensors, num map[string]float64) tensors {
	x, y := in["x"], in["y"]
	rows, cols := int(num["n_rows"]), int(num["n_cols"])
	for r := range rows {
		mx := math.Inf(-1)
		for c := range cols {
			mx = math.Max(mx, x.Float(r*cols+c))
		}
		sum := 0.0
		for c := range cols {
			sum += exp32(r32(x.Float(r*cols+c) - mx))
		}
		sum = r32(sum)
		for c := range cols {
			y.SetFloat(r*cols+c, r32(exp32(r32(x.Float(r*cols+c)-mx))/sum))
		}
	}
	return tensors{"y": y}
}

// refSampleGrayscale mirrors the kernel's fp32 arithmetic, unfused, and
// stores toward zero into uint8.
func refSampleGrayscale(in tensors, num map[string]float64) tensors {
	x, out := in["x"], in["out"]
	hw := int(num["h"]) * int(num["w"])
	c0, c1, c2 := r32(0.2989), r32(0.5870), r32(0.1140)
	for i := range hw {
		r, g, b := x.Float(i), x.Float(hw+i), x.Float(2*hw+i)
		v := r32(r32(r32(c0*r)+r32(c1*g)) + r32(c2*b))
		out.SetInt(i, int64(v))
	}
	return tensors{"out": out}
}

func refSampleColsum(in tensors, num map[string]float64) tensors {
	x, out := in["x"], in["out"]
	m, n := int(num["M"]), int(num["N"])
	for c := range n {
		s := 0.0
		for r := range m {
			s += x.Float(r*n + c)
		}
		out.SetFloat(c, r32(s))
	}
	return tensors{"out": out}
}

func refSampleOuter(in tensors, num map[string]float64) tensors {
	a, b, out := in["a"], in["b"], in["out"]
	m, n := int(num["M"]), int(num["N"])
	for i := range m {
		for j := range n {
			out.SetFloat(i*n+j, r32(a.Float(i)*b.Float(j)))
		}
	}
	return tensors{"out": out}
}

func refSampleRMSNorm(in tensors, num map[string]float64) tensors {
	x, w, y := in["x"], in["w"], in["y"]
	m, n := int(num["M"]), int(num["N"])
	for r := range m {
		s := 0.0
		for c := range n {
			v := x.Float(r*n + c)
			s += v * v
		}
		ms := r32(r32(s) / float64(n))
		rstd := r32(1 / math.Sqrt(r32(ms+r32(1e-6))))
		for c := range n {
			y.SetFloat(r*n+c, r16(r32(r32(x.Float(r*n+c)*rstd)*w.Float(c))))
		}
	}
	return tensors{"y": y}
}

// refSampleRMSNorm2Pass is samples/rmsnorm_bf16_2pass.tri: the same norm
// of bf16 rows, summed in fp32, with eps inside the square root and the
// reciprocal taken after it.
func refSampleRMSNorm2Pass(in tensors, num map[string]float64) tensors {
	x, w, y := in["x"], in["w"], in["y"]
	m, n := int(num["M"]), int(num["N"])
	for r := range m {
		s := 0.0
		for c := range n {
			v := x.Float(r*n + c)
			s += v * v
		}
		rstd := r32(1 / r32(math.Sqrt(r32(r32(r32(s)/float64(n))+r32(1e-6)))))
		for c := range n {
			y.SetFloat(r*n+c, rbf(r32(r32(x.Float(r*n+c)*rstd)*w.Float(c))))
		}
	}
	return tensors{"y": y}
}

func refSampleLayerNormFwd(in tensors, num map[string]float64) tensors {
	x, w, b, y, mean, rstd := in["x"], in["w"], in["b"], in["y"], in["mean"], in["rstd"]
	m, n := int(num["M"]), int(num["N"])
	for r := range m {
		s := 0.0
		for c := range n {
			s += x.Float(r*n + c)
		}
		mu := r32(r32(s) / float64(n))
		v := 0.0
		for c := range n {
			d := r32(x.Float(r*n+c) - mu)
			v += d * d
		}
		variance := r32(r32(v) / float64(n))
		rs := r32(1 / r32(math.Sqrt(r32(variance+r32(1e-5)))))
		mean.SetFloat(r, mu)
		rstd.SetFloat(r, rs)
		for c := range n {
			xhat := r32(r32(x.Float(r*n+c)-mu) * rs)
			y.SetFloat(r*n+c, r16(r32(r32(xhat*w.Float(c))+b.Float(c))))
		}
	}
	return tensors{"y": y, "mean": mean, "rstd": rstd}
}

func refSampleLayerNormBwd(in tensors, num map[string]float64) tensors {
	x, w, dy, dx, mean, rstd := in["x"], in["w"], in["dy"], in["dx"], in["mean"], in["rstd"]
	m, n := int(num["M"]), int(num["N"])
	for r := range m {
		mu, rs := mean.Float(r), rstd.Float(r)
		xhat := make([]float64, n)
		wdy := make([]float64, n)
		s1, s2 := 0.0, 0.0
		for c := range n {
			xhat[c] = r32(r32(x.Float(r*n+c)-mu) * rs)
			wdy[c] = r32(w.Float(c) * dy.Float(r*n+c))
			s1 += xhat[c] * wdy[c]
			s2 += wdy[c]
		}
		c1, c2 := r32(r32(s1)/float64(n)), r32(r32(s2)/float64(n))
		for c := range n {
			dx.SetFloat(r*n+c, r16(r32(r32(wdy[c]-r32(r32(xhat[c]*c1)+c2))*rs)))
		}
	}
	return tensors{"dx": dx}
}

func refSampleLayerNormDwdb(in tensors, num map[string]float64) tensors {
	dwp, dbp, dw, db := in["dw_part"], in["db_part"], in["dw"], in["db"]
	g, n := int(num["GROUP"]), int(num["N"])
	for c := range n {
		s1, s2 := 0.0, 0.0
		for r := range g {
			s1 += dwp.Float(r*n + c)
			s2 += dbp.Float(r*n + c)
		}
		dw.SetFloat(c, r32(s1))
		db.SetFloat(c, r32(s2))
	}
	return tensors{"dw": dw, "db": db}
}
