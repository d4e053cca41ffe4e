package interp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// dotShape is the shape of a dot: batch 0 for rank 2.
type dotShape struct{ batch, m, k, n int }

func (s dotShape) dims(rows, cols int) ir.Shape {
	if s.batch == 0 {
		return ir.Shape{rows, cols}
	}
	return ir.Shape{s.batch, rows, cols}
}

func (s dotShape) a() ir.Shape   { return s.dims(s.m, s.k) }
func (s dotShape) b() ir.Shape   { return s.dims(s.k, s.n) }
func (s dotShape) out() ir.Shape { return s.dims(s.m, s.n) }

// dotKernel builds a kernel that loads a, b (of kind in) and acc (of kind
// out) row-major from in0, in1, in2 and stores tl.dot(a, b, acc) to out0.
func dotKernel(t testing.TB, in, out ir.Kind, s dotShape, prec ir.Precision) *ir.Kernel {
	b := newBuilder("dot")
	pa, pb, pc := b.param("in0", ir.PtrTo(in)), b.param("in1", ir.PtrTo(in)), b.param("in2", ir.PtrTo(out))
	po := b.param("out0", ir.PtrTo(out))
	b.at(2)
	x, y, acc := b.load(b.tilePtrs(pa, s.a()), nil, nil), b.load(b.tilePtrs(pb, s.b()), nil, nil), b.load(b.tilePtrs(pc, s.out()), nil, nil)
	b.at(3)
	d := b.value(ir.OpDot, acc.Type, x, y, acc)
	d.Precision = prec
	b.at(4)
	b.store(b.tilePtrs(po, s.out()), d, nil)
	return b.done(t)
}

// runDot runs tl.dot on the tensors and returns the result.
func runDot(t testing.TB, x, y, acc *tensor.Tensor, s dotShape, prec ir.Precision) *tensor.Tensor {
	k := dotKernel(t, x.Kind, acc.Kind, s, prec)
	return runTiles(t, k, []*tensor.Tensor{x, y, acc}, []ir.Shape{s.out()})[0]
}

// refTF32 rounds x to 11 significant bits, ties away from zero (normal
// fp32 values only).
func refTF32(x float64) float64 {
	frac, exp := math.Frexp(x)
	return math.Ldexp(math.Trunc(math.Ldexp(frac, 11)), exp-11)
}

// refDotFloat is the reference of a float dot: for each result, acc plus
// the products in k order, in float64, rounded once to the result's kind.
func refDotFloat(x, y, acc *tensor.Tensor, s dotShape, prec ir.Precision) []float64 {
	op := func(v float64) float64 { return v }
	if x.Kind == ir.Float32 && prec == ir.PrecisionTF32 {
		op = refTF32
	}
	var res []float64
	for bi := range max(s.batch, 1) {
		for i := range s.m {
			for j := range s.n {
				sum := acc.Float((bi*s.m+i)*s.n + j)
				for l := range s.k {
					sum += float64(op(x.Float((bi*s.m+i)*s.k+l)) * op(y.Float((bi*s.k+l)*s.n+j)))
				}
				res = append(res, roundFloat(acc.Kind, sum, false))
			}
		}
	}
	return res
}

// refDotInt is the reference of an int8 dot with Go's int32 arithmetic.
func refDotInt(x, y, acc *tensor.Tensor, s dotShape) []int64 {
	var res []int64
	for bi := range max(s.batch, 1) {
		for i := range s.m {
			for j := range s.n {
				sum := int32(acc.Int((bi*s.m+i)*s.n + j))
				for l := range s.k {
					sum += int32(x.Int((bi*s.m+i)*s.k+l)) * int32(y.Int((bi*s.k+l)*s.n+j))
				}
				res = append(res, int64(sum))
			}
		}
	}
	return res
}

func randNormal(r *rand.Rand, k ir.Kind, shape ir.Shape, scale float64) *tensor.Tensor {
	x := tensor.New(k, shape...)
	for i := range x.NumElements() {
		x.SetFloat(i, scale*r.NormFloat64())
	}
	return x
}

// tensorOf makes a tensor of kind k and shape holding xs.
func tensorOf(k ir.Kind, shape ir.Shape, xs ...float64) *tensor.Tensor {
	x := tensor.New(k, shape...)
	for i, v := range xs {
		x.SetFloat(i, v)
	}
	return x
}

