package cudagen

// This file builds the 2-D, reduction, scan and atomic test kernels, as
// sema would from testdata/*.tri.

import (
	"fmt"
	"math"
	"testing"

	"github.com/tri-lang/tri/ir"
)

// softmaxKernel is testdata/softmax.tri: one row per program.
func softmaxKernel(t *testing.T, block, numWarps int) *ir.Kernel {
	b := newBuilder(t, "softmax_kernel", "softmax.tri", numWarps)
	out := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	in := b.param("in_ptr", ir.PtrTo(ir.Float32), true)
	ins := b.param("in_row_stride", ir.TInt32, true)
	outs := b.param("out_row_stride", ir.TInt32, true)
	n := b.param("n_cols", ir.TInt32, true)
	b.constexpr("BLOCK_SIZE", fmt.Sprint(block))
	row := b.at(18).named("row", b.pid(0))
	cols := b.at(19).named("cols", b.arange(block))
	mask := b.at(20).named("mask", b.op(ir.OpLt, cols, n))
	ninf := b.at(21).splat(b.f(math.Inf(-1), ir.TFloat32), ir.Shape{block})
	x := b.named("x", b.load(b.ptrAdd(b.ptrAdd(in, b.op(ir.OpMul, row, ins)), cols), mask, ninf))
	xm := b.at(22).named("x_minus_max", b.op(ir.OpSub, x, b.reduce(x, 0, ir.CombineMax)))
	num := b.at(23).named("num", b.op(ir.OpExp, xm))
	den := b.at(24).named("den", b.reduce(num, 0, ir.CombineSum))
	b.at(25).store(b.ptrAdd(b.ptrAdd(out, b.op(ir.OpMul, row, outs)), cols), b.op(ir.OpDiv, num, den), mask)
	return b.k
}

// colsumKernel is testdata/colsum.tri with BLOCK_M=32, BLOCK_N=64.
func colsumKernel(t *testing.T) *ir.Kernel {
	const bm, bn = 32, 64
	b := newBuilder(t, "colsum_kernel", "colsum.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	m := b.param("M", ir.TInt32, false)
	n := b.param("N", ir.TInt32, false)
	stride := b.param("stride_m", ir.TInt32, true)
	b.constexpr("BLOCK_M", "32")
	b.constexpr("BLOCK_N", "64")
	cols := b.at(17).named("cols", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(bn)), b.arange(bn)))
	acc := b.newVar("acc", ir.TileType(ir.TFloat32, bn))
	b.at(18).assign(acc, b.named("acc", b.splat(b.f(0, ir.TFloat32), ir.Shape{bn})))
	i := b.newVar("m", ir.ScalarType(ir.TInt32))
	b.at(19).forLoop(i, b.i32(0), m, b.i32(bm), func() {
		rows := b.at(20).named("rows", b.op(ir.OpAdd, b.read(i), b.arange(bm)))
		mask := b.at(21).named("mask", b.op(ir.OpAnd, b.op(ir.OpLt, b.expand(rows, 1), m), b.op(ir.OpLt, b.expand(cols, 0), n)))
		offs := b.at(22).op(ir.OpAdd, b.op(ir.OpMul, b.expand(rows, 1), stride), b.expand(cols, 0))
		tile := b.named("tile", b.load(b.ptrAdd(xp, offs), mask, b.splat(b.f(0, ir.TFloat32), ir.Shape{bm, bn})))
		b.at(23).assign(acc, b.named("acc", b.op(ir.OpAdd, b.read(acc), b.reduce(tile, 0, ir.CombineSum))))
	})
	b.at(24).store(b.ptrAdd(op, cols), b.read(acc), b.op(ir.OpLt, cols, n))
	return b.k
}

// outerKernel is testdata/outer.tri with BM=32, BN=64.
func outerKernel(t *testing.T) *ir.Kernel {
	const bm, bn = 32, 64
	b := newBuilder(t, "outer_kernel", "outer.tri", 4)
	ap := b.param("a_ptr", ir.PtrTo(ir.Float32), true)
	bp := b.param("b_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	m := b.param("M", ir.TInt32, false)
	n := b.param("N", ir.TInt32, false)
	stride := b.param("stride_m", ir.TInt32, true)
	b.constexpr("BM", "32")
	b.constexpr("BN", "64")
	rm := b.at(18).named("rm", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(bm)), b.arange(bm)))
	rn := b.at(19).named("rn", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(1), b.i32(bn)), b.arange(bn)))
	a := b.at(20).named("a", b.load(b.ptrAdd(ap, rm), b.op(ir.OpLt, rm, m), b.splat(b.f(0, ir.TFloat32), ir.Shape{bm})))
	bv := b.at(21).named("b", b.load(b.ptrAdd(bp, rn), b.op(ir.OpLt, rn, n), b.splat(b.f(0, ir.TFloat32), ir.Shape{bn})))
	prod := b.at(22).named("prod", b.op(ir.OpMul, b.expand(a, 1), b.expand(bv, 0)))
	mask := b.at(23).named("mask", b.op(ir.OpAnd, b.op(ir.OpLt, b.expand(rm, 1), m), b.op(ir.OpLt, b.expand(rn, 0), n)))
	offs := b.at(24).op(ir.OpAdd, b.op(ir.OpMul, b.expand(rm, 1), stride), b.expand(rn, 0))
	b.store(b.ptrAdd(op, offs), prod, mask)
	return b.k
}

