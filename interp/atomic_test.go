package interp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// histogramKernel builds
//
//	pid = tl.program_id(0)
//	offs = pid * BLOCK + tl.arange(0, BLOCK)
//	mask = offs < n
//	bins = tl.load(data + offs, mask=mask)
//	tl.atomic_add(hist + bins, 1, mask=mask)
func histogramKernel(t testing.TB, block int) *ir.Kernel {
	b := newBuilder("histogram")
	data, hist := b.param("data", ir.PtrTo(ir.Int32)), b.param("hist", ir.PtrTo(ir.Int32))
	n := b.param("n", ir.TInt32)
	b.at(2)
	offs := b.bin(ir.OpAdd, b.splat(b.bin(ir.OpMul, b.pid(0), b.i32(int64(block))), block), b.arange(0, block))
	mask := b.cmp(ir.OpLt, offs, b.splat(n, block))
	bins := b.load(b.ptrAdd(b.splat(data, block), offs), mask, nil)
	b.at(3)
	b.atomic(ir.AtomicAdd, b.ptrAdd(b.splat(hist, block), bins), b.splat(b.i32(1), block), mask)
	return b.done(t)
}

func TestAtomicHistogram(t *testing.T) {
	const block, programs, bins = 64, 1000, 16
	n := programs*block - 37
	r := rand.New(rand.NewPCG(11, 12))
	data := tensor.New(ir.Int32, programs*block)
	want := make([]int64, bins)
	for i := range n {
		x := r.IntN(bins)
		data.SetInt(i, int64(x))
		want[x]++
	}
	for i := n; i < programs*block; i++ {
		data.SetInt(i, 1<<20) // out of bounds if the mask were ignored
	}
	k := histogramKernel(t, block)
	for _, w := range []int{1, 3, 8} {
		hist := tensor.New(ir.Int32, bins)
		args := []Arg{{Tensor: data}, {Tensor: hist}, {Scalar: ir.IntConst(int64(n))}}
		require.NoError(t, Run(k, [3]int{programs, 1, 1}, args, Options{Workers: w}))
		for i := range bins {
			assert.Equal(t, want[i], hist.Int(i), "bin %d with %d workers", i, w)
		}
	}
}

