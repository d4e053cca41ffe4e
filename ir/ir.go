package ir

import (
	"math"
)

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

	numOps
)

var opNames = [numOps]string{
	OpInvalid: "invalid", OpConst: "const", OpParam: "param", OpProgramID: "program_id",
	OpNumPrograms: "num_programs", OpArange: "arange", OpVarRead: "read", OpRegionArg: "region_arg",
	OpSplat: "splat", OpBroadcast: "broadcast", OpExpandDims: "expand_dims", OpReshape: "reshape",
	OpAdd: "add", OpSub: "sub", OpMul: "mul", OpDiv: "div", OpRem: "rem", OpNeg: "neg",
	OpMax: "max", OpMin: "min", OpFma: "fma",
	OpAnd: "and", OpOr: "or", OpXor: "xor", OpNot: "not", OpShl: "shl", OpShr: "shr",
	OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le", OpGt: "gt", OpGe: "ge",
	OpExp: "exp", OpExp2: "exp2", OpLog: "log", OpLog2: "log2", OpSqrt: "sqrt", OpRsqrt: "rsqrt",
	OpAbs: "abs", OpSin: "sin", OpCos: "cos", OpFloor: "floor", OpCeil: "ceil",
	OpCast: "cast", OpBitcast: "bitcast", OpWhere: "where", OpPtrAdd: "ptr_add",
	OpLoad: "load", OpStore: "store", OpMultipleOf: "multiple_of", OpMaxContiguous: "max_contiguous",
	OpAssume: "assume", OpBarrier: "barrier",
	OpTrans: "trans", OpJoin: "join", OpSplit: "split",
	OpReduce: "reduce", OpScan: "scan", OpTupleGet: "tuple_get",
	OpAtomicRMW: "atomic_rmw", OpAtomicCAS: "atomic_cas", OpDot: "dot",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return "op?"
}

// IsCompare reports whether o is a comparison.
func (o Op) IsCompare() bool { return o >= OpEq && o <= OpGe }

// Flags are per-value option bits.
type Flags uint32

// Flag bits.
const (
	FlagPropagateNaN Flags = 1 << iota // OpMax/OpMin: NaN in, NaN out
	FlagRoundTZ                        // OpCast float->narrower float: round toward zero
	FlagVolatile                       // OpLoad: volatile
	FlagEvictFirst                     // OpLoad/OpStore: eviction_policy="evict_first"
	FlagEvictLast                      // OpLoad/OpStore: eviction_policy="evict_last"
	FlagCacheCG                        // OpLoad: cache_modifier=".cg"
	FlagCacheCA                        // OpLoad: cache_modifier=".ca"
	FlagCacheCS                        // OpStore: cache_modifier=".cs"
	FlagCacheWT                        // OpStore: cache_modifier=".wt"
	FlagReverse                        // OpScan: from the last element to the first
)

// Precision is the input_precision of an fp32 tl.dot.
type Precision uint8

// Input precisions, as Triton names them.
const (
	PrecisionTF32   Precision = iota // operands cut to tf32 (10-bit mantissa), products summed in fp32
	PrecisionTF32x3                  // each operand split into two tf32 parts, three tf32 products: about fp32 accuracy
	PrecisionIEEE                    // fp32 multiply-adds
)

var precisionNames = [...]string{"tf32", "tf32x3", "ieee"}

func (p Precision) String() string {
	if int(p) < len(precisionNames) {
		return precisionNames[p]
	}
	return "precision?"
}

// Combine says how OpReduce and OpScan combine two elements.
type Combine uint8

// Combiners. Max and Min reductions ignore NaN unless FlagPropagateNaN;
// ArgMax and ArgMin break ties toward the smaller index.
const (
	CombineCustom Combine = iota // Region, the inlined @jit combine function
	CombineSum
	CombineProd
	CombineMax
	CombineMin
	CombineXor
	CombineArgMax
	CombineArgMin
)

var combineNames = [...]string{"custom", "sum", "prod", "max", "min", "xor", "argmax", "argmin"}

func (c Combine) String() string {
	if int(c) < len(combineNames) {
		return combineNames[c]
	}
	return "combine?"
}

// AtomicOp is the operation of an OpAtomicRMW.
type AtomicOp uint8

// Atomic operations.
const (
	AtomicAdd AtomicOp = iota
	AtomicMax
	AtomicMin
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicXchg
)

var atomicNames = [...]string{"add", "max", "min", "and", "or", "xor", "xchg"}

func (a AtomicOp) String() string {
	if int(a) < len(atomicNames) {
		return atomicNames[a]
	}
	return "atomic?"
}

// MemSem is the memory ordering of an atomic (Triton's sem=).
type MemSem uint8

// Orderings; Triton's default is acq_rel.
const (
	SemAcqRel MemSem = iota
	SemAcquire
	SemRelease
	SemRelaxed
)

// MemScope is the scope of an atomic (Triton's scope=); the default is gpu.
type MemScope uint8

// Scopes.
const (
	ScopeGPU MemScope = iota
	ScopeCTA
	ScopeSys
)

// Region is a nested computation of OpReduce or OpScan with a custom
// combine function: Args are OpRegionArg values (for N operands, the N
// accumulated values then the N new elements, all scalars), Body computes
// and Yields are the N combined scalars.
type Region struct {
	Args   []*Value
	Body   *Block
	Yields []*Value
}

