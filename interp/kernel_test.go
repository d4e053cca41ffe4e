package interp

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// vectorAdd builds, for elements of kind k:
//
//	def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
//	    pid = tl.program_id(0)                      # line 3
//	    offs = pid * BLOCK + tl.arange(0, BLOCK)    # line 4
//	    mask = offs < n                             # line 5
//	    x = tl.load(x_ptr + offs, mask=mask)        # line 6
//	    y = tl.load(y_ptr + offs, mask=mask)        # line 7
//	    tl.store(out_ptr + offs, x + y, mask=mask)  # line 8
//
// with masks left out where masked is false.
func vectorAdd(t testing.TB, k ir.Kind, block int, masked bool) *ir.Kernel {
	b := newBuilder("add_kernel")
	b.at(1)
	xp, yp, op := b.param("x_ptr", ir.PtrTo(k)), b.param("y_ptr", ir.PtrTo(k)), b.param("out_ptr", ir.PtrTo(k))
	n := b.param("n", ir.TInt32)
	b.at(3)
	pid := b.pid(0)
	b.at(4)
	offs := b.bin(ir.OpAdd, b.splat(b.bin(ir.OpMul, pid, b.i32(int64(block))), block), b.arange(0, block))
	b.at(5)
	var mask *ir.Value
	if masked {
		mask = b.cmp(ir.OpLt, offs, b.splat(n, block))
	}
	b.at(6)
	x := b.load(b.ptrAdd(b.splat(xp, block), offs), mask, nil)
	b.at(7)
	y := b.load(b.ptrAdd(b.splat(yp, block), offs), mask, nil)
	b.at(8)
	b.store(b.ptrAdd(b.splat(op, block), offs), b.bin(ir.OpAdd, x, y), mask)
	return b.done(t)
}

func randTensor(r *rand.Rand, k ir.Kind, n int) *tensor.Tensor {
	t := tensor.New(k, n)
	for i := range n {
		t.SetFloat(i, r.NormFloat64())
	}
	return t
}

func cdiv(a, b int) int { return (a + b - 1) / b }

func TestVectorAddMillion(t *testing.T) {
	const n, block = 1_000_000, 1024
	r := rand.New(rand.NewPCG(1, 1))
	x, y, out := randTensor(r, ir.Float32, n), randTensor(r, ir.Float32, n), tensor.New(ir.Float32, n)
	k := vectorAdd(t, ir.Float32, block, true)
	start := time.Now()
	err := Run(k, [3]int{cdiv(n, block), 1, 1}, []Arg{{Tensor: x}, {Tensor: y}, {Tensor: out}, {Scalar: ir.IntConst(n)}}, Options{})
	elapsed := time.Since(start)
	require.NoError(t, err)
	t.Logf("vector add of %d elements: %v", n, elapsed)
	if !raceEnabled {
		assert.Less(t, elapsed, 2*time.Second)
	}
	for i := range n {
		want := float32(x.Float(i)) + float32(y.Float(i))
		if float32(out.Float(i)) != want {
			t.Fatalf("out[%d] = %v, want %v", i, out.Float(i), want)
		}
	}
}

func TestVectorAddNarrowTypes(t *testing.T) {
	const n, block = 100, 32
	for _, k := range []ir.Kind{ir.Float16, ir.BFloat16, ir.Float64, ir.Int8, ir.Uint16, ir.Int64} {
		t.Run(k.String(), func(t *testing.T) {
			x, y, out := tensor.New(k, n), tensor.New(k, n), tensor.New(k, n)
			for i := range n {
				x.SetFloat(i, float64(i)*0.75)
				y.SetFloat(i, float64(i%7)+0.125)
			}
			err := Run(vectorAdd(t, k, block, true), [3]int{cdiv(n, block), 1, 1},
				[]Arg{{Tensor: x}, {Tensor: y}, {Tensor: out}, {Scalar: ir.IntConst(n)}}, Options{})
			require.NoError(t, err)
			want := tensor.New(k, n)
			for i := range n {
				if k.IsFloat() {
					want.SetFloat(i, roundFloat(k, x.Float(i)+y.Float(i), false))
				} else {
					want.SetInt(i, x.Int(i)+y.Int(i))
				}
			}
			assert.Equal(t, want.Data, out.Data)
		})
	}
}

