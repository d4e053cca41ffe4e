package hosteval

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// lets binds each spec in a fresh Env with seed 0.
func lets(t *testing.T, specs ...string) *Env {
	t.Helper()
	e := NewEnv(0)
	for _, s := range specs {
		require.NoError(t, e.Let(s), s)
	}
	return e
}

func lookup(t *testing.T, e *Env, name string) Value {
	t.Helper()
	v, ok := e.Lookup(name)
	require.True(t, ok, name)
	return v
}

func elems(t *tensor.Tensor) []float64 {
	out := make([]float64, t.NumElements())
	for i := range out {
		out[i] = t.Float(i)
	}
	return out
}

func TestLetNumbers(t *testing.T) {
	e := lets(t, "n=98432", "eps = 1e-5", "m=n // 3 * 2", "h=-7 // 2", "r=-7 % 3", "f=1/4", "ok=True", "s='relu'", "d=tl.float16", "td=torch.bfloat16", "sh=(n, 4)", "big=2**40")
	assert.Equal(t, IntValue(98432), lookup(t, e, "n"))
	assert.Equal(t, FloatValue(1e-5), lookup(t, e, "eps"))
	assert.Equal(t, IntValue(98432/3*2), lookup(t, e, "m"))
	assert.Equal(t, IntValue(-4), lookup(t, e, "h"))
	assert.Equal(t, IntValue(2), lookup(t, e, "r"))
	assert.Equal(t, FloatValue(0.25), lookup(t, e, "f"))
	assert.Equal(t, BoolValue(true), lookup(t, e, "ok"))
	assert.Equal(t, StrValue("relu"), lookup(t, e, "s"))
	assert.Equal(t, DTypeValue(ir.TFloat16), lookup(t, e, "d"))
	assert.Equal(t, DTypeValue(ir.TBF16), lookup(t, e, "td"))
	assert.Equal(t, TupleValue(IntValue(98432), IntValue(4)), lookup(t, e, "sh"))
	assert.Equal(t, IntValue(1<<40), lookup(t, e, "big"))
	assert.Equal(t, []string{"n", "eps", "m", "h", "r", "f", "ok", "s", "d", "td", "sh", "big"}, e.Names())
}

func TestLetConstructors(t *testing.T) {
	e := lets(t, "n=6", "rows=2",
		"a=zeros(n)", "b=ones(rows, 3, dtype='int32')", "c=empty((rows, n), dtype='float16')",
		"d=full((2, 2), 1.5, dtype=tl.bfloat16)", "r=arange(n)", "r2=arange(2, 10, 3, dtype='int64')",
		"t=tensor([[1, 2, 3], [4, 5, 6]], dtype='int8')", "t1=tensor([0.5, 2])",
		"z=zeros_like(b)", "o=ones_like(a, dtype='float64')", "f=full_like(a, 7)", "el=empty_like(b)",
		"s=empty(rows * 128)", "scalar=zeros(())", "shape=(3, 2)", "st=randn(*shape)",
		"ib=empty(3, dtype='bool')", "tc=torch.zeros(4, device='cuda')", "x=arange(4) * 3 + 1", "y=2 - ones(2)", "q=arange(5) // 2",
	)
	cases := []struct {
		name  string
		kind  ir.Kind
		shape []int
		vals  []float64 // nil: not checked
	}{
		{"a", ir.Float32, []int{6}, []float64{0, 0, 0, 0, 0, 0}},
		{"b", ir.Int32, []int{2, 3}, []float64{1, 1, 1, 1, 1, 1}},
		{"c", ir.Float16, []int{2, 6}, nil},
		{"d", ir.BFloat16, []int{2, 2}, []float64{1.5, 1.5, 1.5, 1.5}},
		{"r", ir.Int32, []int{6}, []float64{0, 1, 2, 3, 4, 5}},
		{"r2", ir.Int64, []int{3}, []float64{2, 5, 8}},
		{"t", ir.Int8, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}},
		{"t1", ir.Float32, []int{2}, []float64{0.5, 2}},
		{"z", ir.Int32, []int{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"o", ir.Float64, []int{6}, []float64{1, 1, 1, 1, 1, 1}},
		{"f", ir.Float32, []int{6}, []float64{7, 7, 7, 7, 7, 7}},
		{"el", ir.Int32, []int{2, 3}, []float64{0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a, 0x5a5a5a5a}},
		{"s", ir.Float32, []int{256}, nil},
		{"scalar", ir.Float32, nil, []float64{0}},
		{"st", ir.Float32, []int{3, 2}, nil},
		{"ib", ir.Bool, []int{3}, []float64{1, 1, 1}},
		{"tc", ir.Float32, []int{4}, []float64{0, 0, 0, 0}},
		{"x", ir.Int32, []int{4}, []float64{1, 4, 7, 10}},
		{"y", ir.Float32, []int{2}, []float64{1, 1}},
		{"q", ir.Int32, []int{5}, []float64{0, 0, 1, 1, 2}},
	}
	for _, tc := range cases {
		v := lookup(t, e, tc.name)
		require.Equal(t, VTensor, v.Kind, tc.name)
		assert.Equal(t, tc.kind, v.Tensor.Kind, tc.name)
		assert.Equal(t, tc.shape, v.Tensor.Shape, tc.name)
		if tc.vals != nil {
			assert.Equal(t, tc.vals, elems(v.Tensor), tc.name)
		}
	}
	for _, name := range []string{"c", "s"} {
		for _, f := range elems(lookup(t, e, name).Tensor) {
			assert.True(t, math.IsNaN(f), "empty() is NaN-filled")
		}
	}
}

