package hosteval

// This file implements integer arithmetic as Python computes it: an
// integer expression of a launch line or --let is computed exactly, in big
// integers, and only its final value must fit tri's 64-bit host integers.
// So -(2**63) and 2**63-1 are values, though 2**63 alone is not.

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/pyrules"
)

// maxIntBits bounds the intermediate integers of an expression: far more
// than any value that ends in 64 bits needs, and small enough that
// 2**10**9 is refused rather than computed.
const maxIntBits = 4096

// exactInt computes x exactly when it is integer arithmetic (+ - * // % **
// << >> & | ^, unary - + ~) over integer and bool constants and names bound
// to them. ok is false, and nothing is evaluated, where x is anything else
// (a float, a call, a true division, a negative power): the ordinary
// evaluation then takes it.
func (e *Env) exactInt(x frontend.Expr, sc scope, depth int) (r *big.Int, ok bool, err error) {
	if depth > maxDepth {
		return nil, false, nil
	}
	switch x := x.(type) {
	case *frontend.Const:
		switch x.Kind {
		case frontend.ConstInt:
			return x.Int, true, nil
		case frontend.ConstBool:
			return boolInt(x.Bool), true, nil
		}
	case *frontend.Name:
		v, found := sc[x.ID]
		if !found {
			v, found = e.vals[x.ID]
		}
		switch {
		case found && v.Kind == VInt:
			return big.NewInt(v.Int), true, nil
		case found && v.Kind == VBool:
			return boolInt(v.Bool), true, nil
		}
	case *frontend.Unary:
		a, ok, err := e.exactInt(x.X, sc, depth+1)
		if !ok || err != nil {
			return nil, ok, err
		}
		switch x.Op {
		case "-":
			return new(big.Int).Neg(a), true, nil
		case "+":
			return a, true, nil
		case "~":
			return new(big.Int).Not(a), true, nil
		}
	case *frontend.Binary:
		if x.Op == "/" || x.Op == "@" {
			return nil, false, nil
		}
		a, ok, err := e.exactInt(x.X, sc, depth+1)
		if !ok || err != nil {
			return nil, ok, err
		}
		b, ok, err := e.exactInt(x.Y, sc, depth+1)
		if !ok || err != nil {
			return nil, ok, err
		}
		if x.Op == "**" && b.Sign() < 0 { // a float in Python
			return nil, false, nil
		}
		r, err := pyrules.IntOp(x.Op, a, b, maxIntBits)
		switch {
		case errors.Is(err, pyrules.ErrOverflow):
			return nil, true, Errf(x, "integer %s %s %s is too large to compute (over %d bits)", shortInt(a), x.Op, shortInt(b), maxIntBits)
		case errors.Is(err, pyrules.ErrUnsupported):
			return nil, false, nil
		case err != nil:
			return nil, true, Errf(x, "%v", err)
		}
		return r, true, nil
	}
	return nil, false, nil
}

// exactIntValue is the value of the integer expression x (ok false where x
// is not one, see exactInt): an error placed at x if it fits in neither
// int64 nor uint64 (intOf).
func (e *Env) exactIntValue(x frontend.Expr, sc scope, depth int) (Value, bool, error) {
	r, ok, err := e.exactInt(x, sc, depth)
	if !ok || err != nil {
		return Value{}, ok, err
	}
	v, err := intOf(x, r)
	return v, true, err
}

func boolInt(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

// shortInt prints r in full unless it is too long to read.
func shortInt(r *big.Int) string {
	if r.BitLen() <= 128 {
		return r.String()
	}
	return fmt.Sprintf("of %d bits", r.BitLen())
}
