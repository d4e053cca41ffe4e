package sema

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// ArgKind says how one source parameter of a kernel is specialized.
type ArgKind int

// Kinds of specialized argument.
const (
	// ArgRuntime is passed to the compiled kernel at launch (pointers,
	// integers other than 1, floats).
	ArgRuntime ArgKind = iota
	// ArgConstexpr is a compile-time value folded into the kernel: a
	// tl.constexpr parameter, or a literal in a --signature.
	ArgConstexpr
	// ArgOne is an integer parameter whose value is 1 (Triton's ":1"
	// specialization); it is folded to the constant 1.
	ArgOne
	// ArgNone is None passed for a parameter; `p is None` folds to true.
	ArgNone
	// ArgDesc is a tensor descriptor made on the host: DType is the base
	// pointer's type, Block the block shape and Padding "zero" or "nan",
	// all part of the specialization; the base, shape and strides are
	// passed at launch (tensordesc.go).
	ArgDesc
	// ArgTuple is a tuple passed from the host: Elems specializes each
	// element as a parameter of its own (a runtime pointer or number, a
	// constexpr, None, a nested tuple), as Triton's launcher does.
	ArgTuple
)

// Arg is the specialization of one source parameter.
type Arg struct {
	Kind ArgKind
	// DType is the runtime type for ArgRuntime: a pointer (*fp32), i32,
	// i64, fp32, ...
	DType ir.DType
	// DivisibleBy16: for pointers, 16-byte aligned; for integers, a
	// multiple of 16.
	DivisibleBy16 bool
	// Value is the constexpr value for ArgConstexpr.
	Value Constexpr
	// At is where the launch line (or the --signature) gives a constexpr
	// its value; the zero Pos if unknown (an autotune config, a default, a
	// heuristic). An error in the kernel that this value causes, such as
	// BLOCK_SIZE=1000 reaching tl.arange, is placed here, with a note at
	// the kernel's line: the launch is what its writer has to change.
	At diag.Pos
	// Block and Padding describe an ArgDesc; ShapeDiv16 says which of its
	// shape's dimensions are multiples of 16 (as integers are specialized).
	Block      []int
	Padding    string
	ShapeDiv16 []bool
	// Elems are the elements of an ArgTuple.
	Elems []Arg
}

// Constexpr is a compile-time value given from outside the kernel: an int,
// a float, a bool, a string, a dtype (tl.float16), None, or a tuple of
// these (a tl.constexpr parameter given (2, 4)).
type Constexpr struct {
	Kind  ConstexprKind
	Int   int64
	Float float64
	Bool  bool
	Str   string
	DType ir.DType
	Elems []Constexpr // a CTuple's elements
}

// ConstexprKind says which field of a Constexpr holds its value.
type ConstexprKind int

// Kinds of constexpr value.
const (
	CInt ConstexprKind = iota
	CFloat
	CBool
	CStr
	CDType
	CNone
	CTuple
)

// Signature is the specialization of a whole kernel: one Arg per source
// parameter in source order, and the launch options.
type Signature struct {
	Args      []Arg
	NumWarps  int // 0 means the default, 4
	NumStages int // 0 means the default, 3
	// Debug compiles device assertions into the GPU code (Triton's
	// debug=True); the kernel's @triton.jit(debug=True) also sets it.
	Debug bool
	// MaxNReg is Triton's maxnreg option (a config's or the launch's): the
	// most registers a thread may use, given to NVRTC as --maxrregcount;
	// 0 for no cap.
	MaxNReg int
}
