package ir

// This file implements Op, what a Value computes, and opTable, the one
// description of every op that the verifier, sema's math builtins, the
// interpreter's dispatch and cudagen's lowering checks consult. A test in
// each of interp and cudagen ranges over every op, so an op added here and
// forgotten there fails a test rather than a kernel.

// Op is what a Value computes. The comment of each op gives its operands
// (Args) and attributes; "same" means the result has the operands' type.
type Op uint16

// Ops. Elementwise ops work on scalars and tiles alike; sema guarantees that
// their operands have equal types unless stated otherwise.
const (
	OpInvalid Op = iota

	// Leaves.
	OpConst       // scalar constant; Const holds it; Type is its dtype
	OpParam       // a runtime kernel parameter; Param points to it
	OpProgramID   // tl.program_id(Axis): i32 scalar
	OpNumPrograms // tl.num_programs(Axis): i32 scalar
	OpArange      // tl.arange(Const.Int, Const.Int+Shape[0]): i32 [N]
	OpVarRead     // the current value of Var
	OpRegionArg   // an argument of a Region (Axis: its index)

	// Shape ops.
	OpSplat     // Args[0] scalar -> tile of Type.Shape
	OpBroadcast // Args[0] tile -> Type.Shape (dims of size 1 stretched)
	OpExpandDims
	OpReshape

	// Integer and float arithmetic; operands and result of the same type.
	OpAdd
	OpSub
	OpMul
	OpDiv // floats: true division; ints: truncating toward zero (C)
	OpRem // floats: fmod; ints: C remainder (sign of the dividend)
	OpNeg
	OpMax // tl.maximum; Flags&FlagPropagateNaN picks NaN-propagating semantics for floats
	OpMin // tl.minimum; likewise
	OpFma // Args[0]*Args[1]+Args[2], fused, floats only

	// Bitwise ops on integers and Bool.
	OpAnd
	OpOr
	OpXor
	OpNot // bitwise not (~); on Bool it is logical not
	OpShl
	OpShr // arithmetic for signed kinds, logical for unsigned

	// Comparisons: operands of equal type, result Bool with their shape.
	// Floats compare ordered except OpNe, which is true for NaN (Python).
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe

	// Math on floats (fp32 and fp64 after sema's casts), same type.
	OpExp
	OpExp2
	OpLog
	OpLog2
	OpSqrt // approximate square root for fp32 (Triton's tl.sqrt)
	OpRsqrt
	OpAbs // also on integers
	OpSin
	OpCos
	OpFloor
	OpCeil
	OpErf // the error function (tl.erf)

	// Conversions.
	OpCast    // Args[0] to Type.DType: int<->int (wrap/extend), float->int (toward zero), int->float, float->float (round to nearest even, or toward zero with FlagRoundTZ), int64<->Ptr
	OpBitcast // reinterpret the bits of Args[0] as Type.DType (same width)

	// Selection.
	OpWhere // Args[0] Bool cond, Args[1], Args[2]: same type as Args[1]

	// Pointers.
	OpPtrAdd // Args[0] pointer (scalar or tile) + Args[1] integer offset counted in elements; same type as Args[0]

	// Memory. Args that are optional are nil when absent.
	OpLoad  // Args: [ptr, mask|nil, other|nil]; Type: pointee dtype with ptr's shape
	OpStore // Args: [ptr, value, mask|nil]; Void

	// Hints: identity on Args[0], with Hints giving a value per dimension.
	OpMultipleOf
	OpMaxContiguous
	OpAssume  // Args[0] Bool scalar assumed true; Void
	OpBarrier // tl.debug_barrier(): __syncthreads; Void
	// Programmatic dependent launch (tl.extra.cuda.gdc_wait and
	// gdc_launch_dependents): griddepcontrol on sm_90+; Void.
	OpGdcWait
	OpGdcLaunchDependents

	// Tiles of rank 2 and more (see also OpBroadcast, OpExpandDims,
	// OpReshape above).
	OpTrans // permute the dimensions of Args[0]: result dim i is input dim Perm[i]
	OpJoin  // Args[0], Args[1] of equal type -> their shape + [2] (tl.join)
	OpSplit // Args[0] with last dim 2 -> two results (Types), read with OpTupleGet (tl.split)

	// Reductions and scans along Axis (sema turns axis=None into a reshape
	// to 1-D and keep_dims into OpExpandDims). Combine says how elements
	// combine; CombineCustom runs Region.
	OpReduce // Args: the operands (one, or several for a tuple reduce); result(s) lose dim Axis; CombineArgMax/ArgMin give the i32 index
	OpScan   // Args: the operands; results keep the shape; FlagReverse scans from the end
	// OpTupleGet picks result Axis of a multi-result value (Types set):
	// OpReduce or OpScan with several operands, OpSplit.
	OpTupleGet

	// Atomics. Args: [ptr, value, mask|nil]; the result is the old values
	// (pointee dtype, ptr's shape). Atomic says which operation; Sem and
	// Scope the memory semantics.
	OpAtomicRMW
	OpAtomicCAS // Args: [ptr, cmp, value]; result: the old values

	// OpDot is tl.dot: Args [a, b, acc], a of shape [(B,) M, K], b of
	// [(B,) K, N], acc and the result of [(B,) M, N]. a and b share their
	// dtype (fp16, bf16, fp32, fp64, int8, uint8); the result's dtype is
	// acc's (fp32, fp16 for fp16 operands, fp64, int32). Precision says how
	// fp32 operands are multiplied.
	OpDot

	// Random numbers: tl.umulhi, and the Philox rounds sema expands tl.rand into.
	OpUmulhi // the high half of the double-width unsigned product of Args[0] and Args[1] (integers of one type)
	// OpLibdevice calls a function of libdevice (tl.extra.cuda.libdevice):
	// Extern is the symbol of the overload (libdevice.go's table), which
	// gives the operands' kinds (1 to 4, of one shape) and the result's.
	OpLibdevice

	// Printing and assertions (debug.go). OpPrint is tl.device_print and
	// print: Args are the printed values (scalars or tiles; none for a bare
	// message), Msg.Text the prefix as Triton rewrites it, Msg.Hex the hex
	// form; Void. OpAssert is tl.device_assert and assert: Args[0] is a Bool
	// scalar or tile that must hold in every lane, Msg.Text the message;
	// Void. The interpreter always checks an assertion; cudagen lowers it
	// only for a kernel compiled with Debug, as Triton's debug=True.
	OpPrint
	OpAssert
	// Inline assembly (tl.inline_asm_elementwise). Args: the inputs, all of
	// the result's shape; one result (Type) or several (Types, read with
	// OpTupleGet); Asm holds the text, the constraints and the packing.
	OpInlineAsm

	// Tile operations that move elements across the whole tile (tl.sort,
	// tl.topk, tl.flip, tl.gather, tl.histogram, tl.cat).
	OpSort      // Args[0]: Triton's bitonic network along the last dim; Const.Int: log2 of the result's last dim (less than the input's for tl.topk); FlagReverse: descending; Axis 1: the final merge only (tl.standard.bitonic_merge)
	OpFlip      // Args[0] reversed along Axis
	OpGather    // Args [src, index]: src with the Axis coordinate taken from index; index's shape, src's dtype
	OpHistogram // Args [input, mask|nil]: i32 [bins], each input lane's low bits counted as Triton's GPU lowering counts them
	OpCat       // Args[0], Args[1]: 1-D tiles of one dtype, concatenated
	// OpMapElementwise is tl.map_elementwise: Region (one scalar argument
	// per operand, any number of yields) applied to each element of the
	// operands, tiles of one shape; its result, or results (Types), have
	// that shape and the yields' dtypes. With Const.Int = pack > 1
	// (MapPack), the region takes pack consecutive elements along the last
	// axis at once: arguments operand by operand (pack of the first, then
	// pack of the second), yields result by result; the results are then
	// always a tuple (Types).
	OpMapElementwise

	// NumOps is one more than the last op: ops are 0 < op < NumOps.
	NumOps
)

