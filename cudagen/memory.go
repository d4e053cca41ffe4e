package cudagen

// This file implements loads and stores: element by element with masks,
// or, where the analysis proves contiguity and alignment and no mask
// applies, 8- and 16-byte vector accesses.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// zero is the value of masked-off lanes of a load without other.
func (s nameSet) zero(d ir.DType) string { return s.literal(d, ir.Const{}) }

// deref reads *p as a register value of kind k.
func (s nameSet) deref(k ir.Kind, p string, volatile bool) string {
	if volatile {
		p = fmt.Sprintf("(volatile %s*)%s", s.memType(k), p)
	}
	if k == ir.Bool {
		return fmt.Sprintf("*%s != 0", p)
	}
	return "*" + p
}

// load writes a load.
func (e *emitter) load(v *ir.Value) {
	ptr, mask, other := v.Args[0], v.Args[1], v.Args[2]
	if e.fast {
		mask = nil
	}
	k := v.Type.Kind
	volatile := v.Flags&ir.FlagVolatile != 0
	elem := func(i string) string {
		x := e.deref(k, e.expr(ptr, i), volatile)
		if mask == nil {
			return x
		}
		o := e.zero(v.Type.DType)
		if other != nil {
			o = e.expr(other, i)
		}
		if k == ir.Bool {
			x = "(" + x + ")"
		}
		return fmt.Sprintf("%s ? %s : %s", e.expr(mask, i), x, o)
	}
	if a, ok := accessOf(v); ok && mask == nil && !volatile {
		if w := e.vectorWidth(a); w > 1 {
			e.vectorLoad(v, a, w)
			return
		}
	}
	e.define(v, elem)
}

// store writes a store. Scalar stores and stores of replicated tiles are
// done by one thread per element.
func (e *emitter) store(v *ir.Value) {
	ptr, val, mask := v.Args[0], v.Args[1], v.Args[2]
	if e.fast {
		mask = nil
	}
	if ptr.Type.IsScalar() {
		e.use("tri_thread_id")
		cond := "tri_thread_id() == 0"
		if mask != nil {
			cond += " && " + e.expr(mask, "")
		}
		e.w.line("if (%s) *%s = %s;", cond, e.expr(ptr, ""), e.expr(val, ""))
		return
	}
	a, _ := accessOf(v)
	l := e.layoutOf(ptr)
	if src := e.layoutOf(val); src != l {
		name := e.convertForStore(v, l)
		e.override[val.ID] = name
		defer delete(e.override, val.ID)
	}
	if w := e.vectorWidth(a); w > 1 && mask == nil {
		if q, ok := e.laneTransposeOf(a, w); ok {
			e.transposedStore(v, a, q)
			return
		}
		e.vectorStore(v, a, w)
		return
	}
	e.loop(l.Elems, func(i string) string {
		var conds []string
		if l.Repl {
			conds = append(conds, l.owner())
		}
		if mask != nil {
			conds = append(conds, e.expr(mask, i))
		}
		st := fmt.Sprintf("*%s = %s;", e.expr(ptr, i), e.expr(val, i))
		if len(conds) == 0 {
			return st
		}
		return fmt.Sprintf("if (%s) %s", strings.Join(conds, " && "), st)
	})
}

// convertForStore moves the value of store v, a rank-2 tile, into the
// layout l of its pointers through shared memory, rows padded by 16 bytes
// so that neither side's accesses conflict on banks, in vectors of each
// side's run along a row, and returns the name of the array in l that
// holds it.
func (e *emitter) convertForStore(v *ir.Value, l *dist) string {
	val := v.Args[1]
	src := e.layoutOf(val)
	k := val.Type.Kind
	t := ir.Scalar(k)
	b := k.Bytes()
	pitch := storePitch(val)
	at := func(d *dist, i string) string {
		c := e.coords(d, i)
		return fmt.Sprintf("(%s) * %d + (%s)", c[0], pitch, c[1])
	}
	// run is the vector width of layout d's accesses: its run along a row,
	// at most 16 bytes, and one that divides the padded rows.
	run := func(d *dist) int {
		w := rowRun(d, b, 16)
		for w > 1 && pitch*b%(w*b) != 0 {
			w /= 2
		}
		if w*b < 4 {
			return 1
		}
		return w
	}
	name := fmt.Sprintf("tri_st%d", v.ID)
	e.w.line("// To the pointers' layout #%s through shared memory (from #%s), so that each store is coalesced.", l.Tag, src.Tag)
	e.useShared(storeConvertBytes(val))
	e.w.line("__syncthreads();  // the scratch memory is free")
	cond := ""
	if src.Repl {
		cond = fmt.Sprintf("if (%s) ", src.owner())
	}
	if w := run(src); w > 1 {
		vs := e.vectorShape(k, w)
		e.w.line("#pragma unroll")
		e.w.loop(fmt.Sprintf("for (int e = 0; e < %d; e += %d)", src.Elems, w), []string{"int tri_at = " + at(src, "e"), e.vecLocal(val, vs, w)},
			fmt.Sprintf("%s*reinterpret_cast<%s*>(&%s) = tri_v;", cond, vs.Type, e.smem(t, 0, "tri_at")))
	} else {
		e.loop(src.Elems, func(i string) string {
			return fmt.Sprintf("%s%s = %s;", cond, e.smem(t, 0, at(src, i)), e.expr(val, i))
		})
	}
	e.w.line("__syncthreads();")
	e.declare(val.Type, l, name, "")
	if w := run(l); w > 1 {
		e.w.line("#pragma unroll")
		e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, w)
		e.loadVector(name, k, w, "&"+e.smem(t, 0, at(l, "e")))
		e.w.close("}")
	} else {
		e.loop(l.Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.smem(t, 0, at(l, i)))
		})
	}
	e.w.line("__syncthreads();  // the scratch memory is free again")
	return name
}

