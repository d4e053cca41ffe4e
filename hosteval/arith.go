package hosteval

// This file implements arithmetic on values with Python's semantics:
// integer // floors and % takes the sign of the divisor, / of integers
// gives a float, and a tensor combined with a scalar by + - * // (or / for
// float tensors) is computed elementwise, keeping the tensor's dtype.

import (
	"errors"
	"math"
	"math/big"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/pyrules"
	"github.com/tri-lang/tri/tensor"
)

func binaryOp(at frontend.Node, op string, a, b Value) (Value, error) {
	if a.Kind == VTensor || b.Kind == VTensor {
		return tensorScalar(at, op, a, b)
	}
	if a.Kind == VTuple && b.Kind == VTuple && op == "+" {
		if n := len(a.Elems) + len(b.Elems); n > MaxSeqLen {
			return Value{}, seqTooLong(at, big.NewInt(int64(n)))
		}
		return TupleValue(append(append([]Value{}, a.Elems...), b.Elems...)...), nil
	}
	if op == "*" && (a.Kind == VTuple && isInt(b) || isInt(a) && b.Kind == VTuple) {
		return repeatSeq(at, a, b)
	}
	a, b = a.AsInt(), b.AsInt()
	if a.Kind == VInt && b.Kind == VInt {
		return intBinary(at, op, a.Int, b.Int)
	}
	if isWholeInt(a) && isWholeInt(b) && op != "/" {
		return uintBinary(at, op, a, b)
	}
	x, ok1 := Numeric(a)
	y, ok2 := Numeric(b)
	if !ok1 || !ok2 {
		return Value{}, Errf(at, "unsupported operand types for %s: %s and %s", op, a.Describe(), b.Describe())
	}
	return floatBinary(at, op, x, y)
}

// intBinary applies op to host integers with Python's rules (pyrules);
// a result outside int64 is an error placed at at.
func intBinary(at frontend.Node, op string, x, y int64) (Value, error) {
	switch {
	case op == "/":
		r, err := pyrules.FloatOp(op, float64(x), float64(y))
		if err != nil {
			return Value{}, Errf(at, "division by zero")
		}
		return FloatValue(r), nil
	case op == "**" && pyrules.IntPowIsFloat(y):
		return FloatValue(math.Pow(float64(x), float64(y))), nil
	}
	r, err := pyrules.Int64Op(op, x, y)
	switch {
	case errors.Is(err, pyrules.ErrOverflow):
		// Python's ints do not wrap, and tri's host ints are int64 (or
		// uint64 above it, Triton's u64): name the true result where it is
		// small enough to print.
		if exact, err := pyrules.IntOp(op, big.NewInt(x), big.NewInt(y), 128); err == nil && op != "**" {
			return intOf(at, exact)
		}
		return Value{}, Errf(at, "%d %s %d does not fit in 64 bits", x, op, y)
	case errors.Is(err, pyrules.ErrUnsupported):
		return Value{}, Errf(at, "operator %s is not supported on integers", op)
	case err != nil:
		return Value{}, Errf(at, "%v", err)
	}
	return IntValue(r), nil
}

// isWholeInt says whether v is an int of either range (VInt or VUint).
func isWholeInt(v Value) bool { return v.Kind == VInt || v.Kind == VUint }

// bigOf is the Python integer v holds.
func bigOf(v Value) *big.Int {
	if v.Kind == VUint {
		return new(big.Int).SetUint64(uint64(v.Int))
	}
	return big.NewInt(v.Int)
}

// uintBinary applies op to integers one of which is above int64 (a
// VUint) exactly, as Python does; the result is an int64 or a uint64
// again, or an error.
func uintBinary(at frontend.Node, op string, a, b Value) (Value, error) {
	r, err := pyrules.IntOp(op, bigOf(a), bigOf(b), maxIntBits)
	switch {
	case errors.Is(err, pyrules.ErrOverflow):
		return Value{}, Errf(at, "integer %s %s %s is too large to compute (over %d bits)", a, op, b, maxIntBits)
	case errors.Is(err, pyrules.ErrUnsupported):
		return Value{}, Errf(at, "operator %s is not supported on integers", op)
	case err != nil:
		return Value{}, Errf(at, "%v", err)
	}
	return intOf(at, r)
}

func floatBinary(at frontend.Node, op string, x, y float64) (Value, error) {
	r, err := pyrules.FloatOp(op, x, y)
	switch {
	case errors.Is(err, pyrules.ErrUnsupported):
		return Value{}, Errf(at, "operator %s is not supported on floats", op)
	case err != nil:
		return Value{}, Errf(at, "%v", err)
	}
	return FloatValue(r), nil
}