func TestLetRandom(t *testing.T) {
	e := lets(t, "n=4096", "x=randn(n)", "u=rand(n, dtype='float16')", "k=randint(-3, 5, n, dtype='int16')", "g=randn_like(x)", "h=rand_like(u)")
	x := lookup(t, e, "x").Tensor
	var sum, sq float64
	for _, f := range elems(x) {
		sum += f
		sq += f * f
	}
	mean, variance := sum/4096, sq/4096-(sum/4096)*(sum/4096)
	assert.InDelta(t, 0, mean, 0.1)
	assert.InDelta(t, 1, variance, 0.1)
	for _, f := range elems(lookup(t, e, "u").Tensor) {
		assert.True(t, f >= 0 && f <= 1)
	}
	seen := map[float64]bool{}
	for _, f := range elems(lookup(t, e, "k").Tensor) {
		assert.True(t, f >= -3 && f < 5, "hi is exclusive")
		seen[f] = true
	}
	assert.Len(t, seen, 8)
	assert.Equal(t, ir.Float16, lookup(t, e, "h").Tensor.Kind)
	assert.NotEqual(t, x.Data, lookup(t, e, "g").Tensor.Data, "each binding has its own stream")

	again := lets(t, "n=4096", "x=randn(n)")
	assert.Equal(t, x.Data, lookup(t, again, "x").Tensor.Data, "same seed, same data")

	// Adding a binding before others does not change them, as long as the
	// index stays: streams depend on the index only.
	other := NewEnv(0)
	require.NoError(t, other.Let("n=4096"))
	require.NoError(t, other.Let("x=randn(n)"))
	require.NoError(t, other.Let("w=randn(n)"))
	assert.Equal(t, x.Data, lookup(t, other, "x").Tensor.Data)

	seeded := NewEnv(1)
	require.NoError(t, seeded.Let("n=4096"))
	require.NoError(t, seeded.Let("x=randn(n)"))
	assert.NotEqual(t, x.Data, lookup(t, seeded, "x").Tensor.Data, "another seed, other data")
}

