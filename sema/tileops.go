package sema

// This file implements the tile operations of triton.language: tl.sort,
// tl.topk and tl.standard.bitonic_merge (one OpSort: Triton's bitonic
// network), tl.flip, tl.gather, tl.histogram, tl.cat and
// tl.map_elementwise (ops of their own), and tl.interleave, tl.softmax, tl.logical_and and tl.logical_or
// (built from existing ops, as standard.py and semantic.py build them).

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addTileOpBuiltins(tl func(string) string) {
	builtins[tl("sort")] = &builtin{[]string{"x", "dim", "descending"}, 1, bBitonic("tl.sort", false)}
	builtins[tl("topk")] = &builtin{[]string{"x", "k", "dim"}, 2, bTopk}
	builtins[tl("bitonic_merge")] = &builtin{[]string{"x", "dim", "descending"}, 1, bBitonic("tl.bitonic_merge", true)}
	builtins[tl("flip")] = &builtin{[]string{"x", "dim"}, 1, bFlip}
	builtins[tl("gather")] = &builtin{[]string{"src", "index", "axis"}, 3, bGather}
	builtins[tl("histogram")] = &builtin{[]string{"input", "num_bins", "mask"}, 2, bHistogram}
	builtins[tl("cat")] = &builtin{[]string{"input", "other", "can_reorder"}, 2, bCat}
	builtins[tl("interleave")] = &builtin{[]string{"a", "b"}, 2, bInterleave}
	builtins[tl("softmax")] = &builtin{[]string{"x", "dim", "keep_dims", "ieee_rounding"}, 1, bSoftmax}
	builtins[tl("logical_and")] = &builtin{[]string{"input", "other"}, 2, bLogical("and")}
	builtins[tl("logical_or")] = &builtin{[]string{"input", "other"}, 2, bLogical("or")}
	builtins[tl("map_elementwise")] = &builtin{append(append([]string{"scalar_fn"}, variadic(16)...), "pack"), 2, bMapElementwise}
}

// tileLog2 is log2 of n, a power of two.
func tileLog2(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// sortInput reads the tensor of sort, topk and bitonic_merge and checks
// their dim: standard.py sorts along the last dimension only, and dim
// must be None or that dimension's (non-negative) number.
func (c *compiler) sortInput(a *args, what string, dim *val) *ir.Value {
	x := c.tensorArg(a.vals[0], what, a.pos)
	if x == nil {
		return nil
	}
	if x.Type.IsPtr() {
		c.errorf(a.pos, diag.CodeType, "%s of pointers is not supported", what)
		return nil
	}
	last := x.Type.Shape.Rank() - 1
	if given(dim) {
		d, ok := c.constInt(dim, "the dim of "+what, a.pos)
		if !ok {
			return nil
		}
		if d != int64(last) {
			c.errorf(a.pos, diag.CodeValue, "%s: only minor dimension is currently supported (dim must be None or %d, got %d)", what, last, d)
			return nil
		}
	}
	return x
}

// emitSort emits an OpSort of x keeping 2**logK of its last dimension.
func (c *compiler) emitSort(x *ir.Value, logK int, desc, merge bool, pos diag.Pos) *ir.Value {
	shape := cloneShape(x.Type.Shape)
	shape[len(shape)-1] = 1 << logK
	v := c.emit(ir.OpSort, ir.Type{DType: x.Type.DType, Shape: shape}, pos, x)
	v.Const = ir.IntConst(int64(logK))
	if desc {
		v.Flags |= ir.FlagReverse
	}
	if merge {
		v.Axis = 1
	}
	return v
}

// bBitonic builds standard.py's sort (mergeOnly false: log2(n) bitonic
// merge stages, alternating until the last, which follows descending) and
// bitonic_merge (mergeOnly true: the last merge stage only, which sorts an
// input whose rows are bitonic).
func bBitonic(name string, mergeOnly bool) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		x := c.sortInput(a, name, a.vals[1])
		desc, ok := c.constBool(a.vals[2], "descending", false, a.pos)
		if x == nil || !ok {
			return invalid
		}
		logN := tileLog2(x.Type.Shape[x.Type.Shape.Rank()-1])
		if logN == 0 {
			return rtVal(x)
		}
		return rtVal(c.emitSort(x, logN, desc, mergeOnly, a.pos))
	}
}

