package cudagen

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func TestNames(t *testing.T) {
	n := newNamer()
	for _, tc := range []struct{ in, want string }{
		{"x", "x"},
		{"x", "x_1"},
		{"x", "x_2"},
		{"int", "int_"},
		{"threadIdx", "threadIdx_"},
		{"e", "e_"},
		{"tri_half", "tri_half_"},
		{"L0_base", "L0_base_"},
		{"", "_"},
		{"x_1", "x_1_1"},
	} {
		assert.Equal(t, tc.want, n.name(tc.in), "name(%q)", tc.in)
	}
}

func TestLiterals(t *testing.T) {
	for _, tc := range []struct {
		d    ir.DType
		c    ir.Const
		want string
	}{
		{ir.TInt32, ir.IntConst(5), "5"},
		{ir.TInt32, ir.IntConst(-5), "(-5)"},
		{ir.TInt32, ir.IntConst(math.MinInt32), "(-2147483647 - 1)"},
		{ir.TInt64, ir.IntConst(1 << 40), "1099511627776LL"},
		{ir.TUint32, ir.IntConst(7), "7u"},
		{ir.TInt8, ir.IntConst(-3), "((signed char)-3)"},
		{ir.TBool, ir.IntConst(1), "true"},
		{ir.TFloat32, ir.FloatConst(1), "1.0f"},
		{ir.TFloat32, ir.FloatConst(0.1), "0.1f"},
		{ir.TFloat32, ir.FloatConst(-2.5), "(-2.5f)"},
		{ir.TFloat32, ir.FloatConst(math.Inf(-1)), "tri_f32_bits(0xff800000u)"},
		{ir.TFloat64, ir.FloatConst(1e300), "1e+300"},
		{ir.TFloat16, ir.FloatConst(1), "((tri_half)0x3c00)"},
		{ir.TBF16, ir.FloatConst(1), "((tri_bf16)0x3f80)"},
	} {
		assert.Equal(t, tc.want, nameSet{}.literal(tc.d, tc.c), "%s %v", tc.d, tc.c)
	}
}

func TestCasts(t *testing.T) {
	for _, tc := range []struct {
		from, to ir.DType
		flags    ir.Flags
		want     string
	}{
		{ir.TFloat32, ir.TInt32, 0, "(int)(x)"},
		{ir.TFloat32, ir.TBool, 0, "x != 0"},
		{ir.TFloat32, ir.TFloat16, 0, "tri_f2h(x)"},
		{ir.TFloat32, ir.TFloat16, ir.FlagRoundTZ, "tri_f2h_rz(x)"},
		{ir.TFloat32, ir.TBF16, 0, "tri_f2bf(x)"},
		{ir.TFloat16, ir.TFloat32, 0, "tri_h2f(x)"},
		{ir.TFloat16, ir.TInt32, 0, "(int)(tri_h2f(x))"},
		{ir.TBF16, ir.TFloat16, 0, "tri_f2h(tri_bf2f(x))"},
		{ir.TFloat64, ir.TFloat16, 0, "tri_d2h(x)"},
		{ir.TInt32, ir.TInt8, 0, "(signed char)(x)"},
		{ir.TInt64, ir.PtrTo(ir.Float32), 0, "(float*)(x)"},
	} {
		assert.Equal(t, tc.want, nameSet{}.castExpr(tc.from, tc.to, "x", tc.flags), "%s -> %s", tc.from, tc.to)
	}
}

func TestUnsupportedShape(t *testing.T) {
	b := newBuilder(t, "k", "misc.tri", 4)
	r := b.at(14).arange(16)
	x := b.at(15).emit(&ir.Value{Op: ir.OpExpandDims, Type: ir.TileType(ir.TInt32, 16, 1), Args: []*ir.Value{r}, Axis: 1})
	b.emit(&ir.Value{Op: ir.OpBroadcast, Type: ir.TileType(ir.TInt32, 16, 3), Args: []*ir.Value{x}})
	_, err := Generate(b.k, Options{})
	require.Error(t, err)
	var list *diag.List
	require.ErrorAs(t, err, &list)
	assert.Equal(t, diag.CodeUnsupported, list.Items[0].Code)
	assert.Equal(t, 15, list.Items[0].Pos.Line)
	assert.Contains(t, err.Error(), "powers of two")
}

