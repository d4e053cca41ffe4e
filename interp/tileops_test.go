package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// TestSortLanes checks the bitonic network on small rows whose answers
// follow from standard.py's compare-and-swap rule by hand.
func TestSortLanes(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name       string
		in         []float64
		logK       int
		desc, merg bool
		want       []float64
	}{
		{"ascending", []float64{3, 1, 2, 0}, 2, false, false, []float64{0, 1, 2, 3}},
		{"descending", []float64{3, 1, 2, 0}, 2, true, false, []float64{3, 2, 1, 0}},
		{"two rows", []float64{2, 1, 4, 3}, 1, false, false, []float64{1, 2, 3, 4}},
		// A bitonic row needs only the last merge.
		{"merge", []float64{1, 3, 5, 7, 6, 4, 2, 0}, 3, false, true, []float64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"merge descending", []float64{1, 3, 5, 7, 6, 4, 2, 0}, 3, true, true, []float64{7, 6, 5, 4, 3, 2, 1, 0}},
		// +0 then -0: neither is greater, so the right lane takes the
		// left's +0 and the -0 is lost, as in Triton.
		{"signed zeros", []float64{0, negZero}, 1, false, false, []float64{0, 0}},
		// A NaN is never greater: it is copied into both lanes.
		{"nan", []float64{nan, 1}, 1, false, false, []float64{nan, nan}},
		// topk(k=2) of a row of 4: the larger halves, then a descending merge.
		{"topk", []float64{5, 9, 1, 7}, 1, true, false, []float64{9, 7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.in)
			if c.name == "two rows" {
				n = 2
			}
			a := &tile{kind: ir.Float32, shape: ir.Shape{len(c.in) / n, n}, flts: c.in}
			src := sortLanes(a, log2Of(n), c.logK, c.desc, c.merg)
			got := make([]float64, len(src))
			for i, s := range src {
				got[i] = c.in[s]
			}
			assert.Equal(t, len(c.want), len(got))
			for i := range got {
				if math.IsNaN(c.want[i]) {
					assert.True(t, math.IsNaN(got[i]), "lane %d: %v", i, got)
					continue
				}
				assert.Equal(t, c.want[i], got[i], "lane %d: %v", i, got)
				assert.Equal(t, math.Signbit(c.want[i]), math.Signbit(got[i]), "sign of lane %d: %v", i, got)
			}
		})
	}
}

// TestHistogramWraps checks that values outside [0, bins) are binned by
// their low bits, as Triton's GPU lowering bins them.
func TestHistogramWraps(t *testing.T) {
	in := &tile{kind: ir.Int32, shape: ir.Shape{6}, ints: []int64{-1, 0, 33, 40, 9, 1}}
	v := &ir.Value{Type: ir.TileType(ir.TInt32, 8)}
	got := histogramTile(v, in, nil)
	// -1 -> 31 (dropped), 0 -> 0, 33 -> 1, 40 -> 8 (dropped), 9 -> 9 (dropped), 1 -> 1.
	assert.Equal(t, []int64{1, 2, 0, 0, 0, 0, 0, 0}, got.ints)
	mask := &tile{kind: ir.Bool, shape: ir.Shape{6}, ints: []int64{1, 1, 0, 1, 1, 1}}
	assert.Equal(t, []int64{1, 1, 0, 0, 0, 0, 0, 0}, histogramTile(v, in, mask).ints)
}

// TestUndefinedLanesTileOps: flip and cat move the undefined marks with
// their elements; sort mixes lanes, so its whole result is undefined.
func TestUndefinedLanesTileOps(t *testing.T) {
	zero8 := func(b *builder) *ir.Value { return b.splat(b.i32(0), 8) }
	flip := func(b *builder, x *ir.Value) *ir.Value { return b.value(ir.OpFlip, x.Type, x) }
	tests := []struct {
		name    string
		body    func(b *builder, x, q, out *ir.Value)
		want    []int64
		wantErr string
	}{
		{"flip moves the mark", func(b *builder, x, q, out *ir.Value) {
			b.store(out, flip(b, q), flip(b, b.cmp(ir.OpNe, x, zero8(b))))
		}, []int64{16, 20, 25, 33, 50, 100, 0, -100}, ""},
		{"flip stored", func(b *builder, x, q, out *ir.Value) {
			b.store(out, flip(b, q), nil)
		}, nil, "used by the store at line 7 at lane [6]"},
		{"cat moves the mark", func(b *builder, x, q, out *ir.Value) {
			c := b.value(ir.OpCat, ir.TileType(ir.TInt32, 16), x, q)
			half := b.value(ir.OpReshape, ir.Type{DType: ir.TInt32, Shape: ir.Shape{2, 8}}, c)
			parts := b.value(ir.OpTrans, ir.Type{DType: ir.TInt32, Shape: ir.Shape{8, 2}}, half)
			parts.Perm = []int{1, 0}
			split := b.value(ir.OpSplit, ir.ScalarType(ir.TVoid), parts)
			split.Types = []ir.Type{ir.TileType(ir.TInt32, 8), ir.TileType(ir.TInt32, 8)}
			first := b.value(ir.OpTupleGet, ir.TileType(ir.TInt32, 8), split)
			b.store(out, first, nil)
		}, []int64{-1, 0, 1, 2, 3, 4, 5, 6}, ""},
		{"sort mixes lanes", func(b *builder, x, q, out *ir.Value) {
			s := b.value(ir.OpSort, q.Type, q)
			s.Const = ir.IntConst(3)
			b.store(out, s, b.cmp(ir.OpNe, x, zero8(b)))
		}, nil, "used by the store at line 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := undefKernel(t, tc.body)
			x := iotaTensor(ir.Int32, -1, 8) // x[1] is 0
			out := tensor.New(ir.Int32, 8)
			err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: x}, {Tensor: out}}, Options{})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := make([]int64, 8)
			for i := range got {
				got[i] = out.Int(i)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
