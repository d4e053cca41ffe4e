package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// regionArg makes an argument of a region (not placed in a block).
func (b *builder) regionArg(t Type, i int) *Value {
	v := &Value{ID: b.k.NumValues, Op: OpRegionArg, Type: t, Axis: i, Name: "a"}
	b.k.NumValues++
	return v
}

func TestVerifyAndPrintTiles(t *testing.T) {
	b := newBuilder()
	body := b.k.Body
	f32 := TileType(TFloat32, 4, 8)
	p := &Param{Name: "p", DType: PtrTo(Float32)}
	b.k.Params = []*Param{p}
	pv := b.val(body, OpParam, ScalarType(p.DType), 1)
	pv.Param = p
	c := b.val(body, OpConst, ScalarType(TFloat32), 2)
	x := b.val(body, OpSplat, f32, 2, c)
	tr := b.val(body, OpTrans, TileType(TFloat32, 8, 4), 3, x)
	tr.Perm = []int{1, 0}
	j := b.val(body, OpJoin, TileType(TFloat32, 4, 8, 2), 4, x, x)
	sp := b.val(body, OpSplit, ScalarType(TVoid), 5, j)
	sp.Types = []Type{f32, f32}
	g := b.val(body, OpTupleGet, f32, 5, sp)
	g.Axis = 1
	sum := b.val(body, OpReduce, TileType(TFloat32, 4), 6, g)
	sum.Axis, sum.Combine = 1, CombineSum
	am := b.val(body, OpReduce, TileType(TInt32, 8), 7, g)
	am.Axis, am.Combine = 0, CombineArgMax
	sc := b.val(body, OpScan, f32, 8, g)
	sc.Axis, sc.Combine, sc.Flags = 1, CombineProd, FlagReverse

	reg := &Region{Body: &Block{}}
	a0, a1 := b.regionArg(ScalarType(TFloat32), 0), b.regionArg(ScalarType(TFloat32), 1)
	reg.Args = []*Value{a0, a1}
	add := b.val(reg.Body, OpAdd, ScalarType(TFloat32), 9, a0, a1)
	reg.Yields = []*Value{add}
	cu := b.val(body, OpReduce, TileType(TFloat32, 8), 9, g)
	cu.Axis, cu.Region = 0, reg

	ptrs := b.val(body, OpSplat, TileType(PtrTo(Float32), 4), 10, pv)
	one := b.val(body, OpSplat, TileType(TFloat32, 4), 10, c)
	rmw := b.val(body, OpAtomicRMW, TileType(TFloat32, 4), 10, ptrs, one, nil)
	rmw.Atomic, rmw.Sem, rmw.Scope = AtomicMax, SemRelaxed, ScopeCTA
	cas := b.val(body, OpAtomicCAS, ScalarType(TFloat32), 11, pv, c, c)
	require.NoError(t, Verify(b.k))

	var out strings.Builder
	Print(&out, b.k)
	s := out.String()
	for _, w := range []string{
		"%3: fp32[8,4] = trans %2, perm=[1 0]   // k.tri:3",
		"%4: fp32[4,8,2] = join %2, %2",
		"%5: (fp32[4,8], fp32[4,8]) = split %4",
		"%6: fp32[4,8] = tuple_get %5, index=1",
		"%7: fp32[4] = reduce %6, axis=1, combine=sum",
		"%8: i32[8] = reduce %6, axis=0, combine=argmax",
		"%9: fp32[4,8] = scan %6, axis=1, combine=prod {reverse}",
		"%13: fp32[8] = reduce %6, axis=0, combine=custom {   // k.tri:9\n    args %10 a: fp32, %11 a: fp32\n    %12: fp32 = add %10, %11   // k.tri:9\n    yield %12\n  }\n",
		"%16: fp32[4] = atomic_rmw %14, %15, _, op=max, sem=relaxed, scope=cta",
		"%17: fp32 = atomic_cas %0, %1, %1, sem=acq_rel, scope=gpu",
	} {
		assert.Contains(t, s, w)
	}

	// Broken variants, each checked on its own.
	bad := []struct {
		name   string
		mutate func() func()
		want   string
	}{
		{"perm", func() func() { tr.Perm = []int{0, 0}; return func() { tr.Perm = []int{1, 0} } }, "trans of"},
		{"reduce axis", func() func() { sum.Axis = 2; return func() { sum.Axis = 1 } }, "axis 2 out of range"},
		{"argmax type", func() func() { am.Type = TileType(TFloat32, 8); return func() { am.Type = TileType(TInt32, 8) } }, "result of type"},
		{"xor on floats", func() func() { sum.Combine = CombineXor; return func() { sum.Combine = CombineSum } }, "xor reduce of fp32"},
		{"reverse reduce", func() func() { sum.Flags = FlagReverse; return func() { sum.Flags = 0 } }, "reverse on a reduction"},
		{"tuple index", func() func() { g.Axis = 2; return func() { g.Axis = 1 } }, "tuple_get 2"},
		{"yield type", func() func() { reg.Yields = []*Value{c}; return func() { reg.Yields = []*Value{add} } }, "not computed in the region"},
		{"region args", func() func() { reg.Args = reg.Args[:1]; return func() { reg.Args = []*Value{a0, a1} } }, "region with 1 arguments"},
		{"outer value in region", func() func() {
			add.Args[1] = c
			return func() { add.Args[1] = a1 }
		}, "not defined"},
		{"atomic value", func() func() { rmw.Args[1] = x; return func() { rmw.Args[1] = one } }, "atomic operand of type fp32[4,8]"},
		{"cas result", func() func() { cas.Type = ScalarType(TInt32); return func() { cas.Type = ScalarType(TFloat32) } }, "atomic_cas of i32 through *fp32"},
		{"split types", func() func() { sp.Types = sp.Types[:1]; return func() { sp.Types = []Type{f32, f32} } }, "split of"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			restore := tt.mutate()
			err := Verify(b.k)
			restore()
			assert.ErrorContains(t, err, tt.want)
			require.NoError(t, Verify(b.k))
		})
	}
}