// tensorScalar combines a tensor with a scalar elementwise into a new
// tensor of the same dtype and shape.
func tensorScalar(at frontend.Node, op string, a, b Value) (Value, error) {
	tv, sv, tensorLeft := a, b, true
	if a.Kind != VTensor {
		tv, sv, tensorLeft = b, a, false
	}
	if sv.Kind == VTensor {
		return Value{}, Errf(at, "%s between two tensors is not supported; combine a tensor with a number", op)
	}
	if tv.Ptrs != nil {
		return Value{}, Errf(at, "arithmetic on a pointer table is not supported")
	}
	switch op {
	case "+", "-", "*", "//":
	case "/":
		if !tv.Tensor.Kind.IsFloat() {
			return Value{}, Errf(at, "/ on an integer tensor would change its dtype; use //")
		}
	default:
		return Value{}, Errf(at, "a tensor may be combined with a number by + - * // only, not %s", op)
	}
	sv = sv.AsInt()
	s, ok := Numeric(sv)
	if !ok {
		return Value{}, Errf(at, "unsupported operand types for %s: a tensor and %s", op, sv.Describe())
	}
	src := tv.Tensor
	apply := func(out *tensor.Tensor) error {
		return scalarOp(at, op, src, sv, s, tensorLeft, out)
	}
	if src.IsDeferred() && src.Kind.IsFloat() {
		// Float arithmetic cannot fail, so the result can wait for its
		// source's elements as the source does.
		out, err := tensor.Deferred(src.Kind, src.Shape, func(out *tensor.Tensor) { _ = apply(out) })
		if err != nil {
			return Value{}, Errf(at, "%v", err)
		}
		return TensorValue(out), nil
	}
	out := tensor.New(src.Kind, src.Shape...)
	if err := apply(out); err != nil {
		return Value{}, err
	}
	return TensorValue(out), nil
}

// scalarOp sets out's elements to src's combined with the scalar sv (s as
// a float) by op; tensorLeft says which side src is on.
func scalarOp(at frontend.Node, op string, src *tensor.Tensor, sv Value, s float64, tensorLeft bool, out *tensor.Tensor) error {
	intMath := !src.Kind.IsFloat() && sv.Kind == VInt
	for i := range src.NumElements() {
		if intMath {
			x, y := src.Int(i), sv.Int
			if !tensorLeft {
				x, y = y, x
			}
			r, err := intBinary(at, op, x, y)
			if err != nil {
				return err
			}
			out.SetInt(i, r.Int)
			continue
		}
		x, y := src.Float(i), s
		if !tensorLeft {
			x, y = y, x
		}
		if y == 0 && (op == "/" || op == "//") && !src.Kind.IsFloat() {
			return Errf(at, "integer division by zero")
		}
		var r float64
		switch op {
		case "+":
			r = x + y
		case "-":
			r = x - y
		case "*":
			r = x * y
		case "/":
			r = x / y
		case "//":
			r = math.Floor(x / y)
		}
		out.SetFloat(i, r)
	}
	return nil
}

func unary(x *frontend.Unary, a Value) (Value, error) {
	if x.Op == "not" {
		return BoolValue(!truth(a)), nil
	}
	if a.Kind == VTensor {
		switch x.Op {
		case "+":
			return a, nil
		case "-":
			return tensorScalar(x, "*", a, IntValue(-1))
		}
		return Value{}, Errf(x, "unary %s on a tensor is not supported", x.Op)
	}
	a = a.AsInt()
	switch {
	case a.Kind == VInt && x.Op == "-":
		r, err := pyrules.Neg64(a.Int)
		if err != nil {
			return Value{}, Errf(x, "integer %s does not fit in 64 bits", new(big.Int).Neg(big.NewInt(a.Int)))
		}
		return IntValue(r), nil
	case a.Kind == VInt && x.Op == "+":
		return a, nil
	case a.Kind == VInt && x.Op == "~":
		return IntValue(^a.Int), nil
	case a.Kind == VFloat && x.Op == "-":
		return FloatValue(-a.Float), nil
	case a.Kind == VFloat && x.Op == "+":
		return a, nil
	}
	return Value{}, Errf(x, "bad operand type for unary %s: %s", x.Op, a.Describe())
}

// MaxSeqLen bounds the elements of a list or tuple a launch line or --let
// builds ([0] * n): a list that long is data for a tensor, which full()
// and the other constructors make without a Value per element.
const MaxSeqLen = 1 << 20

func isInt(v Value) bool { return v.Kind == VInt || v.Kind == VBool }

// repeatSeq is Python's seq * n (or n * seq): n copies of seq's elements,
// none for n <= 0.
func repeatSeq(at frontend.Node, a, b Value) (Value, error) {
	seq, n := a, b.AsInt().Int
	if b.Kind == VTuple {
		seq, n = b, a.AsInt().Int
	}
	if n <= 0 || len(seq.Elems) == 0 {
		return Value{Kind: VTuple, Elems: []Value{}}, nil
	}
	if n > MaxSeqLen/int64(len(seq.Elems)) {
		return Value{}, seqTooLong(at, new(big.Int).Mul(big.NewInt(int64(len(seq.Elems))), big.NewInt(n)))
	}
	out := make([]Value, 0, int64(len(seq.Elems))*n)
	for range n {
		out = append(out, seq.Elems...)
	}
	return TupleValue(out...), nil
}

func seqTooLong(at frontend.Node, n *big.Int) error {
	return Errf(at, "a list or tuple of %s elements is too long (at most %d); full(shape, value) makes a large tensor", n, MaxSeqLen)
}
