package sema

// This file implements atomics as Triton 3.6's semantic.py types them:
// tl.atomic_add, _max, _min, _and, _or, _xor, _xchg (atom_red_typechecking_impl:
// no fp16/bf16 except for add, nothing narrower than 32 bits otherwise
// except fp16/bf16 add; the value is broadcast to the pointer's shape and
// cast to the pointee type) and tl.atomic_cas. Results are the old values.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addAtomicBuiltins(tl func(string) string) {
	params := []string{"pointer", "val", "mask", "sem", "scope"}
	for name, op := range map[string]ir.AtomicOp{
		"atomic_add": ir.AtomicAdd, "atomic_max": ir.AtomicMax, "atomic_min": ir.AtomicMin,
		"atomic_and": ir.AtomicAnd, "atomic_or": ir.AtomicOr, "atomic_xor": ir.AtomicXor,
		"atomic_xchg": ir.AtomicXchg,
	} {
		builtins[tl(name)] = &builtin{params, 2, bAtomicRMW(op)}
	}
	builtins[tl("atomic_cas")] = &builtin{[]string{"pointer", "cmp", "val", "sem", "scope"}, 3, bAtomicCAS}
}

var sems = map[string]ir.MemSem{"acquire": ir.SemAcquire, "release": ir.SemRelease, "acq_rel": ir.SemAcqRel, "relaxed": ir.SemRelaxed}

var scopes = map[string]ir.MemScope{"gpu": ir.ScopeGPU, "cta": ir.ScopeCTA, "sys": ir.ScopeSys}

// memOrder reads sem= and scope= (semantic.py's _str_to_sem and
// _str_to_scope); None or "" is the default acq_rel, gpu.
func (c *compiler) memOrder(a *args, semIdx int, pos diag.Pos) (ir.MemSem, ir.MemScope, bool) {
	var sem ir.MemSem
	var scope ir.MemScope
	if v := a.vals[semIdx]; given(v) && !(v.k == kStr && v.s == "") {
		s, ok := sems[v.s]
		if v.k != kStr || !ok {
			c.errorf(pos, diag.CodeValue, "memory semantic %s is not supported; use \"acquire\", \"release\", \"acq_rel\" or \"relaxed\"", v.repr())
			return 0, 0, false
		}
		sem = s
	}
	if v := a.vals[semIdx+1]; given(v) && !(v.k == kStr && v.s == "") {
		s, ok := scopes[v.s]
		if v.k != kStr || !ok {
			c.errorf(pos, diag.CodeValue, "memory scope %s is not supported; use \"gpu\", \"cta\" or \"sys\"", v.repr())
			return 0, 0, false
		}
		scope = s
	}
	return sem, scope, true
}

// atomicPtr reads the pointer of an atomic.
func (c *compiler) atomicPtr(v *val, what string, pos diag.Pos) *ir.Value {
	if v.k != kRuntime || !v.rt.Type.IsPtr() {
		c.errorf(pos, diag.CodeType, "%s needs a pointer or a tensor of pointers, got %s", what, v.describe())
		return nil
	}
	return v.rt
}

// atomicOperand converts an operand of an atomic to the pointee type and
// the pointer's shape; a runtime operand of another dtype is cast when
// cast is set and is an error otherwise.
func (c *compiler) atomicOperand(v *val, ptr *ir.Value, what, name string, cast bool, pos diag.Pos) *ir.Value {
	elem := ir.Scalar(ptr.Type.Elem)
	if v.isNum() {
		if lt, err := literalType(v); !cast && (err != nil || kindRank(lt) > kindRank(elem)) {
			c.errorf(pos, diag.CodeType, "the %s of %s is %s but the pointer is %s", name, what, v.describe(), ptr.Type.DType)
			return nil
		}
		return c.splatTo(c.constOf(elem, v, pos), ptr.Type.Shape, pos)
	}
	x := c.runtimeArg(v, "the "+name+" of "+what, pos)
	if x == nil {
		return nil
	}
	if s, ok := broadcastShape(ptr.Type.Shape, x.Type.Shape); !ok || !s.Equal(ptr.Type.Shape) {
		if ptr.Type.IsScalar() {
			c.errorf(pos, diag.CodeType, "%s through a scalar pointer needs a scalar %s, got shape %s", what, name, x.Type.Shape)
		} else {
			c.errorf(pos, diag.CodeType, "the %s of %s has shape %s, which does not match the pointer's shape %s", name, what, x.Type.Shape, ptr.Type.Shape)
		}
		return nil
	}
	if !cast && x.Type.DType != elem {
		c.errorf(pos, diag.CodeType, "the %s of %s has type %s but the pointer is %s; cast it with .to(tl.%s)", name, what, x.Type.DType, ptr.Type.DType, elem.PyName())
		return nil
	}
	return c.splatTo(c.cast(x, elem, pos), ptr.Type.Shape, pos)
}

