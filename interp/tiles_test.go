package interp

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// tileKernel builds a kernel that loads one tile of the given shape per
// input kind (row-major, parameters in0, in1, ...), applies f, and stores
// each result row-major to an output parameter (out0, out1, ...).
func tileKernel(t testing.TB, in []ir.Kind, shape ir.Shape, f func(b *builder, xs []*ir.Value) []*ir.Value) *ir.Kernel {
	b := newBuilder("tiles")
	var ps []*ir.Value
	for i, k := range in {
		ps = append(ps, b.param("in"+string(rune('0'+i)), ir.PtrTo(k)))
	}
	b.at(2)
	var xs []*ir.Value
	for _, p := range ps {
		xs = append(xs, b.load(b.tilePtrs(p, shape), nil, nil))
	}
	b.at(3)
	ys := f(b, xs)
	b.at(4)
	for i, y := range ys {
		p := b.param("out"+string(rune('0'+i)), ir.PtrTo(y.Type.Kind))
		b.store(b.tilePtrs(p, y.Type.Shape), y, nil)
	}
	return b.done(t)
}

// runTiles runs k on one program with the inputs and returns outputs of
// the kinds and shapes of its out parameters' stored values.
func runTiles(t testing.TB, k *ir.Kernel, ins []*tensor.Tensor, outShapes []ir.Shape) []*tensor.Tensor {
	var args []Arg
	for _, x := range ins {
		args = append(args, Arg{Tensor: x})
	}
	var outs []*tensor.Tensor
	for i, s := range outShapes {
		o := tensor.New(k.Params[len(ins)+i].DType.Elem, s...)
		outs = append(outs, o)
		args = append(args, Arg{Tensor: o})
	}
	require.NoError(t, Run(k, [3]int{1, 1, 1}, args, Options{Workers: 1}))
	return outs
}

// unravel returns the coordinates of row-major index i in shape.
func unravel(i int, shape ir.Shape) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = i % shape[d]
		i /= shape[d]
	}
	return idx
}

// ravel returns the row-major index of idx in shape.
func ravel(idx []int, shape ir.Shape) int {
	i := 0
	for d, x := range idx {
		i = i*shape[d] + x
	}
	return i
}

// iota returns a tensor of kind k and shape holding start, start+1, ...
func iotaTensor(k ir.Kind, start int, shape ...int) *tensor.Tensor {
	x := tensor.New(k, shape...)
	for i := range x.NumElements() {
		x.SetFloat(i, float64(start+i))
	}
	return x
}

func TestTrans(t *testing.T) {
	tests := []struct {
		shape ir.Shape
		perm  []int
	}{
		{ir.Shape{4, 8}, []int{1, 0}},
		{ir.Shape{4, 8}, []int{0, 1}},
		{ir.Shape{2, 3, 4}, []int{0, 1, 2}},
		{ir.Shape{2, 3, 4}, []int{0, 2, 1}},
		{ir.Shape{2, 3, 4}, []int{1, 0, 2}},
		{ir.Shape{2, 3, 4}, []int{1, 2, 0}},
		{ir.Shape{2, 3, 4}, []int{2, 0, 1}},
		{ir.Shape{2, 3, 4}, []int{2, 1, 0}},
		{ir.Shape{1, 4, 1}, []int{2, 1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.shape.String()+ir.Shape(tc.perm).String(), func(t *testing.T) {
			var outShape ir.Shape
			k := tileKernel(t, []ir.Kind{ir.Float32}, tc.shape, func(b *builder, xs []*ir.Value) []*ir.Value {
				y := b.trans(xs[0], tc.perm...)
				outShape = y.Type.Shape
				return []*ir.Value{y}
			})
			in := iotaTensor(ir.Float32, 0, tc.shape...)
			out := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{outShape})[0]
			for i := range out.NumElements() {
				r := unravel(i, outShape)
				src := make([]int, len(r))
				for d, p := range tc.perm {
					src[p] = r[d]
				}
				require.Equal(t, in.Float(ravel(src, tc.shape)), out.Float(i), "element %v", r)
			}
		})
	}
}

