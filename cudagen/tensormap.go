package cudagen

// This file holds the tensor maps (CUtensorMap) that the pipelines' TMA
// copies read: the one check of a load the TMA unit may copy (tmaBoxes),
// which the K loop of one dot (tmaFor) and a streamed b of a loop of
// several dots (multiplan.go's multiTMA) make with their box shapes, the
// kernel's maps, and TensorMap, each map as the launch encodes it.

import (
	"slices"

	"github.com/tri-lang/tri/ir"
)

// wgmmaRowAxes are the axes of a view of a's rows in which one box of m
// rows lands them in shared memory in the order permRow gives (numWarps
// warps): the row axis of 8 consecutive rows, then, innermost first, the
// repetitions i % 2 (8 * numWarps rows apart), the warps of a warpgroup
// (8 rows apart), the repetitions i / 2 (16 * numWarps apart) and the
// warpgroups (32 apart), leaving out those of one block and padded to
// three with axes of one block, so that every view has rank 5. Nil where
// permRow's order has gaps (fewer than two repetitions) or the view would
// need more than five axes.
func wgmmaRowAxes(m, numWarps int) []rowAxis {
	w := numWarps
	reps := m / (8 * w)
	if w%4 != 0 || reps < 2 || reps%2 != 0 || m != reps*8*w {
		return nil
	}
	var axes []rowAxis
	for _, a := range []rowAxis{{2, 8 * w}, {4, 8}, {reps / 2, 16 * w}, {w / 4, 32}} {
		if a.Count > 1 {
			axes = append(axes, a)
		}
	}
	if len(axes) > 3 {
		return nil
	}
	for len(axes) < 3 {
		axes = append(axes, rowAxis{1, 1})
	}
	return axes
}

// TensorMap is a CUtensorMap parameter of a kernel, for the TMA copies of
// blocks of a tensor descriptor made on the host: the launch encodes it
// (cuTensorMapEncodeTiled) from the descriptor's base, shape and strides,
// which are kernel parameters too.
type TensorMap struct {
	Name      string // the C parameter
	Base      int    // index in Params of the descriptor's base pointer
	Shape     []int  // indices in Params of its shape, outermost first
	Strides   []int  // indices in Params of its strides but the last (which is 1)
	ElemBytes int
	Box       []int // the box copied, in elements, outermost first
	Swizzle   int   // bytes of a swizzled row in shared memory
	// RowAxes, where not empty, make the map a view of the descriptor's
	// rows of rank 2 + len(RowAxes): Box[0] consecutive rows (the row axis,
	// of all the descriptor's rows), repeated along each of these axes,
	// innermost first, so that one box lands the rows of a dot's a operand
	// in the order wgmma reads them.
	RowAxes []RowAxis
}

// RowAxis is an axis of a tensor map's view of a descriptor's rows: Count
// blocks of rows, Stride rows apart (the box spans all Count).
type RowAxis struct{ Count, Stride int }

// param is tm as a parameter of kernel k.
func (tm *tensorMap) param(k *ir.Kernel, name string) TensorMap {
	out := TensorMap{Name: name, Base: -1, Shape: []int{-1, -1}, Strides: []int{-1}, ElemBytes: tm.elem,
		Box: []int{tm.BoxRows, tm.BoxInner}, Swizzle: tm.Swizzle}
	if len(tm.rows) > 0 {
		out.Box[0] = 8
		for _, a := range tm.rows {
			out.RowAxes = append(out.RowAxes, RowAxis(a))
		}
	}
	for i, prm := range k.Params {
		if prm.Of != tm.Of {
			continue
		}
		switch prm.Part {
		case "base":
			out.Base = i
		case "shape0":
			out.Shape[0] = i
		case "shape1":
			out.Shape[1] = i
		case "stride0":
			out.Strides[0] = i
		}
	}
	return out
}

// tmaFor returns the tensor map the TMA unit copies pipelined load ld
// with, or nil where it cannot: ld must read a rank-2 block of a
// descriptor, whose rows (k elements of es bytes) are one swizzle row,
// rows at a time, with ok (a's rows go in 8-row atoms to their permuted
// places; b's must be K-major). A descriptor made in the kernel must be
// made outside the loop (inLoop reports the values made inside it), so
// that its map is built before the loop.
func (p *plan) tmaFor(ld *ir.Value, rows, k, es int, ok bool, boxRows int, inLoop func(*ir.Value) bool) *tensorMap {
	if !ok || ld.Type.Shape.Rank() != 2 || ld.Type.Shape[1] != k || rows%boxRows != 0 {
		return nil
	}
	return p.tmaBoxes(ld, boxRows, k, es, inLoop)
}

// tmaBoxes is the check both pipeline forms make of a streamed load (or
// an operand stored once) that the TMA unit may copy: the tensor map of
// ld's descriptor in boxes of boxRows rows of boxInner elements of es
// bytes, each row one swizzle row (32, 64 or 128 bytes), or nil where the
// TMA unit cannot take it: the target or Options leave it out, ld does
// not read a rank-2 block of a descriptor it can copy, a box has more
// than 256 rows, or the descriptor is made in the loop (inLoop reports
// the values made inside it), whose map must be built before the loop.
func (p *plan) tmaBoxes(ld *ir.Value, boxRows, boxInner, es int, inLoop func(*ir.Value) bool) *tensorMap {
	d := ld.Desc
	row := boxInner * es
	if !p.tma || !p.wgmma || !tmaDesc(d) || ld.Type.Shape.Rank() != 2 || (row != 32 && row != 64 && row != 128) || boxRows > 256 {
		return nil
	}
	if !d.Host() && slices.ContainsFunc(descMade(d), inLoop) {
		return nil
	}
	return p.tensorMapOf(d, boxRows, boxInner, row, es, nil)
}

// tensorMapOf is the kernel's tensor map of descriptor d in boxes of rows
// x inner elements of es bytes, swizzled in rows of swizzle bytes (0:
// none): the one the kernel has, or a new one that addTensorMap adds.
func (p *plan) tensorMapOf(d *ir.DescAccess, rows, inner, swizzle, es int, axes []rowAxis) *tensorMap {
	for _, tm := range append(slices.Clip(p.tmaps), p.devMaps...) {
		if tm.BoxRows == rows && tm.BoxInner == inner && tm.Swizzle == swizzle && slices.Equal(tm.rows, axes) && sameDesc(tm, d) {
			return tm
		}
	}
	if d.Host() {
		return &tensorMap{Of: d.Base.Param.Of, BoxInner: inner, BoxRows: rows, Swizzle: swizzle, rows: axes, elem: es}
	}
	return &tensorMap{BoxInner: inner, BoxRows: rows, Swizzle: swizzle, rows: axes, elem: es, dev: d}
}

// addTensorMap makes tm a map of the kernel, once, for the TMA copies of
// user (a pipelined loop or a store).
func (p *plan) addTensorMap(tm *tensorMap, user ir.Stmt) {
	if tm == nil {
		return
	}
	switch {
	case tm.dev == nil && !slices.Contains(p.tmaps, tm):
		p.tmaps = append(p.tmaps, tm)
	case tm.dev != nil && !slices.Contains(p.devMaps, tm):
		p.devMaps = append(p.devMaps, tm)
	}
	p.mapUsers[tm] = append(p.mapUsers[tm], user)
}