// rowArgmaxKernel is row_argmax_kernel of testdata/tiles.tri: tl.reduce
// with a @jit combine function over (value, index) pairs.
func rowArgmaxKernel(t *testing.T) *ir.Kernel {
	const bm, bn = 16, 128
	b := newBuilder(t, "row_argmax_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Int32), true)
	n := b.param("n_cols", ir.TInt32, false)
	stride := b.param("stride", ir.TInt32, true)
	b.constexpr("BLOCK_M", "16")
	b.constexpr("BLOCK_N", "128")
	rows := b.at(15).named("rows", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(bm)), b.arange(bm)))
	cols := b.at(16).named("cols", b.arange(bn))
	mask := b.at(17).bcast(b.op(ir.OpLt, b.expand(cols, 0), n), ir.Shape{bm, bn})
	offs := b.op(ir.OpAdd, b.op(ir.OpMul, b.expand(rows, 1), stride), b.expand(cols, 0))
	x := b.named("x", b.load(b.ptrAdd(xp, offs), mask, b.splat(b.f(math.Inf(-1), ir.TFloat32), ir.Shape{bm, bn})))
	idx := b.at(18).named("idx", b.bcast(b.expand(cols, 0), ir.Shape{bm, bn}))

	// The region: (v1, i1, v2, i2) -> (where(gt, v1, v2), where(gt, i1, i2)).
	b.at(9)
	region := &ir.Region{Body: &ir.Block{}}
	arg := func(i int, name string, d ir.DType) *ir.Value {
		v := &ir.Value{ID: b.k.NumValues, Op: ir.OpRegionArg, Type: ir.ScalarType(d), Axis: i, Name: name, Pos: b.pos()}
		b.k.NumValues++
		region.Args = append(region.Args, v)
		return v
	}
	v1, i1, v2, i2 := arg(0, "v1", ir.TFloat32), arg(1, "i1", ir.TInt32), arg(2, "v2", ir.TFloat32), arg(3, "i2", ir.TInt32)
	b.stack = append(b.stack, region.Body)
	gt := b.named("gt", b.op(ir.OpOr, b.op(ir.OpGt, v1, v2), b.op(ir.OpAnd, b.op(ir.OpEq, v1, v2), b.op(ir.OpLt, i1, i2))))
	b.at(10)
	region.Yields = []*ir.Value{b.op(ir.OpWhere, gt, v1, v2), b.op(ir.OpWhere, gt, i1, i2)}
	b.stack = b.stack[:len(b.stack)-1]

	b.at(19)
	red := b.emit(&ir.Value{Op: ir.OpReduce, Type: ir.ScalarType(ir.TVoid), Types: []ir.Type{ir.TileType(ir.TFloat32, bm), ir.TileType(ir.TInt32, bm)},
		Args: []*ir.Value{x, idx}, Axis: 1, Combine: ir.CombineCustom, Region: region})
	i := b.named("i", b.tupleGet(red, 1))
	b.at(20).store(b.ptrAdd(op, rows), i, nil)
	return b.k
}

// cumsumKernel is cumsum_kernel of testdata/tiles.tri with BLOCK=1024.
func cumsumKernel(t *testing.T) *ir.Kernel {
	const blk = 1024
	b := newBuilder(t, "cumsum_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	n := b.param("n", ir.TInt32, false)
	b.constexpr("BLOCK", "1024")
	offs := b.at(25).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(blk)), b.arange(blk)))
	x := b.at(26).named("x", b.load(b.ptrAdd(xp, offs), b.op(ir.OpLt, offs, n), b.splat(b.f(0, ir.TFloat32), ir.Shape{blk})))
	cs := b.at(27).emit(&ir.Value{Op: ir.OpScan, Type: x.Type, Args: []*ir.Value{x}, Axis: 0, Combine: ir.CombineSum})
	b.store(b.ptrAdd(op, offs), cs, b.op(ir.OpLt, offs, n))
	return b.k
}

