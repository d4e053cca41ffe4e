package sema

// This file implements block pointers: tl.make_block_ptr, tl.advance, and
// tl.load and tl.store through them.
//
// A block pointer never reaches the IR. It is a compile-time record of
// runtime scalars (the base pointer, the parent tensor's shape and
// strides, the block's offsets) and constants (the block shape and the
// order). A load or store through it becomes the tile of pointers
//
//	base + sum over d of (offsets[d] + arange(block[d])) * strides[d]
//
// with each dimension's index broadcast along the others, masked by
// 0 <= index < shape[d] on the dimensions boundary_check names, and with
// other = 0 or NaN as padding_option says. The interpreter and the CUDA
// generator see ordinary masked loads and stores.
//
// Triton takes shape and strides as int64 and offsets as int32 (a runtime
// int64 offset is an error), and its rewrite of block pointers into
// pointer tiles widens the offsets to int64 before adding the index and
// multiplying by the stride, and before tl.advance adds to them. tri keeps
// the offsets as int64 from the start, so the address arithmetic of large
// tensors cannot overflow, as in Triton.

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// blockPtr is the value of tl.make_block_ptr and tl.advance.
type blockPtr struct {
	base    *ir.Value   // a scalar pointer to the parent tensor
	shape   []*ir.Value // int64 scalars
	strides []*ir.Value // int64 scalars
	offsets []*ir.Value // int64 scalars
	block   []int
	order   []int
	// name is the name the pointer was first bound to; generated values
	// are named after it.
	name string
	// desc marks a tensor descriptor (tensordesc.go): it has no offsets,
	// each access gives them, and padding ("zero" or "nan") fills what
	// falls outside the parent tensor on every dimension.
	desc    bool
	padding string
}

// elem is the element type loads through p produce.
func (p *blockPtr) elem() ir.DType { return ir.Scalar(p.base.Type.Elem) }

func (p *blockPtr) rank() int { return len(p.block) }

// typeString prints p's type as Triton does: pointer<fp16[64, 32]>, or
// tensor_descriptor<fp16[64, 32]> for a descriptor.
func (p *blockPtr) typeString() string {
	if p.desc {
		return fmt.Sprintf("tensor_descriptor<%s%s>", p.elem(), ir.Shape(p.block))
	}
	return fmt.Sprintf("pointer<%s%s>", p.elem(), ir.Shape(p.block))
}

// sameLayout reports whether p and q differ at most in their runtime parts.
func (p *blockPtr) sameLayout(q *blockPtr) bool {
	if p.base.Type.DType != q.base.Type.DType || len(p.block) != len(q.block) || p.desc != q.desc || p.padding != q.padding {
		return false
	}
	for i := range p.block {
		if p.block[i] != q.block[i] || !p.desc && p.order[i] != q.order[i] {
			return false
		}
	}
	return true
}

// parts lists p's runtime scalars with the suffix of the name each is
// given: base, shape, strides, then offsets (none for a descriptor).
func (p *blockPtr) parts() ([]*ir.Value, []string) {
	vals := []*ir.Value{p.base}
	names := []string{"base"}
	for i, group := range [][]*ir.Value{p.shape, p.strides, p.offsets} {
		for d, v := range group {
			vals = append(vals, v)
			names = append(names, fmt.Sprintf("%s%d", [...]string{"shape", "stride", "off"}[i], d))
		}
	}
	return vals, names
}

// withParts is p with its runtime scalars replaced, in the order of parts.
func (p *blockPtr) withParts(vals []*ir.Value) *blockPtr {
	q := *p
	r := len(p.block)
	q.base = vals[0]
	q.shape = vals[1 : 1+r]
	q.strides = vals[1+r : 1+2*r]
	if p.offsets != nil {
		q.offsets = vals[1+2*r : 1+3*r]
	}
	return &q
}

func blockPtrVal(p *blockPtr) *val { return &val{k: kBlockPtr, bp: p} }

func addBlockPtrBuiltins(tl func(string) string) {
	builtins[tl("make_block_ptr")] = &builtin{[]string{"base", "shape", "strides", "offsets", "block_shape", "order"}, 6, bMakeBlockPtr}
	builtins[tl("advance")] = &builtin{[]string{"base", "offsets"}, 2, bAdvance}
}

// listArg returns the elements of a tuple argument, or the argument alone
// (Triton wraps a non-iterable in a list).
func listArg(v *val) []*val {
	if v.k == kTuple {
		return v.elts
	}
	return []*val{v}
}

