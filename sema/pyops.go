package sema

// This file implements arithmetic on constexprs with Python's semantics.

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/tri-lang/tri/pyrules"
)

// maxConstBits bounds the size of constexpr ints so that 2**10**9 cannot
// exhaust memory.
const maxConstBits = 4096

// tupleBinary is Python's tuple concatenation (a + b) and repetition
// (t * n, n * t), whatever the elements (Triton's tl.tuple has both), or
// nil if op and the operands are not these.
func tupleBinary(op string, a, b *val) *val {
	switch {
	case op == "+" && a.k == kTuple && b.k == kTuple:
		return &val{k: kTuple, elts: append(append([]*val{}, a.elts...), b.elts...)}
	case op == "*" && a.k == kTuple && (b.k == kInt || b.k == kBool):
		return repeatTuple(a, b)
	case op == "*" && b.k == kTuple && (a.k == kInt || a.k == kBool):
		return repeatTuple(b, a)
	}
	return nil
}

// repeatTuple is t * n: no elements for n <= 0, as in Python. n is bounded
// by what a kernel can hold, so that (0,) * 10**9 fails instead of
// exhausting memory.
func repeatTuple(t, n *val) *val {
	k, _ := n.asInt()
	out := &val{k: kTuple, elts: []*val{}}
	if k.Sign() <= 0 || len(t.elts) == 0 {
		return out
	}
	if !k.IsInt64() || k.Int64()*int64(len(t.elts)) > maxTupleLen {
		return nil
	}
	for range k.Int64() {
		out.elts = append(out.elts, t.elts...)
	}
	return out
}

// maxTupleLen bounds the tuples t * n builds.
const maxTupleLen = 1 << 16

// pyBinary applies a Python binary operator to two constexpr numbers.
func pyBinary(op string, a, b *val) (*val, error) {
	if a.k == kStr && b.k == kStr && op == "+" {
		return strVal(a.s + b.s), nil
	}
	if !a.isNum() || !b.isNum() {
		return nil, fmt.Errorf("unsupported operand types for %s: %s and %s", op, a.describe(), b.describe())
	}
	if pyrules.IsFloatResult(op, a.k == kFloat, b.k == kFloat) {
		return pyFloatOp(op, a.asFloat(), b.asFloat())
	}
	x, _ := a.asInt()
	y, _ := b.asInt()
	if op == "**" && y.Sign() < 0 {
		return pyFloatOp(op, a.asFloat(), b.asFloat())
	}
	r, err := pyrules.IntOp(op, x, y, maxConstBits)
	switch {
	case errors.Is(err, pyrules.ErrOverflow) && (op == "**" || op == "<<"):
		return nil, fmt.Errorf("constant %s %s %s is too large", x, op, y)
	case errors.Is(err, pyrules.ErrOverflow):
		return nil, fmt.Errorf("constant result of %s is too large", op)
	case errors.Is(err, pyrules.ErrUnsupported):
		return nil, fmt.Errorf("unsupported operator %s on constants", op)
	case err != nil:
		return nil, err
	}
	if a.k == kBool && b.k == kBool && (op == "&" || op == "|" || op == "^") {
		return boolVal(r.Sign() != 0), nil
	}
	return bigVal(r), nil
}

func pyFloatOp(op string, x, y float64) (*val, error) {
	r, err := pyrules.FloatOp(op, x, y)
	if errors.Is(err, pyrules.ErrUnsupported) {
		return nil, fmt.Errorf("unsupported operand types for %s: float", op)
	}
	if err != nil {
		return nil, err
	}
	return floatVal(r), nil
}

// pyCompare compares two constexprs with a Python operator.
func pyCompare(op string, a, b *val) (bool, error) {
	switch op {
	case "is", "is not":
		same := a.k == b.k && (a.k == kNone || a.k == kBool && a.b == b.b)
		if a.k == kDType && b.k == kDType {
			same = a.dt == b.dt && a.block.Equal(b.block) && (a.block == nil) == (b.block == nil)
		}
		return same == (op == "is"), nil
	case "in", "not in":
		if b.k != kTuple {
			return false, fmt.Errorf("'in' needs a tuple on the right, got %s", b.describe())
		}
		found := false
		for _, e := range b.elts {
			if eq, err := pyCompare("==", a, e); err == nil && eq {
				found = true
			}
		}
		return found == (op == "in"), nil
	}
	if a.isNum() && b.isNum() {
		c := 0
		if a.k == kFloat || b.k == kFloat {
			x, y := a.asFloat(), b.asFloat()
			if math.IsNaN(x) || math.IsNaN(y) {
				return op == "!=", nil
			}
			switch {
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
		} else {
			x, _ := a.asInt()
			y, _ := b.asInt()
			c = x.Cmp(y)
		}
		return cmpResult(op, c), nil
	}
	if a.k == kStr && b.k == kStr {
		c := 0
		switch {
		case a.s < b.s:
			c = -1
		case a.s > b.s:
			c = 1
		}
		return cmpResult(op, c), nil
	}
	if op == "==" || op == "!=" {
		eq := false
		switch {
		case a.k == kDType && b.k == kDType:
			eq = a.dt == b.dt && a.block.Equal(b.block) && (a.block == nil) == (b.block == nil)
		case a.k == kNone && b.k == kNone:
			eq = true
		case a.k == kTuple && b.k == kTuple && len(a.elts) == len(b.elts):
			eq = true
			for i := range a.elts {
				if e, err := pyCompare("==", a.elts[i], b.elts[i]); err != nil || !e {
					eq = false
				}
			}
		}
		return eq == (op == "=="), nil
	}
	return false, fmt.Errorf("cannot compare %s and %s with %s", a.describe(), b.describe(), op)
}

func cmpResult(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	case "==":
		return c == 0
	}
	return c != 0
}

// pyUnary applies -, +, ~ or not to a constexpr.
func pyUnary(op string, a *val) (*val, error) {
	if op == "not" {
		return boolVal(!a.truth()), nil
	}
	if !a.isNum() {
		return nil, fmt.Errorf("bad operand for unary %s: %s", op, a.describe())
	}
	if a.k == kFloat {
		switch op {
		case "-":
			return floatVal(-a.f), nil
		case "+":
			return a, nil
		}
		return nil, fmt.Errorf("bad operand for unary ~: float")
	}
	x, _ := a.asInt()
	switch op {
	case "-":
		return bigVal(new(big.Int).Neg(x)), nil
	case "+":
		return bigVal(x), nil
	}
	return bigVal(new(big.Int).Not(x)), nil
}