// bTopk is standard.py's topk: sort_impl with k and descending=True. Its
// top-k steps reduce with tl.max, which widens types narrower than 32 bits
// (and bf16) to fp32 or i32; the merges before them compare the same
// either way, so the input is widened first.
func bTopk(c *compiler, a *args) *val {
	x := c.sortInput(a, "tl.topk", a.vals[2])
	k, ok := c.constInt(a.vals[1], "k of tl.topk", a.pos)
	if x == nil || !ok {
		return invalid
	}
	n := x.Type.Shape[x.Type.Shape.Rank()-1]
	if k < 1 || k > int64(n) {
		return c.errorf(a.pos, diag.CodeValue, "tl.topk: k must be between 1 and the size of the last dimension (%d), got %d", n, k)
	}
	logN, logK := tileLog2(n), tileLog2(int(k))
	if logN == 0 {
		return rtVal(x)
	}
	if logK < logN {
		x = c.cast(x, minMaxDType(x.Type.DType), a.pos)
	}
	return rtVal(c.emitSort(x, logK, true, false, a.pos))
}

// bFlip is standard.py's flip: a negative dim counts from the end. Its
// dim=None default fails in Triton 3.6 (the static_assert on the range of
// dim compares None with ints), so tri asks for a dim. The xor network it
// is built from moves bits exactly, so the op is a plain permutation.
func bFlip(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], "tl.flip", a.pos)
	if x == nil {
		return invalid
	}
	if !given(a.vals[1]) {
		return c.errorf(a.pos, diag.CodeArgs, "tl.flip needs a dim: Triton 3.6 fails on its default dim=None (it compares None with the rank); pass the dimension to flip, e.g. dim=%d for the last", x.Type.Shape.Rank()-1)
	}
	axis, ok := c.wrapAxis(a.vals[1], x.Type.Shape.Rank(), "tl.flip", a.pos)
	if !ok {
		return invalid
	}
	if x.Type.Shape[axis] == 1 {
		return rtVal(x)
	}
	v := c.emit(ir.OpFlip, x.Type, a.pos, x)
	v.Axis = axis
	return rtVal(v)
}

// bGather is semantic.py's gather: an integer index of the source's rank,
// equal to it in every dimension but axis.
func bGather(c *compiler, a *args) *val {
	src := c.tensorArg(a.vals[0], "tl.gather", a.pos)
	idx := c.tensorArg(a.vals[1], "the index of tl.gather", a.pos)
	if src == nil || idx == nil {
		return invalid
	}
	if !idx.Type.Kind.IsInt() {
		return c.errorf(a.pos, diag.CodeType, "tl.gather: index must be an integer tensor, got %s", idx.Type.DType)
	}
	r := src.Type.Shape.Rank()
	if idx.Type.Shape.Rank() != r {
		return c.errorf(a.pos, diag.CodeType, "tl.gather: source and index tensors must have the same rank, got %s and %s", src.Type.Shape, idx.Type.Shape)
	}
	axis, ok := c.wrapAxis(a.vals[2], r, "tl.gather", a.pos)
	if !ok {
		return invalid
	}
	for d := range r {
		if d != axis && idx.Type.Shape[d] != src.Type.Shape[d] {
			return c.errorf(a.pos, diag.CodeType, "tl.gather: index dim %d must match the corresponding source dim (%s and %s)", d, idx.Type.Shape, src.Type.Shape)
		}
	}
	v := c.emit(ir.OpGather, ir.Type{DType: src.Type.DType, Shape: cloneShape(idx.Type.Shape)}, a.pos, src, idx)
	v.Axis = axis
	return rtVal(v)
}