// TestAtomicOps applies each atomic through 4 lanes of one program, two of
// them on the same element (lanes apply in index order) and one masked
// off, and checks the old values and the memory.
func TestAtomicOps(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan := math.NaN()
	tests := []struct {
		kind     ir.Kind
		op       ir.AtomicOp
		mem, val []float64 // mem: 3 elements; lanes 0 and 1 hit element 0, lane 2 element 1, lane 3 (masked) element 2
		wantOld  []float64
		wantMem  []float64
	}{
		{ir.Int32, ir.AtomicAdd, []float64{1, 2, 3}, []float64{10, 20, 30, 40}, []float64{1, 11, 2, 0}, []float64{31, 32, 3}},
		{ir.Int32, ir.AtomicMax, []float64{1, 2, 3}, []float64{-5, 7, 1, 40}, []float64{1, 1, 2, 0}, []float64{7, 2, 3}},
		{ir.Int32, ir.AtomicMin, []float64{1, 2, 3}, []float64{-5, 7, 1, -40}, []float64{1, -5, 2, 0}, []float64{-5, 1, 3}},
		{ir.Int32, ir.AtomicAnd, []float64{7, 6, 3}, []float64{5, 4, 3, 0}, []float64{7, 5, 6, 0}, []float64{4, 2, 3}},
		{ir.Int32, ir.AtomicOr, []float64{1, 2, 3}, []float64{4, 8, 1, 16}, []float64{1, 5, 2, 0}, []float64{13, 3, 3}},
		{ir.Int32, ir.AtomicXor, []float64{1, 2, 3}, []float64{3, 3, 2, 16}, []float64{1, 2, 2, 0}, []float64{1, 0, 3}},
		{ir.Int32, ir.AtomicXchg, []float64{1, 2, 3}, []float64{4, 5, 6, 7}, []float64{1, 4, 2, 0}, []float64{5, 6, 3}},
		{ir.Int32, ir.AtomicAdd, []float64{math.MaxInt32, 0, 0}, []float64{1, 0, 0, 0}, []float64{math.MaxInt32, math.MinInt32, 0, 0}, []float64{math.MinInt32, 0, 0}},
		{ir.Uint32, ir.AtomicMax, []float64{1, 2, 3}, []float64{math.MaxUint32, 7, 1, 40}, []float64{1, math.MaxUint32, 2, 0}, []float64{math.MaxUint32, 2, 3}},
		{ir.Uint8, ir.AtomicAdd, []float64{250, 2, 3}, []float64{5, 5, 1, 1}, []float64{250, 255, 2, 0}, []float64{4, 3, 3}},
		{ir.Int64, ir.AtomicMin, []float64{1, 2, 3}, []float64{-1 << 40, 7, 1, 40}, []float64{1, -1 << 40, 2, 0}, []float64{-1 << 40, 1, 3}},
		{ir.Float32, ir.AtomicAdd, []float64{1, 2, 3}, []float64{0.5, 1 << 25, 0.25, 1}, []float64{1, 1.5, 2, 0}, []float64{1<<25 + 2, 2.25, 3}},
		{ir.Float32, ir.AtomicMax, []float64{-3, 2, 3}, []float64{-5, -1, 7, 40}, []float64{-3, -3, 2, 0}, []float64{-1, 7, 3}},
		{ir.Float32, ir.AtomicMax, []float64{-3, 2, 3}, []float64{1, -1, 1, 40}, []float64{-3, 1, 2, 0}, []float64{1, 2, 3}},
		{ir.Float32, ir.AtomicMax, []float64{negZero, negZero, 3}, []float64{negZero, 0, negZero, 40}, []float64{negZero, negZero, negZero, 0}, []float64{0, negZero, 3}},
		{ir.Float32, ir.AtomicMin, []float64{3, -2, 3}, []float64{5, -1, -7, 40}, []float64{3, 3, -2, 0}, []float64{-1, -7, 3}},
		{ir.Float32, ir.AtomicMin, []float64{0, 2, 3}, []float64{negZero, 1, 2, 40}, []float64{0, negZero, 2, 0}, []float64{negZero, 2, 3}},
		{ir.Float32, ir.AtomicXchg, []float64{1, 2, 3}, []float64{4, 5, 6, 7}, []float64{1, 4, 2, 0}, []float64{5, 6, 3}},
		{ir.Float64, ir.AtomicAdd, []float64{1, 2, 3}, []float64{0.1, 0.2, 0.5, 1}, []float64{1, 1.1, 2, 0}, []float64{1.1 + 0.2, 2.5, 3}},
		{ir.Float16, ir.AtomicAdd, []float64{2048, 2, 3}, []float64{1, 1, 0.5, 1}, []float64{2048, 2048, 2, 0}, []float64{2048, 2.5, 3}},
		{ir.BFloat16, ir.AtomicMax, []float64{-3, 2, 3}, []float64{-5, -1, 7, 40}, []float64{-3, -3, 2, 0}, []float64{-1, 7, 3}},
		// A +NaN operand has the sign bit clear and the largest bits: it
		// wins a max, loses a min; memory NaN wins a max against positives.
		{ir.Float32, ir.AtomicMax, []float64{1, 2, 3}, []float64{nan, 5, nan, 40}, []float64{1, nan, 2, 0}, []float64{nan, nan, 3}},
		{ir.Float32, ir.AtomicMin, []float64{1, 2, 3}, []float64{nan, -5, nan, 40}, []float64{1, 1, 2, 0}, []float64{-5, 2, 3}},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("%d/%s/%s", i, tc.kind, tc.op), func(t *testing.T) {
			b := newBuilder("atomics")
			mp, vp, op := b.param("mem", ir.PtrTo(tc.kind)), b.param("val", ir.PtrTo(tc.kind)), b.param("old", ir.PtrTo(tc.kind))
			b.at(2)
			lanes := b.arange(0, 4)
			idx := b.value(ir.OpWhere, lanes.Type, b.cmp(ir.OpGt, lanes, b.splat(b.i32(0), 4)), b.bin(ir.OpSub, lanes, b.splat(b.i32(1), 4)), lanes)
			mask := b.cmp(ir.OpLt, lanes, b.splat(b.i32(3), 4))
			val := b.load(b.ptrAdd(b.splat(vp, 4), lanes), nil, nil)
			b.at(3)
			old := b.atomic(tc.op, b.ptrAdd(b.splat(mp, 4), idx), val, mask)
			b.store(b.ptrAdd(b.splat(op, 4), lanes), old, nil)
			mem, vals, olds := tensor.New(tc.kind, 3), tensor.New(tc.kind, 4), tensor.New(tc.kind, 4)
			for i, x := range tc.mem {
				mem.SetFloat(i, x)
			}
			for i, x := range tc.val {
				vals.SetFloat(i, x)
			}
			require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: mem}, {Tensor: vals}, {Tensor: olds}}, Options{}))
			check := func(what string, want []float64, got *tensor.Tensor) {
				for i, w := range want {
					g := got.Float(i)
					if math.IsNaN(w) {
						assert.True(t, math.IsNaN(g), "%s %d: got %v", what, i, g)
						continue
					}
					if tc.kind.IsFloat() {
						w = roundFloat(tc.kind, w, false)
						assert.Equal(t, math.Signbit(w), math.Signbit(g), "%s %d sign", what, i)
					}
					assert.Equal(t, w, g, "%s %d", what, i)
				}
			}
			check("old", tc.wantOld, olds)
			check("mem", tc.wantMem, mem)
		})
	}
}