// TestJoinSplit joins two tiles, checks the interleaving, splits the
// result back and transposes the joined dimension away, on ranks 1 to 3.
func TestJoinSplit(t *testing.T) {
	for _, shape := range []ir.Shape{nil, {4}, {2, 3}, {2, 3, 4}} {
		t.Run(shape.String(), func(t *testing.T) {
			joined := append(append(ir.Shape{}, shape...), 2)
			k := tileKernel(t, []ir.Kind{ir.Int16, ir.Int16}, shape, func(b *builder, xs []*ir.Value) []*ir.Value {
				j := b.join(xs[0], xs[1])
				lo, hi := b.split(j)
				return []*ir.Value{j, lo, hi}
			})
			n := shape.NumElements()
			a, c := iotaTensor(ir.Int16, 0, shape...), iotaTensor(ir.Int16, 100, shape...)
			outs := runTiles(t, k, []*tensor.Tensor{a, c}, []ir.Shape{joined, shape, shape})
			for i := range n {
				assert.Equal(t, a.Int(i), outs[0].Int(2*i))
				assert.Equal(t, c.Int(i), outs[0].Int(2*i+1))
				assert.Equal(t, a.Int(i), outs[1].Int(i))
				assert.Equal(t, c.Int(i), outs[2].Int(i))
			}
		})
	}
}

// TestReshapeKeepsOrder reshapes [24] to [2, 3, 4], expands, broadcasts
// and transposes, and reshapes to [4, 6]: row-major order throughout.
func TestReshapeKeepsOrder(t *testing.T) {
	k := tileKernel(t, []ir.Kind{ir.Float64}, ir.Shape{24}, func(b *builder, xs []*ir.Value) []*ir.Value {
		r3 := b.reshape(xs[0], 2, 3, 4)
		e := b.broadcast(b.expand(r3, 1), 2, 2, 3, 4) // [2, 2, 3, 4]
		return []*ir.Value{b.reshape(r3, 4, 6), e}
	})
	in := iotaTensor(ir.Float64, 0, 24)
	outs := runTiles(t, k, []*tensor.Tensor{in}, []ir.Shape{{4, 6}, {2, 2, 3, 4}})
	for i := range 24 {
		assert.Equal(t, float64(i), outs[0].Float(i))
	}
	for i := range 48 {
		idx := unravel(i, ir.Shape{2, 2, 3, 4})
		assert.Equal(t, float64(ravel([]int{idx[0], idx[2], idx[3]}, ir.Shape{2, 3, 4})), outs[1].Float(i))
	}
}

// randFill fills x with small random integers in [lo, hi] (as floats for
// float kinds).
func randFill(r *rand.Rand, x *tensor.Tensor, lo, hi int) *tensor.Tensor {
	for i := range x.NumElements() {
		x.SetFloat(i, float64(lo+r.IntN(hi-lo+1)))
	}
	return x
}

// TestBarrierAndRegionError: debug_barrier is a no-op, and an error inside
// a combine region names the region's line.
func TestBarrierAndRegionError(t *testing.T) {
	k := tileKernel(t, []ir.Kind{ir.Int32}, ir.Shape{2, 4}, func(b *builder, xs []*ir.Value) []*ir.Value {
		b.value(ir.OpBarrier, ir.ScalarType(ir.TVoid))
		return []*ir.Value{b.at(9).custom(ir.OpReduce, xs, 1, 0, func(acc, x []*ir.Value) []*ir.Value {
			return []*ir.Value{b.bin(ir.OpDiv, acc[0], x[0])}
		})}
	})
	in := iotaTensor(ir.Int32, -1, 2, 4) // the first row divides by 0
	out := tensor.New(ir.Int32, 2)
	err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: in}, {Tensor: out}}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "k.tri:9:5: interpreting tiles: integer division by zero")

	in = iotaTensor(ir.Int32, 1, 2, 4)
	require.NoError(t, Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: in}, {Tensor: out}}, Options{}))
	assert.Equal(t, []int64{0, 0}, []int64{out.Int(0), out.Int(1)}) // 1/2/3/4, 5/6/7/8
}
