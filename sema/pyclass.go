package sema

// This file implements the classes of triton.language that kernels use as
// values: tl.dtype(name), which builds a dtype from Triton's name for it,
// and tl.tensor as the class of isinstance(x, tl.tensor). Triton's code
// generator calls isinstance on the Python objects it holds: a runtime
// value (a scalar or a block, a block pointer) is a tl.tensor; a
// compile-time value is a tl.constexpr, a tuple a tl.tuple.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addPyClassBuiltins(tl func(string) string) {
	builtins[tl("dtype")] = &builtin{[]string{"name"}, 1, bDtypeOf}
	builtins[tl("tensor")] = &builtin{[]string{"handle", "type"}, 0, bTensorCtor}
	builtins["isinstance"] = &builtin{[]string{"obj", "cls"}, 2, bIsinstance}
	builtins[tl("tuple")] = &builtin{[]string{"args", "type"}, 1, bTuple}
	builtins[tl("constexpr_type")] = &builtin{[]string{"value"}, 1, bConstexprType}
}

// bConstexprType is tl.constexpr_type(value), the type of a compile-time
// value (what x.type gives for one).
func bConstexprType(c *compiler, a *args) *val {
	v := a.vals[0]
	if !v.isConst() {
		return c.errorf(a.pos, diag.CodeValue, "tl.constexpr_type needs a compile-time value, got %s", v.describe())
	}
	return &val{k: kConstType, recv: v}
}

// bTuple is tl.tuple(args): Triton's tuple of the values of a tuple or
// list, which kernels index, compare and concatenate as Python tuples.
func bTuple(c *compiler, a *args) *val {
	v := a.vals[0]
	switch {
	case v.k == kInvalid:
		return invalid
	case v.k != kTuple:
		return c.errorf(a.pos, diag.CodeType, "tl.tuple needs a tuple or a list of values, not %s", v.describe())
	case a.vals[1] != nil && a.vals[1].k != kNone:
		return c.errorf(a.pos, diag.CodeUnsupported, "tl.tuple(args, type=...) is not supported; pass the values only")
	}
	return &val{k: kTuple, elts: append([]*val{}, v.elts...)}
}

// tritonDtypeNames are the names tl.dtype accepts: Triton's signed, unsigned,
// float and other type names, and no others (tl.dtype("float32") fails in
// Triton too).
var tritonDtypeNames = map[string]ir.Kind{
	"int8": ir.Int8, "int16": ir.Int16, "int32": ir.Int32, "int64": ir.Int64,
	"int1": ir.Bool, "uint8": ir.Uint8, "uint16": ir.Uint16, "uint32": ir.Uint32, "uint64": ir.Uint64,
	"fp8e4b15": ir.Float8E4B15, "fp8e4nv": ir.Float8E4NV, "fp8e4b8": ir.Float8E4B8, "fp8e5": ir.Float8E5,
	"fp8e5b16": ir.Float8E5B16, "fp16": ir.Float16, "bf16": ir.BFloat16, "fp32": ir.Float32, "fp64": ir.Float64,
}

func bDtypeOf(c *compiler, a *args) *val {
	v := a.vals[0]
	if v.k != kStr {
		return c.errorf(a.pos, diag.CodeType, "tl.dtype needs a compile-time string such as \"uint16\", got %s", v.describe())
	}
	k, ok := tritonDtypeNames[v.s]
	if !ok {
		return c.errorf(a.pos, diag.CodeValue, "tl.dtype(%q): not a Triton type name (int8 .. int64, int1, uint8 .. uint64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5, ...)", v.s)
	}
	return dtypeVal(ir.Scalar(k))
}

func bTensorCtor(c *compiler, a *args) *val {
	return c.errorf(a.pos, diag.CodeUnsupported, "tl.tensor(...) builds a tensor from a compiler handle, which kernels cannot do; use tl.tensor only with isinstance")
}

func bIsinstance(c *compiler, a *args) *val {
	obj, cls := a.vals[0], a.vals[1]
	classes := []*val{cls}
	if cls.k == kTuple {
		classes = cls.elts
	}
	if obj.k == kInvalid {
		return invalid
	}
	for _, k := range classes {
		if k.k == kInvalid {
			return invalid
		}
		if k.k != kBuiltin || !isinstanceClasses[k.s] {
			return c.errorf(a.pos, diag.CodeUnsupported, "isinstance in a kernel is supported with the classes tl.tensor, tl.tensor_descriptor, tl.dtype, tl.pointer_type, tl.block_type, tl.constexpr, tl.constexpr_type and tl.tuple only, got %s", k.describe())
		}
	}
	for _, k := range classes {
		if isInstance(obj, k.s) {
			return boolVal(true)
		}
	}
	return boolVal(false)
}

// isinstanceClasses are the classes of triton.language that isinstance
// tells apart in a kernel.
var isinstanceClasses = map[string]bool{
	"triton.language.tensor": true, descClass: true, descClass + "_base": true,
	"triton.language.dtype": true, "triton.language.pointer_type": true, "triton.language.block_type": true,
	"triton.language.constexpr": true, "triton.language.tuple": true, "triton.language.constexpr_type": true,
}

// isInstance is isinstance(obj, cls) for one of isinstanceClasses, as the
// objects Triton's code generator holds answer it: runtime values and block
// pointers are tensors; a dtype (x.dtype) is a tl.dtype, a pointer's also a
// tl.pointer_type, a tile's type (x.type) a tl.block_type; a compile-time
// number, string or None is a tl.constexpr; a tuple is a tl.tuple.
func isInstance(obj *val, cls string) bool {
	isDesc := obj.k == kBlockPtr && obj.bp.desc
	switch cls {
	case "triton.language.tensor":
		return obj.k == kRuntime || obj.k == kBlockPtr && !isDesc
	case "triton.language.dtype":
		return obj.k == kDType
	case "triton.language.pointer_type":
		return obj.k == kDType && obj.block == nil && obj.dt.IsPtr()
	case "triton.language.block_type":
		return obj.k == kDType && obj.block != nil
	case "triton.language.constexpr":
		switch obj.k {
		case kInt, kFloat, kBool, kStr, kNone:
			return true
		}
		return false
	case "triton.language.tuple":
		return obj.k == kTuple
	case "triton.language.constexpr_type":
		return obj.k == kConstType
	}
	return isDesc
}