// maskedCopy builds out[offs] = load(x + offs, mask=offs < n, other=other)
// for one program of BLOCK lanes, storing every lane.
func maskedCopy(t testing.TB, block int, other *float64) *ir.Kernel {
	b := newBuilder("masked_copy")
	xp, op, n := b.param("x", ir.PtrTo(ir.Float32)), b.param("out", ir.PtrTo(ir.Float32)), b.param("n", ir.TInt32)
	b.at(3)
	offs := b.arange(0, block)
	mask := b.cmp(ir.OpLt, offs, b.splat(n, block))
	var oth *ir.Value
	if other != nil {
		oth = b.splat(b.cfloat(ir.TFloat32, *other), block)
	}
	b.at(4)
	v := b.load(b.ptrAdd(b.splat(xp, block), offs), mask, oth)
	b.at(5)
	b.store(b.ptrAdd(b.splat(op, block), offs), v, nil)
	return b.done(t)
}

func TestMaskedLoad(t *testing.T) {
	const n, block = 10, 16
	minus := -1.5
	tests := []struct {
		name  string
		other *float64
		tail  float64
	}{
		{"other", &minus, -1.5},
		{"zero without other", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, out := tensor.New(ir.Float32, n), tensor.New(ir.Float32, block)
			for i := range n {
				x.SetFloat(i, float64(i+1))
			}
			for i := range block {
				out.SetFloat(i, 99)
			}
			err := Run(maskedCopy(t, block, tc.other), [3]int{1, 1, 1}, []Arg{{Tensor: x}, {Tensor: out}, {Scalar: ir.IntConst(n)}}, Options{})
			require.NoError(t, err)
			for i := range block {
				want := tc.tail
				if i < n {
					want = float64(i + 1)
				}
				assert.Equal(t, want, out.Float(i), "out[%d]", i)
			}
		})
	}
}

func TestOutOfBounds(t *testing.T) {
	const n, block = 1000, 256
	args := func() []Arg {
		return []Arg{{Tensor: tensor.New(ir.Float32, n)}, {Tensor: tensor.New(ir.Float32, n)}, {Tensor: tensor.New(ir.Float32, n+24)}, {Scalar: ir.IntConst(n)}}
	}
	t.Run("load", func(t *testing.T) {
		err := Run(vectorAdd(t, ir.Float32, block, false), [3]int{4, 1, 1}, args(), Options{Workers: 3})
		require.Error(t, err)
		d, ok := err.(*diag.Diagnostic)
		require.True(t, ok, "%T", err)
		assert.Equal(t, 6, d.Pos.Line)
		assert.Equal(t, diag.CodeRuntime, d.Code)
		assert.Equal(t, "k.tri:6:5: interpreting add_kernel: load out of bounds: element 1000 of x_ptr "+
			"(float32 of 1000 elements, valid indices 0..999) at lane [232] (program (3, 0, 0))", err.Error())
	})
	t.Run("store", func(t *testing.T) {
		a := args()
		a[2] = Arg{Tensor: tensor.New(ir.Float32, 900)}
		err := Run(vectorAdd(t, ir.Float32, block, true), [3]int{4, 1, 1}, a, Options{})
		require.Error(t, err)
		assert.Equal(t, "k.tri:8:5: interpreting add_kernel: store out of bounds: element 900 of out_ptr "+
			"(float32 of 900 elements, valid indices 0..899) at lane [132] (program (3, 0, 0))", err.Error())
	})
	t.Run("below the start", func(t *testing.T) {
		b := newBuilder("neg")
		xp := b.param("x", ir.PtrTo(ir.Int32))
		b.at(2)
		b.load(b.ptrAdd(xp, b.i32(-1)), nil, nil)
		err := Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: tensor.New(ir.Int32, 4)}}, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "k.tri:2:5: interpreting neg: load out of bounds: element -1 of x (int32 of 4 elements, valid indices 0..3) (program (0, 0, 0))")
	})
	t.Run("one element", func(t *testing.T) {
		b := newBuilder("one")
		xp := b.param("x", ir.PtrTo(ir.Int32))
		b.at(2)
		b.load(b.ptrAdd(xp, b.i32(1)), nil, nil)
		err := Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: tensor.New(ir.Int32, 1)}}, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "element 1 of x (int32 of 1 element, valid indices 0..0)")
	})
	t.Run("null", func(t *testing.T) {
		b := newBuilder("null")
		b.at(2)
		b.load(b.cast(b.cint(ir.TInt64, 0), ir.PtrTo(ir.Float32)), nil, nil)
		err := Run(b.done(t), [3]int{1, 1, 1}, nil, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "load null pointer")
	})
	t.Run("misaligned", func(t *testing.T) {
		b := newBuilder("misaligned")
		xp := b.param("x", ir.PtrTo(ir.Int32))
		b.at(2)
		p := b.cast(b.bin(ir.OpAdd, b.cast(xp, ir.TInt64), b.cint(ir.TInt64, 2)), ir.PtrTo(ir.Int32))
		b.store(p, b.i32(1), nil)
		err := Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: tensor.New(ir.Int32, 4)}}, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "store misaligned (byte offset 2 is not a multiple of 4)")
	})
}