// checkAtomicDType is atom_red_typechecking_impl's dtype rule plus the
// rules of the operations: max and min on floats need fp32 or fp64, and,
// or and xor need integers.
func (c *compiler) checkAtomicDType(op ir.AtomicOp, elem ir.DType, pos diag.Pos) bool {
	name := "atomic_" + op.String()
	k := elem.Kind
	switch {
	case (k == ir.Float16 || k == ir.BFloat16) && op != ir.AtomicAdd:
		c.errorf(pos, diag.CodeType, "tl.%s does not support %s", name, elem.PyName())
	case k == ir.Int16 || k == ir.Uint16 || k.Bits() < 16:
		c.errorf(pos, diag.CodeType, "tl.%s does not support %s", name, elem.PyName())
	case (op == ir.AtomicAnd || op == ir.AtomicOr || op == ir.AtomicXor) && !k.IsInt():
		c.errorf(pos, diag.CodeType, "tl.%s needs an integer pointee, got %s", name, elem.PyName())
	default:
		return true
	}
	return false
}

func bAtomicRMW(op ir.AtomicOp) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		what := "tl.atomic_" + op.String()
		ptr := c.atomicPtr(a.vals[0], what, a.pos)
		if ptr == nil || !c.checkAtomicDType(op, ir.Scalar(ptr.Type.Elem), a.pos) {
			return invalid
		}
		sem, scope, ok := c.memOrder(a, 3, a.pos)
		if !ok {
			return invalid
		}
		x := c.atomicOperand(a.vals[1], ptr, what, "value", true, a.pos)
		if x == nil {
			return invalid
		}
		var mask *ir.Value
		if mv := a.vals[2]; given(mv) {
			m := c.runtimeArg(mv, "the mask of "+what, a.pos)
			if m == nil {
				return invalid
			}
			if m.Type.Kind != ir.Bool {
				return c.errorf(a.pos, diag.CodeType, "the mask of %s must be boolean (i1), got %s", what, m.Type)
			}
			if s, ok := broadcastShape(ptr.Type.Shape, m.Type.Shape); !ok || !s.Equal(ptr.Type.Shape) {
				return c.errorf(a.pos, diag.CodeType, "the mask of %s has shape %s, which does not match the pointer's shape %s", what, m.Type.Shape, ptr.Type.Shape)
			}
			mask = c.splatTo(m, ptr.Type.Shape, a.pos)
		}
		v := c.emit(ir.OpAtomicRMW, x.Type, a.pos, ptr, x, mask)
		v.Atomic, v.Sem, v.Scope = op, sem, scope
		return rtVal(v)
	}
}

// bAtomicCAS is tl.atomic_cas: elements of 16, 32 or 64 bits; cmp and val
// must have the pointee type (Python numbers are converted to it).
func bAtomicCAS(c *compiler, a *args) *val {
	const what = "tl.atomic_cas"
	ptr := c.atomicPtr(a.vals[0], what, a.pos)
	if ptr == nil {
		return invalid
	}
	if b := ptr.Type.Elem.Bits(); b != 16 && b != 32 && b != 64 {
		return c.errorf(a.pos, diag.CodeType, "tl.atomic_cas only supports elements with width {16, 32, 64}, got %s", ir.Scalar(ptr.Type.Elem).PyName())
	}
	sem, scope, ok := c.memOrder(a, 3, a.pos)
	if !ok {
		return invalid
	}
	cmp := c.atomicOperand(a.vals[1], ptr, what, "cmp", false, a.pos)
	if cmp == nil {
		return invalid
	}
	x := c.atomicOperand(a.vals[2], ptr, what, "val", false, a.pos)
	if x == nil {
		return invalid
	}
	v := c.emit(ir.OpAtomicCAS, x.Type, a.pos, ptr, cmp, x)
	v.Sem, v.Scope = sem, scope
	return rtVal(v)
}