func TestLetLoadAndPtrs(t *testing.T) {
	dir := t.TempDir()
	src := tensor.New(ir.Float32, 2, 2)
	src.SetFloat(3, 2.5)
	require.NoError(t, tensor.SaveNPY(filepath.Join(dir, "in.npy"), src))
	e := NewEnv(0)
	e.Dir = dir
	require.NoError(t, e.Let(`x=load("in.npy")`))
	require.NoError(t, e.Let(`h=load("in.npy", dtype='float16')`))
	require.NoError(t, e.Let(`i=load("in.npy", dtype='int32')`))
	require.NoError(t, e.Let(`p=ptrs(x, h)`))
	assert.Equal(t, src, lookup(t, e, "x").Tensor)
	assert.Equal(t, []float64{0, 0, 0, 2.5}, elems(lookup(t, e, "h").Tensor))
	assert.Equal(t, []float64{0, 0, 0, 2}, elems(lookup(t, e, "i").Tensor))
	p := lookup(t, e, "p")
	assert.Equal(t, []string{"x", "h"}, p.Ptrs)
	assert.Equal(t, ir.Int64, p.Tensor.Kind)
	assert.Equal(t, []int{2}, p.Tensor.Shape)
	require.NoError(t, e.Let(`u=ptrs(h, dtype='uint64')`))
	assert.Equal(t, ir.Uint64, lookup(t, e, "u").Tensor.Kind)
	err := e.Let(`w=ptrs(h, dtype='int32')`)
	require.Error(t, err)
	assert.Equal(t, "--let w:1:3: ptrs(): a pointer table is int64 or uint64, not int32", err.Error())

	err = e.Let(`m=load("missing.npy")`)
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, "missing.npy")+": no such file or directory", err.Error())
	assert.Equal(t, 2, ExitCode(err))
}

func TestLetRebindKeepsOrder(t *testing.T) {
	e := lets(t, "n=4", "x=randn(n)", "n=8")
	assert.Equal(t, []string{"n", "x"}, e.Names())
	assert.Equal(t, IntValue(8), lookup(t, e, "n"))
}

func TestLetErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"n", "--let:1:1: want NAME=EXPR"},
		{"1x=3", "--let 1x:1:1: \"1x\" is not a valid name"},
		{"x=", "--let x:1:3: missing the expression after '='"},
		{"x=randn(m)", "--let x:1:9: name 'm' is not bound; bind it with --let m=..."},
		{"x=randn(n, dtype='float42')", "--let x:1:18: unknown dtype \"float42\" (want 'float32', 'float16', 'bfloat16', 'float64', 'int8'..'int64', 'uint8'..'uint64', 'bool', 'float8e4nv' or 'float8e5')"},
		{"x=randn(n, dtype='int32')", "--let x:1:3: randn() makes floats, not int32; use randint for integers"},
		{"x=randint(5, 5, n)", "--let x:1:14: randint(): high 5 must be greater than low 5 (high is exclusive)"},
		{"x=zeros(n, -1)", "--let x:1:12: zeros(): negative dimension -1"},
		{"x=zeros(n, colour=1)", "--let x:1:19: zeros() got an unexpected keyword argument 'colour'"},
		{"x=tensor([[1, 2], [3]])", "--let x:1:10: tensor(): the list is not rectangular"},
		{"x=bogus(3)", "--let x:1:3: unknown function bogus"},
		{"x=n // 0", "--let x:1:3: integer division or modulo by zero"},
		{"x=ptrs(n)", "--let x:1:8: ptrs(): n is an int, not a tensor"},
		{"x=zeros(n) * zeros(n)", "--let x:1:3: * between two tensors is not supported; combine a tensor with a number"},
		{"x=zeros(n) % 2", "--let x:1:3: a tensor may be combined with a number by + - * // only, not %"},
		{"x = full(n)", "--let x:1:5: full() takes 2 arguments but 1 were given"},
		{"x=(1,", "--let x:1:"},
		{"x=2**64", "--let x:1:3: integer 18446744073709551616 does not fit in 64 bits"},
		{"x=10**20", "--let x:1:3: integer 100000000000000000000 does not fit in 64 bits"},
		{"x=2**64 - 2 + n", "--let x:1:3: integer 18446744073709551618 does not fit in 64 bits"},
		{"x=2**5000", "--let x:1:3: integer 2 ** 5000 is too large to compute (over 4096 bits)"},
		{"x=4 ** (10 ** 9)", "--let x:1:3: integer 4 ** 1000000000 is too large to compute (over 4096 bits)"},
		{"x=float('nope')", "--let x:1:9: could not convert string to float: 'nope'"},
		{"x=float('1__0')", "--let x:1:9: could not convert string to float: '1__0'"},
		{"x=float('0x10')", "--let x:1:9: could not convert string to float: '0x10'"},
		{"x=float('--inf')", "--let x:1:9: could not convert string to float: '--inf'"},
		{"x=int('1.5')", "--let x:1:7: invalid literal for int() with base 10: '1.5'"},
		{"x=int('99999999999999999999')", "--let x:1:7: integer 99999999999999999999 does not fit in 64 bits"},
		{"x=[1]*10**8", "--let x:1:3: a list or tuple of 100000000 elements is too long (at most 1048576); full(shape, value) makes a large tensor"},
		{"x=(1, 2) * 2**62", "--let x:1:3: a list or tuple of 9223372036854775808 elements is too long (at most 1048576); full(shape, value) makes a large tensor"},
		{"x=(2**62)*4", "--let x:1:3: integer 18446744073709551616 does not fit in 64 bits"},
		{"x=18446744073709551615 + 1", "--let x:1:3: integer 18446744073709551616 does not fit in 64 bits"},
		{"x=-9223372036854775807 - 2", "--let x:1:3: integer -9223372036854775809 does not fit in 64 bits"},
		{"x=-(2**64 - 1)", "--let x:1:3: integer -18446744073709551615 does not fit in 64 bits"},
		{"x=(-9223372036854775807 - 1) * -2", "--let x:1:3: integer 18446744073709551616 does not fit in 64 bits"},
		{"x=1 << 64", "--let x:1:3: integer 18446744073709551616 does not fit in 64 bits"},
		{"x=5 << 62", "--let x:1:3: integer 23058430092136939520 does not fit in 64 bits"},
	} {
		e := lets(t, "n=4")
		err := e.Let(tc.spec)
		require.Error(t, err, tc.spec)
		if tc.spec == "x=(1," {
			assert.Contains(t, err.Error(), tc.want)
		} else {
			assert.Equal(t, tc.want, err.Error(), tc.spec)
		}
		assert.Equal(t, 2, ExitCode(err), tc.spec)
	}
}

