package cudagen

// This file implements the contiguity and divisibility analysis that
// decides which loads and stores can be vectorized and which axis of a
// tile is its fastest, after Triton's AxisInfo. Facts are kept per
// dimension: along dimension d, a value is split into runs of Contig
// consecutive integers (each run starting at an index that is a multiple
// of Contig); Div is a power of two dividing the first element of every
// run (in bytes for pointers), and Constancy is the length of runs of equal
// elements. A scalar is a tile of one element.

import "github.com/tri-lang/tri/ir"

// maxDiv stands for the divisibility of zero.
const maxDiv = int64(1) << 40

// axisInfo is what the analysis knows about one dimension of a value.
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

// facts is the info of every dimension of a value (one entry for a
// scalar).
type facts []axisInfo

func meetAll(a, b facts) facts {
	if len(a) != len(b) {
		return uniform(max(len(a), len(b)), bottom)
	}
	out := make(facts, len(a))
	for d := range a {
		out[d] = meet(a[d], b[d])
	}
	return out
}

func equalFacts(a, b facts) bool {
	if len(a) != len(b) {
		return false
	}
	for d := range a {
		if a[d] != b[d] {
			return false
		}
	}
	return true
}

func uniform(n int, a axisInfo) facts {
	out := make(facts, max(n, 1))
	for d := range out {
		out[d] = a
	}
	return out
}

// allDiv is a power of two dividing every element of a value.
func (f facts) allDiv() int64 {
	d := maxDiv
	for _, a := range f {
		d = min(d, a.elemDiv(1))
	}
	return d
}

// axisAnalysis holds the result per value ID.
type axisAnalysis struct {
	k      *ir.Kernel
	vals   []facts
	vars   []facts
	varSet []bool // vars[id] holds a fact (else: not assigned yet, optimistic)
	next   []facts
	nextOK []bool
	// hints are the tl.multiple_of and tl.max_contiguous calls on each
	// value, by the ID of the value they hint.
	hints map[int][]*ir.Value
}

// analyzeAxes runs the analysis to a fixed point over loop-carried Vars.
func analyzeAxes(k *ir.Kernel) *axisAnalysis {
	a := &axisAnalysis{k: k, vals: make([]facts, k.NumValues), vars: make([]facts, k.NumVars), varSet: make([]bool, k.NumVars),
		hints: map[int][]*ir.Value{}}
	// A hint holds for the value it is given, at every use, not only for
	// its result: Triton's multiple_of and max_contiguous set an attribute
	// on the op that defines their argument (on a loop-carried value, on
	// the loop), so tutorial 08's statement tl.multiple_of(a_ptrs, [16, 16])
	// makes the loads of a_ptrs 16-byte aligned though its result is unused.
	ir.Inspect(k.Body, func(v *ir.Value) {
		if (v.Op == ir.OpMultipleOf || v.Op == ir.OpMaxContiguous) && v.Args[0] != nil {
			a.hints[v.Args[0].ID] = append(a.hints[v.Args[0].ID], v)
		}
	})
	for _, p := range k.Params {
		if p.Value != nil {
			a.vals[p.Value.ID] = a.hinted(p.Value, a.value(p.Value))
		}
	}
	for iter := 0; ; iter++ {
		a.next = make([]facts, k.NumVars)
		a.nextOK = make([]bool, k.NumVars)
		a.block(k.Body)
		changed := false
		for i := range a.vars {
			if a.nextOK[i] && (!a.varSet[i] || !equalFacts(a.next[i], a.vars[i])) {
				a.vars[i], a.varSet[i], changed = a.next[i], true, true
			}
		}
		if !changed {
			return a
		}
		if iter == 20 {
			// Give up on precision; one more pass with nothing known.
			for i := range a.vars {
				a.vars[i], a.varSet[i] = nil, true
			}
			a.block(k.Body)
			return a
		}
	}
}

func (a *axisAnalysis) assign(v *ir.Var, info facts) {
	if a.nextOK[v.ID] {
		info = meetAll(info, a.next[v.ID])
	}
	a.next[v.ID], a.nextOK[v.ID] = info, true
}

func (a *axisAnalysis) block(b *ir.Block) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			a.vals[s.ID] = a.hinted(s, a.value(s))
		case *ir.Assign:
			a.assign(s.Var, a.vals[s.Value.ID])
		case *ir.For:
			a.assign(s.Var, facts{{1, gcd(a.info(s.Lo).Div, a.info(s.Step).Div), 1}})
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

