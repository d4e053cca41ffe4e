package pyrules

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expected values are Python 3's.
func TestInt64Op(t *testing.T) {
	for _, tc := range []struct {
		op   string
		x, y int64
		want int64
		err  error
	}{
		{"//", -7, 2, -4, nil},
		{"%", -7, 3, 2, nil},
		{"%", 7, -3, -2, nil},
		{"//", 7, -3, -3, nil},
		{"//", 1, 0, 0, ErrIntZeroDivision},
		{"%", 1, 0, 0, ErrIntZeroDivision},
		{"+", math.MaxInt64, 1, 0, ErrOverflow},
		{"-", math.MinInt64, 1, 0, ErrOverflow},
		{"*", 1 << 62, 4, 0, ErrOverflow},
		{"*", -1, math.MinInt64, 0, ErrOverflow},
		{"*", -3, 5, -15, nil},
		{"//", math.MinInt64, -1, 0, ErrOverflow},
		{"%", math.MinInt64, -1, 0, nil},
		{"**", 2, 62, 1 << 62, nil},
		{"**", 2, 63, 0, ErrOverflow},
		{"**", 10, 19, 0, ErrOverflow},
		{"**", -2, 63, math.MinInt64, nil},
		{"**", -1, 1 << 40, 1, nil},
		{"<<", 1, 62, 1 << 62, nil},
		{"<<", 1, 63, 0, ErrOverflow},
		{"<<", -1, 63, math.MinInt64, nil},
		{"<<", 1, -1, 0, ErrNegativeShift},
		{">>", -9, 1, -5, nil},
		{">>", -9, 100, -1, nil},
		{"&", 6, 3, 2, nil},
		{"@", 1, 1, 0, ErrUnsupported},
	} {
		got, err := Int64Op(tc.op, tc.x, tc.y)
		if tc.err != nil {
			assert.ErrorIs(t, err, tc.err, "%d %s %d", tc.x, tc.op, tc.y)
			continue
		}
		require.NoError(t, err, "%d %s %d", tc.x, tc.op, tc.y)
		assert.Equal(t, tc.want, got, "%d %s %d", tc.x, tc.op, tc.y)
	}
}

// TestIntOpMatchesInt64Op: the unbounded rules and the int64 ones agree
// wherever the result fits.
func TestIntOpMatchesInt64Op(t *testing.T) {
	vals := []int64{-9, -7, -3, -1, 0, 1, 2, 3, 7, 64, math.MaxInt64, math.MinInt64}
	for _, op := range []string{"+", "-", "*", "//", "%", "**", "<<", ">>", "&", "|", "^"} {
		for _, x := range vals {
			for _, y := range vals {
				if op == "**" && y < 0 {
					continue
				}
				small, err64 := Int64Op(op, x, y)
				big, err := IntOp(op, big.NewInt(x), big.NewInt(y), 4096)
				if err != nil {
					assert.Error(t, err64, "%d %s %d", x, op, y)
					continue
				}
				if big.IsInt64() {
					if assert.NoError(t, err64, "%d %s %d", x, op, y) {
						assert.Equal(t, big.Int64(), small, "%d %s %d", x, op, y)
					}
				} else {
					assert.ErrorIs(t, err64, ErrOverflow, "%d %s %d", x, op, y)
				}
			}
		}
	}
}

func TestFloatOp(t *testing.T) {
	for _, tc := range []struct {
		op   string
		x, y float64
		want float64
		err  error
	}{
		{"%", -7.5, 2, 0.5, nil},
		{"%", 7.5, -2, -0.5, nil},
		{"//", -7.5, 2, -4, nil},
		{"//", 7.5, -2, -4, nil},
		{"/", 1, 4, 0.25, nil},
		{"/", 1, 0, 0, ErrFloatZeroDivision},
		{"%", 1, 0, 0, ErrFloatZeroModulo},
		{"**", 2, 0.5, math.Sqrt2, nil},
		{"<<", 1, 1, 0, ErrUnsupported},
	} {
		got, err := FloatOp(tc.op, tc.x, tc.y)
		if tc.err != nil {
			assert.ErrorIs(t, err, tc.err, "%g %s %g", tc.x, tc.op, tc.y)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%g %s %g", tc.x, tc.op, tc.y)
	}
	assert.True(t, IsFloatResult("/", false, false))
	assert.False(t, IsFloatResult("//", false, false))
	assert.True(t, IsFloatResult("+", true, false))
	assert.True(t, IntPowIsFloat(-1))
}