// TestErrorDeterminism checks that the reported error is the one of the
// lowest-numbered failing program whatever the number of workers.
func TestErrorDeterminism(t *testing.T) {
	const n, block = 1000, 8
	k := vectorAdd(t, ir.Float32, block, false)
	var first string
	for _, w := range []int{1, 2, 7, 64} {
		args := []Arg{{Tensor: tensor.New(ir.Float32, n)}, {Tensor: tensor.New(ir.Float32, n)}, {Tensor: tensor.New(ir.Float32, 2*n)}, {Scalar: ir.IntConst(n)}}
		err := Run(k, [3]int{2 * n / block, 1, 1}, args, Options{Workers: w})
		require.Error(t, err)
		if first == "" {
			first = err.Error()
			assert.Contains(t, first, "(program (125, 0, 0))")
		}
		assert.Equal(t, first, err.Error(), "workers %d", w)
	}
}

// gridKernel stores pid0 + 10*pid1 + 100*pid2 + 1000*num_programs(0) at the
// program's linear index, and returns early in programs with pid0 == 1.
func gridKernel(t testing.TB) *ir.Kernel {
	b := newBuilder("grid")
	op := b.param("out", ir.PtrTo(ir.Int32))
	b.at(2)
	p0, p1, p2 := b.pid(0), b.pid(1), b.pid(2)
	np0 := b.value(ir.OpNumPrograms, ir.ScalarType(ir.TInt32))
	np1 := b.value(ir.OpNumPrograms, ir.ScalarType(ir.TInt32))
	np1.Axis = 1
	b.at(3)
	b.ifElse(b.cmp(ir.OpEq, p0, b.i32(1)), func() { b.ret() }, nil)
	b.at(4)
	lin := b.bin(ir.OpAdd, p0, b.bin(ir.OpMul, np0, b.bin(ir.OpAdd, p1, b.bin(ir.OpMul, np1, p2))))
	val := b.bin(ir.OpAdd, p0, b.bin(ir.OpAdd, b.bin(ir.OpMul, b.i32(10), p1),
		b.bin(ir.OpAdd, b.bin(ir.OpMul, b.i32(100), p2), b.bin(ir.OpMul, b.i32(1000), np0))))
	b.store(b.ptrAdd(op, lin), val, nil)
	return b.done(t)
}

func TestGridAndDeterminism(t *testing.T) {
	grid := [3]int{3, 4, 5}
	k := gridKernel(t)
	var first []byte
	for _, w := range []int{1, 2, 5, 100} {
		out := tensor.New(ir.Int32, 60)
		require.NoError(t, Run(k, grid, []Arg{{Tensor: out}}, Options{Workers: w}))
		if first == nil {
			first = out.Data
			for z := range 5 {
				for y := range 4 {
					for x := range 3 {
						want := int64(x + 10*y + 100*z + 3000)
						if x == 1 {
							want = 0
						}
						assert.Equal(t, want, out.Int(x+3*(y+4*z)))
					}
				}
			}
		}
		assert.Equal(t, first, out.Data, "workers %d", w)
	}
}

