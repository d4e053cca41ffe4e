package sema

// This file implements the values that expressions evaluate to.

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// vkind says what a val holds.
type vkind int

const (
	kInvalid vkind = iota // an error was already reported; uses stay silent
	kRuntime              // a runtime ir.Value
	kInt
	kFloat
	kBool
	kStr
	kNone
	kDType
	kTuple
	kFunc     // a @jit function
	kModule   // a module such as triton.language
	kBuiltin  // a builtin function, by its full path
	kMethod   // a bound member function: recv.name
	kUndef    // a name that may not be used here; s is the reason
	kPyModule // a module of the project (mod)
	kBlockPtr // a block pointer (blockptr.go)
	kGetter   // a host function that returns an attribute of a Triton module (getter.go)
	// kConstType is the type of a compile-time value (x.type, Triton's
	// tl.constexpr_type); recv holds the value.
	kConstType
)

// val is the result of evaluating an expression.
type val struct {
	k    vkind
	rt   *ir.Value
	i    *big.Int
	f    float64
	b    bool
	s    string
	dt   ir.DType
	elts []*val
	fn   *frontend.Func
	recv *val
	mod  *frontend.File // kPyModule
	bp   *blockPtr      // kBlockPtr
	// block is the shape of a block type (kDType): dt is then its
	// element type, or a pointer to it for a block pointer's type.
	block ir.Shape
	// from is the meta-parameter given on the launch that this constexpr
	// is (or was computed from), for errors it causes (metaarg.go).
	from *metaArg
	// assigned marks a number a kernel bound by a plain assignment
	// (value = 1), which Triton's code generator turns into a scalar
	// tensor: it has a dtype (assigned.go).
	assigned bool
}

var invalid = &val{k: kInvalid}

func rtVal(v *ir.Value) *val { return &val{k: kRuntime, rt: v} }
func intVal(i int64) *val    { return &val{k: kInt, i: big.NewInt(i)} }
func bigVal(i *big.Int) *val { return &val{k: kInt, i: i} }

// intTuple is the constexpr tuple of a shape's dimensions.
func intTuple[S ~[]int](dims S) *val {
	t := &val{k: kTuple}
	for _, n := range dims {
		t.elts = append(t.elts, intVal(int64(n)))
	}
	return t
}
func floatVal(f float64) *val { return &val{k: kFloat, f: f} }
func boolVal(b bool) *val     { return &val{k: kBool, b: b} }
func strVal(s string) *val    { return &val{k: kStr, s: s} }
func dtypeVal(d ir.DType) *val {
	return &val{k: kDType, dt: d}
}

var noneVal = &val{k: kNone}

// isConst reports whether v is known at compile time.
func (v *val) isConst() bool {
	return v.k != kRuntime && v.k != kInvalid && v.k != kTuple && v.k != kBlockPtr || v.k == kTuple && v.allConst()
}

func (v *val) allConst() bool {
	for _, e := range v.elts {
		if !e.isConst() {
			return false
		}
	}
	return true
}

// isNum reports whether v is a constexpr number (bool, int or float).
func (v *val) isNum() bool { return v.k == kInt || v.k == kFloat || v.k == kBool }

// asInt returns a constexpr int or bool as a big.Int.
func (v *val) asInt() (*big.Int, bool) {
	switch v.k {
	case kInt:
		return v.i, true
	case kBool:
		if v.b {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	}
	return nil, false
}

// asFloat returns a constexpr number as a float64.
func (v *val) asFloat() float64 {
	switch v.k {
	case kFloat:
		return v.f
	case kInt:
		f, _ := new(big.Float).SetInt(v.i).Float64()
		return f
	case kBool:
		if v.b {
			return 1
		}
	}
	return 0
}

// truth is Python's bool() of a constexpr.
func (v *val) truth() bool {
	switch v.k {
	case kInt:
		return v.i.Sign() != 0
	case kFloat:
		return v.f != 0
	case kBool:
		return v.b
	case kStr:
		return v.s != ""
	case kNone:
		return false
	case kTuple:
		return len(v.elts) > 0
	}
	return true
}

// describe names v's kind for error messages.
func (v *val) describe() string {
	switch v.k {
	case kRuntime:
		if v.rt.Type.IsScalar() {
			return "a scalar of type " + v.rt.Type.String()
		}
		return "a tensor of type " + v.rt.Type.String()
	case kInt:
		return "the int " + v.i.String()
	case kFloat:
		return "the float " + v.repr()
	case kBool:
		return "the bool " + v.repr()
	case kStr:
		return "the string " + v.repr()
	case kNone:
		return "None"
	case kDType:
		return "the dtype " + v.repr()
	case kTuple:
		return "a tuple"
	case kFunc:
		return "the function " + v.fn.Name
	case kModule:
		return "the module " + v.s
	case kPyModule:
		return "the module " + moduleName(v.mod)
	case kBuiltin, kMethod, kGetter:
		return "the function " + v.s
	case kConstType:
		return "the type constexpr_type[" + v.recv.repr() + "]"
	case kBlockPtr:
		if v.bp.desc {
			return "a tensor descriptor of type " + v.bp.typeString()
		}
		return "a block pointer of type " + v.bp.typeString()
	}
	return "a value"
}

// repr prints a constexpr as Python does.
func (v *val) repr() string {
	switch v.k {
	case kInt:
		return v.i.String()
	case kFloat:
		return pyFloat(v.f)
	case kBool:
		if v.b {
			return "True"
		}
		return "False"
	case kStr:
		q := strconv.Quote(v.s)
		return "'" + strings.ReplaceAll(strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`), "'", `\'`) + "'"
	case kNone:
		return "None"
	case kDType:
		if v.block != nil {
			return blockTypeString(v.dt, v.block)
		}
		if v.dt.IsPtr() {
			return "pointer<" + ir.Scalar(v.dt.Elem).PyName() + ">"
		}
		return v.dt.PyName()
	case kTuple:
		parts := make([]string, len(v.elts))
		for i, e := range v.elts {
			parts[i] = e.repr()
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case kRuntime:
		return "<" + v.rt.Type.String() + ">"
	case kBlockPtr:
		return "<" + v.bp.typeString() + ">"
	}
	return v.describe()
}

func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// constexprVal converts a Constexpr from a Signature.
func constexprVal(c Constexpr) *val {
	switch c.Kind {
	case CInt:
		return intVal(c.Int)
	case CFloat:
		return floatVal(c.Float)
	case CBool:
		return boolVal(c.Bool)
	case CStr:
		return strVal(c.Str)
	case CDType:
		return dtypeVal(c.DType)
	case CTuple:
		t := &val{k: kTuple, elts: make([]*val, len(c.Elems))}
		for i, e := range c.Elems {
			t.elts[i] = constexprVal(e)
		}
		return t
	}
	return noneVal
}