// Const is a scalar constant. Integers (Bool included) are kept in Int,
// unsigned ones as their bit pattern; floats in Float (already rounded to
// the value's dtype).
type Const struct {
	Int   int64
	Float float64
}

// Uint returns the constant's bits as uint64.
func (c Const) Uint() uint64 { return uint64(c.Int) }

// IntConst makes an integer constant.
func IntConst(v int64) Const { return Const{Int: v} }

// FloatConst makes a float constant.
func FloatConst(v float64) Const { return Const{Float: v} }

// IsNaN reports whether a float constant is NaN.
func (c Const) IsNaN() bool { return math.IsNaN(c.Float) }

// Value is one computed value (or, with the Void type, one effect).
type Value struct {
	ID    int // unique within a Kernel, in creation order
	Op    Op
	Type  Type
	Args  []*Value
	Pos   Pos
	Name  string // the source name it was first bound to, for readable output; may be ""
	Const Const  // OpConst; OpArange: Const.Int is the start
	Axis  int    // OpProgramID, OpNumPrograms, OpExpandDims
	Var   *Var   // OpVarRead
	Param *Param // OpParam
	Hints []int  // OpMultipleOf, OpMaxContiguous: one per dimension (scalars: one)
	Flags Flags

	Perm    []int    // OpTrans
	Types   []Type   // results of multi-result values (then Type is Void)
	Combine Combine  // OpReduce, OpScan
	Region  *Region  // OpReduce, OpScan with CombineCustom
	Atomic  AtomicOp // OpAtomicRMW
	Sem     MemSem   // OpAtomicRMW, OpAtomicCAS
	Scope   MemScope // OpAtomicRMW, OpAtomicCAS

	Precision Precision // OpDot
}

func (*Value) stmt() {}

// Position returns v.Pos.
func (v *Value) Position() Pos { return v.Pos }

// Var is a mutable, typed slot for a source name reassigned under control
// flow. Vars are declared where first assigned.
type Var struct {
	ID   int
	Name string
	Type Type
	Pos  Pos
}

// Param is a runtime parameter of the kernel, as the emitted CUDA and the
// launcher see it. Constexpr parameters and integers specialized to 1 are
// folded by sema and are not Params.
type Param struct {
	Name  string
	Index int // position among the kernel's runtime parameters
	DType DType
	Pos   Pos
	// DivisibleBy16: for pointers, the address is 16-byte aligned; for
	// integers, the value is a multiple of 16. From the specialization.
	DivisibleBy16 bool
	Value         *Value // the OpParam value that reads it
}

// Stmt is a statement of a Block: a *Value, *Assign, *For, *While, *If or
// *Return.
type Stmt interface {
	Position() Pos
	stmt()
}

// Block is a sequence of statements.
type Block struct {
	Stmts []Stmt
}

// Assign stores Value into Var. Value's type equals Var's.
type Assign struct {
	Var   *Var
	Value *Value
	Pos   Pos
}

// For is a counted loop: Var takes Lo, Lo+Step, ... while below Hi (above
// Hi for a negative Step). Lo, Hi and Step are integer scalars of Var's
// type, evaluated once before the loop. Loop-carried names are Vars
// assigned in Body.
type For struct {
	Var            *Var
	Lo, Hi, Step   *Value
	Body           *Block
	NumStages      int // tl.range(num_stages=); 0 if not given
	LoopUnroll     int // tl.range(loop_unroll_factor=); 0 if not given
	DisallowAccMMA bool
	Pos            Pos
}

// While runs Cond's statements, then Body while CondValue (a Bool scalar
// computed in Cond) is true.
type While struct {
	Cond      *Block
	CondValue *Value
	Body      *Block
	Pos       Pos
}

// If runs Then when Cond (a Bool scalar) is true, else Else (which may be
// empty but is never nil).
type If struct {
	Cond       *Value
	Then, Else *Block
	Pos        Pos
}

// Return ends the program instance.
type Return struct {
	Pos Pos
}

func (*Assign) stmt() {}
func (*For) stmt()    {}
func (*While) stmt()  {}
func (*If) stmt()     {}
func (*Return) stmt() {}

// Position returns the statement's source position.
func (s *Assign) Position() Pos { return s.Pos }

// Position returns the statement's source position.
func (s *For) Position() Pos { return s.Pos }

// Position returns the statement's source position.
func (s *While) Position() Pos { return s.Pos }

// Position returns the statement's source position.
func (s *If) Position() Pos { return s.Pos }

// Position returns the statement's source position.
func (s *Return) Position() Pos { return s.Pos }

// SpecEntry records how one source parameter was specialized, for the
// header of generated code and for cache keys.
type SpecEntry struct {
	Name string
	// Kind is "runtime" (a Param), "constexpr" (folded to Value), or
	// "one" (an integer specialized to 1, folded).
	Kind  string
	Value string // the constexpr's value as Python prints it, or the runtime dtype with ":16"
}

// Kernel is one specialized kernel.
type Kernel struct {
	Name      string
	File      string // source file as given
	Source    string // the whole source text, for comments quoting source lines
	Params    []*Param
	Spec      []SpecEntry // every source parameter, in order
	Body      *Block
	NumWarps  int
	NumStages int
	NumValues int // Value IDs are < NumValues
	NumVars   int // Var IDs are < NumVars
}