// blockIndex converts one element of shape, strides or offsets to an
// int64 scalar, with Triton's checks: shape and strides may be any
// integer, offsets must fit in 32 bits.
func (c *compiler) blockIndex(v *val, offset bool, pos diag.Pos) *ir.Value {
	switch v.k {
	case kInvalid:
		return nil
	case kInt:
		if offset && !fitsRange(v.i, math.MinInt32, math.MaxInt32) {
			c.errorf(pos, diag.CodeValue, "Block pointers only support 32 bit `offsets/block_shape`, got a value %s which is out of the range", v.i)
			return nil
		}
		if !v.i.IsInt64() {
			c.errorf(pos, diag.CodeValue, "Block pointers only support 64 bit `shape/strides`, got a value %s which is out of the range", v.i)
			return nil
		}
		return c.constOf(ir.TInt64, v, pos)
	case kRuntime:
		t := v.rt.Type
		if !t.IsScalar() {
			c.errorf(pos, diag.CodeType, "Expected a scalar in shape/strides/offsets, got a tensor of type %s", t)
			return nil
		}
		if !t.Kind.IsInt() || t.Kind == ir.Bool {
			c.errorf(pos, diag.CodeType, "Expected an integer scalar type in shape/strides/offsets, got %s", t)
			return nil
		}
		if !offset {
			return c.cast(v.rt, ir.TInt64, pos)
		}
		if t.Kind.Bits() == 64 {
			c.errorf(pos, diag.CodeType, "Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing for 64 bit support")
			return nil
		}
		// Triton's offsets are signless 32-bit integers it sign-extends:
		// an unsigned offset is read as signed.
		return c.cast(c.cast(v.rt, ir.TInt32, pos), ir.TInt64, pos)
	}
	c.errorf(pos, diag.CodeType, "Unsupported element type in shape/strides/offsets: %s", v.describe())
	return nil
}

// blockIndices converts a list argument with blockIndex.
func (c *compiler) blockIndices(v *val, offset bool, pos diag.Pos) ([]*ir.Value, bool) {
	var out []*ir.Value
	ok := true
	for _, e := range listArg(v) {
		x := c.blockIndex(e, offset, pos)
		ok = ok && x != nil
		out = append(out, x)
	}
	return out, ok
}

// constInts reads a list of compile-time integers (block_shape, order).
func (c *compiler) constInts(v *val, what string, pos diag.Pos) ([]int, bool) {
	var out []int
	for _, e := range listArg(v) {
		if e.k != kInt {
			c.errorf(pos, diag.CodeValue, "Expected a list of constant integers (`int32_t` range) in `%s`, got %s", what, e.describe())
			return nil, false
		}
		if !fitsRange(e.i, math.MinInt32, math.MaxInt32) {
			c.errorf(pos, diag.CodeValue, "Expected a list of constant integers (`int32_t` range) in `%s`, got %s", what, e.i)
			return nil, false
		}
		out = append(out, int(e.i.Int64()))
	}
	return out, true
}

func bMakeBlockPtr(c *compiler, a *args) *val {
	shape, ok1 := c.blockIndices(a.vals[1], false, a.pos)
	strides, ok2 := c.blockIndices(a.vals[2], false, a.pos)
	offsets, ok3 := c.blockIndices(a.vals[3], true, a.pos)
	if !ok1 || !ok2 || !ok3 {
		return invalid
	}
	bv := a.vals[0]
	if bv.k == kInvalid {
		return invalid
	}
	if bv.k != kRuntime || !bv.rt.Type.IsScalar() || !bv.rt.Type.IsPtr() {
		return c.errorf(a.pos, diag.CodeType, "Expected `base` to be a pointer type (but not a block pointer type or others), got %s", bv.describe())
	}
	base := bv.rt
	if base.Type.Elem == ir.Bool {
		// Triton reads booleans through block pointers as int8.
		base = c.cast(base, ir.PtrTo(ir.Int8), a.pos)
	}
	block, ok := c.constInts(a.vals[4], "block_shape", a.pos)
	if !ok {
		return invalid
	}
	order, ok := c.constInts(a.vals[5], "order", a.pos)
	if !ok {
		return invalid
	}
	sorted := append([]int(nil), order...)
	sort.Ints(sorted)
	for i, o := range sorted {
		if o != i {
			return c.errorf(a.pos, diag.CodeValue, "Expected a permutation of (0, 1, ..., len(order)-1) in order, got %s", a.vals[5].repr())
		}
	}
	for _, n := range []int{len(shape), len(strides), len(offsets), len(order)} {
		if n != len(block) {
			return c.errorf(a.pos, diag.CodeValue, "Expected shape/strides/offsets/block_shape to have the same length, got %d, %d, %d, %d and order of %d", len(shape), len(strides), len(offsets), len(block), len(order))
		}
	}
	if !c.validBlockShape(block, a.pos) {
		return invalid
	}
	return blockPtrVal(&blockPtr{base: base, shape: shape, strides: strides, offsets: offsets, block: block, order: order})
}

