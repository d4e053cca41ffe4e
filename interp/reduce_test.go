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

// refFold is the reference of a builtin reduction along one lane, computed
// with Go's float32 arithmetic for fp32 and int32 wrapping for i32.
func refFold(c ir.Combine, k ir.Kind, xs []float64) float64 {
	if c == ir.CombineArgMax || c == ir.CombineArgMin {
		best := 0
		for j, x := range xs {
			if (c == ir.CombineArgMax && x > xs[best]) || (c == ir.CombineArgMin && x < xs[best]) {
				best = j
			}
		}
		return float64(best)
	}
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = refCombine(c, k, acc, x)
	}
	return acc
}

func refCombine(c ir.Combine, k ir.Kind, a, x float64) float64 {
	if k == ir.Float32 {
		fa, fx := float32(a), float32(x)
		switch c {
		case ir.CombineSum:
			return float64(fa + fx)
		case ir.CombineProd:
			return float64(fa * fx)
		case ir.CombineMax:
			return math.Max(a, x)
		case ir.CombineMin:
			return math.Min(a, x)
		}
	}
	ia, ix := int32(a), int32(x)
	switch c {
	case ir.CombineSum:
		return float64(ia + ix)
	case ir.CombineProd:
		return float64(ia * ix)
	case ir.CombineMax:
		return float64(max(ia, ix))
	case ir.CombineMin:
		return float64(min(ia, ix))
	case ir.CombineXor:
		return float64(ia ^ ix)
	case ir.CombineOr:
		return float64(ia | ix)
	}
	panic("combine")
}

// refAlong applies fold to every lane of x (of shape) along axis and
// returns the results in row-major order of the reduced shape.
func refAlong(x *tensor.Tensor, shape ir.Shape, axis int, fold func([]float64) float64) []float64 {
	out := ir.ReducedType(ir.TileType(ir.TInt32, shape...), axis).Shape
	var res []float64
	for i := range out.NumElements() {
		o := unravel(i, out)
		var lane []float64
		for j := range shape[axis] {
			idx := append(append(append([]int{}, o[:axis]...), j), o[axis:]...)
			lane = append(lane, x.Float(ravel(idx, shape)))
		}
		res = append(res, fold(lane))
	}
	return res
}

var reduceShapes = []ir.Shape{{16}, {4, 8}, {8, 1}, {2, 3, 4}, {4, 2, 8}}

func TestReduceBuiltin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	combines := []ir.Combine{ir.CombineSum, ir.CombineProd, ir.CombineMax, ir.CombineMin, ir.CombineXor, ir.CombineOr, ir.CombineArgMax, ir.CombineArgMin}
	for _, kind := range []ir.Kind{ir.Int32, ir.Float32} {
		for _, c := range combines {
			if (c == ir.CombineXor || c == ir.CombineOr) && kind.IsFloat() {
				continue
			}
			for _, shape := range reduceShapes {
				for axis := range shape {
					t.Run(fmt.Sprintf("%s/%s/%s/%d", kind, c, shape, axis), func(t *testing.T) {
						k := tileKernel(t, []ir.Kind{kind}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
							return []*ir.Value{b.reduce(c, xs[0], axis, 0)}
						})
						in := tensor.New(kind, shape...)
						if c == ir.CombineProd {
							randFill(r, in, -3, 3)
						} else {
							randFill(r, in, -20, 20) // many ties for argmax/argmin
						}
						out := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{ir.ReducedType(ir.TileType(ir.TInt32, shape...), axis).Shape})[0]
						want := refAlong(in, shape, axis, func(xs []float64) float64 { return refFold(c, kind, xs) })
						for i, w := range want {
							require.Equal(t, w, out.Float(i), "result %d", i)
						}
					})
				}
			}
		}
	}
}

