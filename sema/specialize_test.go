package sema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// TestSpecialize compiles small kernels and checks lines of the printed IR
// (positions stripped) and lines that must not appear.
func TestSpecialize(t *testing.T) {
	tests := []struct {
		name, src string
		sig       Signature
		want      []string
		absent    []string
	}{
		{"constexpr folding", `
@triton.jit
def k(p, B: tl.constexpr, MODE: tl.constexpr):
    n = (B * 3 + 1) // 2 % 7 - (-7 // 2)
    if MODE == "a":
        tl.store(p, n)
    elif MODE == "b":
        undefined_call_is_fine()
    tl.store(p, tl.cdiv(B, 3) + triton.next_power_of_2(B))
`, sig(ptr(ir.Int32), cInt(5), cStr("a")), []string{"= const 5", "= const 10"}, []string{"undefined"}},
		{"division kinds", `
@triton.jit
def k(p, q, n):
    a = n / 2
    b = n // 2
    c = n % 3
    h = tl.load(q)
    d = h * 0.5
    e = h / h
    tl.store(p, a + b + c + d + e)
`, sig(ptr(ir.Float32), ptr(ir.Float16), scalar(ir.Int32)), []string{
			"a: fp32 = div", "b: i32 = div", "c: i32 = rem", "d: fp16 = mul", "e: fp32 = div",
		}, nil},
		{"int8 plus literal stays int8", `
@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), x + 1)
`, sig(ptr(ir.Int8)), []string{"i8 = const 1", "i8[16] = add"}, nil},
		{"dtype inspection", `
@triton.jit
def k(p, q):
    x = tl.load(p)
    if x.dtype == tl.float16:
        tl.store(q, 1)
    else:
        tl.store(q, 2)
    tl.static_assert(p.dtype.element_ty == tl.float32)
    r = q.to(tl.pointer_type(tl.int32))
    tl.store(r, x.to(tl.int32))
`, sig(ptr(ir.Float32), ptr(ir.Int64)), []string{"i64 = const 2", "*i32 = bitcast", "i32 = cast"}, []string{"const 1 "}},
		{"static range unrolls", `
@triton.jit
def k(p, N: tl.constexpr):
    acc = tl.zeros((4,), dtype=tl.float32)
    for i in tl.static_range(N):
        acc += tl.load(p + i * 4 + tl.arange(0, 4))
    tl.store(p + tl.arange(0, 4), acc)
`, sig(ptr(ir.Float32), cInt(3)), []string{"i32 = const 8"}, []string{"for "}},
		{"runtime if merges and early return", `
@triton.jit
def k(p, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    x = 0.0
    if pid % 2 == 0:
        x = 1.0
    else:
        x = 2.0
    tl.store(p + pid, x)
`, sig(ptr(ir.Float32), scalar(ir.Int32)), []string{"return", "$0 x: fp32 = ", "x: fp32 = read $0 x", "} else {"}, nil},
		{"while loop", `
@triton.jit
def k(p, n):
    i = 0
    s = 0.0
    while i < n:
        s += tl.load(p + i)
        i += 1
    tl.store(p, s)
`, sig(ptr(ir.Float32), scalar(ir.Int32)), []string{"while {", "} do %", "i: i32 = read $", "s: fp32 = read $"}, nil},
		{"tl.range with options and i64 bound", `
@triton.jit
def k(p, n):
    for i in tl.range(0, n, 2, num_stages=2):
        tl.store(p + i, 1.0)
`, sig(ptr(ir.Float32), scalar(ir.Int64)), []string{"for $0 i: i64 = ", "num_stages=2"}, nil},
		{"helpers with tuples, keywords and defaults", `
@triton.jit
def k(p, n, B: tl.constexpr):
    a, b = two(tl.program_id(0), scale=B)
    tl.store(p + a, b.to(tl.float32))

@triton.jit
def two(x, scale=2, off=1):
    return x * scale + off, x
`, sig(ptr(ir.Float32), scalar(ir.Int32), cInt(8)), []string{"i32 = const 8", "i32 = const 1"}, nil},
		{"min max where clamp", `
@triton.jit
def k(p, B: tl.constexpr):
    offs = tl.arange(0, min(B, 64))
    x = tl.load(p + offs)
    y = tl.maximum(x, 0.0) + max(x, 1.0) + tl.where(x > 0, x, 0.0)
    z = tl.clamp(y, -1.0, 1.0) + tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    tl.store(p + offs, tl.fma(z, z, 1.0))
`, sig(ptr(ir.Float32), cInt(128)), []string{"arange 0, 64", "= max %", "{propagate_nan}", "= fma"}, nil},
		{"none parameter and one", `
@triton.jit
def k(p, bias_ptr, stride):
    x = tl.load(p + stride)
    if bias_ptr is not None:
        x += tl.load(bias_ptr)
    tl.store(p, x)
`, Signature{Args: []Arg{ptr(ir.Float32), {Kind: ArgNone}, {Kind: ArgOne}}}, []string{"spec stride one 1", "spec bias_ptr constexpr None"}, nil},
		{"2-D broadcasting", `
@triton.jit
def k(p, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    tl.store(p + offs, 0.0)
    flat = tl.reshape(offs, (BM * BN,))
    tl.store(p + flat.reshape(BN, BM), 1.0)
`, sig(ptr(ir.Float32), cInt(16), cInt(32)), []string{"i32[16,1] = expand_dims", "i32[16,32] = broadcast", "offs: i32[16,32] = add", "flat: i32[512] = reshape", "i32[32,16] = reshape"}, nil},
		{"hints", `
@triton.jit
def k(p, n):
    n = tl.multiple_of(n, 16)
    offs = tl.max_contiguous(tl.arange(0, 8), 8)
    tl.assume(n > 0)
    tl.debug_barrier()
    tl.store(p + offs, 1.0, mask=offs < n, cache_modifier=".cs")
`, sig(ptr(ir.Float32), scalar(ir.Int32)), []string{"multiple_of %1, [16]", "= assume", "= barrier", "{cs}"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := compile(t, tt.src, "k", tt.sig)
			out := printed(k)
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
			for _, w := range tt.absent {
				assert.NotContains(t, out, w)
			}
			if t.Failed() || testing.Verbose() {
				t.Log("\n" + out)
			}
		})
	}
}

