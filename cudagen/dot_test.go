package cudagen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// dotKernel loads a [m, k] and b [k, n] of dtype in (row-major, contiguous),
// multiplies them into a zero accumulator of dtype out and stores the
// result.
func dotKernel(t *testing.T, in, out ir.DType, m, k, n int, p ir.Precision) *ir.Kernel {
	b := newBuilder(t, "dot_kernel", "misc.tri", 4)
	ap := b.param("a_ptr", ir.PtrTo(in.Kind), true)
	bp := b.param("b_ptr", ir.PtrTo(in.Kind), true)
	cp := b.param("c_ptr", ir.PtrTo(out.Kind), true)
	b.at(1)
	offs := func(rows, cols int) *ir.Value {
		return b.op(ir.OpAdd, b.op(ir.OpMul, b.expand(b.arange(rows), 1), b.i32(int64(cols))), b.expand(b.arange(cols), 0))
	}
	av := b.load(b.ptrAdd(ap, offs(m, k)), nil, nil)
	bv := b.load(b.ptrAdd(bp, offs(k, n)), nil, nil)
	var zero *ir.Value
	if out.Kind.IsInt() {
		zero = b.i32(0)
	} else {
		zero = b.f(0, out)
	}
	acc := b.splat(zero, ir.Shape{m, n})
	d := b.emit(&ir.Value{Op: ir.OpDot, Type: ir.Type{DType: out, Shape: ir.Shape{m, n}}, Args: []*ir.Value{av, bv, acc}, Precision: p})
	b.store(b.ptrAdd(cp, offs(m, n)), d, nil)
	return b.k
}