// TestReduceFloatSumRounds checks that an fp32 sum rounds at each add and
// combines neighbours first: (2^24 + 1) rounds to 2^24, (1 - 2^24) is
// exact, and their sum is 1 (a left fold would give 0).
func TestReduceFloatSumRounds(t *testing.T) {
	k := tileKernel(t, []ir.Kind{ir.Float32}, ir.Shape{4}, func(b *builder, xs []*ir.Value) []*ir.Value {
		return []*ir.Value{b.reduce(ir.CombineSum, xs[0], 0, 0)}
	})
	in := tensor.New(ir.Float32, 4)
	for i, x := range []float64{1 << 24, 1, 1, -(1 << 24)} {
		in.SetFloat(i, x)
	}
	out := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{nil})[0]
	assert.Equal(t, 1.0, out.Float(0))
}

// TestReduceBF16SumPairwise sums 1024 bf16 ones (Triton's test_sum_dtype,
// kernel_default_float: tl.sum keeps bf16) and 7 ones, an odd count: a
// left fold stalls at 256, where bf16's spacing reaches 2; the tree's
// partial sums stay powers of two and exact.
func TestReduceBF16SumPairwise(t *testing.T) {
	for _, n := range []int{1024, 7} {
		k := tileKernel(t, []ir.Kind{ir.BFloat16}, ir.Shape{n}, func(b *builder, xs []*ir.Value) []*ir.Value {
			return []*ir.Value{b.reduce(ir.CombineSum, xs[0], 0, 0)}
		})
		in := tensor.New(ir.BFloat16, n)
		for i := range n {
			in.SetFloat(i, 1)
		}
		out := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{nil})[0]
		assert.Equal(t, float64(n), out.Float(0), "sum of %d ones", n)
	}
}

func TestReduceNaNAndTies(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name  string
		c     ir.Combine
		flags ir.Flags
		in    []float64
		want  float64
	}{
		{"max ignores NaN", ir.CombineMax, 0, []float64{1, nan, 3, 2}, 3},
		{"max NaN first", ir.CombineMax, 0, []float64{nan, -1, -3, -2}, -1},
		{"max all NaN", ir.CombineMax, 0, []float64{nan, nan, nan, nan}, nan},
		{"max propagates NaN", ir.CombineMax, ir.FlagPropagateNaN, []float64{1, nan, 3, 2}, nan},
		{"min ignores NaN", ir.CombineMin, 0, []float64{1, nan, -3, 2}, -3},
		{"min propagates NaN", ir.CombineMin, ir.FlagPropagateNaN, []float64{1, 2, 3, nan}, nan},
		{"max of zeros is +0", ir.CombineMax, 0, []float64{negZero, 0, negZero, negZero}, 0},
		{"min of zeros is -0", ir.CombineMin, 0, []float64{0, negZero, 0, 0}, negZero},
		{"max inf", ir.CombineMax, 0, []float64{-inf, inf, nan, 0}, inf},
		{"argmax tie goes left", ir.CombineArgMax, 0, []float64{1, 5, 5, 2}, 1},
		{"argmin tie goes left", ir.CombineArgMin, 0, []float64{3, 0, 1, 0}, 1},
		{"argmax zeros tie", ir.CombineArgMax, 0, []float64{-1, negZero, 0, -2}, 1},
		// Triton's combine keeps the accumulator only when value1 > value2
		// (or equal): a NaN is taken when met, then replaced by the next
		// element.
		{"argmax NaN in middle", ir.CombineArgMax, 0, []float64{1, nan, 0, -1}, 2},
		{"argmax NaN replaced", ir.CombineArgMax, 0, []float64{1, nan, 0, 5}, 3},
		{"argmax NaN last", ir.CombineArgMax, 0, []float64{1, 7, 0, nan}, 3},
		{"argmax NaN first", ir.CombineArgMax, 0, []float64{nan, 2, 7, 1}, 2},
		{"argmin NaN last", ir.CombineArgMin, 0, []float64{1, -7, 0, nan}, 3},
		{"argmin NaN in middle", ir.CombineArgMin, 0, []float64{1, nan, 0, 4}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := tileKernel(t, []ir.Kind{ir.Float32}, ir.Shape{4}, func(b *builder, xs []*ir.Value) []*ir.Value {
				return []*ir.Value{b.reduce(tc.c, xs[0], 0, tc.flags)}
			})
			in := tensor.New(ir.Float32, 4)
			for i, x := range tc.in {
				in.SetFloat(i, x)
			}
			got := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{nil})[0].Float(0)
			if math.IsNaN(tc.want) {
				assert.True(t, math.IsNaN(got), "got %v", got)
				return
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, math.Signbit(tc.want), math.Signbit(got))
		})
	}
}

