package cudagen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/launch"
)

// TestHostTensorDescMatmulCopies checks that a K loop through host
// descriptors is pipelined with 16-byte cp.async copies of rows where the
// TMA unit is off (TRI_TMA=0): each addressed from the descriptor's base,
// stride and offsets, with a byte count that stops it at the tensor's edge,
// and no pointer or mask tile computed for the loads.
func TestHostTensorDescMatmulCopies(t *testing.T) {
	t.Setenv("TRI_TMA", "0")
	src, err := build(t, "testdata/tensordesc/host_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "tensordesc<fp16[128, 64]>:shape(16,16)")
	assert.Contains(t, src, "tri_wgmma_m64n128k16_f16_kb(")
	assert.Contains(t, src, "// a: 16-byte copies of rows from the descriptor, each cut at the tensor's edge (zero-filled past it)")
	assert.Contains(t, src, "const int tri_row = L5_base0 + (e / 8) * 32;\n          const int tri_col = L5_base1 + e % 8;\n")
	assert.Contains(t, src, "const auto tri_trow = offs_am_i64 + (long long)(tri_row);\n          const auto tri_tcol = t41 + (long long)(tri_col);\n"+
		"          const auto tri_src = a_desc_base + tri_trow * a_desc_stride0 + tri_tcol;\n"+
		"          const bool tri_in = tri_trow >= 0 && tri_trow < a_desc_shape0_1 && tri_tcol >= 0;\n"+
		"          const int tri_bytes = tri_in ? (int)tri_clamp_ll(a_desc_shape1_1 - tri_tcol, 0, 8) * 2 : 0;\n"+
		"          tri_cp_async_16n(tri_dst, tri_src, tri_bytes);")
	assert.Contains(t, src, "// b: 16-byte copies of rows from the descriptor")
	assert.NotContains(t, src, "a_desc_ptrs")
	assert.NotContains(t, src, "tri_tmap")
}

// TestDeviceTensorDescMatmulCopies checks a K loop through descriptors
// made in the kernel where the TMA unit is off (TRI_TMA=0), as tutorial
// 08/09 write it (b loaded [N, K] and used as b.T): it is pipelined on
// sm_90a with b K-major in shared memory, so wgmma reads it without its
// transpose bit. The shapes are not known multiples of anything:
// Triton's contract (a 16-byte aligned base and leading strides) makes
// their rows aligned, and the byte count of each copy replaces the mask,
// so the copies are 16 bytes wide rather than element by element; the
// store of the result is written by rows from the descriptor as well.
func TestDeviceTensorDescMatmulCopies(t *testing.T) {
	t.Setenv("TRI_TMA", "0")
	src, err := build(t, "../conformance/constructs/tensor_desc_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "tri_wgmma_m64n64k16_f16_kb(tri_d0")
	assert.Contains(t, src, "p, 1, 1, 0, 0; }")
	assert.NotContains(t, src, "ldmatrix.sync")
	assert.Contains(t, src, "// a: 16-byte copies of rows from the descriptor, each cut at the tensor's edge (zero-filled past it)")
	assert.Contains(t, src, "// b: 16-byte copies of rows from the descriptor, each cut at the tensor's edge (zero-filled past it)")
	assert.NotContains(t, src, "element by element")
	assert.NotContains(t, src, "tri_tmap")
	// The store of c goes by rows from the descriptor too: 8-byte vector
	// stores where a thread's run lies inside the tensor.
	assert.Contains(t, src, "// Written by rows from the descriptor: a run of 2 element(s) a thread, only what lies inside the tensor.")
	assert.Contains(t, src, "if (tri_in && tri_col >= 0 && tri_col + 2 <= c_desc_shape1) {")
	assert.Contains(t, src, "*reinterpret_cast<tri_f32x2*>(tri_p) = vec;")
	assert.NotContains(t, src, "c_desc_ptrs")
}

// TestDeviceTensorDescMatmulTMA checks that descriptors made in the
// kernel are copied and stored by the TMA unit too, through tensor maps
// the kernel builds in its program's part of the scratch memory: the
// loads' maps before the loop that copies with them, the store's before
// the store, each by thread 0, which issues the copies.
func TestDeviceTensorDescMatmulTMA(t *testing.T) {
	src, err := build(t, "../conformance/constructs/tensor_desc_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, flat(src), "tri_scratch (a device buffer of 512 bytes per program, 128-byte aligned, where the kernel builds the tensor maps of its descriptors)")
	assert.Contains(t, flat(src), "int M, int N, int K, unsigned char* __restrict__ tri_scratch) {")
	assert.Contains(t, src, "tri_tmap* const a_desc_tmap8x32 = tri_maps + 0;")
	assert.Contains(t, src, "tri_tmap* const a_desc_tmap64x32 = tri_maps + 1;")
	assert.Contains(t, src, "tri_tmap* const c_desc_tmap64x32 = tri_maps + 3;")
	// The maps: a's in 8-row boxes with 64-byte swizzle (32 fp16 a row),
	// the fp32 c's in boxes of 128 bytes a row (32 fp32), 128-byte
	// swizzled; strides in bytes.
	build := strings.Index(src, "if (tri_thread_id() == 0) tri_tmap_build_2d<32, 8, 1, 2>(a_desc_tmap8x32, a_ptr, a_desc_shape1, a_desc_shape0, (t8) * 2);")
	loop := strings.Index(src, "for (int k = 0; k < t37; k += 1) {")
	require.True(t, build > 0 && loop > build, "a's map is built before the loop")
	// a's rows viewed in wgmma's order (4 warps, 64 rows: repetitions 32
	// rows apart, then the warps 8 apart), for the blocks inside the
	// tensor; the 8-row boxes for the last.
	assert.Contains(t, src, "tri_tmap_build_rows<32, 1, 2, 2, 32, 4, 8, 1, 1>(a_desc_tmap64x32, a_ptr, a_desc_shape1, a_desc_shape0, (t8) * 2);")
	assert.Contains(t, src, "if ((int)(offs_am_i64) >= 0 && (int)(offs_am_i64) + 64 <= a_desc_shape0) {")
	assert.Contains(t, src, "tri_tma_load_5d(tri_stage0 + tri_write * 8192, a_desc_tmap64x32, (int)(offs_k_i64), (int)(offs_am_i64), 0, 0, 0, tri_bar);")
	assert.Contains(t, src, "} else {  // the tensor's last rows: 8-row boxes, each to its place")
	assert.Contains(t, src, "tri_tmap_build_2d<32, 64, 1, 2>(b_desc_tmap64x32, b_ptr, b_desc_shape1, b_desc_shape0, (t14) * 2);")
	assert.Contains(t, src, "tri_tmap_build_2d<32, 64, 2, 3>(c_desc_tmap64x32, c_ptr, c_desc_shape1, c_desc_shape0, (t20) * 4);")
	assert.Contains(t, src, "tri_tma_load_2d(tri_stage0 + tri_write * 8192 + 4096, b_desc_tmap64x32, (int)(offs_k_i64_1), (int)(offs_bn_i64), tri_bar);")
	assert.Contains(t, src, "for (int b = 0; b < 2; ++b) tri_tma_store_2d(c_desc_tmap64x32, (int)(offs_bn_i64_1) + b * 32, (int)(offs_am_i64_1), tri_box + b * 8192);")
	assert.NotContains(t, src, "copies of rows from the descriptor")
	p, err := launch.Prepare("../conformance/constructs/tensor_desc_matmul.tri", "", &launch.Options{Arch: "sm_90a"})
	require.NoError(t, err)
	res, err := cudagen.Generate(p.Kernel, cudagen.Options{Arch: "sm_90a"})
	require.NoError(t, err)
	assert.Equal(t, 512, res.ScratchBytes)
	assert.Empty(t, res.TensorMaps)
}

// TestDeviceTensorMapsBuiltOncePerDescriptor checks where a persistent
// kernel builds the maps of descriptors made at its top: before its tile
// loop, once, not before each run of the K loop inside it; and where a
// descriptor is made inside the tile loop, inside it.
func TestDeviceTensorMapsBuiltOncePerDescriptor(t *testing.T) {
	src, err := build(t, "../conformance/constructs/tensor_desc_persistent.tri", "sm_90a")
	require.NoError(t, err)
	tiles := strings.Index(src, "for (int tile_id = ")
	require.Positive(t, tiles)
	for _, name := range []string{"a_desc_tmap8x64", "a_desc_tmap128x64", "b_desc_tmap128x64", "c_desc_tmap128x64"} {
		assert.Equal(t, 1, strings.Count(src, ">("+name+", "), name)
		assert.Less(t, strings.Index(src, ">("+name+", "), tiles, name)
	}
	// d_desc is made in the tile loop, from the tile's row: its map is
	// built there, each tile.
	build := strings.Index(src, ">(d_desc_tmap8x64, ")
	assert.Greater(t, build, tiles)
	assert.Equal(t, 1, strings.Count(src, ">(d_desc_tmap8x64, "))
}

// TestHostTensorDescMatmulTMA checks that the same loop copies with the
// TMA unit by default, and that the store of c goes through it too: a in
// one box of a 5-D view of its rows where the block lies inside the
// tensor, else in 8-row boxes to their permuted places, b (read
// as b.T, K-major) in one box, both completing on the buffer's mbarrier,
// from tensor maps passed by value after the other parameters; and that
// the pointers and masks of the loads are not computed in the loop.
func TestHostTensorDescMatmulTMA(t *testing.T) {
	src, err := build(t, "testdata/tensordesc/host_matmul.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "stream into 4 shared-memory buffers with the TMA unit,")
	assert.Contains(t, flat(src), "long long c_desc_stride0, const __grid_constant__ tri_tmap a_desc_tmap8x64, const __grid_constant__ tri_tmap a_desc_tmap128x64, const __grid_constant__ tri_tmap b_desc_tmap128x64, const __grid_constant__ tri_tmap c_desc_tmap128x64) {")
	assert.Contains(t, flat(src), "c_desc_tmap128x64 (a 128-byte CUtensorMap of c_desc, by value: boxes of 128 x 64 elements, 128-byte swizzle)")
	assert.Contains(t, src, "for (int r = 0; r < 128; r += 8) {\n"+
		"              const int tri_srow = r / 8 % 8 / 4 * 64 + r / 64 / 2 * 64 + r / 8 % 4 * 16 + r / 64 % 2 * 8 + r % 8;\n"+
		"              const unsigned int tri_dst = tri_stage0 + tri_write * 32768 + tri_srow * 128;\n"+
		"              tri_tma_load_2d(tri_dst, &a_desc_tmap8x64,")
	assert.Contains(t, flat(src), "a_desc_tmap128x64 (a 128-byte CUtensorMap of a_desc, by value: boxes of 128 x 64 elements, 128-byte swizzle, rows in wgmma's order: a 5-D view)")
	assert.Contains(t, src, "tri_tma_load_5d(tri_stage0 + tri_write * 32768, &a_desc_tmap128x64, ")
	assert.Contains(t, src, "tri_tma_load_2d(tri_stage0 + tri_write * 32768 + 16384, &b_desc_tmap128x64,")
	assert.Contains(t, src, "tri_mbar_init(tri_smem_addr(&tri_mbar[b]), 2);")
	assert.Contains(t, src, "tri_mbar_wait(tri_smem_addr(&tri_mbar[tri_read]), (tri_parity >> tri_read) & 1u);")
	assert.Contains(t, src, "tri_mbar_inval(")
	assert.NotContains(t, src, "a_desc_ptrs")
	assert.NotContains(t, src, "copies into the stage, zero-filled")
	// The store of c goes through shared memory to the TMA unit, in two
	// boxes of 64 columns, 128-byte swizzled: each thread's pairs of
	// columns in one 4-byte store; no pointer or mask of c is computed.
	assert.Contains(t, src, "for (int e = 0; e < 64; e += 2) {\n"+
		"      const int tri_row = L0_base0 + (e / 32) * 64;\n"+
		"      const int tri_col = L0_base1 + (e / 2 % 16) * 8 + e % 2;\n"+
		"      const unsigned int tri_v = (unsigned int)(tri_half)t121[e + 0] | (unsigned int)(tri_half)t121[e + 1] << 16;\n"+
		"      *reinterpret_cast<unsigned int*>(tri_box + tri_col / 64 * 16384 + tri_swizzle(tri_row * 128 + tri_col % 64 * 2, 7)) = tri_v;\n")
	assert.Contains(t, src, "for (int b = 0; b < 2; ++b) tri_tma_store_2d(&c_desc_tmap128x64, (int)(offs_bn_i64_1) + b * 64, (int)(offs_am_i64_1), tri_box + b * 16384);")
	assert.NotContains(t, src, "c_desc_ptrs")
	assert.NotContains(t, src, "c_desc_mask")
}

// TestHostTensorDescTensorMaps checks what the launch encodes the tensor
// maps from: for each, the indices of its descriptor's base, shape and
// stride parameters, the box (outermost first) and the swizzle, in the
// order the kernel takes them after its other parameters.
func TestHostTensorDescTensorMaps(t *testing.T) {
	p, err := launch.Prepare("testdata/tensordesc/host_matmul.tri", "", &launch.Options{Arch: "sm_90a"})
	require.NoError(t, err)
	res, err := cudagen.Generate(p.Kernel, cudagen.Options{Arch: "sm_90a"})
	require.NoError(t, err)
	names := make([]string, len(res.Params))
	for i, prm := range res.Params {
		names[i] = prm.Name
	}
	require.Len(t, res.TensorMaps, 4)
	want := []struct {
		name, of string
		box      []int
		swizzle  int
		rows     []cudagen.RowAxis
	}{
		{"a_desc_tmap8x64", "a_desc", []int{8, 64}, 128, nil},
		// 8 warps, 128 rows: the repetitions 64 rows apart, the warps of
		// a warpgroup 8 apart, the warpgroups 32 apart.
		{"a_desc_tmap128x64", "a_desc", []int{8, 64}, 128, []cudagen.RowAxis{{Count: 2, Stride: 64}, {Count: 4, Stride: 8}, {Count: 2, Stride: 32}}},
		{"b_desc_tmap128x64", "b_desc", []int{128, 64}, 128, nil},
		{"c_desc_tmap128x64", "c_desc", []int{128, 64}, 128, nil},
	}
	for i, w := range want {
		tm := res.TensorMaps[i]
		assert.Equal(t, w.name, tm.Name)
		assert.Equal(t, w.of+"_base", names[tm.Base])
		assert.Equal(t, []string{w.of + "_shape0", w.of + "_shape1"}, []string{names[tm.Shape[0]], names[tm.Shape[1]]})
		assert.Equal(t, []string{w.of + "_stride0"}, []string{names[tm.Strides[0]]})
		assert.Equal(t, 2, tm.ElemBytes)
		assert.Equal(t, w.box, tm.Box)
		assert.Equal(t, w.swizzle, tm.Swizzle)
		assert.Equal(t, w.rows, tm.RowAxes)
	}
	// Without the TMA unit there are none.
	res, err = cudagen.Generate(p.Kernel, cudagen.Options{Arch: "sm_90a", NoTMA: true})
	require.NoError(t, err)
	assert.Empty(t, res.TensorMaps)
	res, err = cudagen.Generate(p.Kernel, cudagen.Options{Arch: "sm_80"})
	require.NoError(t, err)
	assert.Empty(t, res.TensorMaps)
}

// TestDeviceTensorMapsBuiltPerGroup checks tutorial 08's placement: the
// descriptor is made in an `if` from the group's pointer, and used in the
// `while` over the group's tiles inside it; its map is built in the `if`,
// before the `while`, once per group.
func TestDeviceTensorMapsBuiltPerGroup(t *testing.T) {
	src, err := build(t, "testdata/tensordesc/device_groups.tri", "sm_90a")
	require.NoError(t, err)
	group := strings.Index(src, "for (int g = 0; g < groups; g += 1) {")
	build := strings.Index(src, "if (tri_thread_id() == 0) tri_tmap_build_2d<64, 64, 1, 3>(c_desc_tmap64x64, ")
	tiles := strings.Index(src, "for (;;) {")
	require.True(t, group > 0 && build > group && tiles > build, "the map is built in the group loop, before the loop over its tiles")
	assert.Equal(t, 1, strings.Count(src, "tri_tmap_build_2d<64, 64, 1, 3>(c_desc_tmap64x64, "))
	assert.Contains(t, src, "tri_tma_store_2d(c_desc_tmap64x64, ")
}

// TestDirectDescriptorLoads checks that a desc.load into registers is read
// by rows from the descriptor on sm_90a: a vector load of each thread's run
// where it lies inside the tensor, the padding (zero, or NaN with
// padding_option="nan") element by element past its edges, and no pointer
// or mask tile; a block wholly inside the tensor is read without a check per
// run; elsewhere it stays a masked load.
func TestDirectDescriptorLoads(t *testing.T) {
	src, err := build(t, "../conformance/constructs/tensor_desc_2d.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "// Read by rows from the descriptor: a run of 2 elements a thread, zero past the tensor's edge;")
	assert.Contains(t, src, "// Read by rows from the descriptor: a run of 2 elements a thread, NaN past the tensor's edge;")
	assert.Contains(t, src, "if (t252_i64 >= 0 && t252_i64 + 16 <= x_desc_shape0 && t256_i64 >= 0 && t256_i64 + 16 <= x_desc_shape1) {")
	assert.Contains(t, src, "const float* tri_p = x_ptr + (t252_i64 + (long long)(L4_base0)) * t11 + (t256_i64 + (long long)(L4_base1 + e % 2));")
	assert.Contains(t, src, "if (tri_in && tri_col >= 0 && tri_col + 2 <= x_desc_shape1) {")
	assert.Contains(t, src, "tri_f32x2 vec = *reinterpret_cast<const tri_f32x2*>(tri_p);")
	assert.Contains(t, src, "? tri_p[1] : tri_f32_bits(0x7fc00000u);")
	assert.NotContains(t, src, "x_desc_ptrs")
	src, err = build(t, "../conformance/constructs/tensor_desc_2d.tri", "sm_80")
	require.NoError(t, err)
	assert.NotContains(t, src, "Read by rows from the descriptor")
}