// validBlockShape makes Triton's block_type checks (validate_block_shape):
// powers of 2, and no more elements than a tensor may have.
func (c *compiler) validBlockShape(block []int, pos diag.Pos) bool {
	if err := ir.Shape(block).BlockShapeError(); err != nil {
		c.errorf(pos, diag.CodeValue, "%v (block_shape %s)", err, ir.Shape(block))
		return false
	}
	return true
}

func bAdvance(c *compiler, a *args) *val {
	pv := a.vals[0]
	if pv.k == kInvalid {
		return invalid
	}
	if pv.k != kBlockPtr || pv.bp.desc {
		return c.errorf(a.pos, diag.CodeType, "tl.advance needs a block pointer (made by tl.make_block_ptr), got %s", pv.describe())
	}
	p := pv.bp
	deltas := listArg(a.vals[1])
	if len(deltas) != p.rank() {
		return c.errorf(a.pos, diag.CodeValue, "tl.advance of a block pointer of rank %d needs %d offsets, got %d", p.rank(), p.rank(), len(deltas))
	}
	q := *p
	q.name = ""
	q.offsets = make([]*ir.Value, len(deltas))
	for d, delta := range deltas {
		q.offsets[d] = p.offsets[d]
		if delta.k == kInt && delta.i.Sign() == 0 {
			// Emit nothing: a K loop's body must hold only what its loads
			// and dot need for cudagen to pipeline it.
			continue
		}
		x := c.blockIndex(delta, true, a.pos)
		if x == nil {
			return invalid
		}
		q.offsets[d] = c.emit(ir.OpAdd, ir.ScalarType(ir.TInt64), a.pos, p.offsets[d], x)
	}
	return blockPtrVal(&q)
}

// boundaryDims canonicalizes boundary_check as Triton does: a falsy value
// checks nothing, a single dimension stands for a list of one, and the
// dimensions must be distinct and within the block's rank.
func (c *compiler) boundaryDims(v *val, rank int, pos diag.Pos) ([]int, bool) {
	if !given(v) || v.isConst() && !v.truth() {
		return nil, true
	}
	var dims []int
	seen := map[int]bool{}
	for _, e := range listArg(v) {
		// A bool is an int to Triton's check, as to Python.
		n, isInt := e.asInt()
		if !isInt || n.Sign() < 0 || n.Cmp(big.NewInt(int64(rank))) >= 0 {
			c.errorf(pos, diag.CodeValue, "boundary_check must name dimensions of the block, integers in 0..%d, got %s", rank-1, e.describe())
			return nil, false
		}
		d := int(n.Int64())
		if seen[d] {
			c.errorf(pos, diag.CodeValue, "Duplicate dimension in `boundary_check`")
			return nil, false
		}
		seen[d] = true
		dims = append(dims, d)
	}
	sort.Ints(dims)
	return dims, true
}

// blockAccess builds the pointer tile of a load or store through p and
// the mask of its boundary checks (nil when dims is empty).
func (c *compiler) blockAccess(p *blockPtr, dims []int, pos diag.Pos) (ptrs, mask *ir.Value) {
	return c.indexAccess(p, func(d int) *ir.Value { return c.offsetIndex(p.offsets[d], p.block[d], pos) }, dims, pos)
}

// offsetIndex is the int64 tile off + arange(0, n).
func (c *compiler) offsetIndex(off *ir.Value, n int, pos diag.Pos) *ir.Value {
	idx := c.cast(c.arangeTile(n, pos), ir.TInt64, pos)
	return c.emit(ir.OpAdd, idx.Type, pos, c.splatTo(off, idx.Type.Shape, pos), idx)
}

