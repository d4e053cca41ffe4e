package cudagen

// This file implements the shapes of vector accesses, which loads, stores
// and the stores into shared memory share: how many elements a thread
// holds one after another (runAlong), the C vector type that carries them
// (vectorShape), and the packing of elements into its 32-bit fields
// (toBits, fromBits).

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// rowRun is how many elements (of es bytes) a thread of rank-2 layout l
// holds one after another along a row from each of its element indices
// that the result divides (runAlong axis 1).
func rowRun(l *dist, es, limit int) int { return runAlong(l, 1, es, limit) }

// runAlong is how many elements (of es bytes) a thread of layout l holds
// as consecutive registers along axis from each of its element indices
// that the result divides: the largest power of two that divides its
// elements per thread along the axis, at most limit bytes (1 where its
// consecutive registers do not run along the axis).
func runAlong(l *dist, axis, es, limit int) int {
	w := 1
	if l.KStride[axis] == 1 {
		for w*2 <= l.Spt[axis] && l.Spt[axis]%(w*2) == 0 && w*2*es <= limit {
			w *= 2
		}
	}
	return w
}

// vecShape describes how w elements of kind k travel as one vector: the C
// vector type, its fields, and how many elements share a field.
type vecShape struct {
	Type     string
	Fields   []string
	PerField int
}

func (s nameSet) vectorShape(k ir.Kind, w int) vecShape {
	fields := func(n int) []string {
		if n == 1 {
			return []string{""}
		}
		return []string{".x", ".y", ".z", ".w"}[:n]
	}
	b := k.Bytes()
	vs := func(t string, fields []string, per int) vecShape {
		s.use(t)
		return vecShape{t, fields, per}
	}
	switch {
	case b == 8 && k == ir.Float64:
		return vs("tri_f64x2", fields(2), 1)
	case b == 8:
		return vs("tri_u64x2", fields(2), 1)
	case b == 4 && k == ir.Float32:
		return vs(fmt.Sprintf("tri_f32x%d", w), fields(w), 1)
	case b == 4:
		return vs(fmt.Sprintf("tri_u32x%d", w), fields(w), 1)
	}
	words := w * b / 4
	t := "unsigned int"
	if words > 1 {
		t = fmt.Sprintf("tri_u32x%d", words)
		s.use(t)
	}
	return vecShape{t, fields(words), 4 / b}
}

// fromBits is element j (of PerField) of the raw field f, as kind k.
func (s nameSet) fromBits(k ir.Kind, f string, j int, per int) string {
	if per == 1 {
		switch k {
		case ir.Float32, ir.Float64, ir.Uint32, ir.Uint64:
			return f
		}
		return fmt.Sprintf("(%s)%s", s.regType(k), f)
	}
	bits := 32 / per
	shifted := f
	if j > 0 {
		shifted = fmt.Sprintf("(%s >> %d)", f, j*bits)
	}
	switch k {
	case ir.Bool:
		return fmt.Sprintf("(%s & 0xffu) != 0", shifted)
	case ir.Int8, ir.Int16:
		return fmt.Sprintf("(%s)(%s)%s", s.regType(k), s.memType(unsignedOf(k)), shifted)
	}
	return fmt.Sprintf("(%s)%s", s.regType(k), shifted)
}

// toBits is the raw 32-bit contribution of element j of a field.
func (s nameSet) toBits(k ir.Kind, x string, j int, per int) string {
	if per == 1 {
		switch k {
		case ir.Float32, ir.Float64, ir.Uint32, ir.Uint64:
			return x
		}
		return fmt.Sprintf("(%s)%s", map[int]string{4: "unsigned int", 8: "unsigned long long"}[k.Bytes()], x)
	}
	b := fmt.Sprintf("(unsigned int)(%s)%s", s.memType(unsignedOf(k)), x)
	if k == ir.Bool {
		b = fmt.Sprintf("(unsigned int)%s", x)
	}
	if j > 0 {
		b = fmt.Sprintf("%s << %d", b, j*32/per)
	}
	return b
}

func unsignedOf(k ir.Kind) ir.Kind {
	switch k {
	case ir.Int8:
		return ir.Uint8
	case ir.Int16:
		return ir.Uint16
	}
	return k
}