// vectorLoad writes a load in vectors of w elements.
func (e *emitter) vectorLoad(v *ir.Value, a memAccess, w int) {
	name := e.names[v.ID]
	k := v.Type.Kind
	l := e.layoutOf(v)
	if !e.outside[v.ID] && !e.fused[v.ID] {
		e.declare(v.Type, l, name, "")
	}
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {  // %d-byte vector loads", l.Elems, w, w*a.Bytes)
	e.loadVector(name, k, w, e.expr(a.Ptr, "e"))
	e.w.close("}")
}

// loadVector writes the load of elements e to e + w - 1 of array name
// (of kind k) as one vector from address addr.
func (e *emitter) loadVector(name string, k ir.Kind, w int, addr string) {
	vs := e.vectorShape(k, w)
	e.w.line("%s vec = *reinterpret_cast<const %s*>(%s);", vs.Type, vs.Type, addr)
	var parts []string
	for j := 0; j < w; j++ {
		f := "vec" + vs.Fields[j/vs.PerField]
		parts = append(parts, fmt.Sprintf("%s[e + %d] = %s;", name, j, e.fromBits(k, f, j%vs.PerField, vs.PerField)))
	}
	e.wrapped(parts)
}

// vecInit is the C initializer of a vector of shape vs holding elements e
// to e + w - 1 of val.
func (e *emitter) vecInit(val *ir.Value, vs vecShape, w int) string {
	fields := e.vecFields(val, vs, w)
	if len(fields) == 1 {
		return fields[0]
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

// vecLocal is the declaration of the local tri_v, the vector of shape vs
// holding elements e to e + w - 1 of val.
func (e *emitter) vecLocal(val *ir.Value, vs vecShape, w int) string {
	return fmt.Sprintf("%s tri_v = %s", vs.Type, e.vecInit(val, vs, w))
}

// vecFields are the C expressions of the fields of the vector of elements
// e .. e + w-1 of val, as vecInit packs them.
func (e *emitter) vecFields(val *ir.Value, vs vecShape, w int) []string {
	k := val.Type.Kind
	fields := make([]string, len(vs.Fields))
	for j := 0; j < w; j++ {
		x := e.toBits(k, e.expr(val, fmt.Sprintf("e + %d", j)), j%vs.PerField, vs.PerField)
		if f := j / vs.PerField; fields[f] == "" {
			fields[f] = x
		} else {
			fields[f] += " | " + x
		}
	}
	return fields
}

// vectorStore writes a store in vectors of w elements.
func (e *emitter) vectorStore(v *ir.Value, a memAccess, w int) {
	val := v.Args[1]
	k := val.Type.Kind
	vs := e.vectorShape(k, w)
	l := e.layoutOf(v.Args[0])
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {  // %d-byte vector stores", l.Elems, w, w*a.Bytes)
	e.w.long(fmt.Sprintf("%s vec = %s;", vs.Type, e.vecInit(val, vs, w)))
	st := fmt.Sprintf("*reinterpret_cast<%s*>(%s) = vec;", vs.Type, e.expr(a.Ptr, "e"))
	if l.Repl {
		st = fmt.Sprintf("if (%s) %s", l.owner(), st)
	}
	e.w.line("%s", st)
	e.w.close("}")
}

// wrapped writes short statements several to a line.
func (e *emitter) wrapped(parts []string) {
	line := ""
	for _, p := range parts {
		if line != "" && len(line)+len(p) > 90 {
			e.w.line("%s", line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += p
	}
	if line != "" {
		e.w.line("%s", line)
	}
}
