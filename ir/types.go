package ir

import (
	"fmt"
	"strings"
)

// Kind is the kind of a scalar element type.
type Kind uint8

// Element kinds. Bool is Triton's int1.
const (
	Invalid Kind = iota
	Void         // the type of values that produce nothing (stores, barriers)
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	BFloat16
	Float32
	Float64
	// The 8-bit float storage kinds (see fp8.go): loaded, stored, converted
	// to and from the wider floats, bitcast and fed to tl.dot, never
	// computed on directly.
	Float8E4NV  // e4m3fn: bias 7, no infinities, NaN S.1111.111
	Float8E5    // e5m2: bias 15, IEEE-like with infinities
	Float8E4B15 // Triton's e4m3 with bias 15
	Float8E4B8  // e4m3fnuz: bias 8, one NaN (0x80), no -0
	Float8E5B16 // e5m2fnuz: bias 16, one NaN (0x80), no -0
	Ptr         // a global-memory pointer; DType.Elem is the pointee
)

var kindNames = [...]string{
	Invalid: "invalid", Void: "void", Bool: "i1",
	Int8: "i8", Int16: "i16", Int32: "i32", Int64: "i64",
	Uint8: "u8", Uint16: "u16", Uint32: "u32", Uint64: "u64",
	Float16: "fp16", BFloat16: "bf16", Float32: "fp32", Float64: "fp64",
	Float8E4NV: "fp8e4nv", Float8E5: "fp8e5", Float8E4B15: "fp8e4b15",
	Float8E4B8: "fp8e4b8", Float8E5B16: "fp8e5b16",
	Ptr: "ptr",
}

// String is Triton's short name: i32, fp16, bf16, i1, ...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// IsInt reports whether k is an integer kind (Bool included).
func (k Kind) IsInt() bool { return k >= Bool && k <= Uint64 }

// IsSigned reports whether k is a signed integer kind. Bool is unsigned.
func (k Kind) IsSigned() bool { return k >= Int8 && k <= Int64 }

// IsUnsigned reports whether k is Bool or an unsigned integer kind.
func (k Kind) IsUnsigned() bool { return k == Bool || (k >= Uint8 && k <= Uint64) }

// IsFloat reports whether k is a floating-point kind (the fp8 kinds
// included, as Triton's is_floating does).
func (k Kind) IsFloat() bool { return k >= Float16 && k <= Float8E5B16 }

// IsFP8 reports whether k is one of the 8-bit float kinds.
func (k Kind) IsFP8() bool { return k >= Float8E4NV && k <= Float8E5B16 }

// Bits is the width of k in bits (1 for Bool, 64 for Ptr).
func (k Kind) Bits() int {
	switch k {
	case Bool:
		return 1
	case Int8, Uint8, Float8E4NV, Float8E5, Float8E4B15, Float8E4B8, Float8E5B16:
		return 8
	case Int16, Uint16, Float16, BFloat16:
		return 16
	case Int32, Uint32, Float32:
		return 32
	case Int64, Uint64, Float64, Ptr:
		return 64
	}
	return 0
}

// Bytes is the storage size of one element of k in memory (Bool is stored
// as one byte, as Triton does for int1 tensors).
func (k Kind) Bytes() int {
	if k == Bool {
		return 1
	}
	return k.Bits() / 8
}

// DType is an element type: a scalar kind, or a pointer to one.
type DType struct {
	Kind Kind
	Elem Kind // for Ptr: the pointee's kind; Invalid otherwise
}

// Common dtypes.
var (
	TVoid    = DType{Kind: Void}
	TBool    = DType{Kind: Bool}
	TInt8    = DType{Kind: Int8}
	TInt16   = DType{Kind: Int16}
	TInt32   = DType{Kind: Int32}
	TInt64   = DType{Kind: Int64}
	TUint8   = DType{Kind: Uint8}
	TUint16  = DType{Kind: Uint16}
	TUint32  = DType{Kind: Uint32}
	TUint64  = DType{Kind: Uint64}
	TFloat16 = DType{Kind: Float16}
	TBF16    = DType{Kind: BFloat16}
	TFloat32 = DType{Kind: Float32}
	TFloat64 = DType{Kind: Float64}
)

// Scalar returns the DType of kind k.
func Scalar(k Kind) DType { return DType{Kind: k} }

// PtrTo returns the pointer DType to elements of kind k.
func PtrTo(k Kind) DType { return DType{Kind: Ptr, Elem: k} }

// IsPtr reports whether d is a pointer.
func (d DType) IsPtr() bool { return d.Kind == Ptr }

