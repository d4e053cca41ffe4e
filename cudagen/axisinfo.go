package cudagen

// This file implements the contiguity and divisibility analysis that
// decides which loads and stores can be vectorized, after Triton's
// AxisInfo. For a 1-D tile, a value is split into runs of Contig
// consecutive integers (each run starting at an index that is a multiple
// of Contig); Div is a power of two dividing the first element of every
// run (in bytes for pointers), and Constancy is the length of runs of equal
// elements. A scalar is a tile of one element.

import "github.com/tri-lang/tri/ir"

// maxDiv stands for the divisibility of zero.
const maxDiv = int64(1) << 40

// axisInfo is what the analysis knows about one value.
type axisInfo struct {
	Contig    int64
	Div       int64
	Constancy int64
}

// bottom is the info of a value nothing is known about.
var bottom = axisInfo{1, 1, 1}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// pow2Div is the largest power of two dividing v, capped at maxDiv.
func pow2Div(v int64) int64 {
	if v == 0 {
		return maxDiv
	}
	d := v & -v
	if d < 0 || d > maxDiv {
		return maxDiv
	}
	return d
}

// pow2Floor is the largest power of two not above v (1 for v < 1).
func pow2Floor(v int64) int64 {
	p := int64(1)
	for p*2 <= v {
		p *= 2
	}
	return p
}

// elemDiv is the divisibility of the elements of a value at indices that
// are multiples of r (r a power of two).
func (a axisInfo) elemDiv(r int64) int64 {
	if r >= a.Contig {
		return a.Div
	}
	return gcd(a.Div, r)
}

func meet(a, b axisInfo) axisInfo {
	return axisInfo{gcd(a.Contig, b.Contig), gcd(a.Div, b.Div), gcd(a.Constancy, b.Constancy)}
}

// axisAnalysis holds the result per value ID.
type axisAnalysis struct {
	k      *ir.Kernel
	vals   []axisInfo
	vars   []axisInfo
	varSet []bool // vars[id] holds a fact (else: not assigned yet, optimistic)
	next   []axisInfo
	nextOK []bool
}

// analyzeAxes runs the analysis to a fixed point over loop-carried Vars.
func analyzeAxes(k *ir.Kernel) *axisAnalysis {
	a := &axisAnalysis{k: k, vals: make([]axisInfo, k.NumValues), vars: make([]axisInfo, k.NumVars), varSet: make([]bool, k.NumVars)}
	for _, p := range k.Params {
		if p.Value != nil {
			a.vals[p.Value.ID] = a.value(p.Value)
		}
	}
	for iter := 0; ; iter++ {
		a.next = make([]axisInfo, k.NumVars)
		a.nextOK = make([]bool, k.NumVars)
		a.block(k.Body)
		changed := false
		for i := range a.vars {
			if a.nextOK[i] && (!a.varSet[i] || a.next[i] != a.vars[i]) {
				a.vars[i], a.varSet[i], changed = a.next[i], true, true
			}
		}
		if !changed {
			return a
		}
		if iter == 20 {
			// Give up on precision; one more pass with nothing known.
			for i := range a.vars {
				a.vars[i], a.varSet[i] = bottom, true
			}
			a.block(k.Body)
			return a
		}
	}
}

func (a *axisAnalysis) assign(v *ir.Var, info axisInfo) {
	if a.nextOK[v.ID] {
		info = meet(info, a.next[v.ID])
	}
	a.next[v.ID], a.nextOK[v.ID] = info, true
}

func (a *axisAnalysis) block(b *ir.Block) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			a.vals[s.ID] = a.value(s)
		case *ir.Assign:
			a.assign(s.Var, a.vals[s.Value.ID])
		case *ir.For:
			a.assign(s.Var, axisInfo{1, gcd(a.vals[s.Lo.ID].Div, a.vals[s.Step.ID].Div), 1})
			a.block(s.Body)
		case *ir.While:
			a.block(s.Cond)
			a.block(s.Body)
		case *ir.If:
			a.block(s.Then)
			a.block(s.Else)
		}
	}
}

