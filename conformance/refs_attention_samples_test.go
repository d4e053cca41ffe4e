package conformance

// This file implements the references of the attention samples
// (samples/attention_fwd.tri and samples/attention_decode.tri) and the
// tests that run them beyond their recorded launches: the forward pass
// causal and not, head dim 64 and 128, fp16 and bf16, in two memory layouts
// (through the strides), and the decode kernels' two stages in sequence.
// The references compute softmax(q k^T * sm_scale) v directly in float64
// (the whole row's softmax at once, not the kernels' online form) from the
// same rounded inputs, and round once to the output's dtype; the kernels
// round P to fp16 or bf16 before P @ V and add in another order, which the
// tolerances allow for.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

func init() {
	references["sample/attention_fwd"] = refSampleAttentionFwd(true, false)
	references["attention_sample_s1"] = refSampleAttentionFwd(true, false)
	references["sample/attention_decode"] = refSampleDecodeSplits
}

// attend computes one query row's attention over cols keys: the
// normalized output (d values) and the natural log-sum-exp of the scaled
// scores. q(c), k(j, c) and v(j, c) read the elements.
func attend(q func(c int) float64, k, v func(j, c int) float64, cols, d int, scale float64) ([]float64, float64) {
	s := make([]float64, cols)
	peak := math.Inf(-1)
	for j := range cols {
		dot := 0.0
		for c := range d {
			dot += q(c) * k(j, c)
		}
		s[j] = dot * scale
		peak = math.Max(peak, s[j])
	}
	sum := 0.0
	for j := range s {
		s[j] = math.Exp(s[j] - peak)
		sum += s[j]
	}
	out := make([]float64, d)
	for c := range d {
		acc := 0.0
		for j := range s {
			acc += s[j] * v(j, c)
		}
		out[c] = acc / sum
	}
	return out, peak + math.Log(sum)
}

// rounder is the rounding of a float tensor's dtype.
func rounder(t *tensor.Tensor) func(float64) float64 {
	switch t.Kind.String() {
	case "fp16":
		return r16
	case "bf16":
		return rbf
	}
	return r32
}

// attnIndex maps (batch, head, row, column) to an element's index: in
// [Z, H, N, D] order (bhsd) or in [Z, N, H, D] order.
func attnIndex(bshd bool, h, n, d int) func(z, hh, i, c int) int {
	if bshd {
		return func(z, hh, i, c int) int { return ((z*n+i)*h+hh)*d + c }
	}
	return func(z, hh, i, c int) int { return ((z*h+hh)*n+i)*d + c }
}

// refSampleAttentionFwd is samples/attention_fwd.tri: o per (batch, head)
// in q's layout, and M, the log2-sum-exp of each row, [Z, H, N_CTX].
func refSampleAttentionFwd(causal, bshd bool) Reference {
	return func(in tensors, num map[string]float64) tensors {
		q, k, v, o, lse := in["q"], in["k"], in["v"], in["o"], in["M"]
		z, h, n, d := int(num["Z"]), int(num["H"]), int(num["N_CTX"]), int(num["D"])
		at := attnIndex(bshd, h, n, d)
		round := rounder(o)
		for zi := range z {
			for hi := range h {
				for i := range n {
					cols := n
					if causal {
						cols = i + 1
					}
					row, l := attend(
						func(c int) float64 { return q.Float(at(zi, hi, i, c)) },
						func(j, c int) float64 { return k.Float(at(zi, hi, j, c)) },
						func(j, c int) float64 { return v.Float(at(zi, hi, j, c)) },
						cols, d, num["sm_scale"])
					for c, x := range row {
						o.SetFloat(at(zi, hi, i, c), round(x))
					}
					lse.SetFloat((zi*h+hi)*n+i, r32(l*math.Log2E))
				}
			}
		}
		return tensors{"o": o, "M": lse}
	}
}

// attnFwdVariant is one launch of samples/attention_fwd.tri.
type attnFwdVariant struct {
	z, h, n, d, blockN int
	dtype              string // float16 or bfloat16
	causal, bshd       bool   // bshd: q, k, v and o stored [Z, N_CTX, H, D]
	tolerance          string
}

func (v attnFwdVariant) String() string {
	layout := "bhsd"
	if v.bshd {
		layout = "bshd"
	}
	return fmt.Sprintf("%s_d%d_n%d_bn%d_causal=%v_%s", v.dtype, v.d, v.n, v.blockN, v.causal, layout)
}

