package bind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

const bindSrc = `import triton
import triton.language as tl

BLOCK = tl.constexpr(256)

@triton.jit(do_not_specialize=["seed"])
def k(x_ptr, y_ptr, n, scale, seed, flag, bias_ptr, ACT: tl.constexpr, B: tl.constexpr = BLOCK, EPS: tl.constexpr = 1e-5, DT: tl.constexpr = tl.float16):
    pass
`

func parseKernel(t testing.TB) (*frontend.File, *frontend.Func) {
	t.Helper()
	f, diags := frontend.Parse("k.tri", []byte(bindSrc))
	require.False(t, diags.HasErrors(), "%v", diags)
	fn := f.Func("k")
	require.NotNil(t, fn)
	return f, fn
}

func bind(t *testing.T, e *hosteval.Env, line string) (*Bound, *hosteval.Launch, error) {
	t.Helper()
	f, fn := parseKernel(t)
	e.UseGlobals(f.Globals)
	l, err := hosteval.ParseLaunch(line)
	require.NoError(t, err, line)
	b, err := Args(fn, l, e)
	return b, l, err
}

func TestBind(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n, dtype='float16')", "y=empty(n)")
	b, _, err := bind(t, e, "k[(cdiv(n, 256),)](x, y, n, 0.5, 16, True, None, 'relu', num_warps=8)")
	require.NoError(t, err)
	ptr16 := sema.Arg{Kind: sema.ArgRuntime, DType: ir.PtrTo(ir.Float16), DivisibleBy16: true}
	assert.Equal(t, []sema.Arg{
		ptr16,
		{Kind: sema.ArgRuntime, DType: ir.PtrTo(ir.Float32), DivisibleBy16: true},
		{Kind: sema.ArgRuntime, DType: ir.TInt32, DivisibleBy16: true},
		{Kind: sema.ArgRuntime, DType: ir.TFloat32},
		{Kind: sema.ArgRuntime, DType: ir.TInt32}, // do_not_specialize: no :16
		{Kind: sema.ArgRuntime, DType: ir.TBool},
		{Kind: sema.ArgNone},
		// Given on the launch, so placed there; the default 256 is not.
		{Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CStr, Str: "relu"}, At: diag.Pos{File: "launch", Line: 1, Col: 50}},
		{Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CInt, Int: 256}},
		{Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CFloat, Float: 1e-5}},
		{Kind: sema.ArgConstexpr, Value: sema.Constexpr{Kind: sema.CDType, DType: ir.TFloat16}},
	}, b.Signature.Args)
	assert.Equal(t, 8, b.Signature.NumWarps)
	assert.Equal(t, 0, b.Signature.NumStages)
	assert.Equal(t, hosteval.IntValue(8), b.Meta["num_warps"])
	assert.Equal(t, hosteval.IntValue(3), b.Meta["num_stages"])
	assert.Equal(t, hosteval.IntValue(256), b.Meta["B"])
	assert.Equal(t, hosteval.IntValue(4096), b.Meta["n"])
	assert.Len(t, b.Values, 11)
}

// TestBindConstexprPlaces: a constexpr the launch gives remembers where
// (sema.Arg.At); one an autotune config fills or a heuristic sets does not,
// since the launch is not what to change for it.
func TestBindConstexprPlaces(t *testing.T) {
	e := lets(t, "x=zeros(4)")
	f, fn := parseKernel(t)
	e.UseGlobals(f.Globals)
	l, err := hosteval.ParseLaunch("k[(1,)](x, x, 4, 0.5, 16, True, None, ACT='relu', B=64)")
	require.NoError(t, err)
	at := func(meta func(*Binding) error) (act, b diag.Pos) {
		bd, err := With(fn, l, e, meta)
		require.NoError(t, err)
		return bd.Signature.Args[7].At, bd.Signature.Args[8].At
	}
	act, b := at(nil)
	assert.Equal(t, diag.Pos{File: "launch", Line: 1, Col: 39}, act, "the keyword ACT=")
	assert.Equal(t, diag.Pos{File: "launch", Line: 1, Col: 51}, b)
	act, b = at(func(bd *Binding) error { return bd.Set("B", hosteval.IntValue(128)) })
	assert.True(t, act.IsValid())
	assert.False(t, b.IsValid(), "a heuristic's value is not the launch's")
}

