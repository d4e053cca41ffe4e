package interp

// This file implements tl.umulhi, the one op of Triton's random numbers
// that is not plain arithmetic: sema expands tl.philox, tl.rand and the
// rest into it and the integer ops beside it.

import (
	"math/bits"

	"github.com/tri-lang/tri/ir"
)

// umulhi sets out to the high half of the double-width unsigned product of
// x and y, canonical integers of kind k (both read as unsigned bit
// patterns of k's width, as Triton's mulhiui does).
func umulhi(k ir.Kind, x, y, out []int64) {
	w := k.Bits()
	if w == 64 {
		for i := range out {
			hi, _ := bits.Mul64(uint64(x[i]), uint64(y[i]))
			out[i] = int64(hi)
		}
		return
	}
	mask := uint64(1)<<w - 1
	for i := range out {
		out[i] = int64((uint64(x[i]) & mask) * (uint64(y[i]) & mask) >> w)
	}
}