// sumKernel builds:
//
//	i = 0; s = 0                   # line 2
//	while i < n:                   # line 3
//	    s += i                     # line 4
//	    i += 1
//	for j in range(lo, hi, step):  # line 6
//	    s += 1000 * j
//	tl.store(out, s)               # line 8
func sumKernel(t testing.TB) *ir.Kernel {
	b := newBuilder("sums")
	op, n := b.param("out", ir.PtrTo(ir.Int64)), b.param("n", ir.TInt64)
	lo, hi, step := b.param("lo", ir.TInt32), b.param("hi", ir.TInt32), b.param("step", ir.TInt32)
	b.at(2)
	i, s := b.newVar("i", ir.ScalarType(ir.TInt64)), b.newVar("s", ir.ScalarType(ir.TInt64))
	zero := b.cint(ir.TInt64, 0)
	b.assign(i, zero)
	b.assign(s, zero)
	b.at(3)
	b.while(func() *ir.Value { return b.cmp(ir.OpLt, b.read(i), n) }, func() {
		b.at(4)
		iv := b.read(i)
		b.assign(s, b.bin(ir.OpAdd, b.read(s), iv))
		b.assign(i, b.bin(ir.OpAdd, iv, b.cint(ir.TInt64, 1)))
	})
	b.at(6)
	j := b.newVar("j", ir.ScalarType(ir.TInt32))
	b.forRange(j, lo, hi, step, func() {
		b.at(7)
		b.assign(s, b.bin(ir.OpAdd, b.read(s), b.bin(ir.OpMul, b.cint(ir.TInt64, 1000), b.cast(b.read(j), ir.TInt64))))
	})
	b.at(8)
	b.store(op, b.read(s), nil)
	return b.done(t)
}

func TestLoops(t *testing.T) {
	k := sumKernel(t)
	tests := []struct {
		name            string
		n, lo, hi, step int64
		want            int64
		err             string
	}{
		{"while only", 10, 0, 0, 1, 45, ""},
		{"while never runs", 0, 0, 0, 1, 0, ""},
		{"range up", 0, 1, 4, 1, 6000, ""},
		{"range up with stride", 0, 0, 10, 4, 12000, ""},
		{"range down", 0, 10, 0, -3, 22000, ""},
		{"range empty", 0, 5, 1, 1, 0, ""},
		{"range down empty", 0, 1, 5, -1, 0, ""},
		{"range to the int32 limit", 0, 2147483645, 2147483647, 1, 4294967291000, ""},
		{"both", 4, 2, 3, 1, 2006, ""},
		{"zero step", 0, 0, 1, 0, 0, "k.tri:6:5: interpreting sums: range() step is zero (program (0, 0, 0))"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := tensor.New(ir.Int64, 1)
			err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: out}, {Scalar: ir.IntConst(tc.n)},
				{Scalar: ir.IntConst(tc.lo)}, {Scalar: ir.IntConst(tc.hi)}, {Scalar: ir.IntConst(tc.step)}}, Options{})
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out.Int(0))
		})
	}
}

// spinKernel loops forever at line 12.
func spinKernel(t testing.TB) *ir.Kernel {
	b := newBuilder("spin")
	b.at(11)
	c := b.newVar("c", ir.ScalarType(ir.TBool))
	b.assign(c, b.cint(ir.TBool, 1))
	b.at(12)
	b.while(func() *ir.Value { return b.read(c) }, func() {
		b.at(13)
		b.assign(c, b.cmp(ir.OpNe, b.i32(1), b.i32(2)))
	})
	return b.done(t)
}

