package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
)

// TestPrintFormat: the printf formats of Triton's NVIDIA print lowering:
// indices padded to ceil(log10(size)) digits, "(operand i) " with several
// values, the conversion by dtype and hex, '%' of the prefix doubled.
func TestPrintFormat(t *testing.T) {
	tests := []struct {
		prefix string
		t      ir.Type
		i, n   int
		hex    bool
		want   string
	}{
		{" x: ", ir.ScalarType(ir.TInt32), 0, 1, false, "pid (%u, %u, %u) idx () x: %i\n"},
		{" x: ", ir.TileType(ir.TFloat32, 1024), 0, 1, false, "pid (%u, %u, %u) idx (%4u) x: %f\n"},
		{": ", ir.TileType(ir.TUint8, 16, 1), 1, 2, false, "pid (%u, %u, %u) idx (%2u, %0u): (operand 1) %u\n"},
		{" x: ", ir.TileType(ir.TInt64, 10), 0, 1, false, "pid (%u, %u, %u) idx (%1u) x: %lli\n"},
		{" x: ", ir.ScalarType(ir.TUint64), 0, 1, false, "pid (%u, %u, %u) idx () x: %llu\n"},
		{" x: ", ir.ScalarType(ir.TBool), 0, 1, false, "pid (%u, %u, %u) idx () x: %u\n"},
		{" x: ", ir.ScalarType(ir.TFloat16), 0, 1, true, "pid (%u, %u, %u) idx () x: 0x%04x\n"},
		{" x: ", ir.ScalarType(ir.TInt64), 0, 1, true, "pid (%u, %u, %u) idx () x: 0x%016llx\n"},
		{" x: ", ir.ScalarType(ir.TBool), 0, 1, true, "pid (%u, %u, %u) idx () x: 0x%00x\n"},
		{" 100%: ", ir.ScalarType(ir.PtrTo(ir.Float32)), 0, 1, false, "pid (%u, %u, %u) idx () 100%%: %p\n"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ir.PrintFormat(tc.prefix, tc.t, tc.i, tc.n, tc.hex), "%q %s", tc.prefix, tc.t)
	}
	assert.Equal(t, "pid (%u, %u, %u) hello\n", ir.PrintBareFormat(" hello"))
	for n, want := range map[int]int{1: 0, 2: 1, 9: 1, 10: 1, 11: 2, 64: 2, 100: 2, 128: 3, 1000: 3, 1024: 4} {
		assert.Equal(t, want, ir.PrintIndexWidth(n), "size %d", n)
	}
}
