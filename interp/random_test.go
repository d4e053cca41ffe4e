package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// TestUmulhi: the high half of the double-width product of the operands'
// unsigned bit patterns, in every integer width, canonical in the result's
// kind.
func TestUmulhi(t *testing.T) {
	tests := []struct {
		name string
		k    ir.Kind
		a, b int64
		want int64
	}{
		{"u32 Philox multiplier", ir.Uint32, 0xCD9E8D57, 0xFFFFFFFF, 0xCD9E8D56},
		{"u32 small", ir.Uint32, 3, 5, 0},
		{"u32 2^16 squared", ir.Uint32, 1 << 16, 1 << 16, 1},
		{"i32 -1 is 2^32-1", ir.Int32, -1, -1, -2},
		{"i32 MIN times 2", ir.Int32, math.MinInt32, 2, 1},
		{"i32 high half with its top bit set is negative", ir.Int32, -1, -2, -3},
		{"u64 max squared", ir.Uint64, maxU64, maxU64, -2},
		{"u64 Philox multiplier", ir.Uint64, -0x2D18B8F11EB3936D, 2, 1},
		{"i64 -1 times 2", ir.Int64, -1, 2, 1},
		{"i64 2^32 squared", ir.Int64, 1 << 32, 1 << 32, 1},
		{"u8", ir.Uint8, 200, 200, 156},
		{"i8 -1 is 255", ir.Int8, -1, -1, -2},
		{"u16", ir.Uint16, 0xFFFF, 2, 1},
		{"i16", ir.Int16, -2, 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := evalOp(ir.OpUmulhi, tc.k, tc.k, 0, ic(tc.a), ic(tc.b))
			require.NoError(t, err)
			assert.Equal(t, tc.want, r.ints[0])
		})
	}
}