// TestReduceUnsigned checks that max, min and argmax compare unsigned
// kinds as unsigned.
func TestReduceUnsigned(t *testing.T) {
	for _, kind := range []ir.Kind{ir.Uint8, ir.Uint32, ir.Uint64} {
		k := tileKernel(t, []ir.Kind{kind}, ir.Shape{4}, func(b *builder, xs []*ir.Value) []*ir.Value {
			return []*ir.Value{b.reduce(ir.CombineMax, xs[0], 0, 0), b.reduce(ir.CombineMin, xs[0], 0, 0),
				b.reduce(ir.CombineArgMax, xs[0], 0, 0), b.reduce(ir.CombineSum, xs[0], 0, 0)}
		})
		in := tensor.New(kind, 4)
		for i, x := range []int64{3, -1, 7, 1} { // -1 is the largest value
			in.SetInt(i, x)
		}
		outs := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{nil, nil, nil, nil})
		assert.Equal(t, wrapInt(kind, -1), outs[0].Int(0), "%s", kind)
		assert.Equal(t, int64(1), outs[1].Int(0), "%s", kind)
		assert.Equal(t, int64(1), outs[2].Int(0), "%s", kind)
		assert.Equal(t, wrapInt(kind, 10), outs[3].Int(0), "%s", kind) // wraps
	}
}

// argmaxRegion is Triton's _argmax_combine with tie_break_left written as
// a Region over (value, index).
func argmaxRegion(b *builder) func(acc, x []*ir.Value) []*ir.Value {
	return func(acc, x []*ir.Value) []*ir.Value {
		tie := b.bin(ir.OpAnd, b.cmp(ir.OpEq, acc[0], x[0]), b.cmp(ir.OpLt, acc[1], x[1]))
		gt := b.bin(ir.OpOr, b.cmp(ir.OpGt, acc[0], x[0]), tie)
		return []*ir.Value{
			b.value(ir.OpWhere, acc[0].Type, gt, acc[0], x[0]),
			b.value(ir.OpWhere, acc[1].Type, gt, acc[1], x[1]),
		}
	}
}

// indexTile appends the i32 index along axis, broadcast to shape.
func (b *builder) indexTile(shape ir.Shape, axis int) *ir.Value {
	idx := b.arange(0, shape[axis])
	for d := range shape {
		if d != axis {
			idx = b.expand(idx, d)
		}
	}
	return b.broadcast(idx, shape...)
}