func TestBindKeywordsAndSpecialization(t *testing.T) {
	e := lets(t, "x=zeros(4)", "NW=2")
	for _, tc := range []struct {
		n    string
		want sema.Arg
	}{
		{"1", sema.Arg{Kind: sema.ArgOne, DType: ir.TInt32}},
		{"17", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32}},
		{"0", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32, DivisibleBy16: true}},
		{"-32", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32, DivisibleBy16: true}},
		{"2**31 - 1", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32}},
		{"2**31", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt64, DivisibleBy16: true}},
		{"-2**31 - 1", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt64}},
		{"-2**63", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt64, DivisibleBy16: true}},
		// Above int64, Triton's specialization (specialize.cc) says u64.
		{"2**64 - 1", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TUint64}},
		{"18446744073709551600", sema.Arg{Kind: sema.ArgRuntime, DType: ir.TUint64, DivisibleBy16: true}},
	} {
		b, _, err := bind(t, e, "k[(1,)](y_ptr=x, x_ptr=x, n="+tc.n+", scale=1, seed=1, flag=0, bias_ptr=x, ACT=None, B=64, num_warps=NW, num_stages=NW)")
		require.NoError(t, err, tc.n)
		assert.Equal(t, tc.want, b.Signature.Args[2], tc.n)
		assert.Equal(t, sema.Arg{Kind: sema.ArgRuntime, DType: ir.TInt32}, b.Signature.Args[4], "seed=1 is not specialized: do_not_specialize")
		assert.Equal(t, sema.ArgOne, b.Signature.Args[3].Kind, "scale=1 is an int")
		assert.Equal(t, sema.Constexpr{Kind: sema.CNone}, b.Signature.Args[7].Value)
		assert.Equal(t, sema.Constexpr{Kind: sema.CInt, Int: 64}, b.Signature.Args[8].Value)
		assert.Equal(t, 2, b.Signature.NumWarps)
		assert.Equal(t, 2, b.Signature.NumStages)
	}
}

func TestBindErrors(t *testing.T) {
	e := lets(t, "x=zeros(4)", "n=4")
	for _, tc := range []struct{ line, want string }{
		{"k[(1,)](x, x, n, 1.0, 0, True)", "launch:1:30: k() missing arguments 'bias_ptr' and 'ACT'"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x)", "launch:1:33: k() missing argument 'ACT'"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, 2, 3, 4, 5)", "launch:1:47: k() takes 11 arguments but 12 were given"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, BLOK=2)", "launch:1:38: k() got an unexpected keyword argument 'BLOK'"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, n=2)", "launch:1:40: k() got multiple values for argument 'n'"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, x)", "launch:1:35: parameter 'ACT' is a tl.constexpr and needs a compile-time value (int, float, bool, str, dtype, None or a tuple of these), not a tensor"},
		{"k[(1,)](x, x, (n, (x, lambda m: 1)), 1.0, 0, True, x, 1)", "launch:1:15: parameter 'n'[1][1] cannot take a lambda"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, num_warps=n - 1)", "launch:1:48: num_warps must be a power of two from 1 to 32, not 3"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, launch_cooperative_grid=1)", "launch:1:62: launch_cooperative_grid must be True or False, not 1"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, num_ctas=0)", "launch:1:47: num_ctas must be a positive integer, not 0"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 1, num_ctas='2')", "launch:1:47: num_ctas must be a positive integer, not a str"},
		{"k[(1,)](x, x, 2**64, 1.0, 0, True, x, 1)", "launch:1:15: integer 18446744073709551616 does not fit in 64 bits"},
		{"k[(1,)](x, x, n, 1.0, 0, True, x, 2**63)", "launch:1:35: parameter 'ACT': the integer 9223372036854775808 is above int64, and tri's compile-time integers are int64 (as a runtime argument it is a uint64)"},
	} {
		_, _, err := bind(t, e, tc.line)
		require.Error(t, err, tc.line)
		assert.Equal(t, tc.want, err.Error(), tc.line)
		assert.Equal(t, 2, hosteval.ExitCode(err), tc.line)
	}
}

func TestGrid(t *testing.T) {
	e := lets(t, "n=1000", "M=64", "g=lambda meta: (triton.cdiv(n, meta['B']), meta['num_warps'])", "t=(3, 2, 1)")
	meta := map[string]hosteval.Value{"B": hosteval.IntValue(128), "num_warps": hosteval.IntValue(4)}
	for _, tc := range []struct {
		grid string
		want [3]int
	}{
		{"(M,)", [3]int{64, 1, 1}},
		{"(cdiv(n, 256), M // 2)", [3]int{4, 32, 1}},
		{"lambda meta: (triton.cdiv(n, meta['B']),)", [3]int{8, 1, 1}},
		{"g", [3]int{8, 4, 1}},
		{"t", [3]int{3, 2, 1}},
		{"M", [3]int{64, 1, 1}},
		{"M, 2", [3]int{64, 2, 1}},
	} {
		l, err := hosteval.ParseLaunch("k[" + tc.grid + "](x)")
		require.NoError(t, err, tc.grid)
		got, err := e.Grid(l, meta)
		require.NoError(t, err, tc.grid)
		assert.Equal(t, tc.want, got, tc.grid)
	}
}