// indexAccess builds the pointer tile of the elements of p's parent tensor
// at the indices index(d) gives (a 1-D int64 tile per dimension, of the
// block's extent along it) and the mask of the checks on dims.
func (c *compiler) indexAccess(p *blockPtr, index func(d int) *ir.Value, dims []int, pos diag.Pos) (ptrs, mask *ir.Value) {
	shape := ir.Shape(p.block)
	var offs *ir.Value
	for d := range p.block {
		idx := index(d)
		c.nameAfter(idx, p, fmt.Sprintf("idx%d", d))
		idx = c.alongDim(idx, d, len(p.block), pos)
		term := c.emit(ir.OpMul, idx.Type, pos, idx, c.splatTo(p.strides[d], idx.Type.Shape, pos))
		if offs == nil {
			offs = term
		} else {
			offs = c.binary("+", rtVal(offs), rtVal(term), pos).rt
		}
		if !containsInt(dims, d) {
			continue
		}
		zero := c.splatTo(c.constOf(ir.TInt64, intVal(0), pos), idx.Type.Shape, pos)
		lo := c.emit(ir.OpGe, ir.Type{DType: ir.TBool, Shape: idx.Type.Shape}, pos, idx, zero)
		hi := c.emit(ir.OpLt, ir.Type{DType: ir.TBool, Shape: idx.Type.Shape}, pos, idx, c.splatTo(p.shape[d], idx.Type.Shape, pos))
		in := c.emit(ir.OpAnd, lo.Type, pos, lo, hi)
		if mask == nil {
			mask = in
		} else {
			mask = c.binary("&", rtVal(mask), rtVal(in), pos).rt
		}
	}
	offs = c.splatTo(offs, shape, pos)
	c.nameAfter(offs, p, "offs")
	ptrs = c.emit(ir.OpPtrAdd, ir.Type{DType: p.base.Type.DType, Shape: cloneShape(shape)}, pos, c.splatTo(p.base, shape, pos), offs)
	c.nameAfter(ptrs, p, "ptrs")
	if mask != nil {
		mask = c.splatTo(mask, shape, pos)
		c.nameAfter(mask, p, "mask")
	}
	return ptrs, mask
}

// arangeTile is tl.arange(0, n).
func (c *compiler) arangeTile(n int, pos diag.Pos) *ir.Value {
	v := c.emit(ir.OpArange, ir.TileType(ir.TInt32, n), pos)
	v.Const = ir.IntConst(0)
	return v
}

// alongDim gives the 1-D tile x rank dimensions, x's along dimension d and
// ones elsewhere.
func (c *compiler) alongDim(x *ir.Value, d, rank int, pos diag.Pos) *ir.Value {
	for i := 0; i < d; i++ {
		x = c.expandDims(x, 0, pos)
	}
	for x.Type.Shape.Rank() < rank {
		x = c.expandDims(x, x.Type.Shape.Rank(), pos)
	}
	return x
}

// nameAfter names a generated value after the block pointer, as in
// p_k_mask, when the pointer has a name and the value none.
func (c *compiler) nameAfter(v *ir.Value, p *blockPtr, role string) {
	if p.name != "" && v.Name == "" {
		v.Name = p.name + "_" + role
	}
}

