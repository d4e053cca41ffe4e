package cudagen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

func TestChooseBlocked(t *testing.T) {
	tests := []struct {
		shape       []int
		order       []int
		width, nw   int
		spt, tpw, w []int
	}{
		{[]int{1024}, []int{0}, 4, 4, []int{4}, []int{32}, []int{4}},
		{[]int{16}, []int{0}, 4, 4, []int{1}, []int{32}, []int{4}},
		{[]int{8192}, []int{0}, 4, 16, []int{4}, []int{32}, []int{16}},
		{[]int{32, 64}, []int{1, 0}, 4, 4, []int{1, 4}, []int{2, 16}, []int{4, 1}},
		{[]int{64, 32}, []int{0, 1}, 4, 4, []int{4, 1}, []int{16, 2}, []int{1, 4}},
		{[]int{2, 8}, []int{1, 0}, 4, 4, []int{1, 1}, []int{2, 16}, []int{4, 1}},
	}
	for _, tc := range tests {
		b := chooseBlocked(tc.shape, tc.order, tc.width, tc.nw)
		assert.Equal(t, tc.spt, b.SizePerThread, "%v", tc.shape)
		assert.Equal(t, tc.tpw, b.ThreadsPerWarp, "%v", tc.shape)
		assert.Equal(t, tc.w, b.WarpsPerCTA, "%v", tc.shape)
	}
}

// TestSliceLayouts checks that the 1-D operands of 2-D tiles get Slice
// layouts of the 2-D tiles' Blocked layout, so that broadcasting them
// moves no data.
func TestSliceLayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    *ir.Kernel
	}{
		{"outer", outerKernel(t)},
		{"colsum", colsumKernel(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newPlan(tc.k, "", true)
			require.NoError(t, err)
			var parent Layout
			p.forEachValue(tc.k.Body, func(v *ir.Value) {
				if v.Op == ir.OpLoad && v.Type.Shape.Rank() == 2 || v.Op == ir.OpStore && v.Args[0].Type.Shape.Rank() == 2 {
					parent = p.layoutOf(v.Args[0]).Layout
				}
			})
			require.NotNil(t, parent)
			b, ok := parent.(Blocked)
			require.True(t, ok)
			assert.Equal(t, []int{1, 0}, b.Order, "the contiguous axis is the fastest")
			assert.Equal(t, 4, b.SizePerThread[1], "16 bytes per thread along it")
			p.forEachValue(tc.k.Body, func(v *ir.Value) {
				if v.Op == ir.OpExpandDims {
					assert.Equal(t, Slice{v.Axis, parent}, p.layoutOf(v.Args[0]).Layout)
				}
				assert.False(t, p.converts[v.ID], "value %d (%s) is converted", v.ID, v.Op)
			})
			src, err := gen(tc.k, Options{})
			require.NoError(t, err)
			assert.NotContains(t, src, "Layout conversion")
		})
	}
}

func TestDumpLayoutsCountsConversions(t *testing.T) {
	for _, tc := range []struct {
		k    *ir.Kernel
		want []string
	}{
		{outerKernel(t), []string{"0 layout conversion(s)", "#L0 = Slice(dim=1, parent=Blocked(sizePerThread=[1, 4]"}},
		{transposeKernel(t), []string{"1 layout conversion(s)", "converted from #L3 through shared memory", "index recomputed in #L4"}},
		{softmaxKernel(t, 1024, 4), []string{"0 layout conversion(s)", "reduced along axis 0"}},
		{mixedLayoutsKernel(t), []string{"1 layout conversion(s)", "index recomputed in", "x_sum            fp32[16]     #L0  converted from #L8"}},
	} {
		var b strings.Builder
		require.NoError(t, DumpLayouts(&b, tc.k, ""))
		for _, w := range tc.want {
			assert.Contains(t, b.String(), w)
		}
	}
}

// TestBaseWrapsWholeCoordinate: where a layout's tile is larger than the
// shape, the coordinate wraps modulo the shape as a whole, warps included
// ("(w) * 16 + l % 32" wrapped only the lane part and read out of bounds).
func TestBaseWrapsWholeCoordinate(t *testing.T) {
	b := Blocked{SizePerThread: []int{1, 1}, ThreadsPerWarp: []int{16, 2}, WarpsPerCTA: []int{4, 1}, Order: []int{1, 0}}
	d := newDist(b, []int{32, 2}, 4)
	assert.Equal(t, "((warp_id % 4) * 16 + lane_id / 2 % 16) % 32", d.baseInit(0))
	assert.Equal(t, "lane_id % 2", d.baseInit(1))
	s := d.slice(1)
	assert.Equal(t, "((warp_id % 4) * 16 + lane_id / 2 % 16) % 32", s.baseInit(0))
	v := newDist(Blocked{SizePerThread: []int{4}, ThreadsPerWarp: []int{32}, WarpsPerCTA: []int{4}, Order: []int{0}}, []int{256}, 4)
	assert.Equal(t, "(tri_thread_id() * 4) % 256", v.baseInit(0))
}

// TestTupleGetSharesLayout: the results of tl.split (and of tuple
// reductions) are read register for register, so each must have the
// layout of the value it is taken from (x of a split was once stored
// through another layout's addresses).
func TestTupleGetSharesLayout(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "conformance", "constructs", "tile_join_split.tri"))
	require.NoError(t, err)
	f, diags := frontend.Parse("tile_join_split.tri", src)
	require.False(t, diags.HasErrors(), "%v", diags)
	ptr := sema.Arg{Kind: sema.ArgRuntime, DType: ir.PtrTo(ir.Float32), DivisibleBy16: true}
	sig := sema.Signature{Args: []sema.Arg{ptr, ptr, ptr, ptr, ptr, {Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CInt, Int: 32}}}}
	k, diags := sema.Specialize(f, "join_split_kernel", sig)
	require.False(t, diags.HasErrors(), "%v", diags)
	p, err := newPlan(k, "", true)
	require.NoError(t, err)
	n := 0
	p.forEachValue(k.Body, func(v *ir.Value) {
		if v.Op == ir.OpTupleGet {
			n++
			assert.Same(t, p.layoutOf(v.Args[0]), p.layoutOf(v), "tuple_get at %s", v.Pos)
		}
	})
	assert.Equal(t, 2, n)
}

// A remapped element index is a compound C expression: index1D must
// parenthesize it (an odd column once landed 8 columns off in the partial
// tile of a matmul's epilogue).
func TestIndex1DParenthesizesCompoundIndex(t *testing.T) {
	d := newDist(Blocked{SizePerThread: []int{2}, ThreadsPerWarp: []int{32}, WarpsPerCTA: []int{4}, Order: []int{0}}, []int{512}, 4)
	assert.Equal(t, "L_base + ((e % 2 + (e / 2 % 2) * 2) / 2) * 256 + (e % 2 + (e / 2 % 2) * 2) % 2",
		strings.ReplaceAll(d.index1D("e % 2 + (e / 2 % 2) * 2"), d.base(0), "L_base"))
	assert.Equal(t, "L_base + ((e + 1) / 2) * 256 + (e + 1) % 2", strings.ReplaceAll(d.index1D("(e + 1)"), d.base(0), "L_base"))
	assert.True(t, wrapped("(a + b)"))
	assert.False(t, wrapped("(a) + (b)"))
}