// bHistogram is semantic.py's histogram: a 1-D integer input, a mask
// broadcast to its shape, num_bins i32 counters.
func bHistogram(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], "tl.histogram", a.pos)
	bins, ok := c.constInt(a.vals[1], "num_bins of tl.histogram", a.pos)
	if x == nil || !ok {
		return invalid
	}
	if x.Type.Shape.Rank() != 1 {
		return c.errorf(a.pos, diag.CodeType, "tl.histogram only supports 1D input, got shape %s", x.Type.Shape)
	}
	if !x.Type.Kind.IsInt() {
		return c.errorf(a.pos, diag.CodeType, "tl.histogram only supports integer input, got %s", x.Type.DType)
	}
	if bins < 1 || bins&(bins-1) != 0 || bins > maxNumel {
		return c.metaErrorf(a.pos, a.vals[1:2], diag.CodeValue, "tl.histogram: num_bins must be a power of 2 of at most %d, got %d", maxNumel, bins)
	}
	var mask *ir.Value
	if m := a.vals[2]; given(m) {
		if mask = c.runtimeArg(m, "the mask of tl.histogram", a.pos); mask == nil {
			return invalid
		}
		if mask.Type.Kind != ir.Bool {
			return c.errorf(a.pos, diag.CodeType, "tl.histogram: Mask must have boolean scalar type, got %s", mask.Type.DType)
		}
		s, ok := broadcastShape(mask.Type.Shape, x.Type.Shape)
		if !ok || !s.Equal(x.Type.Shape) {
			return c.errorf(a.pos, diag.CodeType, "tl.histogram: the mask of shape %s cannot be broadcast to the input's shape %s", mask.Type.Shape, x.Type.Shape)
		}
		mask = c.splatTo(mask, x.Type.Shape, a.pos)
	}
	return rtVal(c.emit(ir.OpHistogram, ir.TileType(ir.TInt32, int(bins)), a.pos, x, mask))
}

// bCat is semantic.py's cat: can_reorder must be true (Triton asserts it),
// both inputs 1-D. tri keeps the order, input then other, which is what
// Triton's interpreter gives; a kernel may only rely on the multiset.
func bCat(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], "tl.cat", a.pos)
	y := c.tensorArg(a.vals[1], "the second input of tl.cat", a.pos)
	reorder, ok := c.constBool(a.vals[2], "can_reorder", false, a.pos)
	if x == nil || y == nil || !ok {
		return invalid
	}
	if !reorder {
		return c.errorf(a.pos, diag.CodeUnsupported, "tl.cat: current implementation of `cat` always may reorder elements; pass can_reorder=True")
	}
	if x.Type.Shape.Rank() != 1 || y.Type.Shape.Rank() != 1 {
		return c.errorf(a.pos, diag.CodeType, "tl.cat supports only 1-D tensors, got shapes %s and %s", x.Type.Shape, y.Type.Shape)
	}
	if x.Type.DType != y.Type.DType {
		return c.errorf(a.pos, diag.CodeType, "tl.cat needs inputs of one dtype, got %s and %s", x.Type.DType, y.Type.DType)
	}
	n := x.Type.Shape[0] + y.Type.Shape[0]
	if n&(n-1) != 0 || n > maxNumel {
		return c.errorf(a.pos, diag.CodeValue, "tl.cat of %d and %d elements: the result's %d elements must be a power of 2 of at most %d", x.Type.Shape[0], y.Type.Shape[0], n, maxNumel)
	}
	return rtVal(c.emit(ir.OpCat, ir.TileType(x.Type.DType, n), a.pos, x, y))
}

// bInterleave is standard.py's interleave: join, then merge the last two
// dimensions.
func bInterleave(c *compiler, a *args) *val {
	j := bJoin(c, a)
	if j.k != kRuntime {
		return j
	}
	s := j.rt.Type.Shape
	if s.Rank() == 1 {
		return j
	}
	r := s.Rank()
	shape := append(cloneShape(s[:r-2]), 2*s[r-2])
	return rtVal(c.emit(ir.OpReshape, ir.Type{DType: j.rt.Type.DType, Shape: shape}, a.pos, j.rt))
}

// callBuiltin calls the builtin tl.<name> with the leading arguments vals.
func (c *compiler) callBuiltin(name string, pos diag.Pos, vals ...*val) *val {
	b := builtins["triton.language."+name]
	full := make([]*val, len(b.params))
	copy(full, vals)
	return b.fn(c, &args{name: "triton.language." + name, pos: pos, vals: full})
}