// hinted is info, v's facts, with the hints given on v applied.
func (a *axisAnalysis) hinted(v *ir.Value, info facts) facts {
	for _, h := range a.hints[v.ID] {
		if len(info) == max(1, v.Type.Shape.Rank()) {
			info = applyHint(h, info)
		}
	}
	return info
}

// applyHint returns facts with hint h (a multiple_of or max_contiguous)
// applied: its divisibility or contiguity per dimension.
func applyHint(h *ir.Value, in facts) facts {
	out := append(in[:0:0], in...)
	for d := range out {
		if d < len(h.Hints) {
			if h.Op == ir.OpMultipleOf {
				out[d].Div = pow2Div(int64(h.Hints[d]))
			} else {
				out[d].Contig = pow2Floor(int64(h.Hints[d]))
			}
		}
	}
	return out
}

// dims is the info of every dimension of v.
func (a *axisAnalysis) dims(v *ir.Value) facts {
	f := a.vals[v.ID]
	if n := max(1, v.Type.Shape.Rank()); len(f) != n {
		return uniform(n, bottom)
	}
	return f
}

// info is the info of v's last dimension (of a scalar, its only one).
func (a *axisAnalysis) info(v *ir.Value) axisInfo {
	f := a.dims(v)
	return f[len(f)-1]
}

func (a *axisAnalysis) value(v *ir.Value) facts {
	shape := v.Type.Shape
	rank := max(1, shape.Rank())
	size := func(d int) int64 {
		if shape.Rank() == 0 {
			return 1
		}
		return int64(shape[d])
	}
	switch v.Op {
	case ir.OpConst:
		if v.Type.Kind.IsInt() {
			return facts{{1, pow2Div(v.Const.Int), 1}}
		}
		return facts{bottom}
	case ir.OpParam:
		p := v.Param
		switch {
		case p.DType.IsPtr() && p.DivisibleBy16:
			return facts{{1, 16, 1}}
		case p.DType.IsPtr():
			return facts{{1, int64(p.DType.Elem.Bytes()), 1}}
		case p.DivisibleBy16:
			return facts{{1, 16, 1}}
		}
		return facts{bottom}
	case ir.OpArange:
		return facts{{size(0), pow2Div(v.Const.Int), 1}}
	case ir.OpSplat:
		div := a.info(v.Args[0]).Div
		out := make(facts, rank)
		for d := range out {
			out[d] = axisInfo{1, div, size(d)}
		}
		return out
	case ir.OpVarRead:
		if !a.varSet[v.Var.ID] {
			out := make(facts, rank)
			for d := range out {
				out[d] = axisInfo{size(d), maxDiv, size(d)}
			}
			return out
		}
		return a.fit(a.vars[v.Var.ID], rank)
	case ir.OpMultipleOf, ir.OpMaxContiguous:
		return applyHint(v, a.dims(v.Args[0]))
	case ir.OpExpandDims:
		in := a.dims(v.Args[0])
		if v.Args[0].Type.IsScalar() {
			in = nil
		}
		out := make(facts, 0, rank)
		out = append(out, in[:min(v.Axis, len(in))]...)
		out = append(out, axisInfo{1, in.allDiv(), 1})
		out = append(out, in[min(v.Axis, len(in)):]...)
		return a.fit(out, rank)
	case ir.OpBroadcast:
		in := a.dims(v.Args[0])
		if len(in) != rank {
			return uniform(rank, bottom)
		}
		out := append(facts{}, in...)
		for d := range out {
			if v.Args[0].Type.Shape[d] == 1 && size(d) > 1 {
				out[d] = axisInfo{1, in.allDiv(), size(d)}
			}
		}
		return out
	case ir.OpAdd, ir.OpPtrAdd, ir.OpSub, ir.OpMul:
		x, y := a.dims(v.Args[0]), a.dims(v.Args[1])
		if len(x) != rank || len(y) != rank {
			return uniform(rank, bottom)
		}
		out := make(facts, rank)
		for d := range out {
			out[d] = binary(v, x[d], y[d])
		}
		return out
	case ir.OpRem:
		// x % y with y the same along d: a run of x that starts at a
		// multiple of r, r dividing y's divisibility, never wraps inside
		// (tutorial 03's (pid_m * BM + arange) % M stays contiguous).
		x, y := a.dims(v.Args[0]), a.dims(v.Args[1])
		if len(x) != rank || len(y) != rank || v.Type.IsScalar() || !v.Type.Kind.IsInt() {
			break
		}
		out := make(facts, rank)
		for d := range out {
			r := int64(1)
			if y[d].Constancy >= size(d) {
				r = gcd(x[d].Contig, y[d].Div)
			}
			out[d] = axisInfo{r, gcd(x[d].elemDiv(r), y[d].Div), gcd(x[d].Constancy, y[d].Constancy)}
		}
		return out
	case ir.OpLt, ir.OpGe, ir.OpGt, ir.OpLe:
		// x < y (or >=) with x a run of consecutive integers from a
		// multiple of Div and y constant changes value only where x
		// crosses y, at a multiple of both divisibilities: runs of their
		// gcd are constant. x > y and x <= y are y < x and y >= x.
		x, y := a.dims(v.Args[0]), a.dims(v.Args[1])
		if v.Op == ir.OpGt || v.Op == ir.OpLe {
			x, y = y, x
		}
		if len(x) != rank || len(y) != rank || v.Type.IsScalar() {
			break
		}
		out := make(facts, rank)
		for d := range out {
			c := gcd(x[d].Constancy, y[d].Constancy)
			if x[d].Contig > 1 {
				c = max(c, gcd(gcd(x[d].Contig, y[d].Constancy), gcd(x[d].Div, y[d].Div)))
			}
			out[d] = axisInfo{1, 1, c}
		}
		return out
	case ir.OpCast:
		from, to := v.Args[0].Type.DType, v.Type.DType
		if from.Kind == ir.Ptr || to.Kind == ir.Ptr {
			return pointerCast(a.dims(v.Args[0]), from, to)
		}
		if from.Kind.IsInt() && to.Kind.IsInt() && to.Kind.Bits() >= from.Kind.Bits() && from.Kind != ir.Bool {
			return a.dims(v.Args[0])
		}
	}
	out := make(facts, rank)
	for d := range out {
		c := size(d)
		for _, arg := range v.Args {
			if arg != nil && !arg.Type.IsScalar() && arg.Type.Shape.Rank() == shape.Rank() {
				c = gcd(c, a.dims(arg)[d].Constancy)
			}
		}
		if v.Type.IsScalar() {
			c = 1
		}
		out[d] = axisInfo{1, 1, c}
	}
	return out
}

