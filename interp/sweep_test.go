package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// evalTiles evaluates one op of result kind res over whole tiles.
func evalTiles(op ir.Op, res ir.Kind, args ...*tile) (*tile, error) {
	m := &machine{k: &ir.Kernel{Name: "t", File: "k.tri", NumValues: len(args) + 1}, grid: [3]int{1, 1, 1}, mem: &memory{}}
	p := m.newProgram()
	shape := args[0].shape
	v := &ir.Value{ID: len(args), Op: op, Type: ir.Type{DType: ir.Scalar(res), Shape: shape}}
	for i, a := range args {
		v.Args = append(v.Args, &ir.Value{ID: i, Type: ir.Type{DType: ir.Scalar(a.kind), Shape: shape}})
		p.vals[i] = a
	}
	return p.eval(v)
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// refIntOp computes op with Go's own fixed-width arithmetic, which wraps,
// truncates division and shifts exactly as the interpreter documents (a
// negative shift amount counts as too large).
func refIntOp[T integer](op ir.Op, a, b T, width uint64) T {
	var zero T
	n := uint64(b)
	if b < zero {
		n = width
	}
	switch op {
	case ir.OpAdd:
		return a + b
	case ir.OpSub:
		return a - b
	case ir.OpMul:
		return a * b
	case ir.OpDiv:
		return a / b
	case ir.OpRem:
		return a % b
	case ir.OpAnd:
		return a & b
	case ir.OpOr:
		return a | b
	case ir.OpXor:
		return a ^ b
	case ir.OpShl:
		return a << n
	case ir.OpShr:
		return a >> n
	case ir.OpMax:
		return max(a, b)
	case ir.OpMin:
		return min(a, b)
	}
	panic("no reference for " + op.String())
}

// sweepInt compares every binary integer op on kind k with Go's arithmetic
// on type T over random and extreme operands.
func sweepInt[T integer](t *testing.T, k ir.Kind, r *rand.Rand) {
	const n = 4096
	special := []int64{0, 1, -1, 2, 7, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 127, -128, 255, 65535}
	a, b := newTile(k, ir.Shape{n}), newTile(k, ir.Shape{n})
	for i := range n {
		x, y := int64(r.Uint64()), int64(r.Uint64())
		if i%4 == 0 {
			x = special[r.IntN(len(special))]
		}
		if i%3 == 0 {
			y = special[r.IntN(len(special))]
		}
		if i%5 == 0 {
			y = int64(r.IntN(80)) - 8 // shift amounts near the width
		}
		a.ints[i], b.ints[i] = wrapInt(k, x), wrapInt(k, y)
		if b.ints[i] == 0 {
			b.ints[i] = 3
		}
	}
	for _, op := range []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpShr, ir.OpMax, ir.OpMin} {
		got, err := evalTiles(op, k, a, b)
		require.NoError(t, err)
		for i := range n {
			want := int64(refIntOp(op, T(a.ints[i]), T(b.ints[i]), uint64(k.Bits())))
			if got.ints[i] != want {
				t.Fatalf("%s %s(%d, %d) = %d, want %d", k, op, a.ints[i], b.ints[i], got.ints[i], want)
			}
		}
	}
}

func TestIntOpsSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	t.Run("i8", func(t *testing.T) { sweepInt[int8](t, ir.Int8, r) })
	t.Run("i16", func(t *testing.T) { sweepInt[int16](t, ir.Int16, r) })
	t.Run("i32", func(t *testing.T) { sweepInt[int32](t, ir.Int32, r) })
	t.Run("i64", func(t *testing.T) { sweepInt[int64](t, ir.Int64, r) })
	t.Run("u8", func(t *testing.T) { sweepInt[uint8](t, ir.Uint8, r) })
	t.Run("u16", func(t *testing.T) { sweepInt[uint16](t, ir.Uint16, r) })
	t.Run("u32", func(t *testing.T) { sweepInt[uint32](t, ir.Uint32, r) })
	t.Run("u64", func(t *testing.T) { sweepInt[uint64](t, ir.Uint64, r) })
}

// TestFloatOpsSweep compares fp32 arithmetic with Go's float32 arithmetic
// and fp16 arithmetic with float32 arithmetic rounded by x448/float16 (the
// GPU's compute-in-fp32-then-round), over random operands.
func TestFloatOpsSweep(t *testing.T) {
	const n = 4096
	r := rand.New(rand.NewPCG(5, 6))
	for _, k := range []ir.Kind{ir.Float32, ir.Float16, ir.BFloat16} {
		a, b := newTile(k, ir.Shape{n}), newTile(k, ir.Shape{n})
		for i := range n {
			a.flts[i] = roundFloat(k, r.NormFloat64()*math.Exp2(float64(r.IntN(20)-10)), false)
			b.flts[i] = roundFloat(k, r.NormFloat64()*math.Exp2(float64(r.IntN(20)-10)), false)
		}
		for _, op := range []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv} {
			got, err := evalTiles(op, k, a, b)
			require.NoError(t, err)
			for i := range n {
				x, y := float32(a.flts[i]), float32(b.flts[i])
				var f float32
				switch op {
				case ir.OpAdd:
					f = x + y
				case ir.OpSub:
					f = x - y
				case ir.OpMul:
					f = x * y
				case ir.OpDiv:
					f = x / y
				}
				want := roundFloat(k, float64(f), false)
				if math.Float64bits(want) != math.Float64bits(got.flts[i]) {
					t.Fatalf("%s %s(%g, %g) = %g, want %g", k, op, x, y, got.flts[i], want)
				}
			}
		}
	}
}