func TestDotFloatMatchesReference(t *testing.T) {
	tests := []struct {
		in, out ir.Kind
		prec    ir.Precision
		s       dotShape
	}{
		{ir.Float16, ir.Float32, ir.PrecisionTF32, dotShape{0, 16, 32, 16}},
		{ir.Float16, ir.Float32, ir.PrecisionTF32, dotShape{0, 3, 5, 7}},
		{ir.Float16, ir.Float16, ir.PrecisionTF32, dotShape{0, 16, 32, 16}},
		{ir.BFloat16, ir.Float32, ir.PrecisionTF32, dotShape{0, 16, 64, 32}},
		{ir.Float32, ir.Float32, ir.PrecisionTF32, dotShape{0, 16, 16, 16}},
		{ir.Float32, ir.Float32, ir.PrecisionTF32x3, dotShape{0, 16, 16, 16}},
		{ir.Float32, ir.Float32, ir.PrecisionIEEE, dotShape{0, 16, 16, 16}},
		{ir.Float64, ir.Float64, ir.PrecisionTF32, dotShape{0, 16, 16, 16}},
		{ir.Float16, ir.Float32, ir.PrecisionTF32, dotShape{3, 16, 32, 8}},
		{ir.Float32, ir.Float32, ir.PrecisionTF32, dotShape{2, 4, 16, 8}},
		{ir.Float64, ir.Float64, ir.PrecisionTF32, dotShape{2, 4, 8, 16}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s_%s_%s_%v", tc.in, tc.out, tc.prec, tc.s), func(t *testing.T) {
			x, y := randNormal(r, tc.in, tc.s.a(), 1), randNormal(r, tc.in, tc.s.b(), 1)
			acc := randNormal(r, tc.out, tc.s.out(), 4)
			got := runDot(t, x, y, acc, tc.s, tc.prec)
			for i, w := range refDotFloat(x, y, acc, tc.s, tc.prec) {
				require.Equal(t, w, got.Float(i), "result %s", laneString(tc.s.out(), i))
			}
		})
	}
}

// TestDotRoundsOnce checks that the products are summed exactly and rounded
// once, where rounding each addition to the result's dtype loses the small
// terms.
func TestDotRoundsOnce(t *testing.T) {
	s := dotShape{0, 1, 16, 1}
	row := []float64{4096, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	x, y := tensorOf(ir.Float16, s.a(), row...), tensorOf(ir.Float16, s.b(), row...)
	// 2^24 + 15 rounds to 2^24 + 16; adding 1 at a time in fp32 stays at 2^24.
	got := runDot(t, x, y, tensor.New(ir.Float32, s.out()...), s, ir.PrecisionTF32)
	assert.Equal(t, float64(1<<24+16), got.Float(0))

	s = dotShape{0, 2, 3, 1}
	x = tensorOf(ir.Float16, s.a(), 1, 0x1p-11, 0x1p-11, 1, 0x1p-11, 0x1p-11)
	y = tensorOf(ir.Float16, s.b(), 1, 1, 1)
	acc := tensorOf(ir.Float16, s.out(), 0, 0x1p-11)
	// Row 0: 1 + 2^-10, where fp16 additions give 1 twice (ties to even).
	// Row 1: 1 + 3*2^-11, a tie between 1 + 2^-10 and 1 + 2^-9 (even).
	got = runDot(t, x, y, acc, s, ir.PrecisionTF32)
	assert.Equal(t, []float64{1 + 0x1p-10, 1 + 0x1p-9}, []float64{got.Float(0), got.Float(1)})
}

// TestDotFP32Precision checks that tf32 drops the low bits of 1 + 2^-12
// and of -1 - 2^-11 (toward zero), while tf32x3 and ieee keep them.
func TestDotFP32Precision(t *testing.T) {
	s := dotShape{0, 2, 1, 1}
	x := tensorOf(ir.Float32, s.a(), 1+0x1p-12, -1-0x1p-11)
	y := tensorOf(ir.Float32, s.b(), 1)
	acc := tensor.New(ir.Float32, s.out()...)
	want := map[ir.Precision][]float64{
		ir.PrecisionTF32:   {1, -1},
		ir.PrecisionTF32x3: {1 + 0x1p-12, -1 - 0x1p-11},
		ir.PrecisionIEEE:   {1 + 0x1p-12, -1 - 0x1p-11},
	}
	for _, prec := range []ir.Precision{ir.PrecisionTF32, ir.PrecisionTF32x3, ir.PrecisionIEEE} {
		got := runDot(t, x, y, acc, s, prec)
		assert.Equal(t, want[prec], []float64{got.Float(0), got.Float(1)}, "%s", prec)
	}
}

func TestDotInt8(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range []dotShape{{0, 16, 32, 16}, {0, 3, 7, 5}, {2, 8, 16, 4}} {
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			x, y, acc := tensor.New(ir.Int8, s.a()...), tensor.New(ir.Int8, s.b()...), tensor.New(ir.Int32, s.out()...)
			randFill(r, x, -128, 127)
			randFill(r, y, -128, 127)
			for i := range acc.NumElements() {
				acc.SetInt(i, int64(int32(r.Uint32())))
			}
			got := runDot(t, x, y, acc, s, ir.PrecisionTF32)
			for i, w := range refDotInt(x, y, acc, s) {
				require.Equal(t, w, got.Int(i), "result %s", laneString(s.out(), i))
			}
		})
	}
}

