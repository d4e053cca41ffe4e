package hosteval

// This file defines the values that --let bindings and launch arguments
// evaluate to.

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// ValueKind says which field of a Value holds it.
type ValueKind int

// Kinds of value.
const (
	VNone   ValueKind = iota // None
	VInt                     // Int
	VFloat                   // Float
	VBool                    // Bool
	VStr                     // Str
	VDType                   // DType: tl.float16, torch.int32, ...
	VTensor                  // Tensor (and Ptrs for a pointer table)
	VTuple                   // Elems: a tuple or a list
	VLambda                  // Lambda: a grid function
	VDict                    // Dict: the meta dict inside a grid lambda
	VDesc                    // Desc: a host tensor descriptor (descriptor.go)
	// VUint is an integer from 2**63 to 2**64-1, its bits in Int: Triton
	// passes such an argument as uint64 (specialize.cc), so it only
	// reaches a parameter; arithmetic on it is refused.
	VUint
)

var valueKindNames = [...]string{
	VNone: "None", VInt: "int", VFloat: "float", VBool: "bool", VStr: "str",
	VDType: "dtype", VTensor: "tensor", VTuple: "tuple", VLambda: "lambda", VDict: "dict",
	VDesc: "TensorDescriptor", VUint: "int",
}

// String is the kind's Python-ish name, for error messages.
func (k ValueKind) String() string {
	if int(k) < len(valueKindNames) {
		return valueKindNames[k]
	}
	return fmt.Sprintf("ValueKind(%d)", k)
}

// Value is a bound value: an int, a float, a bool, a string, None, a dtype,
// a host tensor, a tuple, a grid lambda, or (inside a grid lambda) the meta
// dict.
type Value struct {
	Kind   ValueKind
	Int    int64
	Float  float64
	Bool   bool
	Str    string
	DType  ir.DType
	Tensor *tensor.Tensor
	// Ptrs, for a tensor made by ptrs(a, b, ...), names the bound tensors
	// whose device addresses the int64 elements must hold. The host tensor
	// holds zeros; whoever places the tensors in memory fills it.
	Ptrs   []string
	Elems  []Value
	Lambda *Lambda
	Dict   map[string]Value
	Desc   *Descriptor
	// Constexpr marks a value wrapped in tl.constexpr(...), which Triton's
	// launcher passes as a compile-time value to any parameter, also as an
	// element of a tuple.
	Constexpr bool
}

// Lambda is a grid function: lambda meta: (...). Its body is evaluated in
// the Env it was bound in, with its parameters bound to the call's
// arguments.
type Lambda struct {
	Params []string
	Body   frontend.Expr
}

// IntValue returns an int Value.
func IntValue(i int64) Value { return Value{Kind: VInt, Int: i} }

// intOf is the Value of a Python integer: an int where it fits in int64,
// a VUint where it fits in uint64 (Triton's u64 arguments), else an error
// placed at at.
func intOf(at frontend.Node, n *big.Int) (Value, error) {
	switch {
	case n.IsInt64():
		return IntValue(n.Int64()), nil
	case n.IsUint64():
		return Value{Kind: VUint, Int: int64(n.Uint64())}, nil
	}
	return Value{}, Errf(at, "integer %s does not fit in 64 bits", shortInt(n))
}

// FloatValue returns a float Value.
func FloatValue(f float64) Value { return Value{Kind: VFloat, Float: f} }

// BoolValue returns a bool Value.
func BoolValue(b bool) Value { return Value{Kind: VBool, Bool: b} }

// StrValue returns a str Value.
func StrValue(s string) Value { return Value{Kind: VStr, Str: s} }

// DTypeValue returns a dtype Value.
func DTypeValue(d ir.DType) Value { return Value{Kind: VDType, DType: d} }

// TensorValue returns a tensor Value.
func TensorValue(t *tensor.Tensor) Value { return Value{Kind: VTensor, Tensor: t} }

// TupleValue returns a tuple Value.
func TupleValue(elems ...Value) Value { return Value{Kind: VTuple, Elems: elems} }

// None is the None Value.
var None = Value{Kind: VNone}

// String formats v as Python would print it (tensors as dtype and shape).
func (v Value) String() string {
	switch v.Kind {
	case VNone:
		return "None"
	case VInt:
		return strconv.FormatInt(v.Int, 10)
	case VUint:
		return strconv.FormatUint(uint64(v.Int), 10)
	case VFloat:
		s := strconv.FormatFloat(v.Float, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		return s
	case VBool:
		if v.Bool {
			return "True"
		}
		return "False"
	case VStr:
		return strconv.Quote(v.Str)
	case VDType:
		return "tl." + v.DType.PyName()
	case VTensor:
		if v.Ptrs != nil {
			return "ptrs(" + strings.Join(v.Ptrs, ", ") + ")"
		}
		return "tensor " + v.Tensor.String()
	case VTuple:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = e.String()
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case VLambda:
		return "lambda " + strings.Join(v.Lambda.Params, ", ") + ": ..."
	case VDict:
		return "meta dict"
	case VDesc:
		return v.Desc.String()
	}
	return v.Kind.String()
}

// Describe names v's kind for messages: "an int", "a tensor".
func (v Value) Describe() string {
	switch v.Kind {
	case VNone:
		return "None"
	case VInt, VUint:
		return "an int"
	}
	return "a " + v.Kind.String()
}