// TestAtomicCAS compares and swaps through 4 lanes, two on one element.
func TestAtomicCAS(t *testing.T) {
	b := newBuilder("cas")
	mp, op := b.param("mem", ir.PtrTo(ir.Float32)), b.param("old", ir.PtrTo(ir.Float32))
	b.at(2)
	lanes := b.arange(0, 4)
	idx := b.bin(ir.OpShr, lanes, b.splat(b.i32(1), 4)) // 0, 0, 1, 1
	cmp := b.cast(lanes, ir.TFloat32)                   // 0, 1, 2, 3
	val := b.bin(ir.OpAdd, cmp, b.splat(b.cfloat(ir.TFloat32, 10), 4))
	old := b.cas(b.ptrAdd(b.splat(mp, 4), idx), cmp, val)
	b.store(b.ptrAdd(b.splat(op, 4), lanes), old, nil)
	mem, olds := tensor.New(ir.Float32, 2), tensor.New(ir.Float32, 4)
	mem.SetFloat(0, 0) // lane 0 swaps 0 -> 10, lane 1 sees 10 != 1
	mem.SetFloat(1, 3) // lane 2 sees 3 != 2, lane 3 swaps 3 -> 13
	require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: mem}, {Tensor: olds}}, Options{}))
	assert.Equal(t, []float64{10, 13}, []float64{mem.Float(0), mem.Float(1)})
	assert.Equal(t, []float64{0, 10, 3, 3}, []float64{olds.Float(0), olds.Float(1), olds.Float(2), olds.Float(3)})
}

func TestAtomicOutOfBounds(t *testing.T) {
	b := newBuilder("oob")
	mp := b.param("mem", ir.PtrTo(ir.Int32))
	b.at(7)
	b.atomic(ir.AtomicAdd, b.ptrAdd(b.splat(mp, 4), b.arange(0, 4)), b.splat(b.i32(1), 4), nil)
	err := Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: tensor.New(ir.Int32, 3)}}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:7:5: interpreting oob: atomic_add out of bounds: element 3 of mem")
	assert.Contains(t, err.Error(), "at lane [3]")
}