func containsInt(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// paddingOption reads padding_option: "" or None pads nothing, "zero" and
// "nan" pad with 0 and NaN.
func (c *compiler) paddingOption(v *val, pos diag.Pos) (string, bool) {
	if !given(v) {
		return "", true
	}
	if v.k != kStr || v.s != "" && v.s != "zero" && v.s != "nan" {
		c.errorf(pos, diag.CodeValue, "Padding option %s not supported; expected \"zero\" or \"nan\"", v.repr())
		return "", false
	}
	return v.s, true
}

// loadBlock is tl.load through a block pointer.
func (c *compiler) loadBlock(a *args, flags ir.Flags) *val {
	p := a.vals[0].bp
	if p.desc {
		return c.errorf(a.pos, diag.CodeType, "Unsupported ptr type %s in `tl.load`; load through a tensor descriptor with desc.load(offsets)", p.typeString())
	}
	if given(a.vals[1]) || given(a.vals[2]) {
		return c.errorf(a.pos, diag.CodeValue, "`mask` and `other` arguments cannot be specified for loading block pointers")
	}
	padding, ok := c.paddingOption(a.vals[4], a.pos)
	if !ok {
		return invalid
	}
	elem := p.elem()
	if padding == "nan" && !elem.Kind.IsFloat() {
		return c.errorf(a.pos, diag.CodeValue, "Padding option `nan` is not supported for integer block pointers")
	}
	dims, ok := c.boundaryDims(a.vals[3], p.rank(), a.pos)
	if !ok {
		return invalid
	}
	return c.blockLoad(p, dims, padding, flags, a.pos)
}

// blockLoad loads the block of p, checked on dims and padded as padding
// says ("" leaves what falls outside undefined).
func (c *compiler) blockLoad(p *blockPtr, dims []int, padding string, flags ir.Flags, pos diag.Pos) *val {
	ptrs, mask := c.blockAccess(p, dims, pos)
	return c.paddedLoad(ptrs, mask, p.elem(), padding, flags, pos)
}

// paddedLoad loads elements of type elem through ptrs where mask holds and
// pads the rest as padding says.
func (c *compiler) paddedLoad(ptrs, mask *ir.Value, elem ir.DType, padding string, flags ir.Flags, pos diag.Pos) *val {
	var other *ir.Value
	if mask != nil && padding != "" {
		pad := intVal(0)
		if padding == "nan" {
			pad = floatVal(math.NaN())
		}
		other = c.splatTo(c.constOf(elem, pad, pos), ptrs.Type.Shape, pos)
	}
	v := c.emit(ir.OpLoad, ir.Type{DType: elem, Shape: cloneShape(ptrs.Type.Shape)}, pos, ptrs, mask, other)
	v.Flags = flags
	return rtVal(v)
}

// storeBlock is tl.store through a block pointer: the value must have the
// block's shape (a scalar is broadcast) and exactly its element type.
func (c *compiler) storeBlock(a *args, flags ir.Flags) *val {
	p := a.vals[0].bp
	if p.desc {
		return c.errorf(a.pos, diag.CodeType, "Unsupported ptr type %s in `tl.store`; store through a tensor descriptor with desc.store(offsets, value)", p.typeString())
	}
	if given(a.vals[2]) {
		return c.errorf(a.pos, diag.CodeValue, "`mask` and `other` arguments cannot be specified for loading block pointers")
	}
	vv := a.vals[1]
	if vv.k != kRuntime && !vv.isNum() {
		return c.errorf(a.pos, diag.CodeType, "the value stored must be a tensor or a number, got %s", vv.describe())
	}
	x := c.toRuntime(vv, a.pos)
	if x == nil {
		return invalid
	}
	shape := ir.Shape(p.block)
	if x.Type.IsScalar() {
		x = c.splatTo(x, shape, a.pos)
	}
	if !x.Type.Shape.Equal(shape) {
		return c.errorf(a.pos, diag.CodeType, "Block shape(%s) and value shape(%s) mismatch", shape, x.Type.Shape)
	}
	if x.Type.DType != p.elem() {
		return c.errorf(a.pos, diag.CodeType, "Block element type(%s) and value element type(%s) mismatch", p.elem(), x.Type.DType)
	}
	dims, ok := c.boundaryDims(a.vals[3], p.rank(), a.pos)
	if !ok {
		return invalid
	}
	c.blockStore(p, dims, x, flags, a.pos)
	return noneVal
}

// blockStore stores x, of p's block shape and element type, into the block
// of p, checked on dims.
func (c *compiler) blockStore(p *blockPtr, dims []int, x *ir.Value, flags ir.Flags, pos diag.Pos) *ir.Value {
	ptrs, mask := c.blockAccess(p, dims, pos)
	v := c.emit(ir.OpStore, ir.ScalarType(ir.TVoid), pos, ptrs, x, mask)
	v.Flags = flags
	return v
}

// nameBlockPtr names p after the variable it is bound to, and the parts
// computed for it that have no name yet (p_shape0, p_stride0, p_off0).
func nameBlockPtr(p *blockPtr, name string) {
	if p.name != "" {
		return
	}
	p.name = name
	vals, suffixes := p.parts()
	for i, v := range vals[1:] {
		if v.Name == "" && v.Op != ir.OpConst && v.Op != ir.OpVarRead {
			v.Name = name + "_" + suffixes[i+1]
		}
	}
}

// advancesOnly reports whether every assignment to name in body is
// name = tl.advance(name, ...) or name = name.advance(...): then a loop
// changes only the offsets of the block pointer, and only they are
// carried.
func advancesOnly(body []frontend.Stmt, name string) bool {
	ok := true
	var walk func(list []frontend.Stmt)
	isAdvance := func(e frontend.Expr) bool {
		call, isCall := e.(*frontend.Call)
		if !isCall {
			return false
		}
		attr, isAttr := call.Func.(*frontend.Attribute)
		if !isAttr || attr.Name != "advance" {
			return false
		}
		if n, isName := attr.X.(*frontend.Name); isName && n.ID == name {
			return true
		}
		if len(call.Args) > 0 {
			if n, isName := call.Args[0].(*frontend.Name); isName && n.ID == name {
				return true
			}
		}
		return false
	}
	walk = func(list []frontend.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *frontend.Assign:
				targets := map[string]bool{}
				for _, t := range s.Targets {
					assignedNames([]frontend.Stmt{&frontend.Assign{Targets: []frontend.Expr{t}}}, targets)
				}
				if targets[name] {
					_, single := s.Targets[0].(*frontend.Name)
					ok = ok && len(s.Targets) == 1 && single && isAdvance(s.Value)
				}
			case *frontend.AugAssign:
				if n, isName := s.Target.(*frontend.Name); isName && n.ID == name {
					ok = false
				}
			case *frontend.If:
				walk(s.Then)
				walk(s.Else)
			case *frontend.For:
				if n, isName := s.Target.(*frontend.Name); isName && n.ID == name {
					ok = false
				}
				walk(s.Body)
			case *frontend.While:
				walk(s.Body)
			}
		}
	}
	walk(body)
	return ok
}

