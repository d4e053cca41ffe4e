package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

func TestSamples(t *testing.T) {
	f32, i32 := ptr(ir.Float32), scalar(ir.Int32)
	tests := []struct {
		file, kernel string
		sig          Signature
	}{
		{"add.tri", "add_kernel", sig(f32, f32, f32, i32, cInt(1024))},
		{"copy.tri", "copy_k", sig(ptr(ir.Int32), ptr(ir.Int32), i32, cInt(16))},
		{"fused_fp16.tri", "silu_mul_kernel", sig(ptr(ir.Float16), ptr(ir.Float16), ptr(ir.Float16), i32, scalar(ir.Float32), cInt(2048))},
		{"helpers.tri", "act_kernel", sig(f32, f32, i32, cStr("leaky_relu"), cInt(256))},
		{"helpers.tri", "act_kernel", sig(f32, f32, i32, cStr("relu"), cInt(256))},
		{"row_chunks.tri", "row_chunks_kernel", sig(f32, f32, f32, i32, i32, scalar(ir.Float32), cInt(128))},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			k := compile(t, readSample(t, tt.file), tt.kernel, tt.sig)
			t.Log("\n" + printed(k))
		})
	}
}

// TestPrintCopy pins the whole printed form of one small kernel.
func TestPrintCopy(t *testing.T) {
	k := compile(t, readSample(t, "copy.tri"), "copy_k", sig(ptr(ir.Int32), ptr(ir.Int32), scalar(ir.Int32), cInt(16)))
	want := `kernel copy_k(x_ptr: *i32, z_ptr: *i32, n: i32) num_warps=4 num_stages=3
  spec x_ptr runtime *i32
  spec z_ptr runtime *i32
  spec n runtime i32
  spec bs constexpr 16
  %0 x_ptr: *i32 = param 0   // k.tri:15
  %1 z_ptr: *i32 = param 1   // k.tri:15
  %2 n: i32 = param 2   // k.tri:15
  %3 pid: i32 = program_id 0   // k.tri:16
  %4: i32 = const 16   // k.tri:17
  %5: i32 = mul %3, %4   // k.tri:17
  %6: i32[16] = arange 0, 16   // k.tri:17
  %7: i32[16] = splat %5   // k.tri:17
  %8 offs: i32[16] = add %7, %6   // k.tri:17
  %9: i32[16] = splat %2   // k.tri:18
  %10 mask: i1[16] = lt %8, %9   // k.tri:18
  %11: *i32[16] = splat %0   // k.tri:19
  %12: *i32[16] = ptr_add %11, %8   // k.tri:19
  %13 x: i32[16] = load %12, %10, _   // k.tri:19
  %14: *i32[16] = splat %1   // k.tri:20
  %15: *i32[16] = ptr_add %14, %8   // k.tri:20
  %16 = store %15, %13, %10   // k.tri:20
`
	assert.Equal(t, want, printed(k))
}