// TestDotInt8Wraps checks that acc plus the products wraps like int32,
// upward and downward.
func TestDotInt8Wraps(t *testing.T) {
	s := dotShape{0, 2, 4, 1}
	x := tensorOf(ir.Int8, s.a(), -128, -128, -128, -128, 127, 127, 127, 127)
	y := tensorOf(ir.Int8, s.b(), -128, -128, -128, -128)
	acc := tensorOf(ir.Int32, s.out(), math.MaxInt32-10, math.MinInt32+10)
	got := runDot(t, x, y, acc, s, ir.PrecisionTF32)
	assert.Equal(t, int64(math.MinInt32+65536-11), got.Int(0)) // + 4 * 2^14
	assert.Equal(t, int64(math.MaxInt32-65024+11), got.Int(1)) // - 4 * 127 * 128

	// The tile itself holds the wrapped value, which a store would hide.
	one := ir.Shape{1, 1}
	x8 := &tile{kind: ir.Int8, shape: one, ints: []int64{-128}}
	acc32 := &tile{kind: ir.Int32, shape: one, ints: []int64{math.MaxInt32}}
	assert.Equal(t, []int64{math.MinInt32 + 16383}, dot(x8, x8, acc32, ir.PrecisionTF32).ints)
}

func TestTruncTF32(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{1, 1},
		{1 + 0x1p-12, 1},
		{1 + 0x1p-11, 1},               // no rounding up: the low bits are ignored
		{-1 - 0x1p-11, -1},             // toward zero for negative values too
		{1 + 0x1p-10, 1 + 0x1p-10},     // the last kept bit stays
		{0x1.ffep0, 0x1.ffcp0},         // no carry into the exponent
		{math.MaxFloat32, 0x1.ffcp127}, // no overflow
		{math.Inf(1), math.Inf(1)},
		{math.Inf(-1), math.Inf(-1)},
		{0x1p-149, 0}, // the smallest subnormal is cut away
		{math.Copysign(0, -1), math.Copysign(0, -1)},
	}
	for _, tc := range tests {
		got := truncTF32(tc.in)
		assert.Equal(t, math.Float64bits(tc.want), math.Float64bits(got), "tf32 of %g: got %g, want %g", tc.in, got, tc.want)
	}
	assert.True(t, math.IsNaN(truncTF32(math.NaN())))
	r := rand.New(rand.NewPCG(7, 8))
	for range 10000 {
		x := float64(math.Float32frombits(r.Uint32()&0xbfffffff | 0x30000000)) // normal, far from overflow
		require.Equal(t, refTF32(x), truncTF32(x), "tf32 of %g", x)
	}
}

