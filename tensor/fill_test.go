package tensor

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// allKinds is every element kind a tensor holds.
var allKinds = []ir.Kind{ir.Bool, ir.Int8, ir.Uint8, ir.Int16, ir.Uint16, ir.Int32, ir.Uint32, ir.Int64, ir.Uint64,
	ir.Float16, ir.BFloat16, ir.Float32, ir.Float64, ir.Float8E4NV, ir.Float8E5, ir.Float8E4B8, ir.Float8E5B16, ir.Float8E4B15}

// testFloats are values around every edge of the formats: zeros, NaN,
// infinities, each fp8 format's codes and the points halfway between
// them (where ties round to even), one ulp either side, and random values
// over the whole range.
func testFloats() []float64 {
	vs := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-300, 65504, 65520, 1e6}
	for _, k := range allKinds {
		f, ok := k.FP8()
		if !ok {
			continue
		}
		var codes []float64
		for c := range 256 {
			if v := f.Decode(uint8(c)); !math.IsNaN(v) && !math.IsInf(v, 0) {
				codes = append(codes, v)
			}
		}
		for _, a := range codes {
			for _, b := range codes {
				if m := (a + b) / 2; b > a && b-a < a/2+1e-3 {
					vs = append(vs, m, math.Nextafter(m, math.Inf(1)), math.Nextafter(m, math.Inf(-1)))
				}
			}
			vs = append(vs, a, math.Nextafter(a, 0), math.Nextafter(a, math.Inf(1)))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		vs = append(vs, r.NormFloat64(), r.NormFloat64()*1000, math.Ldexp(r.Float64()-0.5, r.IntN(100)-50))
	}
	return vs
}

// TestSetFloatsAsSetFloat: the bulk setter, and the fp8 table under it,
// give every kind the bytes SetFloat gives, value by value.
func TestSetFloatsAsSetFloat(t *testing.T) {
	vs := testFloats()
	for _, k := range allKinds {
		one, bulk := New(k, len(vs)), New(k, len(vs))
		for i, v := range vs {
			one.SetFloat(i, v)
		}
		bulk.SetFloats(0, vs)
		if !bytes.Equal(one.Data, bulk.Data) {
			for i := range vs {
				require.Equal(t, one.Int(i), bulk.Int(i), "%s: element %d from %v", ir.Scalar(k).PyName(), i, vs[i])
			}
		}
	}
}

// TestSetIntsAsSetInt: as TestSetFloatsAsSetFloat for integers, with a
// start past the first element.
func TestSetIntsAsSetInt(t *testing.T) {
	vs := []int64{0, 1, -1, 127, 128, 255, 256, -129, 1 << 31, -1 << 31, math.MaxInt64, math.MinInt64, 12345678901}
	for _, k := range allKinds {
		one, bulk := New(k, len(vs)+2), New(k, len(vs)+2)
		for i, v := range vs {
			one.SetInt(i+2, v)
		}
		bulk.SetInts(2, vs)
		assert.Equal(t, one.Data, bulk.Data, ir.Scalar(k).PyName())
	}
}

// TestFillAsSetEach: FillFloat and FillInt set every element as SetFloat
// and SetInt would, for sizes around the doubling copies' steps.
func TestFillAsSetEach(t *testing.T) {
	for _, k := range allKinds {
		for _, n := range []int{0, 1, 2, 3, 7, 64, 1000} {
			for _, v := range []float64{math.NaN(), 1, -2.5} {
				one, fill := New(k, n), New(k, n)
				for i := range n {
					one.SetFloat(i, v)
				}
				fill.FillFloat(v)
				assert.Equal(t, one.Data, fill.Data, "%s n=%d %v", ir.Scalar(k).PyName(), n, v)
			}
			one, fill := New(k, n), New(k, n)
			for i := range n {
				one.SetInt(i, 0x5a5a5a5a)
			}
			fill.FillInt(0x5a5a5a5a)
			assert.Equal(t, one.Data, fill.Data, "%s n=%d", ir.Scalar(k).PyName(), n)
		}
	}
}

// TestDeferred: a deferred tensor has a shape and no data until an element
// is read; then fill makes it once, and a clone makes the same elements
// again.
func TestDeferred(t *testing.T) {
	calls := 0
	d, err := Deferred(ir.Float16, []int{2, 3}, func(t *Tensor) {
		calls++
		t.SetFloats(0, []float64{1, 2, 3, 4, 5, 6})
	})
	require.NoError(t, err)
	assert.True(t, d.IsDeferred())
	assert.Nil(t, d.Data)
	assert.Equal(t, 12, d.Bytes())
	assert.Equal(t, 3, d.Stride(0))
	c := d.Clone()
	assert.Equal(t, 0, calls, "neither shape questions nor Clone make the elements")
	assert.Equal(t, 5.0, d.Float(4))
	assert.False(t, d.IsDeferred())
	assert.Equal(t, 1, calls)
	assert.Equal(t, d.Data, c.Materialize().Data)
	assert.Equal(t, 2, calls)
	d.Materialize()
	assert.Equal(t, 2, calls, "made once")

	// The shape is checked as Make checks it; a huge one costs nothing.
	_, err = Deferred(ir.Float32, []int{1 << 40, 1 << 40}, nil)
	assert.ErrorContains(t, err, "more elements than an int counts")
	huge, err := Deferred(ir.Float8E5, []int{1 << 20, 1 << 14}, nil)
	require.NoError(t, err)
	assert.Equal(t, 1<<34, huge.Bytes())
}