// TestLetExactIntegers: integer expressions are computed as Python does,
// exactly, and only the final value must fit in 64 bits; float() and int()
// read strings as Python does; a list repeated by an int is the list
// repeated.
func TestLetExactIntegers(t *testing.T) {
	e := lets(t, "n=4", "a=-(2**63)", "b=2**63-1", "c=-2**63", "d=2**64 - 2**63 - 1", "f=(2**70) // (2**10) % 7",
		"g=~(2**63 - 1)", "h=(1 << 100) >> 98", "k=True + 2**63 - 2", "m=2**63 - n", "p=-(2**63) // -2",
		"fn=float('nan')", "fi=float(' -Infinity ')", "fp=float('+inf')", "fx=float('1_000.5e-1')", "fb=float('1e400')",
		"i1=int(' -1_000 ')", "i2=int('+7')",
		"l=[1]*3", "l0=[1, 2] * 0", "l2=2 * (0, n)", "lb=[n] * True")
	for name, want := range map[string]int64{"a": math.MinInt64, "b": math.MaxInt64, "c": math.MinInt64, "d": math.MaxInt64,
		"f": (1 << 60) % 7, "g": math.MinInt64, "h": 4, "k": math.MaxInt64, "m": math.MaxInt64 - 3, "p": 1 << 62, "i1": -1000, "i2": 7} {
		assert.Equal(t, IntValue(want), lookup(t, e, name), name)
	}
	assert.True(t, math.IsNaN(lookup(t, e, "fn").Float))
	assert.Equal(t, FloatValue(math.Inf(-1)), lookup(t, e, "fi"))
	assert.Equal(t, FloatValue(math.Inf(1)), lookup(t, e, "fp"))
	assert.Equal(t, FloatValue(100.05), lookup(t, e, "fx"))
	assert.Equal(t, FloatValue(math.Inf(1)), lookup(t, e, "fb"))
	assert.Equal(t, TupleValue(IntValue(1), IntValue(1), IntValue(1)), lookup(t, e, "l"))
	assert.Equal(t, Value{Kind: VTuple, Elems: []Value{}}, lookup(t, e, "l0"))
	assert.Equal(t, TupleValue(IntValue(0), IntValue(4), IntValue(0), IntValue(4)), lookup(t, e, "l2"))
	assert.Equal(t, TupleValue(IntValue(4)), lookup(t, e, "lb"))
	// Mixed with floats, ints are ordinary: 2**63 * 0.5 is a float.
	e = lets(t, "x=2**62 * 0.5", "y=tensor([1, 2], dtype='int64') * (2**62 // 2**60)")
	assert.Equal(t, FloatValue(1<<61), lookup(t, e, "x"))
	assert.Equal(t, []float64{4, 8}, elems(lookup(t, e, "y").Tensor))
}

