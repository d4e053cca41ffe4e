package tri

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "github.com/tri-lang/tri/hostpy" // the host Python of @triton.autotune's configs
	"github.com/x448/float16"
)

// An autotuned kernel (samples/matmul_autotuned.tri) from Go: the launch
// takes config 0's block sizes, which its grid lambda reads, over fp16
// matrices given shapes by Tensor; each element of a @ ones is the sum
// of a's row.
func TestAutotunedMatmul(t *testing.T) {
	f, err := ParseFile("samples/matmul_autotuned.tri", nil)
	require.NoError(t, err)
	m, n, k := 40, 24, 48
	a, b, c := make([]float16.Float16, m*k), make([]float16.Float16, k*n), make([]float16.Float16, m*n)
	for i := range a {
		a[i] = float16.Fromfloat32(float32(i%5) - 2)
	}
	for i := range b {
		b[i] = float16.Fromfloat32(1)
	}
	l, err := f.Prepare("grouped_autotuned_matmul_k[lambda meta: (triton.cdiv(m, meta['bm']), triton.cdiv(n, meta['bn']))](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))",
		Args{"a": Tensor{Data: a, Shape: []int{m, k}}, "b": Tensor{Data: b, Shape: []int{k, n}}, "c": Tensor{Data: c, Shape: []int{m, n}}, "m": m, "n": n, "k": k})
	require.NoError(t, err)
	require.NoError(t, l.Interpret())
	for i := range m {
		var sum float32
		for j := range k {
			sum += a[i*k+j].Float32()
		}
		for j := range n {
			assert.Equal(t, sum, c[i*n+j].Float32(), "c[%d, %d]", i, j)
		}
	}
}