func TestTimeout(t *testing.T) {
	start := time.Now()
	err := Run(spinKernel(t), [3]int{1, 1, 1}, nil, Options{Timeout: 50 * time.Millisecond})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, "k.tri:12:5: interpreting spin: timed out after 50ms in the loop at line 12 (program (0, 0, 0))", err.Error())
	assert.Equal(t, diag.CodeTimeout, err.(*diag.Diagnostic).Code)
	assert.Equal(t, "60s", durationString(time.Minute))
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	err := Run(spinKernel(t), [3]int{4, 1, 1}, nil, Options{Context: ctx, Workers: 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "canceled in the loop at line 12")

	err = Run(spinKernel(t), [3]int{1, 1, 1}, nil, Options{Context: ctx})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "canceled before it started")
}

// TestPointerTable loads addresses from an int64 tensor, as grouped GEMM
// does, and reads through them.
func TestPointerTable(t *testing.T) {
	const block = 4
	a, c := tensor.New(ir.Float32, block), tensor.New(ir.Float32, block)
	for i := range block {
		a.SetFloat(i, float64(i))
		c.SetFloat(i, float64(10+i))
	}
	table := tensor.New(ir.Int64, 2)
	table.SetInt(0, int64(Base(0)))
	table.SetInt(1, int64(Base(1)))
	out := tensor.New(ir.Float32, 2*block)

	b := newBuilder("gather")
	tp, op := b.param("table", ir.PtrTo(ir.Int64)), b.param("out", ir.PtrTo(ir.Float32))
	b.at(2)
	pid := b.pid(0)
	addr := b.load(b.ptrAdd(tp, pid), nil, nil)
	p := b.cast(addr, ir.PtrTo(ir.Float32))
	offs := b.arange(0, block)
	v := b.load(b.ptrAdd(b.splat(p, block), offs), nil, nil)
	dst := b.ptrAdd(b.splat(b.ptrAdd(op, b.bin(ir.OpMul, pid, b.i32(block))), block), offs)
	b.store(dst, v, nil)

	err := Run(b.done(t), [3]int{2, 1, 1}, []Arg{{Tensor: table}, {Tensor: out}}, Options{Buffers: []*tensor.Tensor{a, c}})
	require.NoError(t, err)
	for i := range 2 * block {
		assert.Equal(t, float64(i/block*10+i%block), out.Float(i))
	}
}

// TestTranspose2D copies a 4x8 matrix into its 8x4 transpose through
// expand_dims and broadcast.
func TestTranspose2D(t *testing.T) {
	const rows, cols = 4, 8
	in, out := tensor.New(ir.Int16, rows, cols), tensor.New(ir.Int16, cols, rows)
	for i := range rows * cols {
		in.SetInt(i, int64(i))
	}
	b := newBuilder("transpose")
	ip, op := b.param("in", ir.PtrTo(ir.Int16)), b.param("out", ir.PtrTo(ir.Int16))
	b.at(2)
	r := b.broadcast(b.expand(b.arange(0, rows), 1), rows, cols)
	c := b.broadcast(b.expand(b.arange(0, cols), 0), rows, cols)
	src := b.bin(ir.OpAdd, b.bin(ir.OpMul, r, b.splat(b.i32(cols), rows, cols)), c)
	dst := b.bin(ir.OpAdd, b.bin(ir.OpMul, c, b.splat(b.i32(rows), rows, cols)), r)
	v := b.load(b.ptrAdd(b.splat(ip, rows, cols), src), nil, nil)
	b.store(b.ptrAdd(b.splat(op, rows, cols), dst), v, nil)
	require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: in}, {Tensor: out}}, Options{}))
	for i := range rows {
		for j := range cols {
			assert.Equal(t, int64(i*cols+j), out.Int(j*rows+i))
		}
	}
}