// pointerCast is the info of a cast between a pointer and an int64, or
// between pointers: the address, and so its divisibility in bytes and its
// constancy, is kept, but a run of consecutive values is one of
// consecutive elements only where both sides count in the same unit (an
// integer in bytes, a pointer in its elements): p.to(tl.int64) + offs is
// not a run of float pointers.
func pointerCast(in facts, from, to ir.DType) facts {
	unit := func(d ir.DType) int {
		if d.IsPtr() {
			return d.Elem.Bytes()
		}
		return 1
	}
	if to.Kind == ir.Bool {
		return uniform(len(in), bottom)
	}
	if unit(from) == unit(to) {
		return in
	}
	// Inside a run the elements step by unit(from) bytes from the first.
	out := make(facts, len(in))
	for d, f := range in {
		div := f.Div
		if f.Contig > 1 {
			div = gcd(div, int64(unit(from)))
		}
		out[d] = axisInfo{1, div, f.Constancy}
	}
	return out
}

// fit returns f if it has n dimensions, else facts that claim nothing.
func (a *axisAnalysis) fit(f facts, n int) facts {
	if len(f) != n {
		return uniform(n, bottom)
	}
	return f
}

// binary is the info of one dimension of x op y for +, -, * and pointer
// arithmetic.
func binary(v *ir.Value, x, y axisInfo) axisInfo {
	switch v.Op {
	case ir.OpAdd, ir.OpPtrAdd:
		r := max(gcd(x.Contig, y.Constancy), gcd(x.Constancy, y.Contig))
		scale := int64(1)
		if v.Op == ir.OpPtrAdd {
			scale = int64(v.Type.Elem.Bytes())
		}
		d := gcd(x.elemDiv(r), min(y.elemDiv(r)*scale, maxDiv))
		return axisInfo{r, d, gcd(x.Constancy, y.Constancy)}
	case ir.OpSub:
		r := gcd(x.Contig, y.Constancy)
		return axisInfo{r, gcd(x.elemDiv(r), y.elemDiv(r)), gcd(x.Constancy, y.Constancy)}
	}
	if isOne(v.Args[1]) {
		return x
	}
	if isOne(v.Args[0]) {
		return y
	}
	return axisInfo{1, min(x.elemDiv(1)*y.elemDiv(1), maxDiv), gcd(x.Constancy, y.Constancy)}
}

// isOne reports whether v is the constant 1, or a splat of it.
func isOne(v *ir.Value) bool {
	if v.Op == ir.OpSplat {
		v = v.Args[0]
	}
	return v.Op == ir.OpConst && v.Type.Kind.IsInt() && v.Const.Int == 1
}
