package frontend

// This file implements the arithmetic of module-level values (BLOCK =
// 2 * BASE, SCALE = 1.0 / 32) that module-level conditions and parameter
// defaults may compute: Python's rules on ints (floor division and
// modulo), floats and string concatenation.

import "math/big"

// maxShift bounds the shifts and powers computed, so that a module cannot
// make tri build a huge number.
const maxShift = 1 << 12

// binary computes x op y, or false where Python's result is not a value
// this evaluation has (or would raise).
func binary(op string, x, y constValue) (constValue, bool) {
	if x.kind == ConstStr && y.kind == ConstStr && op == "+" {
		return constValue{kind: ConstStr, s: x.s + y.s}, true
	}
	xi, xok := intOf(x)
	yi, yok := intOf(y)
	if xok && yok {
		return intBinary(op, xi, yi)
	}
	xf, xok := floatOf(x)
	yf, yok := floatOf(y)
	if !xok || !yok {
		return constValue{}, false
	}
	switch op {
	case "+":
		return constValue{kind: ConstFloat, f: xf + yf}, true
	case "-":
		return constValue{kind: ConstFloat, f: xf - yf}, true
	case "*":
		return constValue{kind: ConstFloat, f: xf * yf}, true
	case "/":
		if yf == 0 {
			return constValue{}, false
		}
		return constValue{kind: ConstFloat, f: xf / yf}, true
	}
	return constValue{}, false
}

// intBinary is binary on two ints.
func intBinary(op string, x, y *big.Int) (constValue, bool) {
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "//", "%":
		if y.Sign() == 0 {
			return constValue{}, false
		}
		q, m := new(big.Int).DivMod(x, y, new(big.Int)) // Euclidean: 0 <= m < |y|
		if y.Sign() < 0 && m.Sign() != 0 {              // Python floors toward -inf
			q.Add(q, big.NewInt(1))
			m.Add(m, y)
		}
		if op == "//" {
			r = q
		} else {
			r = m
		}
	case "/":
		if y.Sign() == 0 {
			return constValue{}, false
		}
		f, _ := new(big.Rat).SetFrac(x, y).Float64()
		return constValue{kind: ConstFloat, f: f}, true
	case "**", "<<":
		if y.Sign() < 0 || y.Cmp(big.NewInt(maxShift)) > 0 {
			return constValue{}, false
		}
		if op == "**" {
			r.Exp(x, y, nil)
		} else {
			r.Lsh(x, uint(y.Int64()))
		}
	case ">>":
		if y.Sign() < 0 {
			return constValue{}, false
		}
		r.Rsh(x, uint(min(y.Int64(), maxShift)))
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	default:
		return constValue{}, false
	}
	return constValue{kind: ConstInt, i: r}, true
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