func TestBroadcastRank3(t *testing.T) {
	a := &tile{kind: ir.Int32, shape: ir.Shape{2, 1, 3}, ints: []int64{1, 2, 3, 4, 5, 6}}
	got := broadcast(a, ir.Shape{2, 2, 3})
	assert.Equal(t, []int64{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, got.ints)
	s := &tile{kind: ir.Float32, shape: ir.Shape{1, 1}, flts: []float64{7}}
	assert.Equal(t, []float64{7, 7, 7, 7}, broadcast(s, ir.Shape{2, 2}).flts)
	c := &tile{kind: ir.Int32, shape: ir.Shape{3, 1}, ints: []int64{1, 2, 3}}
	assert.Equal(t, []int64{1, 1, 2, 2, 3, 3}, broadcast(c, ir.Shape{3, 2}).ints)
}

func TestRuntimeErrors(t *testing.T) {
	t.Run("assume", func(t *testing.T) {
		b := newBuilder("assumes")
		n := b.param("n", ir.TInt32)
		b.at(4)
		b.value(ir.OpAssume, ir.ScalarType(ir.TVoid), b.cmp(ir.OpGt, n, b.i32(0)))
		k := b.done(t)
		require.NoError(t, Run(k, [3]int{1, 1, 1}, []Arg{{Scalar: ir.IntConst(3)}}, Options{}))
		err := Run(k, [3]int{2, 1, 1}, []Arg{{Scalar: ir.IntConst(0)}}, Options{})
		require.Error(t, err)
		assert.Equal(t, "k.tri:4:5: interpreting assumes: tl.assume does not hold (program (0, 0, 0))", err.Error())
	})
	t.Run("division by zero deciding an if", func(t *testing.T) {
		b := newBuilder("divide")
		n := b.param("n", ir.TInt32)
		b.at(3)
		q := b.bin(ir.OpDiv, b.i32(12), b.bin(ir.OpSub, n, b.i32(3)))
		b.at(4)
		b.ifElse(b.cmp(ir.OpGt, q, b.i32(0)), func() { b.ret() }, nil)
		k := b.done(t)
		require.NoError(t, Run(k, [3]int{1, 1, 1}, []Arg{{Scalar: ir.IntConst(4)}}, Options{}))
		err := Run(k, [3]int{1, 1, 1}, []Arg{{Scalar: ir.IntConst(3)}}, Options{})
		require.Error(t, err)
		assert.Equal(t, "k.tri:3:5: interpreting divide: integer division by zero, whose result is used by the if at line 4 (program (0, 0, 0))", err.Error())
	})
	t.Run("internal error instead of a panic", func(t *testing.T) {
		b := newBuilder("broken")
		v := b.newVar("v", ir.ScalarType(ir.TInt32))
		b.at(2)
		b.read(v)
		err := Run(b.done(t), [3]int{1, 1, 1}, nil, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "internal error: v read before it is assigned")

		bad := &ir.Kernel{Name: "bad", File: "k.tri", NumValues: 1, Body: &ir.Block{Stmts: []ir.Stmt{
			&ir.Value{ID: 0, Op: ir.OpAdd, Type: ir.ScalarType(ir.TInt32), Args: []*ir.Value{nil, nil}},
		}}}
		err = Run(bad, [3]int{1, 1, 1}, nil, Options{})
		require.Error(t, err)
		assert.Equal(t, diag.CodeInternal, err.(*diag.Diagnostic).Code)
	})
	t.Run("arguments", func(t *testing.T) {
		k := vectorAdd(t, ir.Float32, 4, true)
		err := Run(k, [3]int{1, 1, 1}, nil, Options{})
		assert.EqualError(t, err, "k.tri: interpreting add_kernel: 0 arguments for 4 parameters")
		x := tensor.New(ir.Float16, 4)
		err = Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: x}, {Tensor: x}, {Tensor: x}, {Scalar: ir.IntConst(4)}}, Options{})
		assert.EqualError(t, err, "k.tri:1:5: interpreting add_kernel: parameter x_ptr is *fp32 but the tensor holds fp16")
		err = Run(k, [3]int{1, 1, 1}, []Arg{{}, {}, {}, {}}, Options{})
		assert.EqualError(t, err, "k.tri:1:5: interpreting add_kernel: no tensor for pointer parameter x_ptr")
		err = Run(k, [3]int{-1, 1, 1}, nil, Options{})
		assert.Error(t, err)
		y := tensor.New(ir.Float32, 4)
		assert.NoError(t, Run(k, [3]int{0, 1, 1}, []Arg{{Tensor: y}, {Tensor: y}, {Tensor: y}, {Scalar: ir.IntConst(4)}}, Options{}))
	})
}

