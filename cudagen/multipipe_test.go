package cudagen_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// TestMultiPipeAttention checks that flash attention's inner loop (two
// dots with the online softmax between them) is pipelined on sm_90a: q
// stored into shared memory once, k (read transposed through strides,
// so K-major) and v streamed by 16-byte cp.async copies, the first dot
// from zero (scale-d 0), the second with p as wgmma's A operand from
// registers.
func TestMultiPipeAttention(t *testing.T) {
	src, err := build(t, "testdata/multipipe/attn_d64.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "Software-pipelined, 2 dot(s) on wgmma")
	assert.Contains(t, src, "is the same in every iteration: stored once")
	// A thread's 8 fp16 of q along K go in one 16-byte store.
	assert.Regexp(t, `for \(int e = 0; e < 32; e \+= 8\) \{\n(?:.*\n)*?\s*const unsigned int tri_dst = tri_inv \+ 0 \+ tri_swizzle\(`, src)
	assert.Contains(t, src, "(unsigned int)(tri_half)q[e + 6] | (unsigned int)(tri_half)q[e + 7] << 16};\n      tri_st_shared_b128(tri_dst, tri_v);")
	assert.Contains(t, src, "const unsigned long long tri_adesc = tri_wgmma_desc(tri_inv + tri_warpgroup() * 8192, 16, 1024, 1);\n"+
		"        const unsigned long long tri_bdesc = tri_wgmma_desc(tri_stage, 16, 1024, 1);\n"+
		"        tri_wgmma_m64n64k16_f16_kb(tri_d0, tri_adesc, tri_bdesc, 0);")
	assert.Contains(t, src, "const unsigned int tri_ar0 = tri_pack2_f16(p[0], p[1]);\n"+
		"        const unsigned int tri_ar1 = tri_pack2_f16(p[16], p[17]);\n"+
		"        const unsigned int tri_ar2 = tri_pack2_f16(p[2], p[3]);\n"+
		"        const unsigned int tri_ar3 = tri_pack2_f16(p[18], p[19]);\n"+
		"        tri_wgmma_m64n64k16_f16_ra(tri_f0, tri_ar0, tri_ar1, tri_ar2, tri_ar3, ")
	assert.Contains(t, src, "{%32, %33, %34, %35}, %36, p, 1, 1, 1; }")
	assert.Contains(t, src, "// b: 16-byte copies into the stage")
	// p @ v runs on into the next iteration: q @ k's wait lands it in acc.
	assert.Contains(t, src, "tri_wgmma_wait<0>();  // and the last iteration's tl.dot at line 61")
	assert.Contains(t, src, "__syncthreads();  // every warpgroup is done with the stage the copies refill")
	assert.NotContains(t, src, "ldmatrix.sync")
	assert.NotContains(t, src, "element by element (no 4-byte run")
}

// TestMultiPipeHeadDim128 checks that operands 256 bytes wide along K
// (head dimension 128 in bf16) are stored in two 128-byte K chunks: the
// fifth wgmma of q k^T reads the second chunk of q and of k.
func TestMultiPipeHeadDim128(t *testing.T) {
	src, err := build(t, "testdata/multipipe/attn_d128_causal_bf16.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "const unsigned long long tri_adesc = tri_wgmma_desc(tri_inv + tri_warpgroup() * 8192, 16, 1024, 1);")
	assert.Contains(t, src, "tri_wgmma_m64n64k16_bf16_kb(tri_d0, tri_adesc + 1024, tri_bdesc + 512, 1);")
	assert.Contains(t, src, "tri_wgmma_m64n128k16_bf16_ra(")
}

// TestPipelineInTileLoop checks that a K loop inside a tile loop, with its
// operands reached through a pointer table and tl.multiple_of given as
// statements (tutorial 08's grouped GEMM), is pipelined on wgmma with
// 16-byte copies: the unused hints neither block the pipeline nor go
// unheeded.
func TestPipelineInTileLoop(t *testing.T) {
	src, err := build(t, "testdata/pipeline/table_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "// Software-pipelined: the loads feeding tl.dot stream into 4 shared-memory buffers with cp.async,")
	assert.Contains(t, src, "// a: 16-byte copies into the stage")
	assert.Contains(t, src, "// b: 16-byte copies into the stage")
	assert.NotContains(t, src, "element by element")
	assert.Contains(t, src, "__launch_bounds__(128) table_matmul_kernel(")
}

// TestMultiPipeTMA checks that the attention pipeline copies K and V read
// through host tensor descriptors with the TMA unit: one box of 64 rows by
// one 128-byte swizzle row per chunk of head dimension 128, both
// completing on the stage's mbarrier, which every thread waits on at the
// top of the iteration; with TRI_TMA=0 they are copied by rows.
func TestMultiPipeTMA(t *testing.T) {
	src, err := build(t, "testdata/multipipe/attn_desc.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "// with the TMA unit, 2 iteration(s) ahead; the rest of the body runs in its own iteration.")
	assert.Contains(t, src, "for (int b = 0; b < 3; ++b) tri_mbar_init(tri_smem_addr(&tri_mbar[b]), 2);")
	assert.Contains(t, src, "// b: 16384 bytes copied by the TMA unit from desc_k_tmap64x64 in 2 box(es) of 128-byte rows, completing on the stage's mbarrier")
	assert.Contains(t, src, "tri_tma_load_2d(tri_stage0 + tri_write * 32768 + 8192, &desc_k_tmap64x64, (int)(0LL) + 64, (int)(t75_i64), tri_bar);")
	assert.Contains(t, src, "tri_tma_load_2d(tri_stage0 + tri_write * 32768 + 24576, &desc_v_tmap64x64, (int)(0LL) + 64, (int)(t142_i64), tri_bar);")
	assert.Contains(t, src, "tri_mbar_wait(tri_smem_addr(&tri_mbar[tri_read]), (tri_parity >> tri_read) & 1u);  // and its TMA copies")
	assert.NotContains(t, src, "copies of rows from the descriptor")
	t.Setenv("TRI_TMA", "0")
	src, err = build(t, "testdata/multipipe/attn_desc.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "// b: 16-byte copies of rows from the descriptor")
	assert.NotContains(t, src, "tri_mbar")
}

// TestMultiPipeTMAInvariant checks that q, loaded through a host
// descriptor before tutorial 06's two loops and read only by their first
// dots, is copied by the TMA unit into each pipeline's invariant region
// (one box of a 5-D view a chunk, 8-row boxes at the tensor's edge),
// completing on stage 0's mbarrier, and not loaded into registers; with a
// store between the load and the loops it is stored from its registers.
func TestMultiPipeTMAInvariant(t *testing.T) {
	const file = "../conformance/constructs/attention_desc_q.tri"
	src, err := build(t, file, "sm_90a")
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(src, "tri_mbar_add_tx(tri_bar, 16384);"))
	assert.Contains(t, src, "if (0 < t")
	assert.Contains(t, src, "tri_tma_load_5d(tri_inv + 8192, &desc_q_tmap64x64, (int)(0LL) + 64, ")
	assert.Contains(t, src, "for (int r = 0; r < 64; r += 8) {")
	assert.Contains(t, src, "const unsigned int tri_dst = tri_inv + 8192 + tri_srow * 128;")
	assert.NotContains(t, src, "tri_half q[")
	assert.NotContains(t, src, "wgmma reads what the generic stores wrote")
	line, lets := recordedLaunch(t, file)
	var out bytes.Buffer
	line = strings.Replace(line, "STORE_FIRST=False", "STORE_FIRST=True", 1)
	require.NoError(t, launch.BuildFile(file, line, &launch.Options{Arch: "sm_90a", Lets: lets, Stdout: &out}))
	assert.NotContains(t, out.String(), "tri_mbar_add_tx")
	// The first loop stores q; the second finds it in place.
	assert.Equal(t, 1, strings.Count(out.String(), "is the same in every iteration: stored once"))
	assert.Equal(t, 1, strings.Count(out.String(), "is in place: the pipelined loop before this one"))
}

// TestKeptInvariant: of three pipelined loops over the same invariant q,
// the second, after the first with only scalars between, finds q in place
// and stores nothing; the third, after a column sum across the warps whose
// scratch memory overlaps q's place, stores it again.
func TestKeptInvariant(t *testing.T) {
	src, err := build(t, "../conformance/constructs/dot_kept_invariant.tri", "sm_90a")
	require.NoError(t, err)
	first := strings.Index(src, "q, a of the tl.dot at line")
	kept := strings.Index(src, "is in place: the pipelined loop before this one")
	last := strings.LastIndex(src, "q, a of the tl.dot at line")
	assert.Equal(t, 2, strings.Count(src, "is the same in every iteration: stored once"))
	assert.Equal(t, 1, strings.Count(src, "is in place: the pipelined loop before this one"))
	// Stored by the first loop, in place in the second, stored again by the third.
	assert.True(t, first < kept && kept < last, "%d %d %d", first, kept, last)
	assert.Contains(t, src[last:last+120], "is the same in every iteration: stored once")
	// mma.sync's pipelines are not affected.
	src, err = build(t, "../conformance/constructs/dot_kept_invariant.tri", "sm_80")
	require.NoError(t, err)
	assert.NotContains(t, src, "is in place")
	// Describe (--dump=layout, the review page) says which loop found q in place.
	d := describe(t, "../conformance/constructs/dot_kept_invariant.tri", "", nil, "sm_90a")
	var forms []string
	for _, l := range d.Loops {
		for _, o := range l.Operands {
			if o.Name == "q" {
				forms = append(forms, o.Form)
			}
		}
	}
	assert.Equal(t, []string{"stored once", "in place", "stored once"}, forms)
}

// TestSpillStages: a loop whose two accumulators take 256 registers a
// thread runs 3 of the 5 stages asked for, and says why; with half the
// rows (128 registers) it runs all 5.
func TestSpillStages(t *testing.T) {
	const file = "../conformance/constructs/dot_spill_stages.tri"
	for _, arch := range []string{"sm_90a", "sm_80"} {
		src, err := build(t, file, arch)
		require.NoError(t, err)
		assert.Contains(t, src, "stream into 3 shared-memory stages", arch)
		assert.Contains(t, src, "(num_stages=5: 3 stages; the kernel's accumulators overflow the registers", arch)
		// Both dots read a where its one copy puts it.
		assert.Equal(t, 2, strings.Count(src, "// a: 16-byte copies into the stage"), arch) // prologue and loop
	}
	src, err := build(t, file, "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "tri_wgmma_m64n128k16_f16(tri_f0, tri_adesc, tri_bdesc + 1024, 1);")
	assert.NotContains(t, src, "tri_adesc + 512")
	d := describe(t, file, "", nil, "sm_90a")
	require.Len(t, d.Loops, 1)
	assert.True(t, d.Loops[0].Spill)
	assert.Equal(t, [2]int{3, 5}, [2]int{d.Loops[0].Stages, d.Loops[0].Asked})
	line, lets := recordedLaunch(t, file)
	lets = append(lets, "a=randn(64, K, dtype='float16')", "x=zeros(64, 128)", "y=zeros(64, 128)")
	var out bytes.Buffer
	line = strings.Replace(line, "M=128", "M=64", 1)
	require.NoError(t, launch.BuildFile(file, line, &launch.Options{Arch: "sm_90a", Lets: lets, Stdout: &out}))
	assert.Contains(t, out.String(), "stream into 5 shared-memory stages")
	assert.NotContains(t, out.String(), "num_stages=5:")
}

// recordedLaunch returns the launch line and the --let bindings of the
// header of file.
func recordedLaunch(t *testing.T, file string) (line string, lets []string) {
	text, err := os.ReadFile(file)
	require.NoError(t, err)
	_, line, _ = strings.Cut(string(text), "# launch: ")
	line, _, _ = strings.Cut(line, "\n")
	for _, l := range strings.Split(string(text), "\n") {
		if x, ok := strings.CutPrefix(l, "# let: "); ok {
			lets = append(lets, x)
		}
	}
	return line, lets
}
