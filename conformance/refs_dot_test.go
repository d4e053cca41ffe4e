package conformance

// This file implements the references of tl.dot and tl.swizzle2d. A dot
// adds the exact products (fp16, bf16 and tf32 products are exact in
// float64) to the accumulator and rounds once to the result's dtype; under
// input_precision="tf32" the fp32 operands are first cut to tf32 (10
// mantissa bits, the low 13 bits ignored, as the tensor cores read them).
// The GPU adds in another order, which the files' tolerances allow for;
// int8 dots are exact, wrapping to int32.

import (
	"math"

	"github.com/tri-lang/tri/tensor"
)

func init() {
	for k, v := range map[string]Reference{
		"dot_f16":            refDotF16,
		"dot_bf16":           refDotPlain("c"),
		"dot_f64":            refDotPlain("c"),
		"dot_batched":        refDotPlain("c"),
		"dot_acc":            refDotAcc,
		"dot_f32_precisions": refDotPrecisions,
		"dot_int8":           refDotInt8,
		"dot_tf32_mma":       refDotTF32Mma,
		"dot_int8_mma":       refDotInt8Mma,
		"swizzle2d":          refSwizzle2d,
		"dot_store_quads":    refDotStoreQuads,
		"dot_reload_rowstat": refDotReloadRowstat,
		"dot_kept_invariant": refDotKeptInvariant,
		"dot_spill_stages":   refDotSpillStages,
	} {
		references[k] = v
	}
}

// matmul returns acc + x @ y for x of shape [(B,) M, K] and y of [(B,) K,
// N] (acc nil: zero), each operand element passed through op first, in
// float64 without rounding.
func matmul(x, y *tensor.Tensor, acc []float64, op func(float64) float64) []float64 {
	r := len(x.Shape)
	batch := 1
	if r == 3 {
		batch = x.Shape[0]
	}
	m, k, n := x.Shape[r-2], x.Shape[r-1], y.Shape[r-1]
	out := make([]float64, batch*m*n)
	for b := range batch {
		for i := range m {
			for j := range n {
				o := b*m*n + i*n + j
				s := 0.0
				if acc != nil {
					s = acc[o]
				}
				for kk := range k {
					s += op(x.Float(b*m*k+i*k+kk)) * op(y.Float(b*k*n+kk*n+j))
				}
				out[o] = s
			}
		}
	}
	return out
}

func identity(v float64) float64 { return v }

// tf32 cuts v (an fp32 value) to tf32: the low 13 bits are ignored.
func tf32(v float64) float64 {
	if math.IsNaN(v) {
		return v
	}
	return float64(math.Float32frombits(math.Float32bits(float32(v)) &^ 0x1fff))
}

// store rounds vals to out's dtype (fp32, fp16 or fp64) into out.
func store(out *tensor.Tensor, vals []float64, round func(float64) float64) *tensor.Tensor {
	for i, v := range vals {
		out.SetFloat(i, round(v))
	}
	return out
}

func refDotPlain(name string) Reference {
	return func(in tensors, _ map[string]float64) tensors {
		out := in[name]
		round := r32
		if out.Kind.String() == "fp64" {
			round = identity
		}
		return tensors{name: store(out, matmul(in["a"], in["b"], nil, identity), round)}
	}
}

func refDotF16(in tensors, _ map[string]float64) tensors {
	p := matmul(in["a"], in["b"], nil, identity)
	return tensors{"c": store(in["c"], p, r32), "h": store(in["h"], p, r16)}
}

// refDotAcc: c accumulates the two K steps from zero, d from init, the
// accumulator rounded to fp32 after each step.
func refDotAcc(in tensors, num map[string]float64) tensors {
	a, b := in["a"], in["b"]
	k := int(num["K"])
	const m, n, bk = 32, 32, 32
	c := make([]float64, m*n)
	d := make([]float64, m*n)
	for i := range d {
		d[i] = in["init"].Float(i)
	}
	for k0 := 0; k0 < k; k0 += bk {
		for i := range m {
			for j := range n {
				s := 0.0
				for kk := k0; kk < k0+bk; kk++ {
					s += a.Float(i*k+kk) * b.Float(kk*n+j)
				}
				c[i*n+j] = r32(c[i*n+j] + s)
				d[i*n+j] = r32(d[i*n+j] + s)
			}
		}
	}
	return tensors{"c": store(in["c"], c, identity), "d": store(in["d"], d, identity)}
}

func refDotPrecisions(in tensors, _ map[string]float64) tensors {
	exact := matmul(in["a"], in["b"], nil, identity)
	return tensors{
		"ieee":    store(in["ieee"], exact, r32),
		"tf32":    store(in["tf32"], matmul(in["a"], in["b"], nil, tf32), r32),
		"tf32x3":  store(in["tf32x3"], exact, r32),
		"no_tf32": store(in["no_tf32"], exact, r32),
	}
}

func refDotInt8(in tensors, _ map[string]float64) tensors {
	c, e := in["c"], in["e"]
	a, b, init := in["a"], in["b"], in["init"]
	const n, k = 32, 32
	for i := range 32 {
		for j := range n {
			var s int64
			for kk := range k {
				s += a.Int(i*k+kk) * b.Int(kk*n+j)
			}
			c.SetInt(i*n+j, int64(int32(s)))
			e.SetInt(i*n+j, int64(int32(init.Int(i*n+j)+s)))
		}
	}
	return tensors{"c": c, "e": e}
}

