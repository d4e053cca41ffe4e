package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// langCase is a kernel of Triton 3.6's python/test/unit/language tests
// (cut down to what it exercises), with its launch in the header and what
// Triton stores in "out".
type langCase struct {
	name, src string
	want      []float64
	// outs names the tensors whose values, one after the other, want
	// holds; nil for "out".
	outs []string
}

// runLangCases runs each case in the interpreter, compares its outputs
// with what Triton stores, and builds its CUDA.
func runLangCases(t *testing.T, cases []langCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.py")
			require.NoError(t, os.WriteFile(path, []byte(c.src), 0o644))
			outs := c.outs
			if outs == nil {
				outs = []string{"out"}
			}
			p, err := Prepare(path, "", &Options{Interpret: true})
			require.NoError(t, err)
			require.NoError(t, p.Interpret(time.Minute))
			var got []float64
			for _, name := range outs {
				v, ok := p.Env.Lookup(name)
				require.True(t, ok, name)
				require.NotNil(t, v.Tensor, name)
				for i := range v.Tensor.NumElements() {
					got = append(got, v.Tensor.Float(i))
				}
			}
			assert.Equal(t, c.want, got)
			var cuda bytes.Buffer
			require.NoError(t, BuildFile(path, "", &Options{Stdout: &cuda, Stderr: &bytes.Buffer{}}))
		})
	}
}

// TestLangGetattrHasattr: getattr and hasattr in kernels, as Triton's code
// generator runs them on its objects (test_core.py's test_short_circuiting
// and test_propagate_nan, test_libdevice.py's test_bessel).
func TestLangGetattrHasattr(t *testing.T) {
	const short = `
import triton
import triton.language as tl

@triton.jit
def k(x, out):
    if (x is not None) and hasattr(x, "dtype") and isinstance(
            x.dtype, tl.pointer_type) and (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)
    tl.store(out, hasattr(x, "dtype") + 2 * hasattr(out, "no_such") + 4 * isinstance(x, tl.tensor))
`
	const pick = `
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(out, fn: tl.constexpr, func: tl.constexpr, nan: tl.constexpr):
    x = tl.full((2,), 4.0, tl.float32)
    tl.store(out + tl.arange(0, 2), getattr(libdevice, fn)(x))
    a = tl.full((1,), float("nan"), tl.float32)
    tl.store(out + 2 + tl.arange(0, 1), getattr(tl, func)(a, tl.full((1,), 1.0, tl.float32), propagate_nan=getattr(tl.PropagateNan, nan)))
    tl.store(out + 3, getattr(tl, "no_such", 7))
`
	runLangCases(t, []langCase{
		{"int32 above 42", "# launch: k[(1,)](x, out)\n# let: x=full((1,), 100000, dtype='int32')\n# let: out=zeros(1)\n" + short, []float64{5}, nil},
		{"constexpr 1", "# launch: k[(1,)](1, out)\n# let: out=zeros(1)\n" + short, []float64{0}, nil},
		{"runtime int", "# launch: k[(1,)](2, out)\n# let: out=zeros(1)\n" + short, []float64{5}, nil},
		{"None", "# launch: k[(1,)](None, out)\n# let: out=zeros(1)\n" + short, []float64{0}, nil},
		{"libdevice and PropagateNan by name", "# launch: k[(1,)](out, 'sqrt', 'minimum', 'NONE')\n# let: out=zeros(4)\n" + pick, []float64{2, 2, 1, 7}, nil},
	})
}

// TestLangTuple: tl.tuple and tuple comprehensions (test_tuple.py's
// test_eq, test_add and _tuple_increment).
func TestLangTuple(t *testing.T) {
	const src = `# launch: k[(1,)](out)
# let: out=zeros(11)
import triton
import triton.language as tl

@triton.jit
def _tuple_increment(values):
    return tl.tuple([v + 1 for v in values])

@triton.jit
def k(out):
    tl.store(out + 0, (1, 2) == (1, 2))
    tl.store(out + 1, (1, 2) == (1, 1))
    tl.store(out + 2, tl.tuple((1, 2)) == (1, 2))
    tl.store(out + 3, tl.tuple((1, 2)) == (1, 3))
    t = tl.tuple((4, 5)) + (6, 7)
    for i in tl.static_range(4):
        tl.store(out + 4 + i, t[i])
    v = 10
    inc = _tuple_increment((v, tl.program_id(0) + 20))
    tl.store(out + 8, inc[0] + isinstance(inc, tl.tuple))
    tl.store(out + 9, inc[1])
    tl.store(out + 10, len([x for x in (1, 2, 3, 4) if x % 2 == 0]) + v)
`
	runLangCases(t, []langCase{{"tuples", src, []float64{1, 0, 1, 0, 4, 5, 6, 7, 12, 21, 12}, nil}})
}

