package hosteval

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenLets bind tensors from every random constructor, several from one
// stream (the tuple), arithmetic on one, and a large fp8 one.
var goldenLets = []string{"x=randn(5)", "h=randn(2, 2, dtype='float16')", "q=randn(6, dtype='float8_e5m2')", "q4=randn(6, dtype='float8e4nv')",
	"u=rand(4, dtype='bfloat16')", "i=randint(-50, 50, 5)", "pair=(randn(3), rand(2), randint(0, 9, 3, dtype='int8'), randn(2))",
	"s=randn(3) * 2", "big=randn(4, 32, 64, 64, dtype='float8_e5m2')"}

// TestRandomGolden: the numbers of randn, rand and randint with seed 0 are
// what they were when tri made every tensor at once (users compare runs
// across versions), whether the tensors are made at once or deferred and
// made later in any order.
func TestRandomGolden(t *testing.T) {
	want := map[string][]float64{
		"x":  {-1.6837512254714966, -0.4802524149417877, 1.2101097106933594, -0.4665127694606781, -0.8947436213493347},
		"h":  {0.47705078125, 0.6669921875, 0.252197265625, -0.6904296875},
		"q":  {0.875, 0.0390625, -0.109375, -0.625, -0.625, 1.5},
		"q4": {0.1875, 0.140625, 0.3125, 0.6875, -0.9375, -0.21875},
		"u":  {0.1806640625, 0.70703125, 0.98828125, 0.7890625},
		"i":  {-38, -29, 29, -18, 41},
		"s":  {0.9292185306549072, -1.9787983894348145, -0.5515457987785339},
	}
	wantPair := [][]float64{{0.5817753076553345, 0.6141504049301147, -1.5205949544906616}, {0.5068235993385315, 0.5147015452384949}, {5, 6, 3}, {1.371982455253601, 0.39669474959373474}}
	const wantBig = 0xc69b8adf390c87d7 // FNV-1a of the 2^20 fp8 codes

	for _, deferred := range []bool{false, true} {
		e := NewEnv(0)
		e.DeferData = deferred
		for _, s := range goldenLets {
			require.NoError(t, e.Let(s), s)
		}
		for _, v := range lookup(t, e, "pair").Elems {
			assert.Equal(t, deferred, v.Tensor.IsDeferred())
		}
		// Made back to front: each deferred tensor draws from where its
		// binding left the stream, whatever was made before it.
		pair := lookup(t, e, "pair").Elems
		for j := len(pair) - 1; j >= 0; j-- {
			assert.Equal(t, wantPair[j], elems(pair[j].Tensor), "pair[%d] deferred=%v", j, deferred)
		}
		for _, n := range []string{"s", "q4", "q", "x", "h", "u", "i"} {
			assert.Equal(t, want[n], elems(lookup(t, e, n).Tensor), "%s deferred=%v", n, deferred)
		}
		h := fnv.New64a()
		h.Write(lookup(t, e, "big").Tensor.Materialize().Data)
		assert.Equal(t, uint64(wantBig), h.Sum64(), "big deferred=%v", deferred)
	}
}

// TestDeferredHuge: with DeferData a binding of 2^34 elements (16 GiB of
// fp8, past the 2^31 of a tensor made at once) costs neither time nor
// memory, its shape and strides answer, and *_like, descriptors and float
// arithmetic over it stay deferred.
func TestDeferredHuge(t *testing.T) {
	specs := []string{"n=2**34 // 64", "q=randn(n, 64, dtype='float8_e5m2')", "o=empty_like(q)", "z=zeros(2**34, dtype='float16')",
		"s=q * 0.5", "d=TensorDescriptor.from_tensor(q, [64, 64])", "r=randn(4)"}
	e := NewEnv(0)
	e.DeferData = true
	for _, s := range specs {
		require.NoError(t, e.Let(s), s)
	}
	for _, n := range []string{"q", "o", "z", "s"} {
		v := lookup(t, e, n).Tensor
		assert.True(t, v.IsDeferred(), n)
		assert.Nil(t, v.Data, n)
	}
	assert.Equal(t, []int{1 << 28, 64}, lookup(t, e, "q").Tensor.Shape)
	assert.Equal(t, 1<<35, lookup(t, e, "z").Tensor.Bytes())
	// The next binding's stream is its own: not held up by q's draws.
	assert.Len(t, elems(lookup(t, e, "r").Tensor), 4)

	// Made at once, the same binding is refused before any allocation.
	err := NewEnv(0).Let("q=randn(2**28, 64, dtype='float8_e5m2')")
	assert.ErrorContains(t, err, "randn(): a tensor of more than 2^31 elements is too large")
	err = e.Let("w=zeros(2**40, 2**10)")
	assert.ErrorContains(t, err, "zeros(): a tensor of more than 2^48 elements is too large")
}