// sample is the variant's launch, as a header would record it.
func (v attnFwdVariant) sample() *launch.Sample {
	shape := "Z, H, N_CTX, D"
	// the strides of batch, head, row and column, whatever the layout
	strides := func(x string) string {
		return fmt.Sprintf("%[1]s.stride(0), %[1]s.stride(1), %[1]s.stride(2), %[1]s.stride(3)", x)
	}
	if v.bshd {
		shape = "Z, N_CTX, H, D"
		strides = func(x string) string {
			return fmt.Sprintf("%[1]s.stride(0), %[1]s.stride(2), %[1]s.stride(1), %[1]s.stride(3)", x)
		}
	}
	cap := "False"
	if v.causal {
		cap = "True"
	}
	line := fmt.Sprintf("attn_fwd[(triton.cdiv(N_CTX, 128), Z * H)](q, k, v, sm_scale, M, o, %s, %s, %s, %s, Z, H, N_CTX, "+
		"HEAD_DIM=D, BLOCK_M=128, BLOCK_N=%d, CAUSAL=%s, num_warps=8, num_stages=3)",
		strides("q"), strides("k"), strides("v"), strides("o"), v.blockN, cap)
	lets := []string{
		fmt.Sprintf("Z=%d", v.z), fmt.Sprintf("H=%d", v.h), fmt.Sprintf("N_CTX=%d", v.n), fmt.Sprintf("D=%d", v.d),
		fmt.Sprintf("sm_scale=%g", 1/math.Sqrt(float64(v.d))),
	}
	for _, x := range []string{"q", "k", "v"} {
		lets = append(lets, fmt.Sprintf("%s=randn(%s, dtype='%s')", x, shape, v.dtype))
	}
	lets = append(lets, fmt.Sprintf("o=zeros(%s, dtype='%s')", shape, v.dtype), "M=zeros(Z, H, N_CTX)")
	return &launch.Sample{
		Path: filepath.Join("..", "samples", "attention_fwd.tri"), Launch: line, Lets: lets,
		Checks: []string{"o", "M"}, Tolerance: v.tolerance,
	}
}

// attnFwdVariants cover what the recorded launch (fp16, head dim 64,
// causal, N_CTX = 300) does not: not causal, head dim 128, bf16, BLOCK_N
// 128, the [Z, N_CTX, H, D] layout, N_CTX a multiple of the blocks (no
// partial block), one past it, and shorter than one block.
var attnFwdVariants = []attnFwdVariant{
	{z: 1, h: 2, n: 300, d: 64, blockN: 64, dtype: "float16", tolerance: "ulp=64 atol=1e-2"},
	{z: 1, h: 1, n: 256, d: 128, blockN: 64, dtype: "bfloat16", causal: true, tolerance: "ulp=8 atol=2e-2"},
	{z: 2, h: 1, n: 150, d: 128, blockN: 128, dtype: "bfloat16", bshd: true, tolerance: "ulp=8 atol=2e-2"},
	{z: 1, h: 2, n: 129, d: 64, blockN: 64, dtype: "float16", causal: true, bshd: true, tolerance: "ulp=64 atol=1e-2"},
	{z: 1, h: 1, n: 40, d: 128, blockN: 64, dtype: "float16", tolerance: "ulp=64 atol=1e-2"},
}

// checkOutcome compares a launch's checked outputs with want.
func checkOutcome(t *testing.T, s *launch.Sample, after, want tensors) {
	t.Helper()
	for _, name := range s.Checks {
		require.Contains(t, after, name)
		require.Contains(t, want, name)
		if err := launch.CompareTensors(name, after[name], want[name], s.Tolerance); err != nil {
			t.Error(err)
		}
	}
}

// TestAttentionFwdVariants runs samples/attention_fwd.tri's variants in
// the interpreter against the float64 reference.
func TestAttentionFwdVariants(t *testing.T) {
	for _, v := range attnFwdVariants {
		t.Run(v.String(), func(t *testing.T) {
			s := v.sample()
			out, err := s.Interpret(seed)
			require.NoError(t, err)
			checkOutcome(t, s, out.After, refSampleAttentionFwd(v.causal, v.bshd)(cloneAll(out.Before), out.Numbers))
		})
	}
}

// TestAttentionFwdVariantsGPU runs the same variants on the GPU against
// the reference. Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestAttentionFwdVariantsGPU(t *testing.T) {
	for _, v := range attnFwdVariants {
		s := v.sample()
		out, err := s.RunGPU(seed)
		skipWithoutGPU(t, err)
		t.Run(v.String(), func(t *testing.T) {
			require.NoError(t, err)
			checkOutcome(t, s, out.After, refSampleAttentionFwd(v.causal, v.bshd)(cloneAll(out.Before), out.Numbers))
		})
	}
}

