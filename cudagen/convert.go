package cudagen

// This file implements castExpr, the conversion of a C expression between
// any two dtypes with Triton's semantics: fp8's (fp8.go) where either side
// is fp8, else the rest's (ctype.go's plainCast).

import "github.com/tri-lang/tri/ir"

// castExpr converts x from dtype from to dtype to with Triton's semantics:
// integers wrap, floats go to integers toward zero, to Bool is != 0, and
// narrowing float conversions round to nearest even (toward zero with
// FlagRoundTZ).
func (s nameSet) castExpr(from, to ir.DType, x string, flags ir.Flags) string {
	if from == to {
		return x
	}
	if from.Kind.IsFP8() || to.Kind.IsFP8() {
		return s.fp8CastExpr(from, to, x, flags&ir.FlagRoundTZ != 0)
	}
	return s.plainCast(from, to, x, flags)
}
