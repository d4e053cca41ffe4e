package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestShiftOutOfRangeInterpreted: tri run --interpret refuses a stored
// shift by the bit width or more, scalar or tile, at the shift's line, and
// runs one whose out-of-range lanes are masked off.
func TestShiftOutOfRangeInterpreted(t *testing.T) {
	lets := []string{"--let", "x=full((8,), 3, dtype='int32')", "--let", "out=zeros(8, dtype='int32')"}
	for _, tc := range []struct {
		name, launch string
		code         int
		want         string
	}{
		{"scalar << 33", "shl[(1,)](x, out, 33)", 1, "shift.tri:10:23: interpreting shl: i32 shift << 33 (an amount outside 0 to 31), whose result is used by the store at line 10"},
		{"scalar << 31", "shl[(1,)](x, out, 31)", 0, ""},
		{"tile >> 35 stored", "shr_tile[(1,)](x, out, 8)", 1, "shift.tri:17:9: interpreting shr_tile: i32 shift >> 35 (an amount outside 0 to 31) at lane [7], whose result is used by the store at line 18 at lane [7]"},
		{"tile >> 35 masked off", "shr_tile[(1,)](x, out, 7)", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := tri(t, append([]string{"run", "--interpret", "testdata/shift.tri", tc.launch}, lets...)...)
			assert.Equal(t, tc.code, code, stderr)
			if tc.want != "" {
				assert.Contains(t, stderr, tc.want)
			}
		})
	}
}