// histogramKernel is histogram_kernel of testdata/tiles.tri with
// BLOCK=256: atomic adds to data-dependent addresses.
func histogramKernel(t *testing.T) *ir.Kernel {
	const blk = 256
	b := newBuilder(t, "histogram_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Int32), true)
	hp := b.param("hist_ptr", ir.PtrTo(ir.Int32), true)
	n := b.param("n", ir.TInt32, false)
	b.constexpr("BLOCK", "256")
	offs := b.at(32).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(blk)), b.arange(blk)))
	mask := b.at(33).named("mask", b.op(ir.OpLt, offs, n))
	bins := b.at(34).named("bins", b.load(b.ptrAdd(xp, offs), mask, b.splat(b.i32(0), ir.Shape{blk})))
	b.at(35).atomic(ir.AtomicAdd, b.ptrAdd(hp, bins), b.i32(1), mask)
	return b.k
}

// transposeKernel is transpose_kernel of testdata/tiles.tri with BLOCK=32.
func transposeKernel(t *testing.T) *ir.Kernel {
	const blk = 32
	b := newBuilder(t, "transpose_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	yp := b.param("y_ptr", ir.PtrTo(ir.Float32), true)
	b.constexpr("BLOCK", "32")
	r := b.at(40).named("r", b.arange(blk))
	offs := b.at(41).op(ir.OpAdd, b.op(ir.OpMul, b.expand(r, 1), b.i32(blk)), b.expand(r, 0))
	x := b.named("x", b.load(b.ptrAdd(xp, offs), nil, nil))
	offs2 := b.at(42).op(ir.OpAdd, b.op(ir.OpMul, b.expand(r, 1), b.i32(blk)), b.expand(r, 0))
	tr := b.emit(&ir.Value{Op: ir.OpTrans, Type: x.Type, Args: []*ir.Value{x}, Perm: []int{1, 0}})
	b.store(b.ptrAdd(yp, offs2), tr, nil)
	return b.k
}

// argmaxKernel is argmax_kernel of testdata/tiles.tri with BLOCK=4096 and
// 8 warps: tl.argmax across warps.
func argmaxKernel(t *testing.T) *ir.Kernel {
	const blk = 4096
	b := newBuilder(t, "argmax_kernel", "tiles.tri", 8)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float16), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Int32), true)
	n := b.param("n", ir.TInt32, false)
	b.constexpr("BLOCK", "4096")
	offs := b.at(47).named("offs", b.arange(blk))
	x := b.at(48).named("x", b.load(b.ptrAdd(xp, offs), b.op(ir.OpLt, offs, n), b.splat(b.f(math.Inf(-1), ir.TFloat16), ir.Shape{blk})))
	b.at(49).store(b.ptrAdd(op, b.pid(0)), b.reduce(x, 0, ir.CombineArgMax), nil)
	return b.k
}

// lockKernel is the locked accumulation of testdata/layernorm_bwd.tri
// (lines 59-70), with fp32 partial buffers and BLOCK_SIZE_N=512: a spin
// lock taken by one thread for the whole program.
func lockKernel(t *testing.T) *ir.Kernel {
	const blk = 512
	b := newBuilder(t, "_layer_norm_bwd_dx_fused", "layernorm_bwd.tri", 4)
	dwp := b.param("DW", ir.PtrTo(ir.Float32), true)
	lockp := b.param("Lock", ir.PtrTo(ir.Int32), true)
	n := b.param("N", ir.TInt32, false)
	b.constexpr("GROUP_SIZE_M", "16")
	b.constexpr("BLOCK_SIZE_N", "512")
	row := b.at(31).named("row", b.pid(0))
	cols := b.at(32).named("cols", b.arange(blk))
	mask := b.at(33).named("mask", b.op(ir.OpLt, cols, n))
	lockID := b.at(38).named("lock_id", b.op(ir.OpRem, row, b.i32(16)))
	lock := b.at(39).named("Lock", b.ptrAdd(lockp, lockID))
	count := b.at(40).named("Count", b.ptrAdd(lock, b.i32(16)))
	dw := b.at(41).named("DW", b.ptrAdd(b.ptrAdd(dwp, b.op(ir.OpMul, lockID, n)), cols))
	pdw := b.newVar("partial_dw", ir.TileType(ir.TFloat32, blk))
	b.at(57).assign(pdw, b.named("partial_dw", b.cast(cols, ir.TFloat32)))
	b.at(59).whileLoop(func() *ir.Value {
		return b.op(ir.OpEq, b.atomicCAS(lock, b.i32(0), b.i32(1)), b.i32(1))
	}, func() {})
	c := b.at(61).named("count", b.load(count, nil, nil))
	b.at(62).ifStmt(b.op(ir.OpEq, c, b.i32(0)), func() {
		b.at(63).atomic(ir.AtomicXchg, count, b.i32(1), nil)
	}, func() {
		b.at(65).assign(pdw, b.named("partial_dw", b.op(ir.OpAdd, b.read(pdw), b.load(dw, mask, nil))))
	})
	b.at(67).store(dw, b.read(pdw), mask)
	b.at(69).emit(&ir.Value{Op: ir.OpBarrier, Type: ir.ScalarType(ir.TVoid)})
	b.at(70).atomic(ir.AtomicXchg, lock, b.i32(0), nil)
	return b.k
}

