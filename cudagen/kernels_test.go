package cudagen

// This file builds the test kernels, as sema would from the samples.

import (
	"fmt"
	"testing"

	"github.com/tri-lang/tri/ir"
)

// addKernel is samples/add.tri with BLOCK_SIZE=1024, over dtype d.
func addKernel(t *testing.T, d ir.DType, aligned bool) *ir.Kernel {
	b := newBuilder(t, "add_kernel", "add.tri", 4)
	x := b.param("x_ptr", ir.PtrTo(d.Kind), aligned)
	y := b.param("y_ptr", ir.PtrTo(d.Kind), aligned)
	out := b.param("output_ptr", ir.PtrTo(d.Kind), aligned)
	n := b.param("n_elements", ir.TInt32, false)
	b.constexpr("BLOCK_SIZE", "1024")
	pid := b.at(21).named("pid", b.pid(0))
	start := b.at(22).named("block_start", b.op(ir.OpMul, pid, b.i32(1024)))
	offs := b.at(23).named("offsets", b.op(ir.OpAdd, start, b.arange(1024)))
	mask := b.at(24).named("mask", b.op(ir.OpLt, offs, n))
	xv := b.at(25).named("x", b.load(b.ptrAdd(x, offs), mask, nil))
	yv := b.at(26).named("y", b.load(b.ptrAdd(y, offs), mask, nil))
	o := b.at(27).named("output", b.op(ir.OpAdd, xv, yv))
	b.at(28).store(b.ptrAdd(out, offs), o, mask)
	return b.k
}

// copyKernel is samples/copy.tri with bs=16: fewer elements than threads.
func copyKernel(t *testing.T) *ir.Kernel {
	b := newBuilder(t, "copy_k", "copy.tri", 4)
	x := b.param("x_ptr", ir.PtrTo(ir.Int32), true)
	z := b.param("z_ptr", ir.PtrTo(ir.Int32), true)
	n := b.param("n", ir.TInt32, false)
	b.constexpr("bs", "16")
	pid := b.at(16).named("pid", b.pid(0))
	offs := b.at(17).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, pid, b.i32(16)), b.arange(16)))
	mask := b.at(18).named("mask", b.op(ir.OpLt, offs, n))
	xv := b.at(19).named("x", b.load(b.ptrAdd(x, offs), mask, nil))
	b.at(20).store(b.ptrAdd(z, offs), xv, mask)
	return b.k
}

// rowChunksKernel is samples/row_chunks.tri with BLOCK=blk: a loop with a
// loop-carried accumulator and a loop-carried pointer.
func rowChunksKernel(t *testing.T, blk int) *ir.Kernel {
	b := newBuilder(t, "row_chunks_kernel", "row_chunks.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	yp := b.param("y_ptr", ir.PtrTo(ir.Float32), true)
	pp := b.param("partial_ptr", ir.PtrTo(ir.Float32), true)
	n := b.param("N", ir.TInt32, true)
	stride := b.param("stride", ir.TInt32, true)
	alpha := b.param("alpha", ir.TFloat32, false)
	b.constexpr("BLOCK", fmt.Sprint(blk))
	row := b.at(20).named("row", b.pid(0))
	xv := b.newVar("x_ptr", ir.ScalarType(ir.PtrTo(ir.Float32)))
	b.at(21).assign(xv, b.named("x_ptr", b.ptrAdd(xp, b.op(ir.OpMul, row, stride))))
	yRow := b.at(22).named("y_row", b.ptrAdd(yp, b.op(ir.OpMul, row, stride)))
	acc := b.newVar("acc", ir.TileType(ir.TFloat32, blk))
	b.at(23).assign(acc, b.named("acc", b.splat(b.f(0, ir.TFloat32), ir.Shape{blk})))
	cols := b.at(24).named("cols", b.arange(blk))
	i := b.newVar("start", ir.ScalarType(ir.TInt32))
	b.at(25).forLoop(i, b.i32(0), n, b.i32(int64(blk)), func() {
		start := b.at(26).read(i)
		mask := b.named("mask", b.op(ir.OpLt, b.op(ir.OpAdd, start, cols), n))
		x := b.at(27).named("x", b.load(b.ptrAdd(b.read(xv), cols), mask, b.splat(b.f(0, ir.TFloat32), ir.Shape{blk})))
		sum := b.at(28).named("acc", b.op(ir.OpAdd, b.read(acc), b.op(ir.OpMul, x, x)))
		b.assign(acc, sum)
		b.at(29).store(b.ptrAdd(b.ptrAdd(yRow, b.read(i)), cols), b.op(ir.OpMul, x, alpha), mask)
		b.at(30).assign(xv, b.named("x_ptr", b.ptrAdd(b.read(xv), b.i32(int64(blk)))))
	})
	b.at(31).store(b.ptrAdd(pp, b.op(ir.OpAdd, b.op(ir.OpMul, row, b.i32(int64(blk))), cols)), b.read(acc), nil)
	return b.k
}

// siluKernel is samples/fused_fp16.tri with BLOCK=2048: fp16 in and out,
// computed in fp32.
func siluKernel(t *testing.T) *ir.Kernel {
	b := newBuilder(t, "silu_mul_kernel", "fused_fp16.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float16), true)
	yp := b.param("y_ptr", ir.PtrTo(ir.Float16), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float16), true)
	n := b.param("n", ir.TInt32, false)
	bias := b.param("bias", ir.TFloat32, false)
	b.constexpr("BLOCK", "2048")
	pid := b.at(18).named("pid", b.pid(0))
	offs := b.at(19).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, pid, b.i32(2048)), b.arange(2048)))
	mask := b.at(20).named("mask", b.op(ir.OpLt, offs, n))
	zero := b.f(0, ir.TFloat16)
	x := b.at(21).named("x", b.cast(b.load(b.ptrAdd(xp, offs), mask, b.splat(zero, ir.Shape{2048})), ir.TFloat32))
	y := b.at(22).named("y", b.cast(b.load(b.ptrAdd(yp, offs), mask, b.splat(zero, ir.Shape{2048})), ir.TFloat32))
	one := b.at(23).f(1, ir.TFloat32)
	sig := b.op(ir.OpDiv, one, b.op(ir.OpAdd, one, b.op(ir.OpExp, b.op(ir.OpNeg, x))))
	silu := b.named("silu", b.op(ir.OpMul, x, sig))
	out := b.at(24).named("out", b.op(ir.OpAdd, b.op(ir.OpMul, silu, y), bias))
	b.at(25).store(b.ptrAdd(op, offs), b.cast(out, ir.TFloat16), mask)
	return b.k
}