// blockPtrAttr evaluates an attribute of a block pointer: its type (a
// pointer to a block type, as Triton's p.dtype and p.type) and advance.
func (c *compiler) blockPtrAttr(x *val, name string, pos diag.Pos) *val {
	if x.bp.desc {
		return c.descAttr(x, name, pos)
	}
	switch name {
	case "dtype", "type":
		return &val{k: kDType, dt: x.bp.base.Type.DType, block: ir.Shape(x.bp.block)}
	case "advance":
		return &val{k: kMethod, s: name, recv: x}
	}
	return c.errorf(pos, diag.CodeType, "%s has no attribute %s", x.describe(), name)
}

// blockTypeAttr evaluates an attribute of a block type or of a pointer to
// one. A block type used where a dtype is expected (x.to(p.dtype.element_ty))
// stands for its element type, as Triton casts to a block type's scalar.
func (c *compiler) blockTypeAttr(x *val, name string, pos diag.Pos) *val {
	switch name {
	case "element_ty":
		if x.dt.IsPtr() {
			return &val{k: kDType, dt: ir.Scalar(x.dt.Elem), block: x.block}
		}
		return dtypeVal(x.dt)
	case "scalar":
		if x.dt.IsPtr() {
			return x
		}
		return dtypeVal(x.dt)
	case "shape":
		if x.dt.IsPtr() {
			break
		}
		return intTuple(x.block)
	case "numel":
		if !x.dt.IsPtr() {
			return intVal(int64(x.block.NumElements()))
		}
	case "nbytes":
		if !x.dt.IsPtr() {
			return intVal(int64(x.block.NumElements() * x.dt.Kind.Bits() / 8))
		}
	case "name":
		return strVal(blockTypeString(x.dt, x.block))
	}
	if _, ok := blockTypePredicate(x.dt, name); ok {
		return &val{k: kMethod, s: name, recv: x}
	}
	return c.errorf(pos, diag.CodeType, "%s has no attribute %s", x.repr(), name)
}

// blockTypePredicate answers dtype.is_xxx() for a block type (d its
// element type) or a pointer to one (d a pointer): Triton compares the
// type's name, so every predicate but is_block, or is_ptr, is false.
func blockTypePredicate(d ir.DType, name string) (bool, bool) {
	if _, known := dtypePredicate(d, name); !known && name != "is_block" {
		return false, false
	}
	switch name {
	case "is_ptr":
		return d.IsPtr(), true
	case "is_block":
		return !d.IsPtr(), true
	}
	return false, true
}

// blockTypeString prints a block type, or a pointer to one, as Triton
// names them: <(16, 32), fp16> and pointer<<(16, 32), fp16>>.
func blockTypeString(d ir.DType, shape ir.Shape) string {
	if d.IsPtr() {
		return "pointer<" + blockTypeString(ir.Scalar(d.Elem), shape) + ">"
	}
	return fmt.Sprintf("<%s, %s>", intTuple(shape).repr(), tritonName(d))
}
