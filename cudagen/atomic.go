package cudagen

// This file implements atomics: atom.global.<op> and atom.global.cas as
// inline PTX with the op's memory ordering and scope. Every element is
// updated once, by the thread that owns it (replicated copies skip it);
// masked-off elements are skipped and read as zero. A scalar atomic is
// done by thread 0 alone and its old value shared with the whole program
// through shared memory, as Triton does, so that a spin lock
// (while tl.atomic_cas(lock, 0, 1) == 1: pass) is taken once per program.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

var semNames = map[ir.MemSem]string{ir.SemAcqRel: "acq_rel", ir.SemAcquire: "acquire", ir.SemRelease: "release", ir.SemRelaxed: "relaxed"}
var scopeNames = map[ir.MemScope]string{ir.ScopeGPU: "gpu", ir.ScopeCTA: "cta", ir.ScopeSys: "sys"}

// ptxReg is the inline-asm constraint and the PTX bit type of kind k.
func ptxReg(k ir.Kind) (constraint, bits string) {
	switch k.Bytes() {
	case 8:
		if k == ir.Float64 {
			return "d", "b64"
		}
		return "l", "b64"
	case 2:
		return "h", "b16"
	}
	if k == ir.Float32 {
		return "f", "b32"
	}
	return "r", "b32"
}

// atomicHelper defines (once) and names the helper doing atomic op on
// dtype d.
func (e *emitter) atomicHelper(v *ir.Value, d ir.DType) string {
	k := d.Kind
	deps := nameSet{}
	t := deps.regType(k)
	order := "." + semNames[v.Sem] + "." + scopeNames[v.Scope]
	suffix := strings.ReplaceAll(semNames[v.Sem]+"_"+scopeNames[v.Scope], ".", "_")
	c, bits := ptxReg(k)
	if v.Op == ir.OpAtomicCAS {
		name := fmt.Sprintf("tri_atomic_cas_%s_%s", k, suffix)
		e.helpers.add(name, helperDecl(t, name, fmt.Sprintf("%s* p, %s cmp, %s v", t, t, t),
			fmt.Sprintf(`%s r; asm volatile("atom%s.global.cas.%s %%0, [%%1], %%2, %%3;" : "=%s"(r) : "l"(p), "%s"(cmp), "%s"(v) : "memory"); return r;`, t, order, bits, c, c, c), deps))
		return name
	}
	name := fmt.Sprintf("tri_atomic_%s_%s_%s", v.Atomic, k, suffix)
	ptxType := bits
	op := v.Atomic.String()
	switch v.Atomic {
	case ir.AtomicXchg:
		op = "exch"
	case ir.AtomicAdd:
		if k == ir.BFloat16 && ArchVersion(e.opt.arch()) < 90 {
			return e.bf16AddCASHelper(name, order)
		}
		switch {
		case k == ir.Float16:
			ptxType = "noftz.f16"
		case k == ir.BFloat16:
			ptxType = "noftz.bf16"
		case k.IsFloat():
			ptxType = "f" + fmt.Sprint(k.Bits())
		case k.Bytes() == 8:
			ptxType = "u64"
		default:
			ptxType = "u32"
		}
	case ir.AtomicMax, ir.AtomicMin:
		if k.IsFloat() {
			return e.floatMinMaxHelper(v, d, order, suffix)
		}
		ptxType = fmt.Sprintf("s%d", k.Bits())
		if k.IsUnsigned() {
			ptxType = fmt.Sprintf("u%d", k.Bits())
		}
	}
	e.helpers.add(name, helperDecl(t, name, fmt.Sprintf("%s* p, %s v", t, t),
		fmt.Sprintf(`%s r; asm volatile("atom%s.global.%s.%s %%0, [%%1], %%2;" : "=%s"(r) : "l"(p), "%s"(v) : "memory"); return r;`, t, order, op, ptxType, c, c), deps))
	return name
}

// bf16AddCASHelper defines the helper name doing a bf16 atomic add with
// a compare-and-swap loop: atom.add.noftz.bf16 needs sm_90, and the sum
// of two bf16 values rounded once from float is what that instruction
// stores. The loop compares bits, so a NaN in memory does not make it spin.
func (e *emitter) bf16AddCASHelper(name, order string) string {
	body := `tri_bf16 r = *(volatile tri_bf16*)p, seen; do { seen = r; tri_bf16 sum = tri_f2bf(tri_bf2f(seen) + tri_bf2f(v)); ` +
		`asm volatile("atom` + order + `.global.cas.b16 %0, [%1], %2, %3;" : "=h"(r) : "l"(p), "h"(seen), "h"(sum) : "memory"); } ` +
		`while (r != seen); return r;`
	e.helpers.add(name, helperDecl("tri_bf16", name, "tri_bf16* p, tri_bf16 v", body, nameSet{"tri_bf16": true, "tri_f2bf": true, "tri_bf2f": true}))
	return name
}