func TestGridErrors(t *testing.T) {
	e := lets(t, "n=0")
	for _, tc := range []struct{ grid, want string }{
		{"(n,)", "launch:1:3: grid dimension x is 0; it must be at least 1"},
		{"(1, 70000)", "launch:1:3: grid dimension y is 70000; CUDA allows at most 65535"},
		{"(1, 1, 1, 1)", "launch:1:3: the grid must have 1 to 3 dimensions, not 4"},
		{"(1.5,)", "launch:1:3: grid dimension x must be an integer, not a float"},
		{"lambda meta: (meta['BLOK'],)", "launch:1:22: meta has no key 'BLOK' (it holds the kernel's parameters, num_warps and num_stages)"},
		{"lambda a, b: (1,)", "launch:1:3: a grid lambda takes one parameter (the meta dict), not 2"},
	} {
		l, err := hosteval.ParseLaunch("k[" + tc.grid + "](x)")
		require.NoError(t, err, tc.grid)
		_, err = e.Grid(l, map[string]hosteval.Value{"BLOCK": hosteval.IntValue(1)})
		require.Error(t, err, tc.grid)
		assert.Equal(t, tc.want, err.Error(), tc.grid)
	}
}

func TestBindThenGrid(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n)", "grid=lambda meta: (triton.cdiv(meta['n'], meta['B']),)")
	b, l, err := bind(t, e, "k[grid](x, x, n, 1.0, 0, True, x, 'relu', B=512)")
	require.NoError(t, err)
	g, err := e.Grid(l, b.Meta)
	require.NoError(t, err)
	assert.Equal(t, [3]int{8, 1, 1}, g)
}

func TestWithConfig(t *testing.T) {
	e := lets(t, "x=zeros(4)")
	_, fn := parseKernel(t)
	l, err := hosteval.ParseLaunch("k[(1,)](x, x, 4, 1.0, 0, True, x, B=32)")
	require.NoError(t, err)
	b, err := WithConfig(fn, l, e, map[string]hosteval.Value{"ACT": hosteval.StrValue("gelu"), "B": hosteval.IntValue(128)})
	require.NoError(t, err)
	assert.Equal(t, sema.Constexpr{Kind: sema.CStr, Str: "gelu"}, b.Signature.Args[7].Value)
	assert.Equal(t, sema.Constexpr{Kind: sema.CInt, Int: 32}, b.Signature.Args[8].Value, "the launch overrides the config")
	_, err = WithConfig(fn, l, e, map[string]hosteval.Value{"BOGUS": hosteval.IntValue(1)})
	assert.EqualError(t, err, "launch:1:39: the autotune config sets 'BOGUS', which is not a parameter of k()")
}

// A launch option also binds a kernel parameter of its name, as in Triton
// (tutorial 02's persistent softmax takes num_stages as a constexpr).
func TestBindLaunchOptionAsParameter(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, num_stages: tl.constexpr):\n    pass\n"
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	e := lets(t, "x=zeros(4)", "S=5")
	for _, line := range []string{"k[(1,)](x, num_stages=2)", "k[(1,)](x, num_stages=S - 3)"} {
		l, err := hosteval.ParseLaunch(line)
		require.NoError(t, err)
		b, err := Args(f.Func("k"), l, e)
		require.NoError(t, err, line)
		assert.Equal(t, 2, b.Signature.NumStages, line)
		assert.Equal(t, sema.Constexpr{Kind: sema.CInt, Int: 2}, b.Signature.Args[1].Value, line)
	}
	l, err := hosteval.ParseLaunch("k[(1,)](x)")
	require.NoError(t, err)
	_, err = Args(f.Func("k"), l, e)
	assert.ErrorContains(t, err, "missing argument 'num_stages'")
}

// TestBindExternLibs: tutorial 07's extern_libs launch option is accepted
// and not read (tri links no bitcode), unless the kernel has a parameter of
// that name.
func TestBindExternLibs(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n, dtype='float16')", "y=empty(n)")
	b, _, err := bind(t, e, "k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', extern_libs=libs)")
	require.NoError(t, err)
	assert.Len(t, b.Signature.Args, 11)
	src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, extern_libs: tl.constexpr):\n    pass\n"
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	l, err := hosteval.ParseLaunch("k[(1,)](y, extern_libs=3)")
	require.NoError(t, err)
	b, err = Args(f.Func("k"), l, e)
	require.NoError(t, err)
	assert.Equal(t, sema.Constexpr{Kind: sema.CInt, Int: 3}, b.Signature.Args[1].Value)
}