// skipWithoutGPU skips the test when err says there is no GPU, or fails it
// under TRI_REQUIRE_GPU=1.
func skipWithoutGPU(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, gpu.ErrNoGPU) {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
		}
		t.Skipf("%s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
}

// decodeCache reads the paged KV cache of samples/attention_decode.tri:
// the element c of token j of sequence b under KV head kvh.
type decodeCache struct {
	kc, vc, table *tensor.Tensor
	page, kvh, d  int
	maxPages      int
}

func newDecodeCache(in tensors, num map[string]float64) decodeCache {
	return decodeCache{kc: in["k_cache"], vc: in["v_cache"], table: in["block_table"],
		page: int(num["PAGE"]), kvh: int(num["KV_H"]), d: int(num["D"]), maxPages: int(num["MAX_PAGES"])}
}

// slot is the index of element c of token j of sequence b, KV head h.
func (dc decodeCache) slot(b, h, j, c int) int {
	p := int(dc.table.Int(b*dc.maxPages + j/dc.page))
	return ((p*dc.page+j%dc.page)*dc.kvh+h)*dc.d + c
}

// attendDecode is the attention of query head h of sequence b over its
// tokens [lo, hi).
func attendDecode(dc decodeCache, q *tensor.Tensor, group, b, h, lo, hi int, scale float64) ([]float64, float64) {
	heads, kvh := dc.kvh*group, h/group
	return attend(
		func(c int) float64 { return q.Float((b*heads+h)*dc.d + c) },
		func(j, c int) float64 { return dc.kc.Float(dc.slot(b, kvh, lo+j, c)) },
		func(j, c int) float64 { return dc.vc.Float(dc.slot(b, kvh, lo+j, c)) },
		hi-lo, dc.d, scale)
}

// refSampleDecodeSplits is stage 1 of samples/attention_decode.tri: for
// each split of each sequence, per query head, the attention over the
// split's tokens and its log2-sum-exp; zeros and -inf for an empty split.
func refSampleDecodeSplits(in tensors, num map[string]float64) tensors {
	dc := newDecodeCache(in, num)
	q, lens, mo, ml := in["q"], in["seq_lens"], in["mid_o"], in["mid_lse"]
	group, splits := int(num["GROUP"]), int(num["SPLITS"])
	heads := dc.kvh * group
	for b := range int(num["B"]) {
		n := int(lens.Int(b))
		per := (n + splits - 1) / splits
		for h := range heads {
			for s := range splits {
				lo, hi := s*per, min(s*per+per, n)
				row, l := make([]float64, dc.d), math.Inf(-1)
				if hi > lo {
					row, l = attendDecode(dc, q, group, b, h, lo, hi, num["sm_scale"])
					l = r32(l * math.Log2E)
				}
				for c, x := range row {
					mo.SetFloat(((b*heads+h)*splits+s)*dc.d+c, r32(x))
				}
				ml.SetFloat((b*heads+h)*splits+s, l)
			}
		}
	}
	return tensors{"mid_o": mo, "mid_lse": ml}
}

// refDecode is both stages of samples/attention_decode.tri: o, each query
// head's attention over its sequence's whole cache.
func refDecode(in tensors, num map[string]float64) tensors {
	dc := newDecodeCache(in, num)
	q, lens, o := in["q"], in["seq_lens"], in["o"]
	group := int(num["GROUP"])
	round := rounder(o)
	for b := range int(num["B"]) {
		for h := range dc.kvh * group {
			row, _ := attendDecode(dc, q, group, b, h, 0, int(lens.Int(b)), num["sm_scale"])
			for c, x := range row {
				o.SetFloat((b*dc.kvh*group+h)*dc.d+c, round(x))
			}
		}
	}
	return tensors{"o": o}
}

const decodePath = "../samples/attention_decode.tri"

// decodeReduceLaunch is the launch of stage 2 that the sample's header
// comment gives.
func decodeReduceLaunch(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(decodePath)
	require.NoError(t, err)
	for _, line := range strings.Split(string(src), "\n") {
		if l := strings.TrimSpace(strings.TrimPrefix(line, "#")); strings.HasPrefix(l, "decode_reduce[") {
			return l
		}
	}
	t.Fatal("no decode_reduce launch in the header comment")
	return ""
}