func (a *axisAnalysis) info(v *ir.Value) axisInfo { return a.vals[v.ID] }

func (a *axisAnalysis) value(v *ir.Value) axisInfo {
	n := int64(v.Type.Shape.NumElements())
	switch v.Op {
	case ir.OpConst:
		if v.Type.Kind.IsInt() {
			return axisInfo{1, pow2Div(v.Const.Int), n}
		}
		return axisInfo{1, 1, n}
	case ir.OpParam:
		p := v.Param
		switch {
		case p.DType.IsPtr() && p.DivisibleBy16:
			return axisInfo{1, 16, 1}
		case p.DType.IsPtr():
			return axisInfo{1, int64(p.DType.Elem.Bytes()), 1}
		case p.DivisibleBy16:
			return axisInfo{1, 16, 1}
		}
		return bottom
	case ir.OpArange:
		return axisInfo{n, pow2Div(v.Const.Int), 1}
	case ir.OpSplat:
		return axisInfo{1, a.info(v.Args[0]).Div, n}
	case ir.OpVarRead:
		if !a.varSet[v.Var.ID] {
			return axisInfo{n, maxDiv, n}
		}
		return a.vars[v.Var.ID]
	case ir.OpMultipleOf:
		in := a.info(v.Args[0])
		if len(v.Hints) > 0 {
			in.Div = pow2Div(int64(v.Hints[0]))
		}
		return in
	case ir.OpMaxContiguous:
		in := a.info(v.Args[0])
		if len(v.Hints) > 0 {
			in.Contig = pow2Floor(int64(v.Hints[0]))
		}
		return in
	case ir.OpAdd, ir.OpPtrAdd:
		x, y := a.info(v.Args[0]), a.info(v.Args[1])
		r := max(gcd(x.Contig, y.Constancy), gcd(x.Constancy, y.Contig))
		scale := int64(1)
		if v.Op == ir.OpPtrAdd {
			scale = int64(v.Type.Elem.Bytes())
		}
		d := gcd(x.elemDiv(r), min(y.elemDiv(r)*scale, maxDiv))
		return axisInfo{r, d, gcd(x.Constancy, y.Constancy)}
	case ir.OpSub:
		x, y := a.info(v.Args[0]), a.info(v.Args[1])
		r := gcd(x.Contig, y.Constancy)
		return axisInfo{r, gcd(x.elemDiv(r), y.elemDiv(r)), gcd(x.Constancy, y.Constancy)}
	case ir.OpMul:
		x, y := a.info(v.Args[0]), a.info(v.Args[1])
		if isOne(v.Args[1]) {
			return x
		}
		if isOne(v.Args[0]) {
			return y
		}
		return axisInfo{1, min(x.elemDiv(1)*y.elemDiv(1), maxDiv), gcd(x.Constancy, y.Constancy)}
	case ir.OpCast:
		from, to := v.Args[0].Type.DType, v.Type.DType
		if from.Kind.IsInt() && to.Kind.IsInt() && to.Kind.Bits() >= from.Kind.Bits() && from.Kind != ir.Bool ||
			from.Kind == ir.Ptr || to.Kind == ir.Ptr {
			return a.info(v.Args[0])
		}
	}
	c := n
	for _, arg := range v.Args {
		if arg != nil && !arg.Type.IsScalar() {
			c = gcd(c, a.info(arg).Constancy)
		}
	}
	if v.Type.IsScalar() {
		c = 1
	}
	return axisInfo{1, 1, c}
}

// isOne reports whether v is the constant 1, or a splat of it.
func isOne(v *ir.Value) bool {
	if v.Op == ir.OpSplat {
		v = v.Args[0]
	}
	return v.Op == ir.OpConst && v.Type.Kind.IsInt() && v.Const.Int == 1
}