// Class groups ops that are checked, interpreted and lowered alike.
type Class uint8

// Op classes.
const (
	ClassInvalid     Class = iota
	ClassLeaf              // no operands: constants, parameters, indices, variable reads
	ClassShape             // moves elements: splat, broadcast, expand_dims, reshape, trans, join, split, tuple_get, and the tile operations
	ClassElementwise       // lane by lane, operands and result of one type (unary, binary or ternary by arity)
	ClassCompare           // lane by lane, operands of one type, Bool result
	ClassMath              // a unary math function on floats (ClassMath ops with a TL name are tl.<TL>)
	ClassCast              // lane by lane conversions
	ClassSelect            // tl.where
	ClassPointer           // pointer arithmetic
	ClassMemory            // loads and stores
	ClassHint              // compiler hints and assumptions
	ClassSync              // barriers
	ClassReduce            // reductions and scans along an axis
	ClassAtomic            // atomics
	ClassDot               // tl.dot
	ClassExtern            // a libdevice function, lane by lane
	ClassDebug             // printing and assertions
	ClassInlineAsm         // inline assembly
)

var classNames = [...]string{"invalid", "leaf", "shape", "elementwise", "compare", "math", "cast", "select",
	"pointer", "memory", "hint", "sync", "reduce", "atomic", "dot", "extern", "debug", "inline_asm"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// Kinds is a set of operand kinds an op accepts.
type Kinds uint8

// Kind sets.
const (
	KindsInt   Kinds = 1 << iota // integers (not Bool)
	KindsBool                    // Bool
	KindsFloat                   // floats
	KindsPtr                     // pointers

	KindsNum   = KindsInt | KindsFloat
	KindsArith = KindsNum | KindsBool // what + - * / % min max and neg take (Bool as a 1-bit integer)
	KindsAny   = KindsInt | KindsBool | KindsFloat | KindsPtr
)

// Has reports whether k is in the set.
func (s Kinds) Has(k Kind) bool {
	switch {
	case k == Bool:
		return s&KindsBool != 0
	case k.IsInt():
		return s&KindsInt != 0
	case k.IsFP8():
		return false // storage only: converted before any arithmetic
	case k.IsFloat():
		return s&KindsFloat != 0
	case k == Ptr:
		return s&KindsPtr != 0
	}
	return false
}

// Result says how an op's result type follows from its operands.
type Result uint8

// Result rules.
const (
	ResultGiven   Result = iota // from the value's attributes (leaves, shapes, casts, reductions, dots)
	ResultSame                  // the operands' type
	ResultBool                  // Bool with the operands' shape
	ResultPointee               // the pointee dtype of Args[0] with its shape
	ResultVoid                  // no result
)

// Variadic as OpInfo.MaxArgs: no upper bound.
const Variadic = -1

// OpInfo describes an op.
type OpInfo struct {
	Name    string
	Class   Class
	MinArgs int
	MaxArgs int   // Variadic for no bound
	Nilable bool  // operands after the first may be nil (absent mask, other)
	Accepts Kinds // the kinds of the operands an elementwise, compare or math op takes
	Result  Result
	// TL is the tl function that is this op alone on a float tensor
	// (ClassMath), as sema binds it; "" if sema builds the op otherwise.
	TL string
}

func leaf(name string) OpInfo { return OpInfo{Name: name, Class: ClassLeaf} }

func shapeOp(name string, n int) OpInfo {
	return OpInfo{Name: name, Class: ClassShape, MinArgs: n, MaxArgs: n}
}

func elementwise(name string, n int, accepts Kinds) OpInfo {
	return OpInfo{Name: name, Class: ClassElementwise, MinArgs: n, MaxArgs: n, Accepts: accepts, Result: ResultSame}
}

func compareOp(name string) OpInfo {
	return OpInfo{Name: name, Class: ClassCompare, MinArgs: 2, MaxArgs: 2, Accepts: KindsAny, Result: ResultBool}
}

// mathOp is a float function that tl.<tl> computes ("" if none).
func mathOp(name, tl string) OpInfo {
	return OpInfo{Name: name, Class: ClassMath, MinArgs: 1, MaxArgs: 1, Accepts: KindsFloat, Result: ResultSame, TL: tl}
}

func fixed(name string, c Class, n int, r Result) OpInfo {
	return OpInfo{Name: name, Class: c, MinArgs: n, MaxArgs: n, Result: r}
}

var opTable = [NumOps]OpInfo{
	OpConst: leaf("const"), OpParam: leaf("param"), OpProgramID: leaf("program_id"),
	OpNumPrograms: leaf("num_programs"), OpArange: leaf("arange"), OpVarRead: leaf("read"),
	OpRegionArg: leaf("region_arg"),

	OpSplat: shapeOp("splat", 1), OpBroadcast: shapeOp("broadcast", 1), OpExpandDims: shapeOp("expand_dims", 1),
	OpReshape: shapeOp("reshape", 1), OpTrans: shapeOp("trans", 1), OpJoin: shapeOp("join", 2),
	OpSplit: shapeOp("split", 1), OpTupleGet: shapeOp("tuple_get", 1),

	OpAdd: elementwise("add", 2, KindsArith), OpSub: elementwise("sub", 2, KindsArith),
	OpMul: elementwise("mul", 2, KindsArith), OpDiv: elementwise("div", 2, KindsArith),
	OpRem: elementwise("rem", 2, KindsArith), OpNeg: elementwise("neg", 1, KindsArith),
	OpMax: elementwise("max", 2, KindsArith), OpMin: elementwise("min", 2, KindsArith),
	OpFma: elementwise("fma", 3, KindsFloat),
	OpAnd: elementwise("and", 2, KindsInt|KindsBool), OpOr: elementwise("or", 2, KindsInt|KindsBool),
	OpXor: elementwise("xor", 2, KindsInt|KindsBool), OpNot: elementwise("not", 1, KindsInt|KindsBool),
	OpShl: elementwise("shl", 2, KindsInt|KindsBool), OpShr: elementwise("shr", 2, KindsInt|KindsBool),

	OpEq: compareOp("eq"), OpNe: compareOp("ne"), OpLt: compareOp("lt"),
	OpLe: compareOp("le"), OpGt: compareOp("gt"), OpGe: compareOp("ge"),

	OpExp: mathOp("exp", "exp"), OpExp2: mathOp("exp2", "exp2"), OpLog: mathOp("log", "log"),
	OpLog2: mathOp("log2", "log2"), OpSqrt: mathOp("sqrt", "sqrt"), OpRsqrt: mathOp("rsqrt", "rsqrt"),
	OpSin: mathOp("sin", "sin"), OpCos: mathOp("cos", "cos"), OpFloor: mathOp("floor", "floor"),
	OpCeil: mathOp("ceil", "ceil"), OpErf: mathOp("erf", "erf"),
	// tl.abs is also defined on integers, and sema drops it on unsigned ones.
	OpAbs: {Name: "abs", Class: ClassMath, MinArgs: 1, MaxArgs: 1, Accepts: KindsArith, Result: ResultSame},

	OpCast: fixed("cast", ClassCast, 1, ResultGiven), OpBitcast: fixed("bitcast", ClassCast, 1, ResultGiven),
	OpWhere:  fixed("where", ClassSelect, 3, ResultGiven),
	OpPtrAdd: fixed("ptr_add", ClassPointer, 2, ResultSame),

	OpLoad:  {Name: "load", Class: ClassMemory, MinArgs: 3, MaxArgs: 3, Nilable: true, Result: ResultPointee},
	OpStore: {Name: "store", Class: ClassMemory, MinArgs: 3, MaxArgs: 3, Nilable: true, Result: ResultVoid},

	OpMultipleOf: fixed("multiple_of", ClassHint, 1, ResultSame), OpMaxContiguous: fixed("max_contiguous", ClassHint, 1, ResultSame),
	OpAssume: fixed("assume", ClassHint, 1, ResultVoid), OpBarrier: fixed("barrier", ClassSync, 0, ResultVoid),
	OpGdcWait: fixed("gdc_wait", ClassSync, 0, ResultVoid), OpGdcLaunchDependents: fixed("gdc_launch_dependents", ClassSync, 0, ResultVoid),

	OpReduce: {Name: "reduce", Class: ClassReduce, MinArgs: 1, MaxArgs: Variadic},
	OpScan:   {Name: "scan", Class: ClassReduce, MinArgs: 1, MaxArgs: Variadic},

	OpAtomicRMW: {Name: "atomic_rmw", Class: ClassAtomic, MinArgs: 3, MaxArgs: 3, Nilable: true, Result: ResultPointee},
	OpAtomicCAS: fixed("atomic_cas", ClassAtomic, 3, ResultPointee),
	OpDot:       fixed("dot", ClassDot, 3, ResultGiven),

	// Random numbers.
	OpUmulhi: elementwise("umulhi", 2, KindsInt),
	// libdevice: one op for every function of the table in libdevice.go.
	OpLibdevice: {Name: "libdevice", Class: ClassExtern, MinArgs: 1, MaxArgs: 4, Accepts: KindsNum, Result: ResultGiven},
	// Printing and assertions.
	OpPrint:  {Name: "print", Class: ClassDebug, MinArgs: 0, MaxArgs: Variadic, Result: ResultVoid},
	OpAssert: fixed("assert", ClassDebug, 1, ResultVoid),
	// Inline assembly.
	OpInlineAsm: {Name: "inline_asm", Class: ClassInlineAsm, MinArgs: 0, MaxArgs: Variadic},

	// Tile operations.
	OpSort: shapeOp("sort", 1), OpFlip: fixed("flip", ClassShape, 1, ResultSame), OpGather: shapeOp("gather", 2),
	OpHistogram:      {Name: "histogram", Class: ClassShape, MinArgs: 2, MaxArgs: 2, Nilable: true},
	OpCat:            shapeOp("cat", 2),
	OpMapElementwise: {Name: "map_elementwise", Class: ClassShape, MinArgs: 1, MaxArgs: Variadic},
}

// Info describes o; its Class is ClassInvalid for OpInvalid and values
// out of range.
func (o Op) Info() OpInfo {
	if o < NumOps {
		return opTable[o]
	}
	return OpInfo{}
}

func (o Op) String() string {
	if n := o.Info().Name; n != "" {
		return n
	}
	if o == OpInvalid {
		return "invalid"
	}
	return "op?"
}

// IsCompare reports whether o is a comparison.
func (o Op) IsCompare() bool { return o.Info().Class == ClassCompare }
