package conformance

// This file implements the references of the constructs whose K loops are
// software-pipelined on mma.sync (cudagen/mmapipe.go), written out as loops
// over float64 without calling matmul, and TestGPUSM80, which runs them
// and the matmul samples as sm_80 code.

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/launch"
)

func init() {
	references["pipeline_sm80"] = refPipelineSM80
	references["pipeline_sm80_bf16"] = refPipelineSM80
}

// refPipelineSM80 is c = a @ b and d = a @ bt^T for a of [M, K], b of
// [K, N] and bt of [N, K], each sum rounded once to fp32.
func refPipelineSM80(in tensors, num map[string]float64) tensors {
	a, b, bt, c, d := in["a"], in["b"], in["bt"], in["c"], in["d"]
	m, n, k := int(num["M"]), int(num["N"]), int(num["K"])
	for i := range m {
		for j := range n {
			sc, sd := 0.0, 0.0
			for x := range k {
				sc += a.Float(i*k+x) * b.Float(x*n+j)
				sd += a.Float(i*k+x) * bt.Float(j*k+x)
			}
			c.SetFloat(i*n+j, r32(sc))
			d.SetFloat(i*n+j, r32(sd))
		}
	}
	return tensors{"c": c, "d": d}
}

// sm80Cases are the files TestGPUSM80 runs as sm_80 code: the constructs
// of the sm_80 pipelines (mmapipe.go, and mmamulti.go for loops of several
// dots), the samples and constructs whose loops they pipeline, and the
// constructs of fp8e5's software conversions (fp8e5_sm80, fp8_e5_codes)
// and dots (attention_fp8, wgmma_alone_fp8_pack: mma.sync on fp8 widened
// to fp16 there).
var sm80Cases = []string{"pipeline_sm80", "pipeline_sm80_bf16", "sample/matmul_grouped", "sample/matmul_tutorial03",
	"attn_sm80", "attn_sm80_bf16", "attention_fwd", "attention_fwd_causal", "sample/attention_fwd", "fp8e5_sm80",
	"fp8_e5_codes", "attention_fp8", "wgmma_alone_fp8_pack", "dot_kept_invariant", "dot_spill_stages", "attn_split_warps"}

// TestGPUSM80 runs the files of sm80Cases with their kernels compiled for
// sm_80 (PTX the driver compiles for a newer GPU, as tri run --arch sm_80)
// and compares the checked outputs with the reference's (sm80References'
// where Triton's results differ there). Without a GPU it skips, unless
// TRI_REQUIRE_GPU=1.
func TestGPUSM80(t *testing.T) {
	byKey := map[string]testCase{}
	for _, c := range testCases(t) {
		byKey[c.key] = c
	}
	for _, key := range sm80Cases {
		c, ok := byKey[key]
		require.True(t, ok, "no file for %s", key)
		onGPU, err := c.sample.RunGPUFor("sm_80", seed)
		if errors.Is(err, gpu.ErrNoGPU) {
			if os.Getenv("TRI_REQUIRE_GPU") == "1" {
				t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
			}
			t.Skipf("%s", strings.SplitN(err.Error(), "\n", 2)[0])
		}
		t.Run(key, func(t *testing.T) {
			require.NoError(t, err)
			ref, ok := references[key]
			require.True(t, ok, "no reference")
			if r, ok := sm80References[key]; ok {
				ref = r
			}
			want := ref(cloneAll(onGPU.Before), onGPU.Numbers)
			for _, name := range c.sample.Checks {
				require.Contains(t, onGPU.After, name)
				require.Contains(t, want, name)
				if err := launch.CompareTensors(name, onGPU.After[name], want[name], c.sample.Tolerance); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
