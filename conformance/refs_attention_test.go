package conformance

// This file implements the reference of the flash-attention forward test
// kernels: o = softmax(q k^T * sm_scale) v for each (batch, head), computed
// directly in float64 by attend (refs_attention_samples_test.go), causal
// rows seeing only columns up to their own index, and rounded once to o's
// dtype. The kernel rounds P to fp16 before P @ V and adds in another
// order, which the file's tolerance allows for.

import "math"

func init() {
	references["attention_fwd"] = refAttention(false)
	references["attention_fwd_causal"] = refAttention(true)
	references["attention_desc_q"] = refAttentionDescQ
}

// refAttentionDescQ is causal attention over [Z * H * N_CTX, D] views of
// q, k and v, with each row's log2-sum-exp of the scaled scores in M.
func refAttentionDescQ(in tensors, num map[string]float64) tensors {
	q, k, v, o, m := in["q"], in["k"], in["v"], in["o"], in["M"]
	n, d := q.Shape[2], q.Shape[3]
	round := rounder(o)
	for h := range q.Shape[0] * q.Shape[1] {
		base := h * n * d
		for i := range n {
			row, lse := attend(
				func(c int) float64 { return q.Float(base + i*d + c) },
				func(j, c int) float64 { return k.Float(base + j*d + c) },
				func(j, c int) float64 { return v.Float(base + j*d + c) },
				i+1, d, num["sm_scale"])
			for c, x := range row {
				o.SetFloat(base+i*d+c, round(x))
			}
			m.SetFloat(h*n+i, float64(float32(lse*math.Log2E)))
		}
	}
	return tensors{"o": o, "M": m}
}

func refAttention(causal bool) Reference {
	return func(in tensors, num map[string]float64) tensors {
		q, k, v, o := in["q"], in["k"], in["v"], in["o"]
		n, d := q.Shape[2], q.Shape[3]
		heads := q.Shape[0] * q.Shape[1]
		round := rounder(o)
		for h := range heads {
			base := h * n * d
			for i := range n {
				cols := n
				if causal {
					cols = i + 1
				}
				row, _ := attend(
					func(c int) float64 { return q.Float(base + i*d + c) },
					func(j, c int) float64 { return k.Float(base + j*d + c) },
					func(j, c int) float64 { return v.Float(base + j*d + c) },
					cols, d, num["sm_scale"])
				for c, x := range row {
					o.SetFloat(base+i*d+c, round(x))
				}
			}
		}
		return tensors{"o": o}
	}
}