// TestBindNumCTAs: num_ctas=1, Triton's default, is accepted as a launch
// option (TestBindErrors has the values refused), and a kernel's own
// parameter of that name takes its argument.
func TestBindNumCTAs(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n, dtype='float16')", "y=empty(n)", "meta={'num_ctas': 1}")
	for _, line := range []string{"k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', num_ctas=1)",
		"k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', **meta)"} {
		b, _, err := bind(t, e, line)
		require.NoError(t, err, line)
		assert.Len(t, b.Signature.Args, 11)
	}
	src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, num_ctas: tl.constexpr):\n    pass\n"
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	l, err := hosteval.ParseLaunch("k[(1,)](y, num_ctas=2)")
	require.NoError(t, err)
	b, err := Args(f.Func("k"), l, e)
	require.NoError(t, err)
	assert.Equal(t, sema.Constexpr{Kind: sema.CInt, Int: 2}, b.Signature.Args[1].Value)
}

// TestBindLaunchFlags: debug=, launch_pdl= and launch_cooperative_grid=
// are boolean launch options; launch_pdl changes no code (the signature),
// only how the kernel is launched; num_ctas is taken.
func TestBindLaunchFlags(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n, dtype='float16')", "y=empty(n)")
	b, _, err := bind(t, e, "k[(1,)](x, y, n, 0.5, 16, True, None, 'relu')")
	require.NoError(t, err)
	assert.False(t, b.PDL)
	assert.False(t, b.Signature.Debug)
	b, _, err = bind(t, e, "k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', launch_pdl=True, debug=True)")
	require.NoError(t, err)
	assert.True(t, b.PDL)
	assert.True(t, b.Signature.Debug)
	_, _, err = bind(t, e, "k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', launch_pdl=1)")
	assert.ErrorContains(t, err, "launch_pdl must be True or False, not 1")
	// test_load_scope_sem_coop_grid_cta_not_one: a cooperative launch of
	// programs spread over clusters of 4 CTAs; neither changes the code.
	b, _, err = bind(t, e, "k[(1,)](x, y, n, 0.5, 16, True, None, 'relu', num_ctas=4, launch_cooperative_grid=True)")
	require.NoError(t, err)
	assert.True(t, b.Cooperative)
	assert.False(t, b.PDL)
}

// maxnreg is None, or a cap of at least 16 registers; a cap over the 255
// registers a thread can have is 255 (mamba's configs try 256).
func TestMaxNRegValue(t *testing.T) {
	for _, c := range []struct {
		v    hosteval.Value
		want int
		bad  bool
	}{
		{hosteval.None, 0, false},
		{hosteval.IntValue(128), 128, false},
		{hosteval.IntValue(255), 255, false},
		{hosteval.IntValue(256), 255, false},
		{hosteval.IntValue(8), 0, true},
		{hosteval.FloatValue(1.5), 0, true},
	} {
		n, why := MaxNRegValue(c.v)
		assert.Equal(t, c.want, n, "%v", c.v)
		assert.Equal(t, c.bad, why != "", "%v: %s", c.v, why)
	}
}

// TestBindAnnotatedScalars checks that a parameter annotated with a type
// takes it whatever the value, as Triton's launcher does (jit.py's
// annotation_type): floats and bools unspecialized, integers keeping their
// divisibility by 16 but never the constant 1; a tl.constexpr, a pointer
// annotation, torch.Tensor and an annotated tuple's elements are as before.
func TestBindAnnotatedScalars(t *testing.T) {
	const src = `import torch
import triton
import triton.language as tl

@triton.jit
def k(x_ptr: torch.Tensor, h: tl.float16, u: "tl.uint8", w: tl.int64, i: int, f: float, b: bool, s: "fp16", t: tl.int64):
    pass
`
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	fn := f.Func("k")
	e := lets(t, "x=zeros(4)")
	e.UseGlobals(f.Globals)
	l, err := hosteval.ParseLaunch("k[(1,)](x, 2, 1, 32, 5, 1, 1, 0.5, (1, 16))")
	require.NoError(t, err)
	b, err := Args(fn, l, e)
	require.NoError(t, err)
	rt := func(d ir.DType, div bool) sema.Arg {
		return sema.Arg{Kind: sema.ArgRuntime, DType: d, DivisibleBy16: div}
	}
	want := []sema.Arg{
		rt(ir.PtrTo(ir.Float32), true),
		rt(ir.Scalar(ir.Float16), false),
		rt(ir.TUint8, false),
		rt(ir.TInt64, true),
		rt(ir.TInt32, false),
		rt(ir.TFloat32, false),
		rt(ir.TBool, false),
		rt(ir.Scalar(ir.Float16), false),
		{Kind: sema.ArgTuple, Elems: []sema.Arg{{Kind: sema.ArgOne, DType: ir.TInt32}, rt(ir.TInt32, true)}},
	}
	assert.Equal(t, want, b.Signature.Args)
}
