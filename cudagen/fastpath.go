package cudagen

// This file implements the full-tile fast path. In a run of straight-line
// statements, when every mask of a tile load or store has the form
// affine(arange) < bound (or an & of such), all lanes are on exactly when
// the tile's largest index is below the bound: one scalar test per
// program. The run is then printed twice from its first masked access on:
// unmasked and vectorized under the test, masked element by element in the
// else branch (the last, partial tile).

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// region writes the straight-line statements b.Stmts[from:to].
func (e *emitter) region(b *ir.Block, from, to int) {
	split, test := e.fullTest(b, from, to)
	if split < 0 {
		for _, s := range b.Stmts[from:to] {
			e.nest.stmt(s)
		}
		return
	}
	for _, s := range b.Stmts[from:split] {
		e.nest.stmt(s)
	}
	rest := b.Stmts[split:to]
	e.lastLine = 0
	e.w.line("// The rest of this block is written twice: for a full tile and for the last, partial one.")
	for _, s := range rest {
		if v, ok := s.(*ir.Value); ok && e.names[v.ID] != "" && v.Type.Kind != ir.Void && !e.fused[v.ID] {
			e.outside[v.ID] = true
			e.declare(v.Type, e.layoutOf(v), e.names[v.ID], "")
		}
	}
	e.markMaskOnly(b, split, to)
	e.w.open("if (%s) {", test)
	e.w.line("// Full tile: every mask below is true; unmasked, vectorized accesses.")
	e.fast = true
	e.lastLine = 0
	for _, s := range rest {
		e.nest.stmt(s)
	}
	e.fast = false
	e.w.indent--
	e.w.line("} else {")
	e.w.indent++
	e.w.line("// Partial tile: masked accesses, element by element.")
	e.lastLine = 0
	for _, s := range rest {
		e.nest.stmt(s)
	}
	e.w.close("}")
	e.lastLine = 0
}

// fullTest finds where the fast path of b.Stmts[from:to] starts and the C
// test that selects it; split is -1 when the run gets no fast path.
func (e *emitter) fullTest(b *ir.Block, from, to int) (split int, test string) {
	split = -1
	var conds []string
	seen := map[string]bool{}
	vectorized := false
	for i := from; i < to; i++ {
		v, ok := b.Stmts[i].(*ir.Value)
		if !ok {
			continue
		}
		mask := e.testedMask(v)
		if mask == nil {
			continue
		}
		a, isTile := accessOf(v)
		if !isTile {
			return -1, ""
		}
		if split < 0 {
			split = i
		}
		cs, ok := e.maskTest(mask, b, split)
		if !ok {
			return -1, ""
		}
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				conds = append(conds, c)
			}
		}
		if e.vectorWidth(a) > 1 && v.Flags&ir.FlagVolatile == 0 {
			vectorized = true
		}
	}
	if split < 0 || !vectorized {
		return -1, ""
	}
	if len(conds) == 0 {
		return split, "true"
	}
	return split, strings.Join(conds, " && ")
}

// testedMask is the mask of v, a load or store, that the full-tile test
// covers, or nil: v is no access, has no mask, or is a TMA or direct
// store (the TMA unit writes only what lies inside the tensor: a TMA
// store needs no test of its mask).
func (e *emitter) testedMask(v *ir.Value) *ir.Value {
	var mask *ir.Value
	switch v.Op {
	case ir.OpLoad:
		mask = v.Args[1]
	case ir.OpStore:
		mask = v.Args[2]
	}
	if mask == nil || e.tmaStores[v.ID] != nil || e.directStores[v.ID] {
		return nil
	}
	return mask
}

// bound is one comparison of a full-tile mask: every lane's af (an
// integer tile of dtype d) is below limit, a scalar (at most limit where
// le).
type bound struct {
	af    affine
	d     ir.DType
	le    bool
	limit *ir.Value
}

// maskBounds splits mask, an & of comparisons affine(arange) < scalar (in
// either direction, broadcast or not), into its bounds, or reports that it
// has another form.
func maskBounds(mask *ir.Value) ([]bound, bool) {
	switch mask.Op {
	case ir.OpBroadcast, ir.OpExpandDims:
		return maskBounds(mask.Args[0])
	case ir.OpAnd:
		x, ok1 := maskBounds(mask.Args[0])
		y, ok2 := maskBounds(mask.Args[1])
		return append(x, y...), ok1 && ok2
	case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
	default:
		return nil, false
	}
	lhs, rhs := mask.Args[0], mask.Args[1]
	if mask.Op == ir.OpGt || mask.Op == ir.OpGe {
		lhs, rhs = rhs, lhs
	}
	d := lhs.Type.DType
	if !d.Kind.IsInt() || d.Kind == ir.Bool || rhs.Op != ir.OpSplat {
		return nil, false
	}
	af, ok := affineOf(lhs)
	if !ok {
		return nil, false
	}
	return []bound{{af: af, d: d, le: mask.Op == ir.OpLe || mask.Op == ir.OpGe, limit: rhs.Args[0]}}, true
}

