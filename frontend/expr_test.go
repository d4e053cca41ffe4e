package frontend

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "(a + (b * c))"},
		{"a // b % c ** d", "((a // b) % (c ** d))"},
		{"a << 2 >> 1 | b & c ^ d", "(((a << 2) >> 1) | ((b & c) ^ d))"},
		{"-a + ~b", "((-a) + (~b))"},
		{"not a", "(not a)"},
		{"a and b and c", "(a and b and c)"},
		{"a or b", "(a or b)"},
		{"0 <= x < n", "(0 <= x < n)"},
		{"p is None", "(p is None)"},
		{"p is not None", "(p is not None)"},
		{"a in b", "(a in b)"},
		{"a not in b", "(a not in b)"},
		{"a == b != c", "(a == b != c)"},
		{"x[:, None]", "x[:, None]"},
		{"x[None, :]", "x[None, :]"},
		{"x[:, :, None]", "x[:, :, None]"},
		{"x[1:2:3]", "x[1:2:3]"},
		{"x[::2]", "x[::2]"},
		{"x[0]", "x[0]"},
		{"x.shape[0]", "x.shape[0]"},
		{"f(a, *args, k=1)", "f(a, *args, k=1)"},
		{"f(**kw)", "f(<unsupported **kwargs argument>)"},
		{"tl.load(p + offs, mask=m, other=0.0)", "tl.load((p + offs), mask=m, other=0.0)"},
		{"lambda meta: (cdiv(n, meta['BLOCK']),)", "(lambda meta: (cdiv(n, meta[\"BLOCK\"]),))"},
		{"lambda: 0", "(lambda: 0)"},
		{"a if c else b", "(a if c else b)"},
		{"{'a': 1, 'b': x}", "{\"a\": 1, \"b\": x}"},
		{"[1, 2.5, 'x']", "[1, 2.5, \"x\"]"},
		{"()", "()"},
		{"(a,)", "(a,)"},
		{"True, False, None, ...", "(True, False, None, ...)"},
		{"'a' 'b'", "\"ab\""},
		{"[x for x in y]", "<unsupported list comprehension>"},
		{"{1, 2}", "<unsupported set>"},
		{"(x for x in y)", "<unsupported generator expression>"},
		{"{k: v for k in y}", "<unsupported dict comprehension>"},
		{"b'x'", "<unsupported bytes literal>"},
		{"1j", "<unsupported complex literal>"},
		{"x.to(tl.float16)", "x.to(tl.float16)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, dl := ParseExpr("e", tt.src)
			require.NoError(t, dl.Err())
			assert.Equal(t, tt.want, FormatExpr(e))
		})
	}
}

func TestConstants(t *testing.T) {
	big30, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	tests := []struct {
		src  string
		want Const
	}{
		{"42", Const{Kind: ConstInt, Int: big.NewInt(42)}},
		{"0x10", Const{Kind: ConstInt, Int: big.NewInt(16)}},
		{"1000000000000000000000000000000", Const{Kind: ConstInt, Int: big30}},
		{"1e-5", Const{Kind: ConstFloat, Float: 1e-5}},
		{"2.0", Const{Kind: ConstFloat, Float: 2}},
		{"'s'", Const{Kind: ConstStr, Str: "s"}},
		{"True", Const{Kind: ConstBool, Bool: true}},
		{"False", Const{Kind: ConstBool}},
		{"None", Const{Kind: ConstNone}},
		{"...", Const{Kind: ConstEllipsis}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, dl := ParseExpr("e", tt.src)
			require.NoError(t, dl.Err())
			c, ok := e.(*Const)
			require.True(t, ok, "%T", e)
			assert.Equal(t, tt.want.Kind, c.Kind)
			if tt.want.Int != nil {
				require.NotNil(t, c.Int)
				assert.Equal(t, 0, tt.want.Int.Cmp(c.Int), c.Int.String())
			}
			assert.Equal(t, tt.want.Float, c.Float)
			assert.Equal(t, tt.want.Str, c.Str)
			assert.Equal(t, tt.want.Bool, c.Bool)
		})
	}
}

func TestSubscriptShapes(t *testing.T) {
	e, dl := ParseExpr("e", "x[:, None]")
	require.NoError(t, dl.Err())
	sub := e.(*Subscript)
	tup, ok := sub.Index.(*Tuple)
	require.True(t, ok)
	require.Len(t, tup.Elts, 2)
	assert.IsType(t, &Slice{}, tup.Elts[0])
	assert.Equal(t, ConstNone, tup.Elts[1].(*Const).Kind)

	e, _ = ParseExpr("e", "x[i]")
	assert.IsType(t, &Name{}, e.(*Subscript).Index)
}

func TestLaunchLine(t *testing.T) {
	src := "add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=4)"
	e, dl := ParseExpr("launch", src)
	require.NoError(t, dl.Err())
	call, ok := e.(*Call)
	require.True(t, ok)
	sub := call.Func.(*Subscript)
	assert.Equal(t, "add_kernel", sub.X.(*Name).ID)
	grid := sub.Index.(*Tuple)
	require.Len(t, grid.Elts, 1)
	assert.Equal(t, "triton.cdiv(n, 1024)", FormatExpr(grid.Elts[0]))
	assert.Len(t, call.Args, 4)
	require.Len(t, call.Keywords, 2)
	assert.Equal(t, "BLOCK_SIZE", call.Keywords[0].Name)
	assert.Equal(t, "num_warps", call.Keywords[1].Name)
	assert.Equal(t, "launch:1:68", call.Keywords[1].Pos.String())
	assert.Equal(t, "launch:1:37", call.Args[0].Position().String())

	e, dl = ParseExpr("--let grid", "lambda meta: (cdiv(n, meta['BLOCK']),)")
	require.NoError(t, dl.Err())
	lam := e.(*Lambda)
	assert.Equal(t, []string{"meta"}, lam.Params)
	assert.Equal(t, "--let grid:1:14", lam.Body.Position().String())
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct{ src, pos string }{
		{"1 +", "launch:1:4"},
		{"f(x))", "launch:1:6"},
		{"a[", "launch:1:3"},
		{"", "launch:1:1"},
		{"   ", "launch:1:1"},
		{"x = 1", "launch:1:4"},
		{"  f(", "launch:1:5"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, dl := ParseExpr("launch", tt.src)
			assert.Nil(t, e)
			require.Error(t, dl.Err())
			assert.Equal(t, tt.pos, dl.Items[0].Pos.String())
		})
	}
}

func TestParseExprLeadingSpaceColumns(t *testing.T) {
	e, dl := ParseExpr("e", "  a + b")
	require.NoError(t, dl.Err())
	assert.Equal(t, 3, e.Position().Col)
	assert.Equal(t, 7, e.(*Binary).Y.Position().Col)
}
