package launch

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// TestSummarize: one line per output: dtype, shape as Python writes it,
// the first elements, the least and greatest (of all elements, NaNs left
// out) and the NaNs an empty() output kept where the kernel wrote nothing.
func TestSummarize(t *testing.T) {
	f := tensor.New(ir.Float32, 2, 4)
	for i, v := range []float64{0.5, math.NaN(), -3.25, 7, 1e-7, math.Inf(1), math.NaN(), 2} {
		f.SetFloat(i, v)
	}
	assert.Equal(t, "y: float32 (2, 4) [0.5, nan, -3.25, 7, 1e-07, inf, ...] min -3.25 max inf (2 of 8 NaN)", summarize("y", f))

	nan := tensor.New(ir.Float16, 3)
	for i := range 3 {
		nan.SetFloat(i, math.NaN())
	}
	assert.Equal(t, "o: float16 (3,) [nan, nan, nan] (3 of 3 NaN)", summarize("o", nan))

	u := tensor.New(ir.Uint64, 2)
	u.SetInt(0, -1) // 2**64 - 1, the greatest uint64
	u.SetInt(1, 5)
	assert.Equal(t, "u: uint64 (2,) [18446744073709551615, 5] min 5 max 18446744073709551615", summarize("u", u))

	i := tensor.New(ir.Int32, 3)
	i.SetInt(0, -7)
	i.SetInt(2, 9)
	assert.Equal(t, "i: int32 (3,) [-7, 0, 9] min -7 max 9", summarize("i", i))

	b := tensor.New(ir.Bool, 2)
	b.SetInt(1, 1)
	assert.Equal(t, "m: int1 (2,) [False, True] min False max True", summarize("m", b))

	assert.Equal(t, "e: float32 (0,) []", summarize("e", tensor.New(ir.Float32, 0)))
}
