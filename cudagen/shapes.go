package cudagen

// This file implements the shape ops: broadcast and expand_dims, which in
// the layouts chosen by propagate.go only re-index a thread's registers,
// and trans, reshape, join and split, which convert through shared memory
// (each thread stores its elements, a barrier, each thread loads the
// elements of the new layout, a barrier so the scratch can be reused).

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// shapeOp writes broadcast, expand_dims, trans, reshape, join, split and
// tuple_get.
func (e *emitter) shapeOp(v *ir.Value) {
	src := v.Args[0]
	switch {
	case v.Op == ir.OpTupleGet:
		name := e.resNames[src.ID][v.Axis]
		e.define(v, func(i string) string { return e.elem(name, v.Type, i) })
	case v.Op == ir.OpJoin && src.Type.IsScalar():
		// tl.join (and tl.interleave) of two scalars is a [2] tile: element
		// 0 is the first scalar, element 1 the second.
		d := e.layoutOf(v)
		e.define(v, func(i string) string {
			return fmt.Sprintf("(%s) == 0 ? %s : %s", e.coord(d, 0, i), e.expr(src, ""), e.expr(v.Args[1], ""))
		})
	case src.Type.IsScalar():
		e.define(v, func(string) string { return e.expr(src, "") })
	case e.remat[v.ID] != nil:
		sd, d := e.remat[v.ID], e.layoutOf(v)
		if src.Op == ir.OpLoad {
			e.w.line("// %s is loaded in #%s, the layout of its user at line %d, rather than moved.", e.indexName(src), sd.Tag, v.Pos.Line)
		} else {
			e.w.line("// %s is recomputed in #%s rather than moved.", e.indexName(src), sd.Tag)
		}
		e.defineAt(v, func(i string) string { return d.remap(sd, keptAxes(v), i) }, func(j string) string { return e.indexExpr(src, sd, j) })
	case v.Op == ir.OpSplit:
		e.convertSplit(v)
	default:
		e.convertValue(v)
	}
}

// indexName names an index value in comments.
func (e *emitter) indexName(v *ir.Value) string {
	if n := e.names[v.ID]; n != "" {
		return n
	}
	return "the index"
}

// indexExpr is the C expression of element j, in layout d, of the index
// value v (see isIndex), computed from d's coordinates, or of a load of
// such indices (see reloadable).
func (e *emitter) indexExpr(v *ir.Value, d *dist, j string) string {
	if v.Type.IsScalar() {
		return e.expr(v, "")
	}
	arg := func(n int) string { return "(" + e.indexExpr(v.Args[n], d, j) + ")" }
	switch v.Op {
	case ir.OpArange:
		if v.Const.Int != 0 {
			return fmt.Sprintf("%d + %s", v.Const.Int, e.coord(d, 0, j))
		}
		return e.coord(d, 0, j)
	case ir.OpSplat:
		return e.expr(v.Args[0], "")
	case ir.OpMultipleOf, ir.OpMaxContiguous:
		return e.indexExpr(v.Args[0], d, j)
	case ir.OpCast:
		return e.castExpr(v.Args[0].Type.DType, v.Type.DType, arg(0), v.Flags)
	case ir.OpPtrAdd:
		return arg(0) + " + " + arg(1)
	case ir.OpLoad: // a load issued again in d (reloadable)
		return "*" + arg(0)
	}
	if v.Op.IsCompare() {
		return e.compareExpr(v.Op, v.Args[0].Type.DType, arg(0), arg(1))
	}
	args := make([]string, len(v.Args))
	for n := range v.Args {
		args[n] = arg(n)
	}
	return intOp(v.Op, v.Type.Kind, args)
}

// convertValue writes v, whose elements are read from shared memory
// after its operands are stored there.
func (e *emitter) convertValue(v *ir.Value) {
	d := e.layoutOf(v)
	in := v.Args[0]
	size := in.Type.Shape.NumElements() * in.Type.Kind.Bytes()
	e.w.line("// Layout conversion #%s -> #%s through shared memory.", e.layoutOf(in).Tag, d.Tag)
	e.useShared(convertBytes(v))
	for k, a := range v.Args {
		e.storeShared(a, k*size)
	}
	e.w.line("__syncthreads();")
	inShape := in.Type.Shape
	// Element i is read at index tri_j of the scratch memory.
	at := func(i string) string {
		if v.Op == ir.OpBroadcast {
			// The source's coordinate is 0 along the broadcast axes.
			src := make([]string, len(inShape))
			for a := range src {
				src[a] = "0"
				if inShape[a] > 1 {
					src[a] = e.coord(d, a, i)
				}
			}
			return linearOf(inShape, src)
		}
		c := e.coords(d, i)
		switch v.Op {
		case ir.OpTrans:
			src := make([]string, len(c))
			for j, p := range v.Perm {
				src[p] = c[j]
			}
			return linearOf(inShape, src)
		case ir.OpJoin:
			last := len(c) - 1
			idx := linearOf(inShape, c[:last])
			return fmt.Sprintf("(%s) * %d + %s", c[last], inShape.NumElements(), idx)
		case ir.OpExpandDims:
			src := append(append([]string{}, c[:v.Axis]...), c[v.Axis+1:]...)
			return linearOf(inShape, src)
		}
		return linearOf(d.Shape, c) // reshape: the same row-major index
	}
	e.defineAt(v, at, func(j string) string { return e.smem(v.Type.DType, 0, j) })
	e.w.line("__syncthreads();")
}

// convertSplit writes the two halves of a tile whose last dimension is 2.
func (e *emitter) convertSplit(v *ir.Value) {
	in := v.Args[0]
	d := e.layoutOf(v)
	if d == nil {
		// A tile of shape [2] splits into two scalars, which have no
		// layout: every thread reads both elements.
		e.w.line("// Split through shared memory: #%s -> two scalars.", e.layoutOf(in).Tag)
	} else {
		e.w.line("// Split through shared memory: #%s -> #%s.", e.layoutOf(in).Tag, d.Tag)
	}
	e.useShared(splitBytes(v))
	e.storeShared(in, 0)
	e.w.line("__syncthreads();")
	for j, name := range e.resNames[v.ID] {
		t := v.Types[j]
		if d == nil {
			e.declare(t, nil, name, e.smem(t.DType, 0, fmt.Sprint(j)))
			continue
		}
		e.declare(t, d, name, "")
		e.loop(d.Elems, func(i string) string {
			idx := linearOf(d.Shape, e.coords(d, i))
			return fmt.Sprintf("%s = %s;", e.elem(name, t, i), e.smem(t.DType, 0, fmt.Sprintf("(%s) * 2 + %d", idx, j)))
		})
	}
	e.w.line("__syncthreads();")
}