func TestAxisInfo(t *testing.T) {
	b := newBuilder(t, "k", "misc.tri", 4)
	p := b.param("p", ir.PtrTo(ir.Float32), true)
	pid := b.pid(0)
	offs := b.op(ir.OpAdd, b.op(ir.OpMul, pid, b.i32(256)), b.arange(256))
	ptrs := b.ptrAdd(p, offs)
	odd := b.ptrAdd(p, b.op(ir.OpAdd, offs, b.i32(1)))
	scaled := b.ptrAdd(p, b.op(ir.OpMul, offs, b.i32(2)))
	a := analyzeAxes(b.k)
	assert.Equal(t, axisInfo{256, 256, 1}, a.info(offs))
	assert.Equal(t, axisInfo{256, 16, 1}, a.info(ptrs))
	assert.Equal(t, int64(4), a.info(odd).Div)
	assert.Equal(t, int64(1), a.info(scaled).Contig)
}

func TestUnsupportedOp(t *testing.T) {
	b := newBuilder(t, "k", "misc.tri", 4)
	r := b.at(16).arange(16)
	b.emit(&ir.Value{Op: ir.OpScan, Type: r.Type, Args: []*ir.Value{r}})
	_, err := Generate(b.k, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "misc.tri:16:5: scan with a custom combine function has no region")
}

// evalInt evaluates a C integer expression that is Go syntax too (the
// rows permRow writes, with r replaced by a number).
func evalInt(t *testing.T, expr string) int {
	t.Helper()
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, expr)
	require.NoError(t, err, expr)
	v, ok := constant.Int64Val(tv.Value)
	require.True(t, ok, expr)
	return int(v)
}

// TestWgmmaRowAxes checks that one box of the 5-D view wgmmaRowAxes
// gives lands every row of a where permRow puts it: the TMA unit writes a
// box densely, its innermost axes first, so box element j (8 rows, then
// each axis) must be the row permRow sends to shared-memory row j.
func TestWgmmaRowAxes(t *testing.T) {
	for _, c := range []struct{ m, warps, axes int }{
		{64, 4, 2}, {128, 4, 3}, {256, 4, 3}, {128, 8, 3}, {256, 8, 0}, {64, 8, 0}, {32, 4, 0},
	} {
		axes := wgmmaRowAxes(c.m, c.warps)
		if c.axes == 0 {
			assert.Nil(t, axes, "m=%d warps=%d", c.m, c.warps)
			continue
		}
		require.Len(t, axes, 3, "m=%d warps=%d", c.m, c.warps)
		seen := map[int]bool{}
		j := 0
		for c4 := 0; c4 < axes[2].Count; c4++ {
			for c3 := 0; c3 < axes[1].Count; c3++ {
				for c2 := 0; c2 < axes[0].Count; c2++ {
					for g := 0; g < 8; g++ {
						row := g + c2*axes[0].Stride + c3*axes[1].Stride + c4*axes[2].Stride
						assert.Equal(t, j, evalInt(t, permRow(strconv.Itoa(row), c.m, c.warps)), "m=%d warps=%d row %d", c.m, c.warps, row)
						assert.False(t, seen[row], "row %d twice", row)
						seen[row] = true
						j++
					}
				}
			}
		}
		assert.Equal(t, c.m, j, "m=%d warps=%d: the box holds every row", c.m, c.warps)
	}
}

// TestMayChange checks which descriptor scalars an invariant's TMA copies
// may print again before a loop: not a read of an assigned Var (which the
// emitter may print as the Var), even behind a hint; a loop's index and a
// computed value are safe.
func TestMayChange(t *testing.T) {
	i32 := ir.Type{DType: ir.Scalar(ir.Int32)}
	assigned, index := &ir.Var{ID: 0, Type: i32}, &ir.Var{ID: 1, Type: i32}
	p := &plan{varBlock: []*ir.Block{{}, nil}}
	read := func(x *ir.Var) *ir.Value { return &ir.Value{Op: ir.OpVarRead, Var: x, Type: i32} }
	hinted := &ir.Value{Op: ir.OpMultipleOf, Args: []*ir.Value{read(assigned)}, Type: i32}
	sum := &ir.Value{Op: ir.OpAdd, Args: []*ir.Value{read(assigned), read(index)}, Type: i32}
	assert.True(t, p.mayChange(read(assigned)))
	assert.True(t, p.mayChange(hinted))
	assert.False(t, p.mayChange(read(index)))
	assert.False(t, p.mayChange(sum))
}

// TestGroupRows: a's rows move to the calling warpgroup's only where
// several warpgroups share them, through the warp-uniform tri_warpgroup.
func TestGroupRows(t *testing.T) {
	s := nameSet{}
	assert.Equal(t, "", groupRows(s, 128, 128, 128), "one warpgroup holds every row")
	assert.False(t, s["tri_warpgroup"])
	assert.Equal(t, " + tri_warpgroup() * 8192", groupRows(s, 128, 64, 128))
	assert.True(t, s["tri_warpgroup"])
}
