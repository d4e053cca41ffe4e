package survey

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/launch"
)

func TestDerive(t *testing.T) {
	for _, c := range []struct {
		name, src, kernel string
		line              string
		lets              []string
		lits              map[string]string
	}{
		{
			name: "pointers by use, through a stepped local and a helper; indices stepped in",
			src: `
import triton
import triton.language as tl

@triton.jit
def _store(dst, v, mask):
    tl.store(dst, v, mask=mask)

@triton.jit
def k(src, dst, rows, stride, n, scale, BLOCK: tl.constexpr, HAS_BIAS: tl.constexpr, OUT_DTYPE: tl.constexpr, D: tl.constexpr, K: tl.constexpr = 4):
    p = src + tl.program_id(0) * stride
    p += stride
    dst += tl.load(rows + 1)
    o = tl.arange(0, BLOCK)
    _store(dst + o, tl.load(p + o) * scale, o < n)
`,
			kernel: "k",
			line:   "k[(1,)](src=src, dst=dst, rows=rows, stride=64, n=64, scale=0.5, BLOCK=32, HAS_BIAS=False, OUT_DTYPE=tl.float32, D=16)",
			lets:   []string{"src=empty(16, dtype='float32')", "dst=empty(16, dtype='float32')", "rows=empty(16, dtype='int32')"},
		},
		{
			name: "strides and offsets are integers whatever their names; a scale that scales values is fp32",
			src: `
import triton
import triton.language as tl

@triton.jit
def q(a_ptr, a_scale_ptr, out_ptr, stride_scale_am, scale_offset, scale, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    s = tl.load(a_scale_ptr + o * stride_scale_am)
    rows = o + scale_offset
    tl.store(out_ptr + rows, tl.load(a_ptr + o) * s * scale)
`,
			kernel: "q",
			line:   "q[(1,)](a_ptr=a_ptr, a_scale_ptr=a_scale_ptr, out_ptr=out_ptr, stride_scale_am=64, scale_offset=64, scale=0.5, BLOCK=32)",
			lets:   []string{"a_ptr=empty(16, dtype='float32')", "a_scale_ptr=empty(16, dtype='float32')", "out_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "constexprs passed for a padding, a cache modifier, an axis (also a gather's), an atomic's sem (also by position), a mask and an imprecise-acc bound get valid values",
			src: `
import triton
import triton.language as tl

@triton.jit
def kw(x_ptr, out_ptr, PAD: tl.constexpr, CACHE: tl.constexpr, AXIS: tl.constexpr, R: tl.constexpr, G: tl.constexpr, SEM: tl.constexpr, MASK: tl.constexpr, ACC: tl.constexpr):
    b = tl.make_block_ptr(x_ptr, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    v = tl.load(b, boundary_check=(0,), padding_option=PAD, cache_modifier=CACHE)
    g = tl.gather(v, tl.zeros((16, 16), tl.int32), G)
    tl.store(out_ptr + tl.arange(0, 16), tl.sum(v, AXIS) + tl.max(g, axis=R), mask=MASK)
    tl.atomic_cas(out_ptr, 0.0, 1.0, SEM)
    tl.dot(v, v, max_num_imprecise_acc=ACC)
`,
			kernel: "kw",
			line:   `kw[(1,)](x_ptr=x_ptr, out_ptr=out_ptr, PAD="zero", CACHE="", AXIS=0, R=0, G=0, SEM="acq_rel", MASK=True, ACC=0)`,
			lets:   []string{"x_ptr=empty(16, dtype='float32')", "out_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "a parameter printed first is a string: the prefix Triton's device_print asserts",
			src: `
import triton
import triton.language as tl

@triton.jit
def pl(msg, x_ptr):
    print(msg)
    tl.device_print(msg, tl.load(x_ptr))
`,
			kernel: "pl",
			line:   `pl[(1,)](msg="x: ", x_ptr=x_ptr)`,
			lets:   []string{"x_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "host tensor descriptors by their load and store methods; a descriptor's last stride is 1",
			src: `
import triton
import triton.language as tl

@triton.jit
def td(in_desc, out_desc, w_desc, y_ptr, M, stride_m, stride_n, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr, HEAD_DIM: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    b = tl.program_id(1)
    kk = 0
    kk += BLOCK_K
    w = w_desc.load([kk, b])
    for k in range(0, M, BLOCK_K):
        v = in_desc.load([b, off_m, k])
        out_desc.store([off_m, 0], v.reshape(BLOCK_M, BLOCK_K))
    d = tl.make_tensor_descriptor(y_ptr, shape=[M, M], strides=[stride_m, stride_n], block_shape=[BLOCK_M, HEAD_DIM])
`,
			kernel: "td",
			line:   "td[(1,)](in_desc=in_desc, out_desc=out_desc, w_desc=w_desc, y_ptr=y_ptr, M=64, stride_m=64, stride_n=1, BLOCK_M=32, BLOCK_K=32, HEAD_DIM=16)",
			lets: []string{"y_ptr=empty(16, dtype='float32')",
				"in_desc=TensorDescriptor.from_tensor(empty((16, 32, 32,), dtype='float32'), [1, 32, 32])",
				"out_desc=TensorDescriptor.from_tensor(empty((32, 16,), dtype='float32'), [32, 16])",
				// a step by += is followed; the last dimension holds 16 bytes at least
				"w_desc=TensorDescriptor.from_tensor(empty((32, 16,), dtype='float32'), [32, 16])"},
		},
		{
			name: "each pointer's element type from its uses: a dtype check, bitwise use of its loads",
			src: `
import triton
import triton.language as tl

@triton.jit
def pe(a_ptr, b_ptr, w_ptr, c_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + o)
    tl.static_assert(a.dtype == tl.int16)
    if b_ptr.dtype.element_ty == tl.bfloat16:
        pass
    w = tl.load(w_ptr + o)
    tl.store(c_ptr + o, (w >> 4) & 15)
`,
			kernel: "pe",
			line:   "pe[(1,)](a_ptr=a_ptr, b_ptr=b_ptr, w_ptr=w_ptr, c_ptr=c_ptr, BLOCK=32)",
			lets:   []string{"a_ptr=empty(16, dtype='int16')", "b_ptr=empty(16, dtype='bfloat16')", "w_ptr=empty(16, dtype='int32')", "c_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "a pointer to indices, a pointer by name, a default",
			src: `
import triton
import triton.language as tl

@triton.jit
def g(x, idx, out_ptr, cursor, n=10):
    i = tl.load(idx + tl.program_id(0))
    j = i * n
    tl.store(out_ptr + tl.atomic_add(cursor, 1), tl.load(x + j))
`,
			kernel: "g",
			line:   "g[(1,)](x=x, idx=idx, out_ptr=out_ptr, cursor=cursor)",
			lets:   []string{"x=empty(16, dtype='float16')", "idx=empty(16, dtype='int32')", "out_ptr=empty(16, dtype='float16')", "cursor=empty(16, dtype='int32')"},
		},
		{
			name: "a pointer by its name on the right of +, a string constexpr",
			src: `
import triton
import triton.language as tl

@triton.jit
def h(in_pointer, out_pointer, act: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    o = tl.arange(0, BLOCK_SIZE)
    tl.store(o + out_pointer, tl.load(o + in_pointer))
`,
			kernel: "h",
			lits:   map[string]string{"act": `"gelu"`},
			line:   "h[(1,)](in_pointer=in_pointer, out_pointer=out_pointer, act=\"gelu\", BLOCK_SIZE=32)",
			lets:   []string{"in_pointer=empty(16, dtype='float32')", "out_pointer=empty(16, dtype='float32')"},
		},
		{
			name: "a pointer through a helper's return value, as a block pointer's base",
			src: `
import triton
import triton.language as tl

@triton.jit
def _base(g, off):
    return g + off.to(tl.int64) * 4

@triton.jit
def _block(base, n):
    return tl.make_block_ptr(base, (n,), (1,), (0,), (32,), (0,))

@triton.jit
def b(g, n):
    g_base = _base(g, tl.program_id(0))
    x = tl.load(_block(g_base, n), boundary_check=(0,))
`,
			kernel: "b",
			line:   "b[(1,)](g=g, n=64)",
			lets:   []string{"g=empty(16, dtype='float32')"},
		},
		{
			name: "flags by use, a precision",
			src: `
import triton
import triton.language as tl

@triton.jit
def f(x_ptr, INTERLEAVED: tl.constexpr, CONJ: tl.constexpr, REV: tl.constexpr, DOT_PRECISION: tl.constexpr, ACC_TYPE: tl.constexpr):
    if not INTERLEAVED and CONJ:
        pass
    y = 1 if REV else 2
    tl.store(x_ptr, y.to(ACC_TYPE))
`,
			kernel: "f",
			line:   "f[(1,)](x_ptr=x_ptr, INTERLEAVED=False, CONJ=False, REV=False, DOT_PRECISION=\"ieee\", ACC_TYPE=tl.float32)",
			lets:   []string{"x_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "counts loaded as a loop's bound, through a local; a bound computed from data is not followed",
			src: `
import triton
import triton.language as tl

@triton.jit
def n(x, counts, out, USE_COUNTS: tl.constexpr):
    if USE_COUNTS:
        NS = tl.load(counts + tl.program_id(0))
    else:
        NS = 4
    acc = 0.0
    for i in tl.range(0, NS):
        acc += tl.load(x + i)
    lim = tl.sum(tl.load(x + tl.arange(0, 4)), 0).to(tl.int32)
    for j in range(lim):
        acc += 1.0
    tl.store(out, acc)
`,
			kernel: "n",
			line:   "n[(1,)](x=x, counts=counts, out=out, USE_COUNTS=False)",
			lets:   []string{"x=empty(16, dtype='float32')", "counts=empty(16, dtype='int32')", "out=empty(16, dtype='float32')"},
		},
		{
			name: "pointers through tl.where, also nested",
			src: `
import triton
import triton.language as tl

@triton.jit
def w(q, k, a1, a2, a3, out, n, is_q: tl.constexpr):
    x_in = tl.where(is_q, q, k)
    a = tl.where(n < 4, a1, tl.where(n < 8, a2, a3))
    tl.store(out, tl.load(x_in + n) + tl.load(a + 1))
`,
			kernel: "w",
			line:   "w[(1,)](q=q, k=k, a1=a1, a2=a2, a3=a3, out=out, n=64, is_q=16)",
			lets:   []string{"q=empty(16, dtype='float32')", "k=empty(16, dtype='float32')", "a1=empty(16, dtype='float32')", "a2=empty(16, dtype='float32')", "a3=empty(16, dtype='float32')", "out=empty(16, dtype='float32')"},
		},
		{
			name: "guessed sizes raised to the multiples that static asserts state",
			src: `
import triton
import triton.language as tl

@triton.jit
def m(x_ptr, N_PAD: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr, E: tl.constexpr, K: tl.constexpr = 5):
    tl.static_assert(BLOCK_N % 32 == 0)
    tl.static_assert(N_PAD % BLOCK_N == 0)
    tl.static_assert(D % 48 == 0, "D is a multiple of 48")
    tl.static_assert(K % 2 == 0)
    tl.static_assert(E % BLOCK_N != 0)
    tl.store(x_ptr, 1.0)
`,
			kernel: "m",
			line:   "m[(1,)](x_ptr=x_ptr, N_PAD=32, D=48, BLOCK_N=32, E=16)",
			lets:   []string{"x_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "a dtype's bounds are numbers, not dtypes",
			src: `
import triton
import triton.language as tl

@triton.jit
def q(x_ptr, fp8_dtype_max: tl.constexpr, FP8_DTYPE_MIN: tl.constexpr, input_dtype: tl.constexpr):
    tl.store(x_ptr, (tl.load(x_ptr) / fp8_dtype_max).to(input_dtype))
`,
			kernel: "q",
			line:   "q[(1,)](x_ptr=x_ptr, fp8_dtype_max=16, FP8_DTYPE_MIN=16, input_dtype=tl.float32)",
			lets:   []string{"x_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "guessed sizes raised to what static asserts bound them by",
			src: `
import triton
import triton.language as tl

@triton.jit
def b(x_ptr, HEAD_DIM: tl.constexpr, W: tl.constexpr, D2: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr = 64):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    tl.static_assert(W >= 48)
    tl.static_assert(BLOCK_M <= D2)
    tl.store(x_ptr, 1.0)
`,
			kernel: "b",
			line:   "b[(1,)](x_ptr=x_ptr, HEAD_DIM=64, W=48, D2=32, BLOCK_M=32)",
			lets:   []string{"x_ptr=empty(16, dtype='float32')"},
		},
		{
			name: "a row count loaded, then divided into a loop's bound",
			src: `
import triton
import triton.language as tl

@triton.jit
def r(x, out, n_tokens, M, BLOCK_M: tl.constexpr):
    if n_tokens is not None:
        M = tl.load(n_tokens)
    blocks = (M + BLOCK_M - 1) // BLOCK_M
    for i in tl.range(tl.program_id(0), blocks * 2, tl.num_programs(0)):
        tl.store(out + i, tl.load(x + i))
`,
			kernel: "r",
			line:   "r[(1,)](x=x, out=out, n_tokens=n_tokens, M=64, BLOCK_M=32)",
			lets:   []string{"x=empty(16, dtype='float32')", "out=empty(16, dtype='float32')", "n_tokens=empty(16, dtype='int32')"},
		},
		{
			name: "integer places followed back to loads and conversions: bounds through tl.minimum, shifts of a reassigned local, a gather's index, addresses loaded, a program id converted to a dtype",
			src: `
import triton
import triton.language as tl

@triton.jit
def _body(Q, Q_offsets, out, z):
    begin = tl.load(Q_offsets + z)
    tl.store(out, tl.load(Q + begin * 2))

@triton.jit
def i(Q, Q_offs, seqlen, zeros_ptr, scales_ptr, idx_ptr, ptrs, out, N, dtype: tl.constexpr, BLOCK: tl.constexpr):
    _body(Q, Q_offs, out, 0)
    n = tl.load(seqlen + tl.program_id(0))
    end = tl.minimum(BLOCK, n)
    for s in range(0, end, 16):
        pass
    zeros = tl.load(zeros_ptr)
    zeros = (zeros >> 4) & 0xF
    zeros = zeros * tl.load(scales_ptr)
    idx = tl.load(idx_ptr + tl.arange(0, BLOCK))
    g = tl.gather(tl.load(Q + tl.arange(0, BLOCK)), idx, 0)
    a = tl.load(ptrs).to(tl.pointer_type(tl.float16))
    pid = tl.program_id(0).to(dtype)
    tl.store(out + pid * BLOCK, g + zeros + tl.load(a), mask=pid < N)
`,
			kernel: "i",
			line:   "i[(1,)](Q=Q, Q_offs=Q_offs, seqlen=seqlen, zeros_ptr=zeros_ptr, scales_ptr=scales_ptr, idx_ptr=idx_ptr, ptrs=ptrs, out=out, N=64, dtype=tl.int32, BLOCK=32)",
			lets: []string{"Q=empty(16, dtype='float32')", "Q_offs=empty(16, dtype='int32')", "seqlen=empty(16, dtype='int32')",
				"zeros_ptr=empty(16, dtype='int32')", "scales_ptr=empty(16, dtype='float32')", "idx_ptr=empty(16, dtype='int32')",
				"ptrs=empty(16, dtype='int64')", "out=empty(16, dtype='float32')"},
		},
		{
			name: "a local reassigned to another address is followed to the one it holds where it is loaded; a local read back in its own reassignment reaches every pointer",
			src: `
import triton
import triton.language as tl

@triton.jit
def r(scales_ptr, zeros_ptr, p0, p1, p2, out, g, sel):
    ptr = scales_ptr + g
    scales = tl.load(ptr)
    ptr = zeros_ptr + g
    zeros = tl.load(ptr)
    zeros = (zeros >> 4) & 0xF
    q = tl.where(sel == 0, p0, p1)
    q = tl.where(sel == 2, p2, q)
    tl.store(out, (zeros + 1) * scales + tl.load(q))
`,
			kernel: "r",
			line:   "r[(1,)](scales_ptr=scales_ptr, zeros_ptr=zeros_ptr, p0=p0, p1=p1, p2=p2, out=out, g=64, sel=64)",
			lets: []string{"scales_ptr=empty(16, dtype='float32')", "zeros_ptr=empty(16, dtype='int32')", "p0=empty(16, dtype='float32')",
				"p1=empty(16, dtype='float32')", "p2=empty(16, dtype='float32')", "out=empty(16, dtype='float32')"},
		},
		{
			name: "a constexpr takes the integer its file binds to its name",
			src: `
import triton
import triton.language as tl

BLOCK_M = 128
SCALE = 2.5

@triton.jit
def g(x_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, SCALE: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK_M), SCALE)
`,
			kernel: "g",
			line:   "g[(1,)](x_ptr=x_ptr, BLOCK_M=128, BLOCK_N=32, SCALE=16)",
			lets:   []string{"x_ptr=empty(16, dtype='float16')"},
		},
		{
			name: "tuples by their literal indices: of strides, of pointers",
			src: `
import triton
import triton.language as tl

@triton.jit
def t(Q, stride_q, res, out, BLOCK: tl.constexpr):
    q = tl.load(Q + stride_q[0] + stride_q[2])
    p = res[1] + tl.arange(0, BLOCK)
    tl.store(out, q + tl.sum(tl.load(p), 0) + tl.load(res[0]))
`,
			kernel: "t",
			line:   "t[(1,)](Q=Q, stride_q=(64, 64, 64,), res=(res_0, res_1,), out=out, BLOCK=32)",
			lets:   []string{"Q=empty(16, dtype='float32')", "res_0=empty(16, dtype='float32')", "res_1=empty(16, dtype='float32')", "out=empty(16, dtype='float32')"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, diags := frontend.Parse("k.py", []byte(c.src))
			require.False(t, diags.HasErrors(), "%v", diags)
			fn := f.Func(c.kernel)
			require.NotNil(t, fn)
			elem := "float32"
			if c.kernel == "g" {
				elem = "float16"
			}
			d := derive(&job{sf: &launch.SourceFile{File: f}, fn: fn, lits: c.lits}, nil, attempt{elem, "False"})
			assert.Equal(t, c.line, d.line)
			assert.Equal(t, c.lets, d.lets)
		})
	}
}

func TestScanFuncs(t *testing.T) {
	src := `import triton
from triton import jit

@triton.autotune(
    configs=[],
    key=[],
)
@triton.jit(do_not_specialize=["n"])
def a(x_ptr,
      n,
):
    """Calls b(...)."""
    b(x_ptr)

@jit
def b(p):
    return p

if True:
    @triton.jit
    def c(y):
        pass

"""
A kernel kept in a string is no kernel ('quotes' and \""" inside too):
@triton.jit
def d(z):
    pass
"""
s = "@triton.jit"  # a one-line string
`
	fs := scanFuncs("f.py", src)
	require.Len(t, fs, 3)
	for i, want := range []struct {
		name         string
		line, indent int
	}{{"a", 9, 0}, {"b", 16, 0}, {"c", 21, 4}} {
		assert.Equal(t, want.name, fs[i].Name)
		assert.Equal(t, want.line, fs[i].Line)
		assert.Equal(t, want.indent, fs[i].Indent)
	}
	srcs := []*source{{funcs: fs}}
	markHelpers(srcs)
	assert.False(t, fs[0].Helper)
	assert.True(t, fs[1].Helper) // called by a, and returns a value
	assert.False(t, fs[2].Helper)
}

func TestComparedLiterals(t *testing.T) {
	src := `import triton

@triton.jit
def k(x, mode: tl.constexpr, act: tl.constexpr):
    if mode == "sum":
        pass
    elif mode == 'mean':
        pass
    if act != 'relu' and p == 0 or p == 2 or BT == 16 or q == -1:
        pass
`
	assert.Equal(t, map[string]string{"mode": `"sum"`, "act": "'relu'", "p": "2"}, comparedLiterals([]*source{{funcs: scanFuncs("f.py", src)}}))
}