// bSoftmax is standard.py's softmax: dim defaults to 0; the max, exp,
// sum and fdiv are tl's own.
func bSoftmax(c *compiler, a *args) *val {
	x := a.vals[0]
	if x.k != kRuntime || x.rt.Type.IsScalar() {
		return c.errorf(a.pos, diag.CodeType, "tl.softmax needs a tensor, got %s", x.describe())
	}
	dim := a.vals[1]
	if !given(dim) {
		dim = intVal(0)
	}
	keep := a.vals[2]
	if !given(keep) {
		keep = boolVal(false)
	}
	m := c.callBuiltin("max", a.pos, x, dim, nil, nil, keep)
	if m.k == kInvalid {
		return invalid
	}
	z := c.binary("-", x, m, a.pos)
	if z.k == kInvalid {
		return invalid
	}
	num := c.callBuiltin("exp", a.pos, z)
	if num.k == kInvalid {
		return invalid
	}
	den := c.callBuiltin("sum", a.pos, num, dim, keep)
	if den.k == kInvalid {
		return invalid
	}
	return c.callBuiltin("fdiv", a.pos, num, den, a.vals[3])
}

// bLogical is semantic.py's logical_and and logical_or: the operands are
// bitcast to int1, which only boolean ones survive.
func bLogical(op string) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		for i, v := range a.vals[:2] {
			if v.k == kBool || v.k == kRuntime && v.rt.Type.Kind == ir.Bool {
				continue
			}
			return c.errorf(a.pos, diag.CodeType, "tl.logical_%s: operand %d must be boolean (int1), got %s; compare it first", op, i+1, v.describe())
		}
		return c.logical(op, a.vals[0], a.vals[1], a.pos)
	}
}

// bMapElementwise is tl.map_elementwise(scalar_fn, *args, pack=1): the
// operands are broadcast to one shape and scalar_fn, inlined on scalar
// arguments into a region, runs on each element. Its results take the
// dtypes of the values it returns (numbers as Triton types them). The
// operands must be tensors, as in Triton. With pack > 1 the function takes
// pack elements of each operand at once (all of the first operand's, then
// the second's: core.py's block arguments i*pack+j) and returns pack values
// per result, result by result, which Triton's lowering unpacks the same
// way; the map then always gives a tuple. Triton leaves which elements
// make a group to the layout; tri groups pack consecutive elements along
// the last axis, which its GPU layouts and its interpreter agree on.
func bMapElementwise(c *compiler, a *args) *val {
	fn := a.vals[0]
	if fn.k != kFunc {
		return c.errorf(a.pos, diag.CodeType, "the scalar_fn of tl.map_elementwise must be a @triton.jit function, got %s", fn.describe())
	}
	last := len(a.vals) - 1
	pack := 1
	if given(a.vals[last]) {
		p, ok := c.constInt(a.vals[last], "pack of tl.map_elementwise", a.pos)
		if !ok {
			return invalid
		}
		if p < 1 {
			// core.py: assert pack >= 1.
			return c.errorf(a.pos, diag.CodeArgs, "tl.map_elementwise: pack must be at least 1 (Triton asserts pack >= 1), got %d", p)
		}
		pack = int(p)
	}
	var xs []*ir.Value
	var shape ir.Shape
	for i, v := range a.vals[1:last] {
		if v == nil {
			continue
		}
		// Triton reads each argument's .type.scalar, which only tensors
		// (scalar or block) have: a Python number or other constexpr
		// fails there, so it must be made a tensor first.
		if v.k != kRuntime {
			return c.errorf(a.pos, diag.CodeType, "argument %d of tl.map_elementwise must be a tensor, got %s (Triton fails on it); make it one, e.g. with tl.full", i+1, v.describe())
		}
		x := v.rt
		s, ok := broadcastShape(shape, x.Type.Shape)
		if !ok {
			return c.errorf(a.pos, diag.CodeType, "tl.map_elementwise: the shapes %s and %s cannot be broadcast", shape, x.Type.Shape)
		}
		shape = s
		xs = append(xs, x)
	}
	if len(xs) == 0 {
		return c.errorf(a.pos, diag.CodeArgs, "map_elementwise must have at least 1 input tensor")
	}
	if pack > 1 {
		// Triton's lowering needs each thread's elements to be a multiple
		// of pack ("pack size must be a divisor of the number of elements
		// per thread"); tri asks it of the last axis, where it groups them.
		if shape.Rank() == 0 || shape[shape.Rank()-1]%pack != 0 {
			what := "scalars"
			if shape.Rank() > 0 {
				what = fmt.Sprintf("a last dimension of %d", shape[shape.Rank()-1])
			}
			return c.errorf(a.pos, diag.CodeType, "tl.map_elementwise with pack=%d needs tensors whose last dimension is a multiple of %d, got %s", pack, pack, what)
		}
	}
	if shape.Rank() == 0 {
		vals := make([]*val, len(xs))
		for i, x := range xs {
			vals[i] = rtVal(x)
		}
		return c.inlineVals(fn.fn, vals, a.pos)
	}
	for i, x := range xs {
		xs[i] = c.splatTo(x, shape, a.pos)
	}
	region, types, tuple := c.mapRegion(fn, xs, pack, a.pos)
	if region == nil {
		return invalid
	}
	if len(types) == 0 {
		return c.errorf(a.pos, diag.CodeType, "the function %s of tl.map_elementwise returns no value; it must return at least one", fn.fn.Name)
	}
	v := c.emit(ir.OpMapElementwise, types[0], a.pos, xs...)
	v.Region = region
	if pack > 1 {
		v.Const = ir.IntConst(int64(pack))
	}
	// core.py gives the one result of a function that returns one value,
	// and the tuple of results of one that returns a tuple (with pack > 1
	// it must).
	if !tuple {
		return rtVal(v)
	}
	v.Type, v.Types = ir.ScalarType(ir.TVoid), types
	return c.tupleResults(v)
}

