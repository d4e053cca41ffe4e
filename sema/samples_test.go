package sema

import (
	"testing"

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
