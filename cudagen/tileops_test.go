package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestTileOpTooLargeForSharedMemory checks that a tile operation whose
// scratch does not fit in shared memory is a placed error, not a panic.
func TestTileOpTooLargeForSharedMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   ir.Op
		n    int
		want string
	}{
		{"sort", ir.OpSort, 1 << 16, "sort of fp32[65536] needs 256 KiB of shared memory"},
		{"flip", ir.OpFlip, 1 << 16, "flip of fp32[65536] needs 256 KiB of shared memory"},
		{"small sort", ir.OpSort, 1 << 10, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(t, "big_"+tc.name, "misc.tri", 4)
			p := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
			ptrs := b.ptrAdd(b.splat(p, ir.Shape{tc.n}), b.arange(tc.n))
			x := b.load(ptrs, nil, nil)
			v := b.emit(&ir.Value{Op: tc.op, Type: x.Type, Args: []*ir.Value{x}})
			if tc.op == ir.OpSort {
				v.Const = ir.IntConst(int64(log2(tc.n)))
			}
			b.store(ptrs, v, nil)
			_, err := Generate(b.k, Options{})
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
