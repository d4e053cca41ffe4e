package interp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// refScan is the reference inclusive scan of x along axis: element idx is
// the fold of the elements from the start of its lane (from the end with
// reverse) up to it.
func refScan(x *tensor.Tensor, shape ir.Shape, axis int, reverse bool, fold func([]float64) float64) []float64 {
	res := make([]float64, shape.NumElements())
	for i := range res {
		idx := unravel(i, shape)
		var lane []float64
		if reverse {
			for j := shape[axis] - 1; j >= idx[axis]; j-- {
				idx2 := append([]int{}, idx...)
				idx2[axis] = j
				lane = append(lane, x.Float(ravel(idx2, shape)))
			}
		} else {
			for j := 0; j <= idx[axis]; j++ {
				idx2 := append([]int{}, idx...)
				idx2[axis] = j
				lane = append(lane, x.Float(ravel(idx2, shape)))
			}
		}
		res[i] = fold(lane)
	}
	return res
}

func TestScanBuiltin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, kind := range []ir.Kind{ir.Int32, ir.Float32} {
		for _, c := range []ir.Combine{ir.CombineSum, ir.CombineProd, ir.CombineMax} {
			for _, shape := range reduceShapes {
				for axis := range shape {
					for _, rev := range []bool{false, true} {
						t.Run(fmt.Sprintf("%s/%s/%s/%d/rev=%v", kind, c, shape, axis, rev), func(t *testing.T) {
							var flags ir.Flags
							if rev {
								flags = ir.FlagReverse
							}
							k := tileKernel(t, []ir.Kind{kind}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
								return []*ir.Value{b.scan(c, xs[0], axis, flags)}
							})
							in := randFill(r, tensor.New(kind, shape...), -3, 3)
							out := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{shape})[0]
							want := refScan(in, shape, axis, rev, func(xs []float64) float64 { return refFold(c, kind, xs) })
							for i, w := range want {
								require.Equal(t, w, out.Float(i), "element %v", unravel(i, shape))
							}
						})
					}
				}
			}
		}
	}
}

// TestScanCustom scans (value, index) pairs with the argmax region (a
// running argmax) and a non-commutative single-operand region, forward and
// reverse, along every axis.
func TestScanCustom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, shape := range reduceShapes {
		for axis := range shape {
			for _, rev := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%d/rev=%v", shape, axis, rev), func(t *testing.T) {
					var flags ir.Flags
					if rev {
						flags = ir.FlagReverse
					}
					k := tileKernel(t, []ir.Kind{ir.Float32, ir.Int64}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
						idx := b.indexTile(shape, axis)
						pair := b.custom(ir.OpScan, []*ir.Value{xs[0], idx}, axis, flags, argmaxRegion(b))
						lin := b.custom(ir.OpScan, xs[1:], axis, flags, func(acc, x []*ir.Value) []*ir.Value {
							return []*ir.Value{b.bin(ir.OpAdd, b.bin(ir.OpMul, acc[0], b.cint(ir.TInt64, 3)), x[0])}
						})
						return []*ir.Value{b.get(pair, 0), b.get(pair, 1), lin}
					})
					vals := randFill(r, tensor.New(ir.Float32, shape...), -4, 4)
					ints := randFill(r, tensor.New(ir.Int64, shape...), -2, 2)
					outs := runTiles(t, k, []*tensor.Tensor{vals, ints}, []ir.Shape{shape, shape, shape})
					// The running max from the start of the scan, and
					// acc*3 + x folded in scan order.
					wantMax := refScan(vals, shape, axis, rev, func(xs []float64) float64 { return refFold(ir.CombineMax, ir.Float32, xs) })
					wantLin := refScan(ints, shape, axis, rev, func(xs []float64) float64 {
						acc := int64(xs[0])
						for _, x := range xs[1:] {
							acc = acc*3 + int64(x)
						}
						return float64(acc)
					})
					for i := range shape.NumElements() {
						require.Equal(t, wantMax[i], outs[0].Float(i), "element %v", unravel(i, shape))
						idx := unravel(i, shape)
						idx[axis] = int(outs[1].Int(i))
						require.Equal(t, wantMax[i], vals.Float(ravel(idx, shape)))
						require.Equal(t, wantLin[i], outs[2].Float(i))
					}
				})
			}
		}
	}
}