// TestLangTupleParams: tuples passed to a kernel from the host (Triton
// 3.6's test_tuple.py, test_core.py's test_reshape and
// test_tensor_descriptor.py's test_tensor_descriptor_store_nd): each
// runtime element is a kernel parameter of its own, tl.constexpr(...) and
// 1 inside a tuple are compile-time values, and a tl.constexpr parameter
// takes a tuple of compile-time values.
func TestLangTupleParams(t *testing.T) {
	const index = `
import triton
import triton.language as tl

@triton.jit
def _tuple_increment(values):
    return tl.tuple([v + 1 for v in values])

@triton.jit
def _tuple_index_func(Ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(Ptrs[i], values[i])

@triton.jit
def _tuple_index(_0, Ptrs, _1: tl.constexpr, values, _2, _3: tl.constexpr, _4):
    values = _tuple_increment(values)
    _tuple_index_func(Ptrs, values)
`
	const assign = `# launch: _tuple_assign[(1,)]((out0, out1), (out2, out3, out4), (2.0, 3.0, None))
# let: out0=zeros(1)
# let: out1=zeros(1)
# let: out2=zeros(1)
# let: out3=zeros(1)
# let: out4=zeros(1)
import triton
import triton.language as tl

@triton.jit
def _tuple_assign(XPtrs, YPtrs, values):
    X0, X1 = XPtrs
    x0, x1, _ = values
    tl.store(X0, x0)
    tl.store(X1, x1)
    Y0, Y1, Y2 = YPtrs
    Y = Y0, Y1, Y2
    y = x0, 10, x1
    tl.store(Y[0], y[0])
    tl.store(Y[1], y[1])
    tl.store(Y[2], y[2])
`
	const serialize = `# launch: _tuple_serialize[(1,)](out, None, (x0, (1, None, x1, tl.constexpr(4))), 20, 1, (y0,))
# let: x0=tensor([8], dtype='int32')
# let: x1=tensor([12], dtype='int32')
# let: y0=tensor([10], dtype='int32')
# let: out=zeros(10, dtype='int32')
import triton
import triton.language as tl

@triton.jit
def _tuple_fn0(Ptr, cst2: tl.constexpr, tuple1):
    tl.static_assert(tuple1[1] is None)
    tl.store(Ptr + 5, cst2)
    tl.store(Ptr + 6, tuple1[0])
    tl.store(Ptr + 7, tl.load(tuple1[2][0]))
    tl.store(Ptr + 8, tuple1[2][1][0])
    tl.store(Ptr + 9, tl.load(tuple1[2][1][2]))

@triton.jit
def _tuple_serialize(Ptr, N1, tuple1, cst1: tl.constexpr, val1, tuple2):
    tl.static_assert(N1 is None)
    tl.static_assert(tuple1[1][1] is None)
    tl.static_assert(tuple1[1][3] == 4)
    tl.store(Ptr + 0, tl.load(tuple1[0]))
    tl.store(Ptr + 1, tuple1[1][0])
    tl.store(Ptr + 2, tl.load(tuple1[1][2]))
    tl.store(Ptr + 3, cst1 + val1)
    tl.store(Ptr + 4, tl.load(tuple2[0]))
    _tuple_fn0(Ptr, 15, (-1, None, tuple1))
`
	const constexprs = `# launch: k[(1,)](out, ((1,), (tl.constexpr(2),)), (2, 4), (8, 1), (3, 7))
# let: out=zeros(8)
import triton
import triton.language as tl

@triton.jit
def k(out, x, shape: tl.constexpr, strides, m_n):
    for _ in range(1):
        tl.static_assert(x[1][0] == 2)
    tl.static_assert(strides[1] == 1)
    z = tl.reshape(tl.arange(0, shape[0] * shape[1]), shape)
    tl.store(out + tl.arange(0, shape[0])[:, None] * (strides[0] // 2) + tl.arange(0, shape[1])[None, :] * strides[1], z * m_n[0] + m_n[1])
`
	const store = `# launch: kernel[(1,)](out, inp, (3, 16), (16, 1), (tl.constexpr(4), tl.constexpr(16)))
# let: inp=arange(64, dtype='float32')
# let: out=full((64,), -1.0)
import triton
import triton.language as tl

@triton.jit
def kernel(out_ptr, a_ptr, shape, strides, BLOCK_SHAPE):
    desc = tl.make_tensor_descriptor(out_ptr, shape=shape, strides=strides, block_shape=BLOCK_SHAPE)
    ndim: tl.constexpr = len(BLOCK_SHAPE)
    idx = tl.full(BLOCK_SHAPE, 0, tl.int32)
    stride = 1
    for k in tl.static_range(ndim - 1, -1, -1):
        arange = tl.arange(0, BLOCK_SHAPE[k])
        for _ in tl.static_range(k):
            arange = tl.expand_dims(arange, 0)
        for _ in tl.static_range(k + 1, ndim):
            arange = tl.expand_dims(arange, -1)
        idx += arange * stride
        stride *= BLOCK_SHAPE[k]
    block = tl.load(a_ptr + idx)
    offs = (0, ) * ndim
    desc.store(offs, block)
`
	stored := make([]float64, 64)
	for i := range stored {
		stored[i] = -1
		if i < 48 {
			stored[i] = float64(i)
		}
	}
	runLangCases(t, []langCase{
		{"index size 3", "# launch: _tuple_index[(1,)](0, (out0, out1, out2), 0, (1, 2, 3), 0, 0, 0)\n# let: out0=zeros(1)\n# let: out1=zeros(1)\n# let: out2=zeros(1)\n" + index, []float64{2, 3, 4}, []string{"out0", "out1", "out2"}},
		{"index size 0", "# launch: _tuple_index[(1,)](0, (), 0, (), 0, 0, 0)\n# let: out=zeros(1)\n" + index, []float64{0}, nil},
		{"assign", assign, []float64{2, 3, 2, 10, 3}, []string{"out0", "out1", "out2", "out3", "out4"}},
		{"serialize", serialize, []float64{8, 1, 12, 21, 10, 15, -1, 8, 1, 12}, nil},
		{"constexpr elements and parameters", constexprs, []float64{7, 10, 13, 16, 19, 22, 25, 28}, nil},
		{"descriptor from tuples", store, stored, nil},
	})
}