// miscKernel is testdata/misc.tri with BLOCK=256 and unaligned pointers.
func miscKernel(t *testing.T) *ir.Kernel {
	b := newBuilder(t, "misc_kernel", "misc.tri", 2)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), false)
	sp := b.param("scale_ptr", ir.PtrTo(ir.Float32), false)
	op := b.param("out_ptr", ir.PtrTo(ir.Int32), false)
	n := b.param("n", ir.TInt32, false)
	b.constexpr("BLOCK", "256")
	pid := b.at(9).named("pid", b.pid(0))
	nprog := b.at(10).named("nprog", b.nprog(0))
	scale := b.at(11).named("scale", b.load(sp, nil, nil))
	b.at(12).ifStmt(b.op(ir.OpEq, scale, b.f(0, ir.TFloat32)), func() { b.at(13).ret() }, nil)
	i := b.newVar("start", ir.ScalarType(ir.TInt32))
	lo := b.at(14).op(ir.OpMul, pid, b.i32(256))
	step := b.op(ir.OpMul, nprog, b.i32(256))
	b.forLoop(i, lo, n, step, func() {
		offs := b.at(15).named("offs", b.op(ir.OpAdd, b.read(i), b.arange(256)))
		mask := b.at(16).named("mask", b.op(ir.OpLt, offs, n))
		x := b.at(17).named("x", b.load(b.ptrAdd(xp, offs), mask, b.splat(b.f(1, ir.TFloat32), ir.Shape{256})))
		pos := b.at(18).op(ir.OpGt, x, b.f(0, ir.TFloat32))
		y := b.named("y", b.op(ir.OpWhere, pos, b.op(ir.OpSqrt, x), b.op(ir.OpMul, b.op(ir.OpExp, x), scale)))
		y2 := b.at(19).named("y", b.op(ir.OpMax, y, b.f(-1, ir.TFloat32)))
		b.at(20).store(b.ptrAdd(op, offs), b.cast(y2, ir.TInt32), mask)
	})
	b.at(21).store(b.ptrAdd(sp, b.op(ir.OpAdd, b.i32(1), pid)), b.op(ir.OpMul, scale, b.f(2, ir.TFloat32)), nil)
	return b.k
}

// testKernels are the kernels of the golden and compile tests, by name.
func testKernels(t *testing.T) []struct {
	Name string
	K    *ir.Kernel
} {
	return []struct {
		Name string
		K    *ir.Kernel
	}{
		{"add_f32", addKernel(t, ir.TFloat32, true)},
		{"add_f32_unaligned", addKernel(t, ir.TFloat32, false)},
		{"add_f16", addKernel(t, ir.TFloat16, true)},
		{"copy_i32_bs16", copyKernel(t)},
		{"row_chunks", rowChunksKernel(t, 128)},
		{"row_chunks_1024", rowChunksKernel(t, 1024)},
		{"silu_mul_f16", siluKernel(t)},
		{"misc", miscKernel(t)},
		{"softmax_1024_w4", softmaxKernel(t, 1024, 4)},
		{"softmax_8192_w16", softmaxKernel(t, 8192, 16)},
		{"colsum", colsumKernel(t)},
		{"outer", outerKernel(t)},
		{"row_argmax_custom", rowArgmaxKernel(t)},
		{"argmax_f16", argmaxKernel(t)},
		{"cumsum", cumsumKernel(t)},
		{"histogram", histogramKernel(t)},
		{"transpose", transposeKernel(t)},
		{"spin_lock", lockKernel(t)},
		{"scans", scansKernel(t)},
		{"mixed_layouts", mixedLayoutsKernel(t)},
	}
}
