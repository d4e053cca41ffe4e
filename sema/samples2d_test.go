package sema

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

var posSuffix = regexp.MustCompile(`   // k\.tri:\d+`)

// TestSamples2D specializes the kernels of testdata/samples (two-dimensional
// tiles, reductions, atomics) for their recorded launches and checks lines
// of the printed IR.
func TestSamples2D(t *testing.T) {
	f32, f16, i32 := ptr(ir.Float32), ptr(ir.Float16), scalar(ir.Int32)
	eps := scalar(ir.Float32)
	tests := []struct {
		file, kernel string
		sig          Signature
		want         []string
	}{
		{"colsum.tri", "colsum_kernel", sig(f32, f32, i32, i32, i32, cInt(32), cInt(64)), []string{
			"mask: i1[32,64] = and", "tile: fp32[32,64] = load", "fp32[64] = reduce %", "axis=0, combine=sum",
		}},
		{"grayscale.tri", "rgb2grey_k", sig(ptr(ir.Uint8), ptr(ir.Uint8), i32, i32, cInt(16), cInt(32)), []string{
			"pid_1: i32 = program_id 1", "r: u8[16,32] = load", "grey: fp32[16,32] = add", "u8[16,32] = cast",
		}},
		{"layernorm_bwd.tri", "_layer_norm_bwd_dx_fused", sig(f16, f16, f32, f32, f16, f16, f32, f32, ptr(ir.Int32), i32, i32, cInt(16), cInt(512)), []string{
			"c1: fp32 = div", "i32 = atomic_cas %", "sem=acq_rel, scope=gpu", "i32 = atomic_rmw %", "op=xchg",
		}},
		{"layernorm_bwd.tri", "_layer_norm_bwd_dwdb", sig(f32, f32, f32, f32, i32, i32, cInt(32), cInt(64)), []string{
			"sum_dw: fp32[64] = reduce",
		}},
		{"layernorm_dwdb.tri", "_layer_norm_bwd_dwdb", sig(f32, f32, f32, f32, i32, i32, cInt(32), cInt(64)), []string{
			"sum_db: fp32[64] = reduce",
		}},
		{"layernorm_fwd.tri", "_layer_norm_fwd_fused", sig(f16, f16, f16, f16, f32, f32, i32, i32, eps, cInt(1024)), []string{
			"mean: fp32 = div", "var: fp32 = div", "rstd: fp32 = div",
		}},
		{"outer.tri", "outer_kernel", sig(f32, f32, f32, i32, i32, i32, cInt(32), cInt(64)), []string{
			"prod: fp32[32,64] = mul", "rn: i32[64] = add",
		}},
		{"rmsnorm.tri", "rmsnorm_kernel", sig(f16, f16, f16, i32, i32, eps, cInt(1024)), []string{
			"ms: fp32 = div", "rstd: fp32 = rsqrt",
		}},
		{"softmax.tri", "softmax_kernel", sig(f32, f32, i32, i32, i32, cInt(1024)), []string{
			"fp32 = const -inf", "fp32 = reduce %", "axis=0, combine=max", "den: fp32 = reduce",
		}},
		{"softmax_persistent.tri", "softmax_kernel", sig(f32, f32, i32, i32, i32, i32, cInt(1024), cInt(4)), []string{
			"num_stages=4", "denominator: fp32 = reduce",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.kernel, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "samples", tt.file))
			require.NoError(t, err)
			k := compile(t, string(src), tt.kernel, tt.sig)
			out := posSuffix.ReplaceAllString(printed(k), "")
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
			if t.Failed() {
				t.Log("\n" + out)
			}
		})
	}
}

// TestPrintSoftmax pins the whole printed form of the fused softmax.
func TestPrintSoftmax(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "samples", "softmax.tri"))
	require.NoError(t, err)
	k := compile(t, string(src), "softmax_kernel", sig(ptr(ir.Float32), ptr(ir.Float32), scalar(ir.Int32), scalar(ir.Int32), scalar(ir.Int32), cInt(1024)))
	want := `kernel softmax_kernel(out_ptr: *fp32, in_ptr: *fp32, in_row_stride: i32, out_row_stride: i32, n_cols: i32) num_warps=4 num_stages=3
  spec out_ptr runtime *fp32
  spec in_ptr runtime *fp32
  spec in_row_stride runtime i32
  spec out_row_stride runtime i32
  spec n_cols runtime i32
  spec BLOCK_SIZE constexpr 1024
  %0 out_ptr: *fp32 = param 0   // k.tri:17
  %1 in_ptr: *fp32 = param 1   // k.tri:17
  %2 in_row_stride: i32 = param 2   // k.tri:17
  %3 out_row_stride: i32 = param 3   // k.tri:17
  %4 n_cols: i32 = param 4   // k.tri:17
  %5 row: i32 = program_id 0   // k.tri:18
  %6 cols: i32[1024] = arange 0, 1024   // k.tri:19
  %7: i32[1024] = splat %4   // k.tri:20
  %8 mask: i1[1024] = lt %6, %7   // k.tri:20
  %9: i32 = mul %5, %2   // k.tri:21
  %10: *fp32 = ptr_add %1, %9   // k.tri:21
  %11: *fp32[1024] = splat %10   // k.tri:21
  %12: *fp32[1024] = ptr_add %11, %6   // k.tri:21
  %13: fp32 = const -inf   // k.tri:21
  %14: fp32[1024] = splat %13   // k.tri:21
  %15 x: fp32[1024] = load %12, %8, %14   // k.tri:21
  %16: fp32 = reduce %15, axis=0, combine=max   // k.tri:22
  %17: fp32[1024] = splat %16   // k.tri:22
  %18 x_minus_max: fp32[1024] = sub %15, %17   // k.tri:22
  %19 num: fp32[1024] = exp %18   // k.tri:23
  %20 den: fp32 = reduce %19, axis=0, combine=sum   // k.tri:24
  %21: i32 = mul %5, %3   // k.tri:25
  %22: *fp32 = ptr_add %0, %21   // k.tri:25
  %23: *fp32[1024] = splat %22   // k.tri:25
  %24: *fp32[1024] = ptr_add %23, %6   // k.tri:25
  %25: fp32[1024] = splat %20   // k.tri:25
  %26: fp32[1024] = div %19, %25   // k.tri:25
  %27 = store %24, %26, %8   // k.tri:25
`
	assert.Equal(t, want, printed(k))
}
