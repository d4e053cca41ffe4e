package frontend

// This file implements the arithmetic of module-level values (BLOCK =
// 2 * BASE, SCALE = 1.0 / 32) that module-level conditions and parameter
// defaults may compute: Python's rules on ints (floor division and
// modulo), floats and string concatenation.

import (
	"math/big"

	"github.com/tri-lang/tri/pyrules"
)

// maxBits bounds the integers computed (shifts and powers above all), so
// that a module cannot make tri build a huge number.
const maxBits = 1 << 12

// binary computes x op y by Python's rules (package pyrules), or false
// where Python's result is not a value this evaluation has (or would
// raise).
func binary(op string, x, y constValue) (constValue, bool) {
	if x.kind == ConstStr && y.kind == ConstStr && op == "+" {
		return constValue{kind: ConstStr, s: x.s + y.s}, true
	}
	xi, xok := intOf(x)
	yi, yok := intOf(y)
	if xok && yok && !pyrules.IsFloatResult(op, false, false) {
		r, err := pyrules.IntOp(op, xi, yi, maxBits)
		if err != nil {
			return constValue{}, false
		}
		return constValue{kind: ConstInt, i: r}, true
	}
	xf, xok := floatOf(x)
	yf, yok := floatOf(y)
	if !xok || !yok {
		return constValue{}, false
	}
	f, err := pyrules.FloatOp(op, xf, yf)
	if err != nil {
		return constValue{}, false
	}
	return constValue{kind: ConstFloat, f: f}, true
}

// intOf is an int or bool value as an integer.
func intOf(v constValue) (*big.Int, bool) {
	switch v.kind {
	case ConstInt:
		if v.i == nil {
			return new(big.Int), true
		}
		return v.i, true
	case ConstBool:
		return big.NewInt(int64(boolInt(v.b))), true
	}
	return nil, false
}

// floatOf is a number as a float.
func floatOf(v constValue) (float64, bool) {
	if v.kind == ConstFloat {
		return v.f, true
	}
	if i, ok := intOf(v); ok {
		f, _ := new(big.Float).SetInt(i).Float64()
		return f, true
	}
	return 0, false
}
