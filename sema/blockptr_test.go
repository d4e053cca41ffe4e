package sema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestBlockPtrLowering checks what loads and stores through block pointers
// become: int64 address arithmetic, a mask only over the checked
// dimensions, padding as other, and which parts a loop carries.
func TestBlockPtrLowering(t *testing.T) {
	f32, i1, i32 := ptr(ir.Float32), ptr(ir.Bool), scalar(ir.Int32)
	mk := "b = tl.make_block_ptr(p, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))\n    "
	tests := []struct {
		name, body string
		sig        Signature
		want, not  []string
	}{
		{"unchecked load", mk + "x = tl.load(b)", sig(f32, i32),
			[]string{"b_offs: i64[16,16] = add", "b_ptrs: *fp32[16,16] = ptr_add", "x: fp32[16,16] = load %"},
			[]string{"b_mask", "= and"}},
		{"boundary check, zero padding", mk + "x = tl.load(b, boundary_check=(0, 1), padding_option='zero')", sig(f32, i32),
			[]string{"b_mask: i1[16,16] = and", "fp32 = const 0", "b_idx0: i64[16] = add", "b_idx1: i64[16] = add"}, nil},
		{"nan padding on one dimension", mk + "x = tl.load(b, boundary_check=1, padding_option='nan')", sig(f32, i32),
			[]string{"b_mask: i1[16,16] = broadcast", "fp32 = const nan"}, nil},
		{"a bool names a dimension", mk + "x = tl.load(b, boundary_check=(True,))", sig(f32, i32),
			[]string{"b_mask: i1[16,16] = broadcast", "i1[1,16] = lt"}, nil},
		{"boundary_check=0 is falsy", mk + "x = tl.load(b, boundary_check=0)", sig(f32, i32),
			nil, []string{"b_mask"}},
		{"no padding, no other", mk + "x = tl.load(b, boundary_check=(0,))", sig(f32, i32),
			[]string{"b_mask"}, []string{"const nan", "fp32 = const 0"}},
		{"boolean base reads int8", mk + "x = tl.load(b)", sig(i1, i32),
			[]string{"*i8 = bitcast", "x: i8[16,16] = load"}, nil},
		{"advance in a loop carries the offsets only", mk + "for i in range(4):\n        tl.store(b, 1.0)\n        b = tl.advance(b, (0, 16))", sig(f32, i32),
			[]string{"$0 b_off0: i64", "$1 b_off1: i64", "b_off1: i64 = add", "b_stride0: i64 = cast"}, []string{"b_base", "b_stride0: i64 = read", "b_shape0: i64 = read"}},
		{"a while loop carries a block pointer too", mk + "i = 0\n    while i < n:\n        tl.store(b, 1.0)\n        b = b.advance((16, 0))\n        i += 1", sig(f32, i32),
			[]string{"$0 b_off0: i64", "$1 b_off1: i64", "b_off0: i64 = add", "while"}, []string{"b_base"}},
		{"a new block pointer in a loop carries every part", mk + "for i in range(4):\n        tl.store(b, 1.0)\n        b = tl.make_block_ptr(p, (n, n), (n, 1), (i, 0), (16, 16), (1, 0))", sig(f32, i32),
			[]string{"b_base: *fp32", "b_shape1: i64", "b_stride0: i64", "b_off1: i64"}, nil},
		{"runtime if merges the parts that differ", mk + "if n > 0:\n        b = tl.advance(b, (16, 0))\n    tl.store(b, 1.0)", sig(f32, i32),
			[]string{"b_off0: i64 = read"}, []string{"b_off1: i64 = read", "b_base"}},
		{"a block pointer's dtype is a pointer to a block type", mk + "tl.static_assert(b.dtype.element_ty != tl.float32)\n    tl.static_assert(b.dtype.element_ty.scalar == tl.float32)\n    tl.static_assert(b.dtype.is_ptr())\n    tl.static_assert(not b.dtype.element_ty.is_fp32())\n    tl.static_assert(b.dtype.element_ty.is_block())\n    tl.static_assert(b.dtype.element_ty.shape == (16, 16))\n    tl.store(b, tl.zeros((16, 16), dtype=tl.float16).to(b.dtype.element_ty))", sig(f32, i32),
			[]string{"fp32[16,16] = cast"}, nil},
		{"int32 offsets widen to int64", "b = tl.make_block_ptr(p, (n,), (1,), (n,), (16,), (0,))\n    x = tl.load(b)", sig(f32, i32),
			[]string{"b_off0: i64 = cast", "b_idx0: i64[16] = add"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "@triton.jit\ndef k(p, n):\n    " + tc.body + "\n"
			out := printed(compile(t, src, "k", tc.sig))
			for _, w := range tc.want {
				assert.Contains(t, out, w)
			}
			for _, w := range tc.not {
				assert.NotContains(t, out, w)
			}
			assert.False(t, strings.Contains(out, ": i32[16,16] = ptr_add"), "offsets must be int64")
		})
	}
}

// TestBlockPtrStaticPrint checks how tl.static_print writes a block
// pointer and its types: as Triton's str() does.
func TestBlockPtrStaticPrint(t *testing.T) {
	src := "@triton.jit\ndef k(p, n):\n    b = tl.make_block_ptr(p, (n, n), (n, 1), (0, 0), (16, 32), (1, 0))\n" +
		"    tl.static_print(b, b.dtype, b.dtype.element_ty)\n"
	k := compile(t, src, "k", sig(ptr(ir.Float16), scalar(ir.Int32)))
	assert.Equal(t, []string{"pointer<<(16, 32), fp16>>[] pointer<<(16, 32), fp16>> <(16, 32), fp16>\n"}, k.StaticPrints)
}