func TestConstexprMismatch(t *testing.T) {
	_, err := tryCompile(t, `
@triton.jit
def k(p, B: tl.constexpr):
    pass
`, "k", sig(ptr(ir.Float32), scalar(ir.Int32)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a tl.constexpr")
}

func TestNoSuchKernel(t *testing.T) {
	_, err := tryCompile(t, "@triton.jit\ndef add_kernel(p):\n    pass\n", "add_kernl", sig(ptr(ir.Float32)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no @triton.jit function named add_kernl")
}

func TestParamNames(t *testing.T) {
	k := compile(t, readSample(t, "add.tri"), "add_kernel", sig(ptr(ir.Float32), ptr(ir.Float32), ptr(ir.Float32), scalar(ir.Int32), cInt(1024)))
	assert.Equal(t, 4, len(k.Params))
	assert.Equal(t, 4, k.NumWarps)
	assert.Equal(t, 3, k.NumStages)
	assert.True(t, strings.HasPrefix(printed(k), "kernel add_kernel(x_ptr: *fp32"))
}

func TestHelperErrorNote(t *testing.T) {
	src := header + `
@triton.jit
def k(p):
    bad(p)
    bad(p)

@triton.jit
def bad(q):
    return q * q
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	_, diags := Specialize(f, "k", sig(ptr(ir.Float32)))
	require.Len(t, diags.Items, 1, "the same error is reported once")
	e := diags.Items[0]
	assert.Equal(t, 12, e.Pos.Line)
	require.Len(t, e.Notes, 1)
	assert.Equal(t, 7, e.Notes[0].Pos.Line)
	assert.Equal(t, "in bad, called from here", e.Notes[0].Message)
}

func TestUndefinedNameSuggestion(t *testing.T) {
	src := header + `
@triton.jit
def k(p, n):
    offs = tl.arange(0, 16)
    if p.dtype.element_ty.is_fp32() and not p.dtype.is_fp16():
        mask = ofs < n
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	_, diags := Specialize(f, "k", sig(ptr(ir.Float32), scalar(ir.Int32)))
	require.Len(t, diags.Items, 1)
	assert.Equal(t, "undefined name ofs", diags.Items[0].Message)
	assert.Equal(t, "did you mean offs?", diags.Items[0].Suggestion)
}