// TestLetUint64 checks that integers from 2**63 to 2**64-1, which Triton
// passes to a kernel as uint64, are values (VUint), also through
// arithmetic, and that a result back in int64's range is an int again.
func TestLetUint64(t *testing.T) {
	e := lets(t, "n=4", "a=18446744073709551615", "b=2**63", "c=n + 9223372036854775807", "d=a - n", "f=a - 2**63 - 1",
		"g=a // 2**32", "h=b * 0.5")
	u := func(x uint64) Value { return Value{Kind: VUint, Int: int64(x)} }
	assert.Equal(t, u(math.MaxUint64), lookup(t, e, "a"))
	assert.Equal(t, "18446744073709551615", lookup(t, e, "a").String())
	assert.Equal(t, u(1<<63), lookup(t, e, "b"))
	assert.Equal(t, u(1<<63+3), lookup(t, e, "c"))
	assert.Equal(t, u(math.MaxUint64-4), lookup(t, e, "d"))
	assert.Equal(t, IntValue(math.MaxInt64-1), lookup(t, e, "f"))
	assert.Equal(t, IntValue(math.MaxUint32), lookup(t, e, "g"))
	assert.Equal(t, FloatValue(1<<62), lookup(t, e, "h"))
}

func TestLetRunawayRecursion(t *testing.T) {
	e := lets(t, "g=lambda m: g(m) + g(m)")
	err := e.Let("x=g(1)")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nests too deeply")
}

// TestLetFP8 checks the fp8 bindings: generated values round to the format,
// empty fills NaN codes, and load() of a uint8 file with an fp8 dtype takes
// its bytes as codes while a float file is converted.
func TestLetFP8(t *testing.T) {
	dir := t.TempDir()
	codes := tensor.New(ir.Uint8, 3)
	copy(codes.Data, []byte{0x38, 0x7c, 0xff})
	require.NoError(t, tensor.SaveNPY(filepath.Join(dir, "codes.npy"), codes))
	floats := tensor.New(ir.Float32, 2)
	floats.SetFloat(0, 1.0625) // a tie: to even, 1.0
	floats.SetFloat(1, 1e6)    // saturates
	require.NoError(t, tensor.SaveNPY(filepath.Join(dir, "floats.npy"), floats))
	e := NewEnv(0)
	e.Dir = dir
	require.NoError(t, e.Let(`c=load("codes.npy", dtype='float8e5')`))
	require.NoError(t, e.Let(`f=load("floats.npy", dtype='float8e4nv')`))
	require.NoError(t, e.Let(`r=randn(64, dtype='float8_e4m3fn')`))
	require.NoError(t, e.Let(`p=empty(2, dtype=tl.float8e4nv)`))
	c := lookup(t, e, "c").Tensor
	assert.Equal(t, ir.Float8E5, c.Kind)
	assert.Equal(t, []byte{0x38, 0x7c, 0xff}, c.Data)
	assert.Equal(t, 0.5, c.Float(0))
	assert.True(t, math.IsInf(c.Float(1), 1))
	assert.Equal(t, []byte{0x38, 0x7e}, lookup(t, e, "f").Tensor.Data)
	r := lookup(t, e, "r").Tensor
	assert.Equal(t, ir.Float8E4NV, r.Kind)
	for i := range r.NumElements() {
		x := r.Float(i)
		f, _ := ir.Float8E4NV.FP8()
		assert.Equal(t, x, f.RoundSat(x, false), "element %d is an e4m3 value", i)
	}
	assert.Equal(t, []byte{0x7f, 0x7f}, lookup(t, e, "p").Tensor.Data)
}