// decodeVariant is a set of --let overrides of the decode sample's header.
type decodeVariant struct {
	name string
	lets []string
	// the tolerances of stage 1's fp32 partial results (which hold P
	// rounded to the cache's dtype) and of o
	midTolerance, tolerance string
}

var decodeVariants = []decodeVariant{
	{name: "header", midTolerance: "ulp=64 atol=1e-3", tolerance: "ulp=64 atol=1e-2"},
	// eight query heads per KV head, head dim 128, bf16, pages of 8, three
	// splits (BLOCK_S pads them to 4), a sequence of one token
	{name: "gqa8_d128_bf16", midTolerance: "ulp=64 atol=1e-2", tolerance: "ulp=8 atol=2e-2", lets: []string{
		"B=3", "KV_H=1", "GROUP=8", "D=128", "PAGE=8", "MAX_PAGES=24", "SPLITS=3",
		"seq_lens=tensor([1, 190, 77], dtype='int32')",
		"q=randn(B, KV_H * GROUP, D, dtype='bfloat16')",
		"k_cache=randn(NUM_PAGES, PAGE, KV_H, D, dtype='bfloat16')",
		"v_cache=randn(NUM_PAGES, PAGE, KV_H, D, dtype='bfloat16')",
		"o=zeros(B, KV_H * GROUP, D, dtype='bfloat16')",
	}},
}

// runDecode runs both stages of the decode sample with the variant's
// bindings, in the interpreter or on the GPU, and returns the bindings
// before stage 1 and after stage 2, and the numbers.
func runDecode(t *testing.T, v decodeVariant, onGPU bool) (before, after tensors, num map[string]float64, err error) {
	t.Helper()
	run := func(p *launch.Prepared) error {
		if onGPU {
			_, err := p.RunGPU(false)
			return err
		}
		return p.Interpret(0)
	}
	o := &launch.Options{Lets: v.lets, Seed: seed}
	p, err := launch.Prepare(decodePath, "", o)
	require.NoError(t, err)
	before, num = tensors{}, map[string]float64{}
	for _, name := range p.Env.Names() {
		val, _ := p.Env.Lookup(name)
		switch val.Kind {
		case hosteval.VTensor:
			before[name] = val.Tensor.Clone()
		case hosteval.VInt:
			num[name] = float64(val.Int)
		case hosteval.VFloat:
			num[name] = val.Float
		}
	}
	if err := run(p); err != nil {
		return nil, nil, nil, err
	}
	// stage 2 on the same bindings, now holding stage 1's outputs
	l, err := hosteval.ParseLaunch(decodeReduceLaunch(t))
	require.NoError(t, err)
	fn := p.Source.File.Func(l.Kernel)
	require.NotNil(t, fn, l.Kernel)
	p2, err := launch.PrepareValues(p.Source, fn, nil, l, p.Env, o)
	require.NoError(t, err)
	if err := run(p2); err != nil {
		return nil, nil, nil, err
	}
	after = tensors{}
	for name := range before {
		val, _ := p.Env.Lookup(name)
		after[name] = val.Tensor
	}
	return before, after, num, nil
}

// checkDecode compares both stages' outputs with the references.
func checkDecode(t *testing.T, v decodeVariant, before, after tensors, num map[string]float64) {
	t.Helper()
	mid := refSampleDecodeSplits(cloneAll(before), num)
	for _, name := range []string{"mid_o", "mid_lse"} {
		if err := launch.CompareTensors(name, after[name], mid[name], v.midTolerance); err != nil {
			t.Error(err)
		}
	}
	if err := launch.CompareTensors("o", after["o"], refDecode(cloneAll(before), num)["o"], v.tolerance); err != nil {
		t.Error(err)
	}
}

// TestAttentionDecodeStages runs the decode sample's two kernels in
// sequence in the interpreter and checks the partial results of stage 1
// and the output of stage 2.
func TestAttentionDecodeStages(t *testing.T) {
	for _, v := range decodeVariants {
		t.Run(v.name, func(t *testing.T) {
			before, after, num, err := runDecode(t, v, false)
			require.NoError(t, err)
			checkDecode(t, v, before, after, num)
		})
	}
}

// TestAttentionDecodeStagesGPU is TestAttentionDecodeStages on the GPU.
// Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestAttentionDecodeStagesGPU(t *testing.T) {
	for _, v := range decodeVariants {
		before, after, num, err := runDecode(t, v, true)
		skipWithoutGPU(t, err)
		t.Run(v.name, func(t *testing.T) {
			require.NoError(t, err)
			checkDecode(t, v, before, after, num)
		})
	}
}