// floatMinMaxHelper is atomic max or min on floats as Triton does it: on
// the bits, as a signed max for values with the sign bit clear and an
// unsigned min for those with it set (the reverse for min). The test is
// the sign bit (b >= 0 on the signed bits), not v >= 0: -0.0 compares
// equal to 0 but, as a signed integer, is below every negative float's
// bits, so max(-FLT_MAX, -0.0) would stay -FLT_MAX.
func (e *emitter) floatMinMaxHelper(v *ir.Value, d ir.DType, order, suffix string) string {
	k := d.Kind
	deps := nameSet{}
	t := deps.regType(k)
	name := fmt.Sprintf("tri_atomic_%s_%s_%s", v.Atomic, k, suffix)
	n := k.Bits()
	it, ut := "int", "unsigned int"
	c := "r"
	bitsOf, fromBits := "tri_bits_f32", "tri_f32_bits"
	if n == 64 {
		it, ut, c = "long long", "unsigned long long", "l"
		bitsOf, fromBits = "tri_bits_f64", "tri_f64_bits"
	}
	deps.use(bitsOf, fromBits)
	if n != 32 && n != 64 {
		panic(fmt.Sprintf("atomic %s on %s", v.Atomic, k))
	}
	pos, neg := "max", "min"
	if v.Atomic == ir.AtomicMin {
		pos, neg = "min", "max"
	}
	body := fmt.Sprintf(`%s r; %s b = (%s)%s(v); `+
		`if (b >= 0) asm volatile("atom%s.global.%s.s%d %%0, [%%1], %%2;" : "=%s"(r) : "l"(p), "%s"(b) : "memory"); `+
		`else asm volatile("atom%s.global.%s.u%d %%0, [%%1], %%2;" : "=%s"(r) : "l"(p), "%s"(b) : "memory"); `+
		`return %s((%s)r);`, ut, it, it, bitsOf, order, pos, n, c, c, order, neg, n, c, c, fromBits, ut)
	e.helpers.add(name, helperDecl(t, name, fmt.Sprintf("%s* p, %s v", t, t), body, deps))
	return name
}

// atomic writes an OpAtomicRMW or OpAtomicCAS.
func (e *emitter) atomic(v *ir.Value) {
	ptr := v.Args[0]
	var mask *ir.Value
	if v.Op == ir.OpAtomicRMW && len(v.Args) > 2 {
		mask = v.Args[2]
	}
	fn := e.atomicHelper(v, v.Type.DType)
	e.use(fn)
	call := func(i string) string {
		args := []string{e.expr(ptr, i)}
		for _, a := range v.Args[1:] {
			if a != nil && a != mask {
				args = append(args, e.expr(a, i))
			}
		}
		if v.Op == ir.OpAtomicRMW {
			args = args[:2]
		}
		return fmt.Sprintf("%s(%s)", fn, strings.Join(args, ", "))
	}
	used := len(e.users[v.ID]) > 0 || e.ctlUse[v.ID] > 0
	name := e.names[v.ID]
	if !used {
		name = ""
	}
	zero := e.zero(v.Type.DType)
	if ptr.Type.IsScalar() {
		e.use("tri_thread_id")
		cond := "tri_thread_id() == 0"
		if mask != nil {
			cond += " && " + e.expr(mask, "")
		}
		if !used {
			e.w.line("if (%s) %s;", cond, call(""))
			return
		}
		e.w.line("// Thread 0 does the atomic; the program shares its result.")
		e.useShared(atomicScalarBytes)
		e.w.line("if (tri_thread_id() == 0) %s = %s;", e.smem(v.Type.DType, 0, "0"), e.maskedCall(mask, call(""), zero))
		e.w.line("__syncthreads();")
		e.define(v, func(string) string { return e.smem(v.Type.DType, 0, "0") })
		e.w.line("__syncthreads();")
		return
	}
	l := e.layoutOf(ptr)
	var conds []string
	if l.Repl {
		conds = append(conds, l.owner())
	}
	if !e.outside[v.ID] && !e.fused[v.ID] && name != "" {
		e.declare(v.Type, l, name, "")
	}
	e.loop(l.Elems, func(i string) string {
		cs := conds
		if mask != nil {
			cs = append(append([]string{}, cs...), e.expr(mask, i))
		}
		c := call(i)
		if name == "" {
			if len(cs) == 0 {
				return c + ";"
			}
			return fmt.Sprintf("if (%s) %s;", strings.Join(cs, " && "), c)
		}
		if len(cs) == 0 {
			return fmt.Sprintf("%s[%s] = %s;", name, i, c)
		}
		return fmt.Sprintf("%s[%s] = %s ? %s : %s;", name, i, strings.Join(cs, " && "), c, zero)
	})
	if name != "" && used && l.Repl {
		// Replicated copies did not run the atomic: they read the owner's result.
		e.w.line("// Replicated copies read the old values the owners got.")
		e.useShared(atomicShareBytes(v))
		e.loop(l.Elems, func(i string) string {
			return fmt.Sprintf("if (%s) %s = %s[%s];", l.owner(), e.smem(v.Type.DType, 0, linearOf(l.Shape, e.coords(l, i))), name, i)
		})
		e.w.line("__syncthreads();")
		e.loop(l.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.smem(v.Type.DType, 0, linearOf(l.Shape, e.coords(l, i))))
		})
		e.w.line("__syncthreads();")
	}
}

// maskedCall is call under a scalar mask, zero where it is false.
func (e *emitter) maskedCall(mask *ir.Value, call, zero string) string {
	if mask == nil {
		return call
	}
	return fmt.Sprintf("%s ? %s : %s", e.expr(mask, ""), call, zero)
}