// matmulKernel builds the f16 matmul of two size x size matrices into an
// fp32 one, one block x block tile of the result per program:
//
//	rm = pid(0) * BLOCK + tl.arange(0, BLOCK)     # line 2
//	rn = pid(1) * BLOCK + tl.arange(0, BLOCK)
//	acc = tl.zeros((BLOCK, BLOCK), tl.float32)
//	for k in range(0, SIZE, BLOCK):              # line 5
//	    rk = k + tl.arange(0, BLOCK)
//	    a = tl.load(a_ptr + rm[:, None] * SIZE + rk[None, :])
//	    b = tl.load(b_ptr + rk[:, None] * SIZE + rn[None, :])
//	    acc = tl.dot(a, b, acc)                  # line 9
//	tl.store(c_ptr + rm[:, None] * SIZE + rn[None, :], acc)  # line 10
func matmulKernel(t testing.TB, size, block int) *ir.Kernel {
	b := newBuilder("matmul")
	pa, pb := b.param("a_ptr", ir.PtrTo(ir.Float16)), b.param("b_ptr", ir.PtrTo(ir.Float16))
	pc := b.param("c_ptr", ir.PtrTo(ir.Float32))
	offsets := func(rows, cols *ir.Value) *ir.Value {
		r := b.broadcast(b.expand(rows, 1), block, block)
		c := b.broadcast(b.expand(cols, 0), block, block)
		return b.bin(ir.OpAdd, b.bin(ir.OpMul, r, b.splat(b.i32(int64(size)), block, block)), c)
	}
	start := func(axis int) *ir.Value {
		return b.bin(ir.OpAdd, b.splat(b.bin(ir.OpMul, b.pid(axis), b.i32(int64(block))), block), b.arange(0, block))
	}
	b.at(2)
	rm, rn := start(0), start(1)
	acc := b.newVar("acc", ir.TileType(ir.TFloat32, block, block))
	b.assign(acc, b.splat(b.cfloat(ir.TFloat32, 0), block, block))
	b.at(5)
	k := b.newVar("k", ir.ScalarType(ir.TInt32))
	b.forRange(k, b.i32(0), b.i32(int64(size)), b.i32(int64(block)), func() {
		b.at(6)
		rk := b.bin(ir.OpAdd, b.splat(b.read(k), block), b.arange(0, block))
		x := b.load(b.ptrAdd(b.splat(pa, block, block), offsets(rm, rk)), nil, nil)
		y := b.load(b.ptrAdd(b.splat(pb, block, block), offsets(rk, rn)), nil, nil)
		b.at(9)
		b.assign(acc, b.value(ir.OpDot, acc.Type, x, y, b.read(acc)))
	})
	b.at(10)
	b.store(b.ptrAdd(b.splat(pc, block, block), offsets(rm, rn)), b.read(acc), nil)
	return b.done(t)
}

// matmulArgs returns random size x size inputs and a zeroed output.
func matmulArgs(size int) (x, y, out *tensor.Tensor) {
	r := rand.New(rand.NewPCG(9, 10))
	x, y = randNormal(r, ir.Float16, ir.Shape{size, size}, 1), randNormal(r, ir.Float16, ir.Shape{size, size}, 1)
	return x, y, tensor.New(ir.Float32, size, size)
}

func runMatmul(k *ir.Kernel, size, block int, x, y, out *tensor.Tensor) error {
	return Run(k, [3]int{size / block, size / block, 1}, []Arg{{Tensor: x}, {Tensor: y}, {Tensor: out}}, Options{})
}

// TestDotMatmulKernel checks a tiled matmul whose accumulator is rounded to
// fp32 after each block of k.
func TestDotMatmulKernel(t *testing.T) {
	const size, block = 128, 32
	x, y, out := matmulArgs(size)
	require.NoError(t, runMatmul(matmulKernel(t, size, block), size, block, x, y, out))
	for i := range size {
		for j := range size {
			var acc float32
			for k0 := 0; k0 < size; k0 += block {
				s := float64(acc)
				for k := k0; k < k0+block; k++ {
					s += x.Float(i*size+k) * y.Float(k*size+j)
				}
				acc = float32(s)
			}
			require.Equal(t, float64(acc), out.Float(i*size+j), "c[%d, %d]", i, j)
		}
	}
}

// BenchmarkDotMatmul512 runs a 512^3 f16 matmul as 16x16 programs of
// 32x32 tiles.
func BenchmarkDotMatmul512(b *testing.B) {
	const size, block = 512, 32
	x, y, out := matmulArgs(size)
	k := matmulKernel(b, size, block)
	for b.Loop() {
		if err := runMatmul(k, size, block, x, y, out); err != nil {
			b.Fatal(err)
		}
	}
}
