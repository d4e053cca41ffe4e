package ir

import (
	"math"
)

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
	CombineOr // bitwise or of integers (tl.reduce_or)
)

var combineNames = [...]string{"custom", "sum", "prod", "max", "min", "xor", "argmax", "argmin", "or"}

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

	Precision Precision  // OpDot
	Extern    string     // OpLibdevice: the libdevice symbol of the overload (__nv_asinf)
	Msg       *Message   // OpPrint, OpAssert
	Asm       *InlineAsm // OpInlineAsm
	// Desc is set on an OpLoad or OpStore through a tensor descriptor: the
	// descriptor's base and the access's offsets, from which sm_90a's
	// pipelines and stores may copy the block with the TMA unit instead of
	// through the access's pointers and mask (which give the same
	// elements).
	Desc *DescAccess
}

// DescAccess is where an access through a tensor descriptor reads or
// writes: the block at Offsets of the tensor at Base (a scalar pointer)
// of Shape and Strides (the last stride is 1), all int64 scalars, one per
// dimension. A descriptor made on the host has for Base the OpParam of
// Part "base" of its parameter.
type DescAccess struct {
	Base    *Value
	Offsets []*Value
	Shape   []*Value
	Strides []*Value
}

// Host reports whether the descriptor was made on the host: its base is
// the "base" parameter of a descriptor parameter.
func (d *DescAccess) Host() bool {
	return d.Base.Op == OpParam && d.Base.Param != nil && d.Base.Param.Part == "base"
}

// Scalars are the values the access reads besides its tiles.
func (d *DescAccess) Scalars() []*Value {
	out := append([]*Value{d.Base}, d.Offsets...)
	out = append(out, d.Shape...)
	return append(out, d.Strides...)
}

// MapPack is the pack of an OpMapElementwise: how many elements of each
// operand one run of its region takes (Const.Int; 0 and 1 mean one).
func (v *Value) MapPack() int {
	if v.Const.Int > 1 {
		return int(v.Const.Int)
	}
	return 1
}

// Message is the text of an OpPrint or OpAssert.
type Message struct {
	Text string // OpPrint: the prefix; OpAssert: the message
	Hex  bool   // OpPrint: print values as hex digits (tl.device_print(hex=True))
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
	// Of and Part name, for a part of a tensor descriptor passed from the
	// host, the source parameter and the part ("base", "shape0",
	// "stride0"); both are empty for other parameters.
	Of, Part string
	// TupleOf and Path name, for an element of a tuple passed from the
	// host, the source parameter and the element's index at each level of
	// nesting (x[1][0] is Path [1 0]); Triton flattens tuple arguments into
	// one kernel parameter per runtime element in the same way. TupleOf is
	// empty for other parameters.
	TupleOf string
	Path    []int
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
	NumStages      int  // tl.range(num_stages=); 0 if not given
	LoopUnroll     int  // tl.range(loop_unroll_factor=); 0 if not given
	DisallowAccMMA bool // tl.range(disallow_acc_multi_buffer=): recorded (--dump=ir); Blackwell-only in Triton
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
	// Debug is Triton's debug option (tri run --debug, TRITON_DEBUG=1,
	// @triton.jit(debug=True)): the GPU code checks device assertions.
	Debug bool
	// MaxNReg caps the registers of a thread (Triton's maxnreg; NVRTC's
	// --maxrregcount); 0: no cap.
	MaxNReg int
	// StaticPrints are the lines tl.static_print printed while the kernel
	// was specialized, each ending as its end= says.
	StaticPrints []string
}