// scansKernel is scans_kernel of testdata/tiles.tri with BM=16, BN=64: a
// scan with a @jit combine function along axis 1 and a reverse cumsum
// along axis 0.
func scansKernel(t *testing.T) *ir.Kernel {
	const bm, bn = 16, 64
	b := newBuilder(t, "scans_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	b.constexpr("BM", "16")
	b.constexpr("BN", "64")
	rows := b.at(59).named("rows", b.arange(bm))
	cols := b.at(60).named("cols", b.arange(bn))
	offs := b.at(61).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, b.expand(rows, 1), b.i32(bn)), b.expand(cols, 0)))
	x := b.at(62).named("x", b.load(b.ptrAdd(xp, offs), nil, nil))

	b.at(54)
	region := &ir.Region{Body: &ir.Block{}}
	for i, name := range []string{"a", "b"} {
		v := &ir.Value{ID: b.k.NumValues, Op: ir.OpRegionArg, Type: ir.ScalarType(ir.TFloat32), Axis: i, Name: name, Pos: b.pos()}
		b.k.NumValues++
		region.Args = append(region.Args, v)
	}
	b.stack = append(b.stack, region.Body)
	region.Yields = []*ir.Value{b.op(ir.OpMax, region.Args[0], region.Args[1])}
	b.stack = b.stack[:len(b.stack)-1]

	runMax := b.at(63).named("run_max", b.emit(&ir.Value{Op: ir.OpScan, Type: x.Type, Args: []*ir.Value{x}, Axis: 1, Combine: ir.CombineCustom, Region: region}))
	rev := b.at(64).named("rev", b.emit(&ir.Value{Op: ir.OpScan, Type: x.Type, Args: []*ir.Value{x}, Axis: 0, Combine: ir.CombineSum, Flags: ir.FlagReverse}))
	b.at(65).store(b.ptrAdd(op, offs), b.op(ir.OpAdd, runMax, rev), nil)
	return b.k
}

// mixedLayoutsKernel is mixed_layouts_kernel of testdata/tiles.tri: two
// 2-D tiles in transposed shapes share the index vectors r and c (which
// are recomputed, not moved) and a row sum of one is added to the other
// (converted through shared memory).
func mixedLayoutsKernel(t *testing.T) *ir.Kernel {
	b := newBuilder(t, "mixed_layouts_kernel", "tiles.tri", 4)
	xp := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
	qp := b.param("q_ptr", ir.PtrTo(ir.Float32), true)
	wp := b.param("w_ptr", ir.PtrTo(ir.Float32), true)
	op := b.param("out_ptr", ir.PtrTo(ir.Float32), true)
	r := b.at(96).named("r", b.arange(16))
	c := b.at(97).named("c", b.arange(32))
	qoffs := func() *ir.Value {
		return b.op(ir.OpAdd, b.op(ir.OpMul, b.expand(c, 1), b.i32(16)), b.expand(r, 0))
	}
	q := b.at(98).named("q", b.load(b.ptrAdd(qp, qoffs()), nil, nil))
	x := b.at(99).named("x", b.load(b.ptrAdd(xp, b.op(ir.OpAdd, b.op(ir.OpMul, b.expand(r, 1), b.i32(32)), b.expand(c, 0))), nil, nil))
	s := b.at(100).named("s", b.op(ir.OpAdd, b.reduce(x, 1, ir.CombineSum), b.load(b.ptrAdd(wp, r), nil, nil)))
	b.at(101).store(b.ptrAdd(op, qoffs()), b.op(ir.OpAdd, q, b.expand(s, 0)), nil)
	return b.k
}