// String is Triton's name: fp32, i1, *fp16.
func (d DType) String() string {
	if d.Kind == Ptr {
		return "*" + d.Elem.String()
	}
	return d.Kind.String()
}

// ParseDType reads a dtype name as Triton writes it in signatures and as
// users write it in Python: "fp32", "float32", "i32", "int32", "u8",
// "uint8", "i1", "bool", "int1", "fp16", "float16", "half", "bf16",
// "bfloat16", "fp64", "float64", "double", "float", or "*fp32" for a
// pointer. A "tl." or "triton.language." prefix is accepted.
func ParseDType(s string) (DType, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "triton.language.")
	s = strings.TrimPrefix(s, "tl.")
	if strings.HasPrefix(s, "*") {
		e, ok := ParseDType(s[1:])
		if !ok || e.Kind == Ptr {
			return DType{}, false
		}
		return PtrTo(e.Kind), true
	}
	k, ok := dtypeNames[s]
	return Scalar(k), ok
}

var dtypeNames = map[string]Kind{
	"i1": Bool, "int1": Bool, "bool": Bool,
	"i8": Int8, "int8": Int8, "i16": Int16, "int16": Int16,
	"i32": Int32, "int32": Int32, "i64": Int64, "int64": Int64,
	"u1": Bool, "u8": Uint8, "uint8": Uint8, "u16": Uint16, "uint16": Uint16,
	"u32": Uint32, "uint32": Uint32, "u64": Uint64, "uint64": Uint64,
	"fp16": Float16, "float16": Float16, "half": Float16,
	"bf16": BFloat16, "bfloat16": BFloat16,
	"fp32": Float32, "float32": Float32, "float": Float32,
	"fp64": Float64, "float64": Float64, "double": Float64,
	// Triton's names, then torch's for the same formats.
	"fp8e4nv": Float8E4NV, "float8e4nv": Float8E4NV, "float8_e4m3fn": Float8E4NV,
	"fp8e5": Float8E5, "float8e5": Float8E5, "float8_e5m2": Float8E5,
	"fp8e4b15": Float8E4B15, "float8e4b15": Float8E4B15,
	"fp8e4b8": Float8E4B8, "float8e4b8": Float8E4B8, "float8_e4m3fnuz": Float8E4B8,
	"fp8e5b16": Float8E5B16, "float8e5b16": Float8E5B16, "float8_e5m2fnuz": Float8E5B16,
}

// PyName is the name Triton's Python API uses for d's kind ("float32",
// "int1", "bfloat16"), as in tl.float32.
func (d DType) PyName() string {
	switch d.Kind {
	case Bool:
		return "int1"
	case Int8, Int16, Int32, Int64:
		return fmt.Sprintf("int%d", d.Kind.Bits())
	case Uint8, Uint16, Uint32, Uint64:
		return fmt.Sprintf("uint%d", d.Kind.Bits())
	case Float16:
		return "float16"
	case BFloat16:
		return "bfloat16"
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Float8E4NV, Float8E5, Float8E4B15, Float8E4B8, Float8E5B16:
		return "float8" + strings.TrimPrefix(d.Kind.String(), "fp8")
	case Ptr:
		return "pointer<" + Scalar(d.Elem).PyName() + ">"
	}
	return d.Kind.String()
}

// Shape is the shape of a tile; nil (rank 0) is a scalar.
type Shape []int

// Rank is the number of dimensions.
func (s Shape) Rank() int { return len(s) }

// NumElements is the product of the dimensions (1 for a scalar).
func (s Shape) NumElements() int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Equal reports whether s and t are the same shape.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// String prints [a, b] or "scalar".
func (s Shape) String() string {
	if s == nil {
		return "scalar"
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Type is the type of a Value: an element dtype and a shape.
type Type struct {
	DType
	Shape Shape
}

// ScalarType returns the scalar Type of d.
func ScalarType(d DType) Type { return Type{DType: d} }

// TileType returns the tile Type of d with the given shape.
func TileType(d DType, shape ...int) Type { return Type{DType: d, Shape: Shape(shape)} }

// IsScalar reports whether t has rank 0.
func (t Type) IsScalar() bool { return len(t.Shape) == 0 }

// Equal reports whether t and u have the same dtype and shape.
func (t Type) Equal(u Type) bool { return t.DType == u.DType && t.Shape.Equal(u.Shape) }

// String prints "fp32" for a scalar and "fp32[1024]" for a tile.
func (t Type) String() string {
	if t.IsScalar() {
		return t.DType.String()
	}
	return t.DType.String() + strings.ReplaceAll(t.Shape.String(), " ", "")
}