func BenchmarkVectorAdd(b *testing.B) {
	const n, block = 1_000_000, 1024
	r := rand.New(rand.NewPCG(1, 1))
	x, y, out := randTensor(r, ir.Float32, n), randTensor(r, ir.Float32, n), tensor.New(ir.Float32, n)
	k := vectorAdd(b, ir.Float32, block, true)
	args := []Arg{{Tensor: x}, {Tensor: y}, {Tensor: out}, {Scalar: ir.IntConst(n)}}
	b.SetBytes(3 * 4 * n)
	for b.Loop() {
		if err := Run(k, [3]int{cdiv(n, block), 1, 1}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBoolMemory loads int1 bytes (any non-zero byte is true) and stores
// them back as 0 or 1 through a cast to int32 and back.
func TestBoolMemory(t *testing.T) {
	const n = 4
	in, out, ints := tensor.New(ir.Bool, n), tensor.New(ir.Bool, n), tensor.New(ir.Int32, n)
	copy(in.Data, []byte{0, 1, 2, 255})
	b := newBuilder("bools")
	ip, op, np := b.param("in", ir.PtrTo(ir.Bool)), b.param("out", ir.PtrTo(ir.Bool)), b.param("ints", ir.PtrTo(ir.Int32))
	offs := b.arange(0, n)
	v := b.load(b.ptrAdd(b.splat(ip, n), offs), nil, nil)
	b.store(b.ptrAdd(b.splat(np, n), offs), b.cast(v, ir.TInt32), nil)
	b.store(b.ptrAdd(b.splat(op, n), offs), b.value(ir.OpNot, v.Type, v), nil)
	require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: in}, {Tensor: out}, {Tensor: ints}}, Options{}))
	assert.Equal(t, []byte{1, 0, 0, 0}, out.Data)
	for i, want := range []int64{0, 1, 1, 1} {
		assert.Equal(t, want, ints.Int(i))
	}
}

// TestReturnInLoop stores the loop index at each iteration of
// for i in range(10) and returns when i == 3.
func TestReturnInLoop(t *testing.T) {
	out := tensor.New(ir.Int32, 10)
	b := newBuilder("early")
	op := b.param("out", ir.PtrTo(ir.Int32))
	i := b.newVar("i", ir.ScalarType(ir.TInt32))
	b.forRange(i, b.i32(0), b.i32(10), b.i32(1), func() {
		iv := b.read(i)
		b.store(b.ptrAdd(op, iv), b.bin(ir.OpAdd, iv, b.i32(1)), nil)
		b.ifElse(b.cmp(ir.OpEq, iv, b.i32(3)), func() { b.ret() }, nil)
	})
	b.store(op, b.i32(-1), nil)
	require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, []Arg{{Tensor: out}}, Options{}))
	for j := range 10 {
		want := int64(0)
		if j < 4 {
			want = int64(j + 1)
		}
		assert.Equal(t, want, out.Int(j), "out[%d]", j)
	}
}

// TestTimeoutNamesInnerLoop spins in a while loop (line 22) nested in a for
// loop (line 21): the error names the inner loop.
func TestTimeoutNamesInnerLoop(t *testing.T) {
	b := newBuilder("nested")
	b.at(21)
	i := b.newVar("i", ir.ScalarType(ir.TInt32))
	b.forRange(i, b.i32(0), b.i32(10), b.i32(1), func() {
		b.at(22)
		b.while(func() *ir.Value { return b.cmp(ir.OpEq, b.read(i), b.read(i)) }, func() {})
	})
	err := Run(b.done(t), [3]int{2, 1, 1}, nil, Options{Timeout: 20 * time.Millisecond, Workers: 2})
	require.Error(t, err)
	assert.Equal(t, "k.tri:22:5: interpreting nested: timed out after 20ms in the loop at line 22 (program (0, 0, 0))", err.Error())
}