// spinLockKernel builds the layer-norm backward pattern:
//
//	pid = tl.program_id(0)
//	lock = locks + pid % GROUPS
//	while tl.atomic_cas(lock, 0, 1) == 1:      # line 12
//	    pass
//	c = tl.load(counts + pid % GROUPS)
//	tl.store(counts + pid % GROUPS, c + pid)    # a plain read-modify-write
//	tl.atomic_xchg(lock, 0)
func spinLockKernel(t testing.TB, groups int) *ir.Kernel {
	b := newBuilder("spin_lock")
	locks, counts := b.param("locks", ir.PtrTo(ir.Int32)), b.param("counts", ir.PtrTo(ir.Int64))
	b.at(10)
	pid := b.pid(0)
	g := b.bin(ir.OpRem, pid, b.i32(int64(groups)))
	lock := b.ptrAdd(locks, g)
	b.at(12)
	b.while(func() *ir.Value {
		old := b.cas(lock, b.i32(0), b.i32(1))
		return b.cmp(ir.OpEq, old, b.i32(1))
	}, func() {})
	b.at(14)
	cp := b.ptrAdd(counts, g)
	c := b.load(cp, nil, nil)
	b.store(cp, b.bin(ir.OpAdd, c, b.cast(pid, ir.TInt64)), nil)
	b.atomic(ir.AtomicXchg, lock, b.i32(0), nil)
	return b.done(t)
}

func TestSpinLock(t *testing.T) {
	const programs, groups = 200, 4
	k := spinLockKernel(t, groups)
	for _, w := range []int{1, 2, 8, 32} {
		locks, counts := tensor.New(ir.Int32, groups), tensor.New(ir.Int64, groups)
		require.NoError(t, Run(k, [3]int{programs, 1, 1}, []Arg{{Tensor: locks}, {Tensor: counts}}, Options{Workers: w, Timeout: 20 * time.Second}))
		for g := range groups {
			var want int64
			for p := g; p < programs; p += groups {
				want += int64(p)
			}
			assert.Equal(t, want, counts.Int(g), "group %d with %d workers", g, w)
			assert.Equal(t, int64(0), locks.Int(g))
		}
	}
}

// waitKernel builds a kernel whose programs wait (line 22) until the flag
// is set by the last program (or, with never, by no program):
//
//	if pid == N - 1 and not never: tl.atomic_xchg(flag, 1)
//	while tl.load(flag, volatile=True) == 0: pass     # line 22
//	tl.store(out + pid, pid)
func waitKernel(t testing.TB, programs int, never bool) *ir.Kernel {
	b := newBuilder("wait")
	flag, out := b.param("flag", ir.PtrTo(ir.Int32)), b.param("out", ir.PtrTo(ir.Int32))
	b.at(20)
	pid := b.pid(0)
	if !never {
		b.ifElse(b.cmp(ir.OpEq, pid, b.i32(int64(programs-1))), func() {
			b.atomic(ir.AtomicXchg, flag, b.i32(1), nil)
		}, nil)
	}
	b.at(22)
	b.while(func() *ir.Value {
		f := b.load(flag, nil, nil)
		f.Flags |= ir.FlagVolatile
		return b.cmp(ir.OpEq, f, b.i32(0))
	}, func() {})
	b.at(24)
	b.store(b.ptrAdd(out, pid), pid, nil)
	return b.done(t)
}

// TestWaitForLaterProgram: every program waits for the last one, which a
// single worker reaches only through the helpers of spinning programs.
func TestWaitForLaterProgram(t *testing.T) {
	const programs = 16
	k := waitKernel(t, programs, false)
	for _, w := range []int{1, 4} {
		flag, out := tensor.New(ir.Int32, 1), tensor.New(ir.Int32, programs)
		require.NoError(t, Run(k, [3]int{programs, 1, 1}, []Arg{{Tensor: flag}, {Tensor: out}}, Options{Workers: w, Timeout: 20 * time.Second}))
		for i := range programs {
			assert.Equal(t, int64(i), out.Int(i))
		}
	}
}

// TestDeadlockTimesOut: no program sets the flag; the timeout names the
// loop and the lowest program.
func TestDeadlockTimesOut(t *testing.T) {
	k := waitKernel(t, 4, true)
	flag, out := tensor.New(ir.Int32, 1), tensor.New(ir.Int32, 4)
	err := Run(k, [3]int{4, 1, 1}, []Arg{{Tensor: flag}, {Tensor: out}}, Options{Workers: 1, Timeout: 50 * time.Millisecond})
	require.Error(t, err)
	assert.Equal(t, "k.tri:22:5: interpreting wait: timed out after 50ms in the loop at line 22 (program (0, 0, 0))", err.Error())
	assert.Equal(t, diag.CodeTimeout, err.(*diag.Diagnostic).Code)
}