// TestReduceCustomTuple reduces (value, index) with a Region equal to
// Triton's argmax combine and checks both results against CombineArgMax
// and CombineMax, NaN and ties included, along every axis.
func TestReduceCustomTuple(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, shape := range reduceShapes {
		for axis := range shape {
			t.Run(fmt.Sprintf("%s/%d", shape, axis), func(t *testing.T) {
				k := tileKernel(t, []ir.Kind{ir.Float32}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
					idx := b.indexTile(shape, axis)
					v := b.custom(ir.OpReduce, []*ir.Value{xs[0], idx}, axis, 0, argmaxRegion(b))
					return []*ir.Value{b.get(v, 0), b.get(v, 1), b.reduce(ir.CombineArgMax, xs[0], axis, 0)}
				})
				in := randFill(r, tensor.New(ir.Float32, shape...), -5, 5)
				for i := range in.NumElements() {
					if r.IntN(8) == 0 {
						in.SetFloat(i, math.NaN())
					}
				}
				out := ir.ReducedType(ir.TileType(ir.TInt32, shape...), axis).Shape
				outs := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{out, out, out})
				for i := range out.NumElements() {
					require.Equal(t, outs[2].Int(i), outs[1].Int(i), "index %d", i)
					o := unravel(i, out)
					idx := append(append(append([]int{}, o[:axis]...), int(outs[1].Int(i))), o[axis:]...)
					want := in.Float(ravel(idx, shape))
					if math.IsNaN(want) {
						require.True(t, math.IsNaN(outs[0].Float(i)))
					} else {
						require.Equal(t, want, outs[0].Float(i))
					}
				}
			})
		}
	}
}

// TestReduceCustomConstAndFallback reduces with a region using a constant
// (splat to all lanes) and with a region holding an if statement (run
// lane by lane).
func TestReduceCustomConstAndFallback(t *testing.T) {
	shape := ir.Shape{3, 4}
	k := tileKernel(t, []ir.Kind{ir.Int32}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
		// acc*2 + x: a non-commutative combine, so the order shows.
		lin := b.custom(ir.OpReduce, xs, 1, 0, func(acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.bin(ir.OpAdd, b.bin(ir.OpMul, acc[0], b.i32(2)), x[0])}
		})
		// max written with an if on a var.
		mx := b.custom(ir.OpReduce, xs, 0, 0, func(acc, x []*ir.Value) []*ir.Value {
			m := b.newVar("m", acc[0].Type)
			b.assign(m, acc[0])
			b.ifElse(b.cmp(ir.OpGt, x[0], acc[0]), func() { b.assign(m, x[0]) }, nil)
			return []*ir.Value{b.read(m)}
		})
		return []*ir.Value{lin, mx}
	})
	in := tensor.New(ir.Int32, shape...)
	vals := []int64{1, 0, 0, 1, 2, 1, 0, 0, -1, 5, 3, 9}
	for i, x := range vals {
		in.SetInt(i, x)
	}
	outs := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{{3}, {4}})
	for row := range 3 {
		acc := vals[row*4]
		for j := 1; j < 4; j++ {
			acc = acc*2 + vals[row*4+j]
		}
		assert.Equal(t, acc, outs[0].Int(row))
	}
	assert.Equal(t, []int64{2, 5, 3, 9}, []int64{outs[1].Int(0), outs[1].Int(1), outs[1].Int(2), outs[1].Int(3)})
}

func BenchmarkReduce(b *testing.B) {
	for _, c := range []ir.Combine{ir.CombineSum, ir.CombineMax, ir.CombineArgMax, ir.CombineCustom} {
		b.Run(c.String(), func(b *testing.B) {
			shape := ir.Shape{64, 256}
			k := tileKernel(b, []ir.Kind{ir.Float32}, shape, func(bl *builder, xs []*ir.Value) []*ir.Value {
				if c == ir.CombineCustom {
					return []*ir.Value{bl.custom(ir.OpReduce, xs, 1, 0, func(acc, x []*ir.Value) []*ir.Value {
						return []*ir.Value{bl.bin(ir.OpAdd, acc[0], x[0])}
					})}
				}
				return []*ir.Value{bl.reduce(c, xs[0], 1, 0)}
			})
			in := randTensor(rand.New(rand.NewPCG(5, 6)), ir.Float32, shape.NumElements())
			out := tensor.New(k.Params[1].DType.Elem, 64)
			args := []Arg{{Tensor: in}, {Tensor: out}}
			b.SetBytes(int64(len(in.Data)))
			for b.Loop() {
				if err := Run(k, [3]int{1, 1, 1}, args, Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
