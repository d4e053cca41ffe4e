package pyrules

import (
	"errors"
	"math"
	"math/big"
)

// Errors of the arithmetic, with Python's messages.
var (
	ErrIntZeroDivision   = errors.New("integer division or modulo by zero")
	ErrFloatZeroDivision = errors.New("float division by zero")
	ErrFloatZeroModulo   = errors.New("float modulo by zero")
	ErrNegativeShift     = errors.New("negative shift count")
	// ErrOverflow is a result outside int64 (Int64Op) or beyond the bit
	// limit given to IntOp.
	ErrOverflow = errors.New("result does not fit")
	// ErrUnsupported is an operator the rules do not define on the operands.
	ErrUnsupported = errors.New("unsupported operator")
)

// IsFloatResult reports whether op on numbers whose float-ness is given
// gives a float: any float operand, or true division. (** of ints with a
// negative exponent gives a float too: see IntPowIsFloat.)
func IsFloatResult(op string, xFloat, yFloat bool) bool {
	return xFloat || yFloat || op == "/"
}

// IntPowIsFloat reports whether x ** y of ints gives a float.
func IntPowIsFloat(y int64) bool { return y < 0 }

// floorDivMod is Python's divmod on ints: q = floor(x / y) and m = x - q*y,
// which takes the sign of y. y must not be zero.
func floorDivMod(x, y *big.Int) (q, m *big.Int) {
	q, m = new(big.Int), new(big.Int)
	q.DivMod(x, y, m) // Euclidean: m >= 0
	if m.Sign() != 0 && y.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
		m.Add(m, y)
	}
	return q, m
}

// IntOp applies op (+ - * // % ** << >> & | ^) to ints, failing with
// ErrOverflow where the result (or, for ** and <<, its estimate) would pass
// maxBits bits. ** with a negative exponent is the caller's (a float).
func IntOp(op string, x, y *big.Int, maxBits int) (*big.Int, error) {
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
			return nil, ErrIntZeroDivision
		}
		q, m := floorDivMod(x, y)
		if r = q; op == "%" {
			r = m
		}
	case "**":
		if y.Sign() < 0 {
			return nil, ErrUnsupported
		}
		small := x.CmpAbs(big.NewInt(1)) <= 0
		if !small && (!y.IsInt64() || y.Int64() > int64(maxBits) || int64(x.BitLen()-1)*y.Int64() > int64(maxBits)) {
			return nil, ErrOverflow
		}
		if small && !y.IsInt64() {
			y = big.NewInt(int64(y.Bit(0)) + 2)
		}
		r.Exp(x, y, nil)
	case "<<":
		if y.Sign() < 0 {
			return nil, ErrNegativeShift
		}
		if !y.IsInt64() || y.Int64() > int64(maxBits)+1 || int64(x.BitLen())+y.Int64() > int64(maxBits)+1 {
			return nil, ErrOverflow
		}
		r.Lsh(x, uint(y.Int64()))
	case ">>":
		if y.Sign() < 0 {
			return nil, ErrNegativeShift
		}
		if !y.IsInt64() || y.Int64() > int64(maxBits) {
			if x.Sign() < 0 {
				r.SetInt64(-1)
			}
			break
		}
		r.Rsh(x, uint(y.Int64()))
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	default:
		return nil, ErrUnsupported
	}
	if r.BitLen() > maxBits {
		return nil, ErrOverflow
	}
	return r, nil
}

// Int64Op is IntOp on int64, the host integers of launch lines: a result
// outside int64 is ErrOverflow.
func Int64Op(op string, x, y int64) (int64, error) {
	switch op {
	case "+", "-", "*":
		if r, ok := checked(op, x, y); ok {
			return r, nil
		}
		return 0, ErrOverflow
	case "//", "%":
		if y == 0 {
			return 0, ErrIntZeroDivision
		}
		if y != -1 { // MinInt64 // -1 overflows: the general path says so
			q := x / y
			if x%y != 0 && (x < 0) != (y < 0) {
				q--
			}
			if op == "//" {
				return q, nil
			}
			return x - q*y, nil
		}
	case "&":
		return x & y, nil
	case "|":
		return x | y, nil
	case "^":
		return x ^ y, nil
	}
	r, err := IntOp(op, big.NewInt(x), big.NewInt(y), 64)
	if err != nil {
		return 0, err
	}
	if !r.IsInt64() {
		return 0, ErrOverflow
	}
	return r.Int64(), nil
}

// Neg64 is -x on int64; -MinInt64 is ErrOverflow.
func Neg64(x int64) (int64, error) {
	if x == math.MinInt64 {
		return 0, ErrOverflow
	}
	return -x, nil
}

// checked computes x op y for + - *, reporting false where the result does
// not fit in int64.
func checked(op string, x, y int64) (int64, bool) {
	switch op {
	case "+":
		r := x + y
		return r, (r > x) == (y > 0)
	case "-":
		r := x - y
		return r, (r < x) == (y > 0)
	}
	if x == 0 || y == 0 {
		return 0, true
	}
	r := x * y
	if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return r, false
	}
	return r, true
}

// FloatOp applies op (+ - * / // % **) to floats as Python does: % takes
// the sign of y and // is (x - x % y) / y rounded down.
func FloatOp(op string, x, y float64) (float64, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		if y == 0 {
			return 0, ErrFloatZeroDivision
		}
		return x / y, nil
	case "//", "%":
		if y == 0 {
			if op == "//" {
				return 0, ErrFloatZeroDivision
			}
			return 0, ErrFloatZeroModulo
		}
		m := math.Mod(x, y)
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		if op == "%" {
			return m, nil
		}
		return math.Floor((x - m) / y), nil
	case "**":
		return math.Pow(x, y), nil
	}
	return 0, ErrUnsupported
}
