package conformance

// This file implements the references of the constructs of the multi-dot
// pipelines on mma.sync (cudagen/mmamulti.go): causal attention computed
// directly in float64 by attend, and the matmuls of attn_sm80_bf16 as
// loops over float64, each sum rounded once to fp32; attn_split_warps's
// attention over tokens gathered through a page table.

import (
	"math"

	"github.com/tri-lang/tri/tensor"
)

func init() {
	references["attn_sm80"] = refAttnSM80
	references["attn_sm80_bf16"] = refAttnSM80BF16
	references["attn_split_warps"] = refAttnSplitWarps
}

// causalRows is causal attention per (batch, head) of q, k and v, [Z, H,
// N, D], into o, rounded to o's dtype; lse, where not nil, gets each
// row's log2-sum-exp of the scaled scores, rounded to fp32.
func causalRows(q, k, v, o, lse *tensor.Tensor, heads, n, d int, scale float64, round func(float64) float64) {
	for h := range heads {
		base := h * n * d
		for i := range n {
			row, l := attend(
				func(c int) float64 { return q.Float(base + i*d + c) },
				func(j, c int) float64 { return k.Float(base + j*d + c) },
				func(j, c int) float64 { return v.Float(base + j*d + c) },
				i+1, d, scale)
			for c, x := range row {
				o.SetFloat(base+i*d+c, round(x))
			}
			if lse != nil {
				lse.SetFloat(h*n+i, r32(l*math.Log2E))
			}
		}
	}
}

// refAttnSM80 is causal attention into o, fp16, and M.
func refAttnSM80(in tensors, num map[string]float64) tensors {
	q, k, v, o, m := in["q"], in["k"], in["v"], in["o"], in["M"]
	causalRows(q, k, v, o, m, q.Shape[0]*q.Shape[1], q.Shape[2], q.Shape[3], num["sm_scale"], r16)
	return tensors{"o": o, "M": m}
}

// refAttnSM80BF16 is causal attention into o, bf16, and for each (batch,
// head) g = q @ w and h = k @ u, [N, 32] of fp32.
func refAttnSM80BF16(in tensors, num map[string]float64) tensors {
	q, k, v, w, u, o, g, hm := in["q"], in["k"], in["v"], in["w"], in["u"], in["o"], in["g"], in["h"]
	heads, n, d := q.Shape[0]*q.Shape[1], q.Shape[2], q.Shape[3]
	causalRows(q, k, v, o, nil, heads, n, d, num["sm_scale"], rbf)
	for hh := range heads {
		for i := range n {
			for j := range 32 {
				sg, sh := 0.0, 0.0
				for c := range d {
					sg += q.Float((hh*n+i)*d+c) * w.Float(c*32+j)
					sh += k.Float((hh*n+i)*d+c) * u.Float(c*32+j)
				}
				g.SetFloat((hh*n+i)*32+j, r32(sg))
				hm.SetFloat((hh*n+i)*32+j, r32(sh))
			}
		}
	}
	return tensors{"o": o, "g": g, "h": hm}
}

// refAttnSplitWarps is, for each sequence b, the attention of its rows of
// q over its T tokens, token t of k and v at row pages[b, t / PAGE] * PAGE
// + t % PAGE of the [pages * PAGE, HEAD_DIM] cache: o (bf16) and each
// row's log2-sum-exp of the scaled scores, lse.
func refAttnSplitWarps(in tensors, num map[string]float64) tensors {
	q, k, v, pages, o, lse := in["q"], in["k"], in["v"], in["pages"], in["o"], in["lse"]
	const page = 8
	seqs, rows, d := q.Shape[0], q.Shape[1], q.Shape[2]
	t, perSeq := int(num["T"]), pages.Shape[1]
	for b := range seqs {
		at := func(j, c int) int { return (int(pages.Float(b*perSeq+j/page))*page+j%page)*d + c }
		for i := range rows {
			row, l := attend(
				func(c int) float64 { return q.Float((b*rows+i)*d + c) },
				func(j, c int) float64 { return k.Float(at(j, c)) },
				func(j, c int) float64 { return v.Float(at(j, c)) },
				t, d, num["sm_scale"])
			for c, x := range row {
				o.SetFloat((b*rows+i)*d+c, rbf(x))
			}
			lse.SetFloat(b*rows+i, r32(l*math.Log2E))
		}
	}
	return tensors{"o": o, "lse": lse}
}
