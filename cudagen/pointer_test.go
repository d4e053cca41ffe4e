package cudagen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestPointerCastFacts: a cast between pointers of different element
// sizes, or between a pointer and an integer, keeps the addresses'
// divisibility but not their runs of consecutive elements, so that a load
// through (x + offs).to(tl.pointer_type(tl.float16)), which reads every
// other half, is not vectorized as if the halves were consecutive.
func TestPointerCastFacts(t *testing.T) {
	tests := []struct {
		name       string
		to         ir.DType
		viaInt     bool // cast x + offs to int64 first
		contig     int64
		div        int64
		vectorized bool
	}{
		{"same element size", ir.PtrTo(ir.Int32), false, 512, 16, true},
		{"narrower elements", ir.PtrTo(ir.Float16), false, 1, 4, false},
		{"wider elements", ir.PtrTo(ir.Float64), false, 1, 4, false},
		{"through int64", ir.PtrTo(ir.Float32), true, 1, 4, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(t, "recast", "misc.tri", 4)
			x := b.param("x", ir.PtrTo(ir.Float32), true)
			out := b.param("out", ir.PtrTo(tc.to.Elem), true)
			offs := b.arange(512)
			p := b.ptrAdd(x, offs)
			if tc.viaInt {
				p = b.cast(p, ir.TInt64)
			}
			q := b.cast(p, tc.to)
			b.store(b.ptrAdd(out, offs), b.load(q, nil, nil), nil)
			pl, err := newPlan(b.k, "", true)
			require.NoError(t, err)
			info := pl.axes.info(q)
			assert.Equal(t, tc.contig, info.Contig, "contiguity")
			assert.Equal(t, tc.div, info.Div, "divisibility")
			src, err := gen(b.k, Options{})
			require.NoError(t, err)
			loads := strings.Count(src, "*reinterpret_cast<const")
			if tc.vectorized {
				assert.Equal(t, 1, loads, "vector loads")
			} else {
				assert.Equal(t, 0, loads, "a vector load through the recast pointers:\n%s", src)
			}
		})
	}
}