func TestDotLowering(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in, out ir.DType
		p       ir.Precision
		m       int // rows; 16 with 4 warps leaves no tensor-core form
		want    []string
	}{
		{"f16", ir.TFloat16, ir.TFloat32, ir.PrecisionTF32, 32, []string{"mma.sync m16n8k16 along K", "tri_mma_f16(", "tri_ldmatrix_x4(", "tri_ldmatrix_x2_trans("}},
		{"f16_out_f16", ir.TFloat16, ir.TFloat16, ir.PrecisionTF32, 32, []string{"tri_mma_f16(", "_f32[16];", "tri_f2h("}},
		{"bf16", ir.Scalar(ir.BFloat16), ir.TFloat32, ir.PrecisionTF32, 32, []string{"tri_mma_bf16(", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"}},
		{"tf32", ir.TFloat32, ir.TFloat32, ir.PrecisionTF32, 32, []string{"mma.sync m16n8k8 along K", "tri_mma_tf32(", "tri_ldmatrix_x4(tri_af", "tri_k += 8)",
			"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "(lane_id / 16) * 4;", "tri_bf[0] = tri_bits_f32(*(tri_b + tri_k * 64"}},
		{"tf32x3", ir.TFloat32, ir.TFloat32, ir.PrecisionTF32x3, 32, []string{"3 x mma.sync m16n8k8 along K", "tri_mma_tf32x3(", "ab[i] = a[i] & 0xffffe000u;"}},
		{"i8", ir.Scalar(ir.Int8), ir.TInt32, ir.PrecisionTF32, 32, []string{"mma.sync m16n8k32 along K", "tri_mma_i8(", "tri_k += 32)", "(lane_id / 16) * 16;",
			"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "tri_bf[0] = tri_pack_i8(tri_b + tri_k * 64 + tri_j * 16, 64); tri_bf[1] = tri_pack_i8(tri_b + tri_k * 64 + tri_j * 16 + 1024, 64);"}},
		{"ieee", ir.TFloat32, ir.TFloat32, ir.PrecisionIEEE, 32, []string{"tri_dot_f32_ieee(", "tri_fma_f32(a[k], b[k * ldb], acc)"}},
		{"f64", ir.TFloat64, ir.TFloat64, ir.PrecisionTF32, 32, []string{"tri_dot_f64(", "tri_fma_f64("}},
		{"tf32_fma", ir.TFloat32, ir.TFloat32, ir.PrecisionTF32, 16, []string{"tri_dot_f32_tf32(", "& 0xffffe000u", "tri_tf32(a[k])"}},
		{"tf32x3_fma", ir.TFloat32, ir.TFloat32, ir.PrecisionTF32x3, 16, []string{"tri_dot_f32_tf32x3(", "tri_tf32(a[k] - ab)"}},
		{"i8_fma", ir.Scalar(ir.Int8), ir.TInt32, ir.PrecisionTF32, 16, []string{"tri_dot_i8(", "(unsigned int)((int)a[k] * (int)b[k * ldb])"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, n := 32, 64
			if tc.m == 16 {
				n = 16
			}
			src, err := gen(dotKernel(t, tc.in, tc.out, tc.m, k, n, tc.p), Options{})
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.True(t, strings.Contains(src, w), "missing %q", w)
			}
			assert.True(t, strings.Contains(src, "__syncthreads();"))
			assert.Equal(t, strings.Contains(src, "tri_dot_"), !strings.Contains(src, "mma.sync"), "one form per dot")
			if tc.in.Kind != ir.Float32 || tc.p == ir.PrecisionIEEE || strings.Contains(src, "mma.sync") {
				assert.False(t, strings.Contains(src, "tri_tf32("), "the tf32 helper only where used")
			}
		})
	}
}

// TestMmaOpOf: the mma.sync form of each dot, and none for the dots with
// no tensor-core form.
func TestMmaOpOf(t *testing.T) {
	for _, tc := range []struct {
		in, out ir.DType
		p       ir.Precision
		want    string
	}{
		{ir.TFloat16, ir.TFloat32, ir.PrecisionTF32, "mma.sync m16n8k16"},
		{ir.TFloat16, ir.TFloat16, ir.PrecisionTF32, "mma.sync m16n8k16"},
		{ir.Scalar(ir.BFloat16), ir.TFloat32, ir.PrecisionTF32, "mma.sync m16n8k16"},
		{ir.TFloat32, ir.TFloat32, ir.PrecisionTF32, "mma.sync m16n8k8"},
		{ir.TFloat32, ir.TFloat32, ir.PrecisionTF32x3, "3 x mma.sync m16n8k8"},
		{ir.TFloat32, ir.TFloat32, ir.PrecisionIEEE, ""},
		{ir.Scalar(ir.Int8), ir.TInt32, ir.PrecisionTF32, "mma.sync m16n8k32"},
		{ir.TFloat64, ir.TFloat64, ir.PrecisionTF32, ""},
	} {
		a := &ir.Value{Type: ir.Type{DType: tc.in, Shape: ir.Shape{32, 32}}}
		v := &ir.Value{Op: ir.OpDot, Type: ir.Type{DType: tc.out, Shape: ir.Shape{32, 32}}, Args: []*ir.Value{a, a, nil}, Precision: tc.p}
		op, ok := mmaOpOf(v)
		assert.Equal(t, tc.want != "", ok, "%+v", tc)
		if ok {
			assert.Equal(t, tc.want, op.String(), "%+v", tc)
		}
	}
}

// TestDotFMAFallback: an f16 dot the warps cannot tile with m16n8 mmas
// (16 x 16 with 4 warps) runs on the CUDA cores.
func TestDotFMAFallback(t *testing.T) {
	src, err := gen(dotKernel(t, ir.TFloat16, ir.TFloat32, 16, 16, 16, ir.PrecisionTF32), Options{})
	require.NoError(t, err)
	assert.True(t, strings.Contains(src, "tri_dot_f16(") && strings.Contains(src, "tri_h2f(a[k])"))
	assert.False(t, strings.Contains(src, "mma.sync"))
}

// TestMmaBlocked checks the accumulator layouts chosen for the tensor
// cores: 16 rows and 8 columns per warp and repetition, no replication.
func TestMmaBlocked(t *testing.T) {
	for _, tc := range []struct {
		m, n, k, warps int
		wpc            []int
		ok             bool
	}{
		{128, 128, 32, 4, []int{2, 2}, true},
		{128, 128, 32, 8, []int{4, 2}, true},
		{128, 256, 64, 8, []int{2, 4}, true},
		{32, 64, 32, 4, []int{2, 2}, true},
		{16, 64, 16, 4, []int{1, 4}, true},
		{16, 16, 16, 4, nil, false},
		{32, 32, 8, 4, nil, false},
	} {
		a := &ir.Value{Type: ir.Type{DType: ir.TFloat16, Shape: ir.Shape{tc.m, tc.k}}}
		bv := &ir.Value{Type: ir.Type{DType: ir.TFloat16, Shape: ir.Shape{tc.k, tc.n}}}
		v := &ir.Value{Op: ir.OpDot, Type: ir.Type{DType: ir.TFloat32, Shape: ir.Shape{tc.m, tc.n}}, Args: []*ir.Value{a, bv, nil}}
		b, ok := mmaBlocked(v, tc.warps)
		assert.Equal(t, tc.ok, ok, "%+v", tc)
		if ok {
			assert.Equal(t, tc.wpc, b.WarpsPerCTA, "%+v", tc)
			assert.Equal(t, []int{1, 2}, b.SizePerThread)
			assert.Equal(t, []int{8, 4}, b.ThreadsPerWarp)
		}
	}
}

func TestDotTooLargeForSharedMemory(t *testing.T) {
	_, err := Generate(dotKernel(t, ir.TFloat32, ir.TFloat32, 256, 128, 256, ir.PrecisionIEEE), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs 256 KiB of shared memory")
}

// A dot whose operands take more than the 48 KiB a kernel may declare
// statically stages them in dynamic shared memory, whose size the launch
// reads from the generated source.
func TestDotInDynamicSharedMemory(t *testing.T) {
	res, err := Generate(dotKernel(t, ir.TFloat32, ir.TFloat32, 128, 64, 128, ir.PrecisionIEEE), Options{})
	require.NoError(t, err)
	assert.Contains(t, res.Source, "extern __shared__")
	assert.Equal(t, 65536, res.SharedBytes)
	res, err = Generate(dotKernel(t, ir.TFloat16, ir.TFloat32, 32, 32, 32, ir.PrecisionIEEE), Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, res.SharedBytes)
}