// refDotTF32Mma: c from tf32 operands, c3 (tf32x3) from the exact ones.
func refDotTF32Mma(in tensors, _ map[string]float64) tensors {
	return tensors{
		"c":  store(in["c"], matmul(in["a"], in["b"], nil, tf32), r32),
		"c3": store(in["c3"], matmul(in["a"], in["b"], nil, identity), r32),
	}
}

// refDotInt8Mma: e = init + a @ b in int32, exact (no wrapping at these
// magnitudes).
func refDotInt8Mma(in tensors, _ map[string]float64) tensors {
	init := make([]float64, in["init"].NumElements())
	for i := range init {
		init[i] = float64(in["init"].Int(i))
	}
	e := in["e"]
	for i, v := range matmul(in["a"], in["b"], init, identity) {
		e.SetInt(i, int64(v))
	}
	return tensors{"e": e}
}

// refSwizzle2d writes the practitioner's guide's table: the program with
// row-major id p = 4*i + j lands at rows [0, 3, 6, 9], [1, 4, 7, 10],
// [2, 5, 8, 11], [12, 14, 16, 18], [13, 15, 17, 19].
func refSwizzle2d(in tensors, _ map[string]float64) tensors {
	want := []int64{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 12, 14, 16, 18, 13, 15, 17, 19}
	out, out2 := in["out"], in["out2"]
	for pos, id := range want {
		out.SetInt(pos, id)
		out2.SetInt(pos, id)
	}
	return tensors{"out": out, "out2": out2}
}

// refDotStoreQuads: the product in fp16 (fp32 accumulators rounded after
// each K step of 32) stored whole into c, into g's rows of 128 at columns
// j + j/16*16, into f from its element 2 on, and into h's first m rows.
func refDotStoreQuads(in tensors, num map[string]float64) tensors {
	k, m := int(num["K"]), int(num["m"])
	c := refBatchedMatmul(in, 1, 128, 64, k, 32, r16)["c"]
	g, f, h := in["g"], in["f"], in["h"]
	for i := range 128 {
		for j := range 64 {
			v := c.Float(i*64 + j)
			g.SetFloat(i*128+j+j/16*16, v)
			f.SetFloat(2+i*64+j, v)
			if i < m {
				h.SetFloat(i*64+j, v)
			}
		}
	}
	return tensors{"c": c, "g": g, "f": f, "h": h}
}

// refDotReloadRowstat: o = sum over the K blocks of exp2(a_k @ b_k -
// s_k[None, :]), each dot's result rounded to fp32 before the subtraction.
func refDotReloadRowstat(in tensors, num map[string]float64) tensors {
	a, b, s := in["a"], in["b"], in["s"]
	k := int(num["K"])
	const m, n, bk = 64, 32, 32
	o := make([]float64, m*n)
	for k0 := 0; k0 < k; k0 += bk {
		for i := range m {
			for j := range n {
				d := 0.0
				for kk := k0; kk < k0+bk; kk++ {
					d += a.Float(i*k+kk) * b.Float(kk*n+j)
				}
				o[i*n+j] = r32(o[i*n+j] + math.Exp2(r32(d)-s.Float(k0/bk*n+j)))
			}
		}
	}
	return tensors{"o": store(in["o"], o, identity)}
}

// refDotKeptInvariant: o = the sum over the blocks of N of p_j @ v_j, with
// p_j = r16(r32(q @ k_j^T) * 0.125); r = o's column sums; o2 = o, summed
// again by the third loop.
func refDotKeptInvariant(in tensors, num map[string]float64) tensors {
	q, k, v := in["q"], in["k"], in["v"]
	n := int(num["N"])
	const m, d = 64, 64
	o := make([]float64, m*d)
	for i := range m {
		for j := range n {
			s := 0.0
			for c := range d {
				s += q.Float(i*d+c) * k.Float(j*d+c)
			}
			p := r16(r32(s) * 0.125)
			for c := range d {
				o[i*d+c] += p * v.Float(j*d+c)
			}
		}
	}
	r := make([]float64, d)
	for i := range m {
		for c := range d {
			r[c] += o[i*d+c]
		}
	}
	return tensors{"o": store(in["o"], o, r32), "o2": store(in["o2"], o, r32), "r": store(in["r"], r, r32)}
}

// refDotSpillStages: x = a @ b and y = a @ c, each summed exactly and
// rounded once to fp32.
func refDotSpillStages(in tensors, num map[string]float64) tensors {
	a, b, c := in["a"], in["b"], in["c"]
	k := int(num["K"])
	const m, n = 128, 128
	x, y := make([]float64, m*n), make([]float64, m*n)
	for i := range m {
		for j := range n {
			for kk := range k {
				x[i*n+j] += a.Float(i*k+kk) * b.Float(kk*n+j)
				y[i*n+j] += a.Float(i*k+kk) * c.Float(kk*n+j)
			}
		}
	}
	return tensors{"x": store(in["x"], x, r32), "y": store(in["y"], y, r32)}
}