// mapRegion inlines fn on pack scalar arguments per input (the first
// input's, then the next's) and returns the region, the result types (the
// inputs' shape, the dtypes of each group of pack yields) and whether fn
// returns a tuple.
func (c *compiler) mapRegion(fn *val, xs []*ir.Value, pack int, pos diag.Pos) (*ir.Region, []ir.Type, bool) {
	f := fn.fn
	n := pack * len(xs)
	if len(f.Params) < n || requiredParams(f) > n {
		how := ""
		if pack > 1 {
			how = fmt.Sprintf(" (pack=%d of each of %d operands)", pack, len(xs))
		}
		c.errorf(pos, diag.CodeArgs, "tl.map_elementwise calls %s with %d arguments%s, but it takes %d", f.Name, n, how, len(f.Params))
		return nil, nil, false
	}
	args := make([]ir.DType, 0, n)
	for _, x := range xs {
		for range pack {
			args = append(args, x.Type.DType)
		}
	}
	var types []ir.Type
	var tuple bool
	region := c.inlineRegion(f, args, "the function "+f.Name+" of tl.map_elementwise", "print or check its result instead", pos, func(results []*val, isTuple bool) ([]*ir.Value, bool) {
		tuple = isTuple
		var yields []*ir.Value
		for i, res := range results {
			if !res.isNum() && (res.k != kRuntime || !res.rt.Type.IsScalar() || res.rt.Type.IsPtr()) {
				c.errorf(pos, diag.CodeType, "the function %s of tl.map_elementwise must return scalars (result %d), got %s", f.Name, i, res.describe())
				return nil, false
			}
			y := c.toRuntime(res, pos)
			if y == nil {
				return nil, false
			}
			yields = append(yields, y)
		}
		// core.py takes every pack-th result's type and asserts the
		// others of each group match it.
		if len(yields)%pack != 0 {
			c.errorf(pos, diag.CodeType, "type mismatch in unpacked results: with pack=%d the function %s of tl.map_elementwise must return a multiple of %d values (%d per result), got %d", pack, f.Name, pack, pack, len(yields))
			return nil, false
		}
		for i := 0; i < len(yields); i += pack {
			d := yields[i].Type.DType
			for j := i + 1; j < i+pack; j++ {
				if yields[j].Type.DType != d {
					c.errorf(pos, diag.CodeType, "type mismatch in unpacked results: the function %s of tl.map_elementwise returns %s as value %d and %s as value %d of result %d (each result's %d values must have one dtype)", f.Name, d, i, yields[j].Type.DType, j, i/pack, pack)
					return nil, false
				}
			}
			types = append(types, ir.Type{DType: d, Shape: cloneShape(xs[0].Type.Shape)})
		}
		return yields, true
	})
	if region == nil {
		return nil, nil, false
	}
	return region, types, tuple
}
