package launch

// This file implements the part of `tri run --check`'s tolerance that comes
// from libdevice: the GPU computes libdevice functions within the error
// CUDA documents for them, the interpreter within half an ulp of the exact
// value, so an output of a kernel that calls them may differ by that much.

import (
	"math"

	"github.com/tri-lang/tri/ir"
)

// libSlack is the largest documented error of the libdevice functions a
// kernel calls: in ulps of the output, and absolute.
type libSlack struct {
	ulps int64
	abs  float64
}

// libdeviceSlack collects the slack of every libdevice call in k; one ulp
// is added for the interpreter's rounding.
func libdeviceSlack(k *ir.Kernel) libSlack {
	var s libSlack
	var visit func(v *ir.Value)
	visit = func(v *ir.Value) {
		if v.Region != nil { // a custom combine function may call libdevice too
			ir.Inspect(v.Region.Body, visit)
		}
		if v.Op != ir.OpLibdevice {
			return
		}
		if o, ok := ir.LibdeviceSymbol(v.Extern); ok && o.Result.IsFloat() {
			s.ulps = max(s.ulps, o.ULP+1)
			s.abs = max(s.abs, o.Abs)
		}
	}
	ir.Inspect(k.Body, visit)
	return s
}

// allows reports whether the GPU's g and the interpreter's r of kind k
// are within the slack.
func (s libSlack) allows(k ir.Kind, g, r float64) bool {
	if s.ulps > 0 && ulpDistance(k, g, r) <= s.ulps {
		return true
	}
	return s.abs > 0 && math.Abs(g-r) <= s.abs
}