// TestLangUnsplat: x.item() and an if on a one-element tensor (Triton
// 3.6's test_unsplat and test_atomic_cas): the element is the scalar.
func TestLangUnsplat(t *testing.T) {
	const src = `
import triton
import triton.language as tl

@triton.jit
def k(out, explicit: tl.constexpr):
    condition = tl.load(out + tl.arange(0, 1)) > 42
    if explicit:
        condition = condition.item()
    if condition:
        tl.store(out, 42)
    one = tl.full((1, 1), 1, dtype=tl.int16).item()
    nan = tl.full((1,), float("nan"), dtype=tl.float32).item()
    tl.store(out + 1, one + (nan != nan))
`
	for _, explicit := range []string{"False", "True"} {
		runLangCases(t, []langCase{
			{"41 explicit=" + explicit, "# launch: k[(1,)](out, " + explicit + ", num_warps=1)\n# let: out=tensor([41, 0], dtype='int32')\n" + src, []float64{41, 2}, nil},
			{"43 explicit=" + explicit, "# launch: k[(1,)](out, " + explicit + ", num_warps=1)\n# let: out=tensor([43, 0], dtype='int32')\n" + src, []float64{42, 2}, nil},
		})
	}
}

// TestLangShapesAndDTypes: Triton 3.6's test_num_threads, test_slice,
// test_expand_dims and test_store_constant: tl.extra.cuda.num_threads()
// is the program's threads, slices whose bounds are None are full,
// expand_dims wraps every axis against the result's rank, and a number a
// kernel assigns has the dtype Triton's to_tensor gives it.
func TestLangShapesAndDTypes(t *testing.T) {
	const src = `# launch: k[(1,)](out, 4, num_warps=2)
# let: out=zeros(65, dtype='int32')
import triton
import triton.language as tl

@triton.jit
def k(out, N: tl.constexpr):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    tl.store(out + tl.arange(0, num_threads), 1)
    data = tl.arange(0, N)
    t = data[None, None:None:None, None]
    tl.static_assert(t.shape == [1, N, 1])
    t = tl.expand_dims(data, (-4, 2, -1))
    tl.static_assert(t.shape == [1, N, 1, 1])
    t = tl.expand_dims(data, -2)
    tl.static_assert(t.shape == [1, N])
    value = 1
    tl.static_assert(tl.full([N], value=value, dtype=value.dtype).dtype == tl.int32)
    big = 2**40
    f = 1.5
    tl.static_assert(big.dtype == tl.int64 and f.dtype == tl.float32)
    tl.store(out + 64, value + f)
`
	want := make([]float64, 65)
	for i := range 64 {
		want[i] = 1
	}
	want[64] = 2
	runLangCases(t, []langCase{{"misc", src, want, nil}})
}