// maskTest returns the conditions under which every lane of mask is true,
// using only scalars defined before statement split of b.
func (e *emitter) maskTest(mask *ir.Value, b *ir.Block, split int) ([]string, bool) {
	bs, ok := maskBounds(mask)
	if !ok {
		return nil, false
	}
	var conds []string
	for _, bd := range bs {
		if !e.definedBefore(bd.limit, b, split) {
			return nil, false
		}
		d := bd.d
		var parts []string
		for _, t := range bd.af.terms {
			if !e.definedBefore(t.v, b, split) {
				return nil, false
			}
			x := e.expr(t.v, "")
			if t.v.Type.DType != d {
				x = fmt.Sprintf("(%s)%s", e.cType(d), x)
			}
			if t.mult != 1 {
				x = fmt.Sprintf("%s * %s", x, e.literal(d, ir.IntConst(t.mult)))
			}
			parts = append(parts, x)
		}
		if k := bd.af.k + bd.af.hi; k != 0 || len(parts) == 0 {
			parts = append(parts, e.literal(d, ir.IntConst(k)))
		}
		opr := "<"
		if bd.le {
			opr = "<="
		}
		conds = append(conds, fmt.Sprintf("%s %s %s", strings.Join(parts, " + "), opr, e.expr(bd.limit, "")))
	}
	return conds, true
}

// definedBefore reports whether scalar v is available before statement
// split of b.
func (e *emitter) definedBefore(v *ir.Value, b *ir.Block, split int) bool {
	if v.Op == ir.OpConst || v.Op == ir.OpParam {
		return true
	}
	d := e.defs[v.ID]
	return d.Block != b || d.Index < split
}

// affine is sum(terms) + k + sum(c_i*arange_i) over the elements of a
// tile; hi is the largest value the arange part takes.
type affine struct {
	terms []term
	k, hi int64
	lo    int64 // the smallest value of the arange part (negative coefficients)
}

type term struct {
	v    *ir.Value // an integer scalar
	mult int64
}

func (a affine) scale(m int64) affine {
	out := affine{k: a.k * m, hi: a.hi * m, lo: a.lo * m}
	if m < 0 {
		out.hi, out.lo = out.lo, out.hi
	}
	for _, t := range a.terms {
		out.terms = append(out.terms, term{t.v, t.mult * m})
	}
	return out
}

func (a affine) plus(b affine) affine {
	return affine{terms: append(append([]term{}, a.terms...), b.terms...), k: a.k + b.k, hi: a.hi + b.hi, lo: a.lo + b.lo}
}

// affineOf decomposes an integer tile built from arange, splats, + and -,
// and multiplication by constants.
func affineOf(v *ir.Value) (affine, bool) {
	switch v.Op {
	case ir.OpArange:
		return affine{k: v.Const.Int, hi: int64(v.Type.Shape[0] - 1)}, true
	case ir.OpBroadcast, ir.OpExpandDims:
		if v.Args[0].Type.IsScalar() {
			return affineOf(&ir.Value{Op: ir.OpSplat, Args: v.Args})
		}
		return affineOf(v.Args[0])
	case ir.OpSplat:
		if s := v.Args[0]; s.Op == ir.OpConst {
			return affine{k: s.Const.Int}, true
		}
		return affine{terms: []term{{v.Args[0], 1}}}, true
	case ir.OpMultipleOf, ir.OpMaxContiguous:
		return affineOf(v.Args[0])
	case ir.OpAdd, ir.OpSub:
		x, ok1 := affineOf(v.Args[0])
		y, ok2 := affineOf(v.Args[1])
		if v.Op == ir.OpSub {
			y = y.scale(-1)
		}
		return x.plus(y), ok1 && ok2
	case ir.OpMul:
		for i := 0; i < 2; i++ {
			if c := v.Args[1-i]; c.Op == ir.OpSplat && c.Args[0].Op == ir.OpConst {
				x, ok := affineOf(v.Args[i])
				return x.scale(c.Args[0].Const.Int), ok
			}
		}
	}
	return affine{}, false
}

// markMaskOnly marks the values of b.Stmts[from:to] that only feed masks
// of accesses in that range: the full-tile path leaves them out.
func (e *emitter) markMaskOnly(b *ir.Block, from, to int) {
	in := func(v *ir.Value) bool {
		d := e.defs[v.ID]
		return d.Block == b && d.Index >= from && d.Index < to
	}
	var only func(v *ir.Value) bool
	only = func(v *ir.Value) bool {
		if !in(v) || e.ctlUse[v.ID] > 0 || v.Type.Kind != ir.Bool || len(e.users[v.ID]) == 0 {
			return false
		}
		for _, u := range e.users[v.ID] {
			switch {
			case !in(u):
				return false
			case u.Op == ir.OpLoad && u.Args[1] == v && u.Args[0] != v && u.Args[2] != v:
			case u.Op == ir.OpStore && u.Args[2] == v && u.Args[0] != v && u.Args[1] != v:
			case (u.Op == ir.OpAnd || u.Op == ir.OpBroadcast || u.Op == ir.OpExpandDims) && only(u):
			default:
				return false
			}
		}
		return true
	}
	for i := from; i < to; i++ {
		if v, ok := b.Stmts[i].(*ir.Value); ok && only(v) {
			e.skip[v.ID] = true
		}
	}
}
