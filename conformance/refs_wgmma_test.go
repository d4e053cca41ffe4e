package conformance

// This file implements the references of the constructs whose dots run
// on wgmma outside the software pipelines (cudagen/wgdot.go), and of the
// fp8 attention whose pipeline stages p through shared memory: each is
// written out as loops over float64, without calling matmul, so that a
// mistake in an index of one does not hide in the other.

import "math"

func init() {
	references["wgmma_alone_trans"] = refWgmmaAloneTrans
	references["wgmma_alone_chain"] = refWgmmaAloneChain
	references["wgmma_alone_wide"] = refWgmmaAloneWide
	references["wgmma_alone_hoist"] = refWgmmaAloneHoist
	references["wgmma_alone_fp8_pack"] = refWgmmaAloneFP8Pack
	sm80References["wgmma_alone_fp8_pack"] = refWgmmaAloneFP8PackSM80
}

// refWgmmaAloneFP8Pack is o = p @ v, p = e5m2(fp16(r32(q @ kt^T) * 0.125))
// for q and kt of [64, 64] in fp16 and v of [64, 32] in e5m2, the second
// product's exact sum rounded once to fp32; fp16 to e5m2 to nearest even
// (cvt.rn.satfinite). refWgmmaAloneFP8PackSM80 narrows as Triton does
// before sm_89 (softFromF16: ties away from zero).
func refWgmmaAloneFP8Pack(in tensors, _ map[string]float64) tensors {
	return wgmmaAloneFP8Pack(in, specE5M2.fromF16)
}

func refWgmmaAloneFP8PackSM80(in tensors, _ map[string]float64) tensors {
	return wgmmaAloneFP8Pack(in, func(h uint16) uint8 { return softFromF16(uint32(h)) })
}

func wgmmaAloneFP8Pack(in tensors, narrow func(uint16) uint8) tensors {
	q, kt, v, o := in["q"], in["kt"], in["v"], in["o"]
	p := make([]float64, 64*64)
	for i := range 64 {
		for n := range 64 {
			s := 0.0
			for d := range 64 {
				s += q.Float(i*64+d) * kt.Float(n*64+d)
			}
			p[i*64+n] = specE5M2.decode(narrow(f16Bits(r32(r32(s) * 0.125))))
		}
	}
	for i := range 64 {
		for e := range 32 {
			s := 0.0
			for n := range 64 {
				s += p[i*64+n] * v.Float(n*32+e)
			}
			o.SetFloat(i*32+e, r32(s))
		}
	}
	return tensors{"o": o}
}

// refWgmmaAloneHoist is c = sum_i x @ w[i] and d = sum_i y[i] @ wt^T, for
// x of [64, 32], wt of [32, 32], w of [3, 32, 32] and y of [3, 64, 32],
// rounded to fp32 after each of the three steps, as the loop adds.
func refWgmmaAloneHoist(in tensors, _ map[string]float64) tensors {
	x, wt, w, y, c, d := in["x"], in["wt"], in["w"], in["y"], in["c"], in["d"]
	for i := range 64 {
		for j := range 32 {
			sc, sd := 0.0, 0.0
			for it := range 3 {
				pc, pd := 0.0, 0.0
				for k := range 32 {
					pc += x.Float(i*32+k) * w.Float(it*1024+k*32+j)
					pd += y.Float(it*2048+i*32+k) * wt.Float(j*32+k)
				}
				sc, sd = r32(sc+pc), r32(sd+pd)
			}
			c.SetFloat(i*32+j, sc)
			d.SetFloat(i*32+j, sd)
		}
	}
	return tensors{"c": c, "d": d}
}

// refWgmmaAloneTrans is c[i, j] = sum_k a[i, k] * bt[j, k], for a of
// [256, 128] and bt of [64, 128].
func refWgmmaAloneTrans(in tensors, _ map[string]float64) tensors {
	a, bt, c := in["a"], in["bt"], in["c"]
	for i := range 256 {
		for j := range 64 {
			s := 0.0
			for k := range 128 {
				s += a.Float(i*128+k) * bt.Float(j*128+k)
			}
			c.SetFloat(i*64+j, r32(s))
		}
	}
	return tensors{"c": c}
}

// refWgmmaAloneChain is p = fp16(fp32(q @ kt^T) * 0.125), then o += p @ v,
// for q of [128, 64], kt of [64, 64] and v of [64, 32].
func refWgmmaAloneChain(in tensors, _ map[string]float64) tensors {
	q, kt, v, o := in["q"], in["kt"], in["v"], in["o"]
	p := make([]float64, 128*64)
	for i := range 128 {
		for n := range 64 {
			s := 0.0
			for d := range 64 {
				s += q.Float(i*64+d) * kt.Float(n*64+d)
			}
			p[i*64+n] = r16(r32(r32(s) * 0.125))
		}
	}
	for i := range 128 {
		for e := range 32 {
			s := o.Float(i*32 + e)
			for n := range 64 {
				s += p[i*64+n] * v.Float(n*32+e)
			}
			o.SetFloat(i*32+e, r32(s))
		}
	}
	return tensors{"o": o}
}

// refWgmmaAloneWide is c += a @ b for a of [64, 16] and b of [16, 256].
func refWgmmaAloneWide(in tensors, _ map[string]float64) tensors {
	a, b, c := in["a"], in["b"], in["c"]
	for i := range 64 {
		for j := range 256 {
			s := c.Float(i*256 + j)
			for k := range 16 {
				s += a.Float(i*16+k) * b.Float(k*256+j)
			}
			c.SetFloat(i*256+j, r32(s))
		}
	}
	return tensors{"c": c}
}

func init() { references["attention_fp8"] = refAttentionFP8 }

// refAttentionFP8 is attention_fp8's online softmax over blocks of 64 keys,
// in fp32 steps, with p narrowed to e5m2 (round to nearest even) before it
// multiplies v = vt^T; q, k and vt are e5m2.
func refAttentionFP8(in tensors, num map[string]float64) tensors {
	q, k, vt, o := in["q"], in["k"], in["vt"], in["o"]
	const n, d, bn = 192, 64, 64
	scale := r32(0.125)
	for i := range 128 {
		mi, li := math.Inf(-1), 1.0
		acc := make([]float64, d)
		for start := 0; start < n; start += bn {
			qk := make([]float64, bn)
			mx := math.Inf(-1)
			for j := range bn {
				s := 0.0
				for x := range d {
					s += q.Float(i*d+x) * k.Float((start+j)*d+x)
				}
				qk[j] = r32(s)
				mx = math.Max(mx, qk[j])
			}
			mij := math.Max(mi, r32(mx*scale))
			lij := 0.0
			p := make([]float64, bn)
			for j := range bn {
				p[j] = r32(math.Exp2(r32(r32(qk[j]*scale) - mij)))
				lij = r32(lij + p[j])
			}
			alpha := r32(math.Exp2(r32(mi - mij)))
			li = r32(r32(li*alpha) + lij)
			for x := range d {
				s := r32(acc[x] * alpha)
				for j := range bn {
					p8 := float64(specE5M2.decode(specE5M2.fromF32(math.Float32bits(float32(p[j])), false)))
					s += p8 * vt.Float(x*n+start+j)
				}
				acc[x] = r32(s)
			}
			mi = mij
		}
		for x := range d {
			o.SetFloat(i*d+x, r32(acc[x]/li))
		}
	}
	return tensors{"o": o}
}
