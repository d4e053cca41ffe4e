package conformance

// This file implements the reference of the flash-attention forward test
// kernel: o = softmax(q k^T * sm_scale) v for each (batch, head), computed
// directly in float64 (the whole row's softmax at once, not the kernel's
// online form), causal rows seeing only columns up to their own index, and
// rounded once to o's dtype. The kernel rounds P to fp16 before P @ V and
// adds in another order, which the file's tolerance allows for.

import (
	"math"

	"github.com/tri-lang/tri/tensor"
)

func init() {
	references["attention_fwd"] = refAttention(false)
	references["attention_fwd_causal"] = refAttention(true)
}

func refAttention(causal bool) Reference {
	return func(in tensors, num map[string]float64) tensors {
		q, k, v, o := in["q"], in["k"], in["v"], in["o"]
		n, d := q.Shape[2], q.Shape[3]
		heads := q.Shape[0] * q.Shape[1]
		scale := num["sm_scale"]
		round := r16
		if o.Kind.String() == "bf16" {
			round = rbf
		}
		for h := range heads {
			base := h * n * d
			for i := range n {
				attentionRow(q, k, v, o, base, i, n, d, scale, causal, round)
			}
		}
		return tensors{"o": o}
	}
}

// attentionRow writes row i of one head's output.
func attentionRow(q, k, v, o *tensor.Tensor, base, i, n, d int, scale float64, causal bool, round func(float64) float64) {
	cols := n
	if causal {
		cols = i + 1
	}
	s := make([]float64, cols)
	peak := math.Inf(-1)
	for j := range cols {
		dot := 0.0
		for c := range d {
			dot += q.Float(base+i*d+c) * k.Float(base+j*d+c)
		}
		s[j] = dot * scale
		peak = math.Max(peak, s[j])
	}
	sum := 0.0
	for j := range s {
		s[j] = math.Exp(s[j] - peak)
		sum += s[j]
	}
	for c := range d {
		acc := 0.0
		for j := range s {
			acc += s[j] * v.Float(base+j*d+c)
		}
		o.SetFloat(base+i*d+c, round(acc/sum))
	}
}
