package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestTiles compiles kernels using tiles of rank 2 and 3, reductions,
// scans and atomics, and checks lines of the printed IR.
func TestTiles(t *testing.T) {
	f32, i32 := ptr(ir.Float32), scalar(ir.Int32)
	tests := []struct {
		name, src string
		sig       Signature
		want      []string
		absent    []string
	}{
		{"trans, T and permute", `
@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    a = tl.trans(x)
    b = x.T
    c = tl.permute(x, (1, 0))
    d = x.trans(1, 0)
    y = tl.reshape(x, 2, 4, 16)
    e = tl.permute(y, 2, 0, 1)
    f = tl.trans(y, (0, 1, 2))
    tl.store(p + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :], a + b + c + d)
    tl.store(p + tl.arange(0, 16)[:, None, None] + tl.arange(0, 2)[None, :, None] + tl.arange(0, 4)[None, None, :], e)
`, sig(f32), []string{"a: fp32[16,8] = trans %", "perm=[1 0]", "b: fp32[16,8] = trans", "c: fp32[16,8] = trans", "d: fp32[16,8] = trans", "e: fp32[16,2,4] = trans", "perm=[2 0 1]"}, []string{"f: fp32"}},
		{"join and split", `
@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.load(p + 16 + tl.arange(0, 16))
    z = tl.join(x, y)
    s = tl.join(x, 1.0)
    a, b = tl.split(z)
    c, d = z.split()
    tl.store(p + tl.arange(0, 16), a + b + c + d)
    tl.store(p + tl.arange(0, 32), tl.reshape(s, 32))
`, sig(f32), []string{"z: fp32[16,2] = join %", "s: fp32[16,2] = join", ": (fp32[16], fp32[16]) = split", "a: fp32[16] = tuple_get %", "index=0", "b: fp32[16] = tuple_get", "index=1"}, nil},
		{"shapes of rank 3, negative axes, 3-D grid", `
@triton.jit
def k(p, B: tl.constexpr):
    i = tl.program_id(2) + tl.program_id(1)
    x = tl.zeros((2, 4, B), dtype=tl.float32)
    n0: tl.constexpr = x.shape[0] * x.shape[-1]
    y = tl.expand_dims(tl.arange(0, B), -1)
    z = tl.broadcast_to(y, 4, B, 2)
    w = tl.ravel(x)
    v = x.reshape((8, B), can_reorder=True)
    tl.store(p + tl.arange(0, n0), i + tl.zeros((n0,), dtype=tl.float32))
`, sig(f32, cInt(16)), []string{"program_id 2", "arange 0, 32", "y: i32[16,1] = expand_dims %", "axis=1", "z: i32[4,16,2] = broadcast", "w: fp32[128] = reshape", "v: fp32[8,16] = reshape"}, nil},
		{"inf and nan constants", `
@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 16), mask=tl.arange(0, 16) < 4, other=-float('inf'))
    y = tl.maximum(x, float("inf")) + float(' nan ') + float('1e3')
    tl.store(p + tl.arange(0, 16), y)
`, sig(f32), []string{"fp32 = const -inf", "fp32 = const inf", "fp32 = const nan", "fp32 = const 1000"}, nil},
		{"sum, axis forms and keep_dims", `
@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    a = tl.sum(x, axis=1)
    b = tl.sum(x, 0)
    c = x.sum(-1)
    d = tl.sum(x)
    e = tl.sum(x, axis=None, keep_dims=True)
    f = tl.sum(x, 1, keep_dims=True)
    g = tl.sum(x, 1, dtype=tl.float64)
    tl.store(p, d + tl.sum(a) + tl.sum(b) + tl.sum(c))
    tl.store(p + tl.arange(0, 8)[:, None], f + e)
    tl.store(p + tl.arange(0, 8), g)
`, sig(f32), []string{
			"a: fp32[8] = reduce %", "axis=1, combine=sum", "b: fp32[16] = reduce", "axis=0, combine=sum", "c: fp32[8] = reduce",
			"fp32[128] = reshape", "d: fp32 = reduce", "fp32[1,1] = splat", "f: fp32[8,1] = expand_dims", "fp64[8,16] = cast", "g: fp64[8] = reduce",
		}, nil},
		{"max, min, argmax with indices", `
@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    m = tl.max(x, 1)
    n = x.min(axis=0)
    v, i = tl.max(x, 1, return_indices=True)
    u, j = tl.min(x, axis=1, return_indices=True, return_indices_tie_break_left=False)
    am = tl.argmax(x, axis=1)
    an = x.argmin(0, keep_dims=True)
    tl.store(q + tl.arange(0, 8), i + j + am)
    tl.store(q + tl.arange(0, 16)[None, :], an)
    tl.store(p + tl.arange(0, 8), m + v + u + tl.sum(n))
`, sig(ptr(ir.Float16), ptr(ir.Int32)), []string{
			"fp32[8,16] = cast", "m: fp32[8] = reduce", "combine=max", "n: fp32[16] = reduce", "combine=min",
			"v: fp16[8] = reduce", "i: i32[8] = reduce", "combine=argmax", "u: fp16[8] = reduce", "j: i32[8] = reduce", "combine=argmin",
			"am: i32[8] = reduce", "an: i32[1,16] = expand_dims",
		}, nil},
		{"xor_sum, cumsum, cumprod", `
@triton.jit
def k(p, q):
    x = tl.load(q + tl.arange(0, 16))
    a = tl.xor_sum(x, 0)
    b = tl.cumsum(x, 0)
    c = tl.cumsum(x, reverse=True)
    d = tl.cumprod(tl.load(p + tl.arange(0, 16)), axis=0)
    e = x.cumsum(0, dtype=tl.int64)
    tl.store(q, a)
    tl.store(q + tl.arange(0, 16), b + c + e)
    tl.store(p + tl.arange(0, 16), d)
`, sig(ptr(ir.BFloat16), ptr(ir.Int8)), []string{
			"a: i8 = reduce %", "combine=xor", "i32[16] = cast", "b: i32[16] = scan %", "axis=0, combine=sum", "c: i32[16] = scan", "combine=sum {reverse}",
			"fp32[16] = cast", "d: fp32[16] = scan", "combine=prod", "e: i64[16] = scan",
		}, nil},
		{"reduce_or, a function and a member", `
@triton.jit
def k(q, r):
    x = tl.load(q + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    a = tl.reduce_or(x, 1)
    b = x.reduce_or(0, keep_dims=True)
    tl.store(r + tl.arange(0, 8), a)
    tl.store(r + tl.arange(0, 16)[None, :], b)
`, sig(ptr(ir.Uint32), ptr(ir.Uint32)), []string{"a: u32[8] = reduce %", "axis=1, combine=or", "u32[16] = reduce", "b: u32[1,16] = expand_dims"}, nil},
		{"tl.reduce with a combine function", `
@triton.jit
def add_fn(a, b):
    return a + b

@triton.jit
def argmax_fn(v1, i1, v2, i2):
    gt = v1 > v2 or (v1 == v2 and i1 < i2)
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)

@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    s = tl.reduce(x, 1, add_fn)
    t = x.reduce(None, add_fn, keep_dims=True)
    idx = tl.broadcast_to(tl.arange(0, 16)[None, :], (8, 16))
    v, i = tl.reduce((x, idx), axis=1, combine_fn=argmax_fn)
    tl.store(p + tl.arange(0, 8), s + v + tl.sum(t))
    tl.store(q + tl.arange(0, 8), i)
`, sig(f32, ptr(ir.Int32)), []string{
			"s: fp32[8] = reduce %", "axis=1, combine=custom {", "args %", " a: fp32, %", " b: fp32", "yield %",
			": (fp32[8], i32[8]) = reduce", "v: fp32[8] = tuple_get", "i: i32[8] = tuple_get", "v1: fp32, %", "i2: i32",
			"t: fp32[1,1] = splat",
		}, nil},
		{"combine function with a runtime if, in a loop", `
@triton.jit
def pick(a, b):
    r = b
    if a > b:
        r = a
    return r

@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    for i in range(3):
        x = x + tl.reduce(x, 1, pick, keep_dims=True)
    tl.store(p + tl.arange(0, 8), tl.max(x, 0))
`, sig(f32), []string{"fp32[4] = reduce %", "args %", " a: fp32, %", "if %", "r: fp32 = read $", "fp32[4,1] = expand_dims"}, nil},
		{"associative_scan", `
@triton.jit
def mul_fn(a, b):
    return a * b

@triton.jit
def k(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.associative_scan(x, 0, mul_fn)
    z = tl.associative_scan((x, x), 0, pair, reverse=True)
    tl.store(p + tl.arange(0, 16), y + z[0] + z[1])

@triton.jit
def pair(a, b, c, d):
    return a + c, b * d
`, sig(f32), []string{"y: fp32[16] = scan %", "combine=custom", ": (fp32[16], fp32[16]) = scan", "combine=custom {reverse} {"}, nil},
		{"atomics", `
@triton.jit
def k(p, q, r, n):
    offs = tl.arange(0, 16)
    old = tl.atomic_add(p + offs, 1.0, mask=offs < n)
    tl.atomic_max(p + offs, old, sem="relaxed", scope="cta")
    tl.atomic_min(p, 2)
    tl.atomic_and(q + offs, 3)
    tl.atomic_or(q, 1, sem="release", scope="sys")
    tl.atomic_xor(q + offs, offs, mask=offs < 4)
    tl.atomic_xchg(q, 0, sem="acquire")
    (q + offs).atomic_add(offs)
    prev = tl.atomic_cas(q, 0, 1)
    t = tl.atomic_cas(q + offs, offs, offs + 1, sem="acq_rel")
    h = tl.atomic_add(r, 1)
    tl.store(q + offs, t + prev)
`, sig(f32, ptr(ir.Int32), ptr(ir.Float16), i32), []string{
			"old: fp32[16] = atomic_rmw %", "op=add, sem=acq_rel, scope=gpu", "op=max, sem=relaxed, scope=cta", "fp32 = atomic_rmw", "op=min",
			"op=and", "op=or, sem=release, scope=sys", "op=xor", "op=xchg, sem=acquire, scope=gpu",
			"prev: i32 = atomic_cas %", "t: i32[16] = atomic_cas", "h: fp16 = atomic_rmw",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := compile(t, tt.src, "k", tt.sig)
			out := posSuffix.ReplaceAllString(printed(k), "")
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
