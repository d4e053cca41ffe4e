package sema

// This file implements tensor descriptors: tl.make_tensor_descriptor,
// descriptors passed from the host (a parameter specialized as ArgDesc),
// desc.load, desc.store, tl.load_tensor_descriptor,
// tl.store_tensor_descriptor, the desc.atomic_* reductions, desc.gather and
// desc.scatter.
//
// A descriptor is a block pointer without offsets (blockptr.go): a
// compile-time record of runtime scalars (base, shape, strides) and
// constants (block shape, padding). Each access gives the offsets and
// becomes the masked pointer tile of a block pointer checked on every
// dimension, so what falls outside the parent tensor (on any edge, with
// negative offsets too) reads as zero, or NaN with padding "nan", and is
// not written. Loops carry descriptors and runtime ifs merge them as block
// pointers (blockloop.go). Triton lowers descriptors to the TMA unit on
// Hopper; tri lowers them to these tiles, which need no global scratch
// memory, so the allocator a host sets with triton.set_allocator is not
// used. Loads and stores through a descriptor from the host also carry its
// base and their offsets (ir.DescAccess), with which cudagen copies their
// blocks with the TMA unit on sm_90a.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// descClass is the path of Triton's descriptor classes, for isinstance.
const descClass = "triton.language.tensor_descriptor"

func addTensorDescBuiltins(tl func(string) string) {
	builtins[tl("make_tensor_descriptor")] = &builtin{[]string{"base", "shape", "strides", "block_shape", "padding_option"}, 4, bMakeTensorDesc}
	builtins[tl("load_tensor_descriptor")] = &builtin{[]string{"desc", "offsets"}, 2, bDescLoad}
	builtins[tl("store_tensor_descriptor")] = &builtin{[]string{"desc", "offsets", "value"}, 3, bDescStore}
	for _, cls := range []string{descClass, descClass + "_base"} {
		builtins[cls] = &builtin{[]string{"handle", "shape", "strides", "block_type"}, 0, bTensorCtor}
	}
	builtins[descClass+".load"] = &builtin{[]string{"self", "offsets"}, 2, bDescLoad}
	builtins[descClass+".store"] = &builtin{[]string{"self", "offsets", "value"}, 3, bDescStore}
	for name, op := range map[string]ir.AtomicOp{
		"atomic_add": ir.AtomicAdd, "atomic_min": ir.AtomicMin, "atomic_max": ir.AtomicMax,
		"atomic_and": ir.AtomicAnd, "atomic_or": ir.AtomicOr, "atomic_xor": ir.AtomicXor,
	} {
		builtins[descClass+"."+name] = &builtin{[]string{"self", "offsets", "value"}, 3, bDescAtomic(op)}
	}
	builtins[descClass+".gather"] = &builtin{[]string{"self", "x_offsets", "y_offset"}, 3, bDescGather}
	builtins[descClass+".scatter"] = &builtin{[]string{"self", "value", "x_offsets", "y_offset"}, 4, bDescScatter}
}

// descMethodPath is the builtin a descriptor's method name calls.
func descMethodPath(name string) string { return descClass + "." + name }

// makeDesc checks a descriptor's layout as Triton's make_tensor_descriptor
// does (and the host's TensorDescriptor, for the block shape) and builds
// it. shape and strides are int64 scalars; the last stride must be the
// constant 1.
func (c *compiler) makeDesc(base *ir.Value, shape, strides []*ir.Value, block []int, padding string, pos diag.Pos) *val {
	ndim := len(shape)
	if ndim < 1 || ndim > 5 {
		return c.errorf(pos, diag.CodeValue, "Expected 1 <= ndim <= 5 but got %d dimensions", ndim)
	}
	if len(strides) != ndim {
		return c.errorf(pos, diag.CodeValue, "Expected %d strides but got %d", ndim, len(strides))
	}
	if len(block) != ndim {
		return c.errorf(pos, diag.CodeValue, "Expected block_shape to have %d dimensions but got %d", ndim, len(block))
	}
	elem := ir.Scalar(base.Type.Elem)
	size := max(elem.Kind.Bits()/8, 1)
	if last := block[ndim-1]; last*size < 16 {
		return c.errorf(pos, diag.CodeValue, "Descriptor block shape must have at least 16 bytes in the last dimension, but got %d * %d = %d bytes", last, size, last*size)
	}
	if !c.validBlockShape(block, pos) {
		return invalid
	}
	if padding == "nan" && !elem.Kind.IsFloat() {
		return c.errorf(pos, diag.CodeValue, "Padding option `nan` is not supported for integer blocks")
	}
	order := make([]int, ndim)
	for i := range order {
		order[i] = ndim - 1 - i
	}
	return blockPtrVal(&blockPtr{base: base, shape: shape, strides: strides, block: block, order: order, desc: true, padding: padding})
}

func bMakeTensorDesc(c *compiler, a *args) *val {
	bv := a.vals[0]
	if bv.k == kInvalid {
		return invalid
	}
	if bv.k != kRuntime || !bv.rt.Type.IsScalar() || !bv.rt.Type.IsPtr() {
		return c.errorf(a.pos, diag.CodeType, "tl.make_tensor_descriptor needs a pointer as its base, got %s", bv.describe())
	}
	padding := "zero"
	if v := a.vals[4]; given(v) {
		if v.k != kStr || v.s != "zero" && v.s != "nan" {
			return c.errorf(a.pos, diag.CodeValue, "Padding option %s not supported", v.repr())
		}
		padding = v.s
	}
	strideVals := listArg(a.vals[2])
	if n := len(strideVals); n > 0 {
		if last := strideVals[n-1]; last.k != kInt || !last.i.IsInt64() || last.i.Int64() != 1 {
			what := last.repr()
			if last.k == kRuntime {
				what = "a runtime value"
			}
			return c.errorf(a.pos, diag.CodeValue, "Tensor descriptor last dim must be 1 but got %s", what)
		}
	}
	shape, ok1 := c.blockIndices(a.vals[1], false, a.pos)
	strides, ok2 := c.blockIndices(a.vals[2], false, a.pos)
	block, ok3 := c.constInts(a.vals[3], "block_shape", a.pos)
	if !ok1 || !ok2 || !ok3 {
		return invalid
	}
	// Triton's contract for a descriptor: "base must be 16-byte aligned",
	// and the strides of the leading dimensions multiples of 16 bytes
	// (what the TMA unit needs; it faults otherwise). tri's copies of the
	// blocks use it as a hint, as it does for descriptors from the host.
	base := c.hint(bv.rt, 16, a.pos)
	if size := max(ir.Scalar(base.Type.Elem).Kind.Bits()/8, 1); size < 16 {
		for d := range len(strides) - 1 {
			if strides[d].Op != ir.OpConst {
				strides[d] = c.hint(strides[d], 16/size, a.pos)
			}
		}
	}
	return c.makeDesc(base, shape, strides, block, padding, a.pos)
}

// hint is tl.multiple_of(x, n) of a scalar.
func (c *compiler) hint(x *ir.Value, n int, pos diag.Pos) *ir.Value {
	v := c.emit(ir.OpMultipleOf, x.Type, pos, x)
	v.Hints = []int{n}
	return v
}

// descArg reads the descriptor an access goes through.
func (c *compiler) descArg(v *val, what string, pos diag.Pos) *blockPtr {
	if v.k == kInvalid {
		return nil
	}
	if v.k != kBlockPtr || !v.bp.desc {
		c.errorf(pos, diag.CodeType, "%s needs a tensor descriptor, got %s", what, v.describe())
		return nil
	}
	return v.bp
}

// descAt is the block of desc at offsets: a block pointer checked on every
// dimension.
func (c *compiler) descAt(desc *blockPtr, offsets *val, pos diag.Pos) (*blockPtr, []int) {
	offs := listArg(offsets)
	if len(offs) != desc.rank() {
		c.errorf(pos, diag.CodeValue, "expected %d offsets, but got %d", desc.rank(), len(offs))
		return nil, nil
	}
	x, ok := c.blockIndices(offsets, true, pos)
	if !ok {
		return nil, nil
	}
	p := *desc
	p.offsets = x
	dims := make([]int, desc.rank())
	for i := range dims {
		dims[i] = i
	}
	return &p, dims
}

func bDescLoad(c *compiler, a *args) *val {
	desc := c.descArg(a.vals[0], "a descriptor load", a.pos)
	if desc == nil {
		return invalid
	}
	p, dims := c.descAt(desc, a.vals[1], a.pos)
	if p == nil {
		return invalid
	}
	v := c.blockLoad(p, dims, desc.padding, 0, a.pos)
	if v.k == kRuntime {
		// The TMA unit or copies of whole rows may read the block.
		v.rt.Desc = p.access()
	}
	return v
}

// access is where an access through descriptor p (with its offsets)
// reads or writes.
func (p *blockPtr) access() *ir.DescAccess {
	return &ir.DescAccess{Base: p.base, Offsets: p.offsets, Shape: p.shape, Strides: p.strides}
}

// descValue reads the value a store or reduction writes through desc: a
// tensor of the block's shape.
func (c *compiler) descValue(desc *blockPtr, v *val, pos diag.Pos) *ir.Value {
	if v.k == kInvalid {
		return nil
	}
	if v.k != kRuntime {
		c.errorf(pos, diag.CodeType, "the value written through a tensor descriptor must be a tensor of shape %s, got %s", ir.Shape(desc.block), v.describe())
		return nil
	}
	if !v.rt.Type.Shape.Equal(ir.Shape(desc.block)) {
		c.errorf(pos, diag.CodeType, "the value written through a tensor descriptor has shape %s, which is not the block shape %s", v.rt.Type.Shape, ir.Shape(desc.block))
		return nil
	}
	return v.rt
}

func bDescStore(c *compiler, a *args) *val {
	desc := c.descArg(a.vals[0], "a descriptor store", a.pos)
	if desc == nil {
		return invalid
	}
	x := c.descValue(desc, a.vals[2], a.pos)
	if x == nil {
		return invalid
	}
	p, dims := c.descAt(desc, a.vals[1], a.pos)
	if p == nil {
		return invalid
	}
	// Triton casts the value to the descriptor's element type.
	v := c.blockStore(p, dims, c.cast(x, p.elem(), a.pos), 0, a.pos)
	v.Desc = p.access() // the TMA unit may write the block
	return noneVal
}

// descReduceTypes are the element types of Triton 3.6's descriptor
// reductions (semantic.py's descriptor_atomic_*). Triton takes fp16 and
// bf16 min and max only through the TMA unit, which tri does not use.
var descReduceTypes = map[ir.AtomicOp][]ir.Kind{
	ir.AtomicAdd: {ir.Uint32, ir.Int32, ir.Uint64, ir.Float32, ir.Float16, ir.BFloat16},
	ir.AtomicMin: {ir.Uint32, ir.Int32, ir.Uint64, ir.Int64},
	ir.AtomicMax: {ir.Uint32, ir.Int32, ir.Uint64, ir.Int64},
	ir.AtomicAnd: {ir.Uint32, ir.Int32, ir.Uint64, ir.Int64},
	ir.AtomicOr:  {ir.Uint32, ir.Int32, ir.Uint64, ir.Int64},
	ir.AtomicXor: {ir.Uint32, ir.Int32, ir.Uint64, ir.Int64},
}

// bDescAtomic is desc.atomic_add and its siblings: an atomic reduction of
// the value into the block, element by element, of what lies inside the
// parent tensor. Triton's descriptor reductions return nothing and order
// nothing, so tri's are relaxed.
func bDescAtomic(op ir.AtomicOp) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		desc := c.descArg(a.vals[0], "desc.atomic_"+op.String(), a.pos)
		if desc == nil {
			return invalid
		}
		x := c.descValue(desc, a.vals[2], a.pos)
		if x == nil {
			return invalid
		}
		elem := desc.elem()
		if !containsKind(descReduceTypes[op], elem.Kind) {
			if (op == ir.AtomicMin || op == ir.AtomicMax) && (elem.Kind == ir.Float16 || elem.Kind == ir.BFloat16) {
				return c.errorf(a.pos, diag.CodeUnsupported, "16-bit float types require native tma support, which tri does not use")
			}
			return c.errorf(a.pos, diag.CodeType, "Unsupported dtype %s for desc.atomic_%s", elem.PyName(), op)
		}
		if x.Type.DType != elem {
			return c.errorf(a.pos, diag.CodeType, "the value of desc.atomic_%s has type %s but the descriptor holds %s", op, x.Type.DType, elem)
		}
		p, dims := c.descAt(desc, a.vals[1], a.pos)
		if p == nil {
			return invalid
		}
		ptrs, mask := c.blockAccess(p, dims, a.pos)
		v := c.emit(ir.OpAtomicRMW, x.Type, a.pos, ptrs, x, mask)
		v.Atomic, v.Sem, v.Scope = op, ir.SemRelaxed, ir.ScopeGPU
		return noneVal
	}
}

func containsKind(list []ir.Kind, k ir.Kind) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// descAttr evaluates an attribute of a tensor descriptor: its methods,
// block_shape, block_type, dtype, type, shape and strides.
func (c *compiler) descAttr(x *val, name string, pos diag.Pos) *val {
	p := x.bp
	switch name {
	case "block_shape":
		return intTuple(p.block)
	case "block_type":
		return &val{k: kDType, dt: p.elem(), block: ir.Shape(p.block)}
	case "dtype":
		return dtypeVal(p.elem())
	case "shape", "strides":
		// Triton holds the shape as int32 and the strides as int64.
		t := &val{k: kTuple}
		for d := range p.block {
			if name == "shape" {
				t.elts = append(t.elts, rtVal(c.cast(p.shape[d], ir.TInt32, pos)))
				continue
			}
			s := p.strides[d]
			if s.Op == ir.OpConst {
				t.elts = append(t.elts, intVal(s.Const.Int))
				continue
			}
			t.elts = append(t.elts, rtVal(s))
		}
		return t
	}
	if b := builtins[descMethodPath(name)]; b != nil {
		return &val{k: kMethod, s: name, recv: x}
	}
	return c.errorf(pos, diag.CodeType, "%s has no attribute %s", x.describe(), name)
}

// descParam binds a kernel parameter given a host tensor descriptor: its
// base pointer, shape (int32) and strides (int64) become runtime
// parameters named after it (q_desc_base, q_desc_shape0, q_desc_stride0);
// the last stride, which the host checks to be 1, is the constant 1, and
// the others are known multiples of 16 bytes.
func (c *compiler) descParam(name string, a Arg, pos diag.Pos) *val {
	k := c.kernel
	param := func(part string, d ir.DType, div bool) *ir.Value {
		prm := &ir.Param{Name: name + "_" + part, Index: len(k.Params), DType: d, Pos: ir.Pos(pos), DivisibleBy16: div, Of: name, Part: part}
		v := c.emit(ir.OpParam, ir.ScalarType(d), pos)
		v.Param = prm
		v.Name = prm.Name
		prm.Value = v
		k.Params = append(k.Params, prm)
		return v
	}
	base := param("base", a.DType, true)
	rank := len(a.Block)
	shape := make([]*ir.Value, rank)
	strides := make([]*ir.Value, rank)
	for d := range rank {
		div := d < len(a.ShapeDiv16) && a.ShapeDiv16[d]
		shape[d] = c.cast(param(fmt.Sprintf("shape%d", d), ir.TInt32, div), ir.TInt64, pos)
	}
	// The host checks that the strides but the last are multiples of 16
	// bytes (TensorDescriptor's "strides must be 16-byte aligned"), which
	// lets the copies of the blocks be 16 bytes wide.
	align := 16 / max(ir.Scalar(a.DType.Elem).Kind.Bits()/8, 1)
	for d := range rank - 1 {
		strides[d] = param(fmt.Sprintf("stride%d", d), ir.TInt64, false)
		if align > 1 {
			strides[d] = c.hint(strides[d], align, pos)
		}
	}
	strides[rank-1] = c.constOf(ir.TInt64, intVal(1), pos)
	v := c.makeDesc(base, shape, strides, a.Block, a.Padding, pos)
	if v.k == kBlockPtr {
		nameBlockPtr(v.bp, name)
	}
	return v
}

// gatherDesc checks desc.gather and desc.scatter as Triton's
// descriptor_gather does and returns the block of the rows x_offsets and
// the columns from y_offset: its pointers and the mask of what lies inside
// the parent tensor.
func (c *compiler) gatherDesc(a *args, what string, xv, yv *val) (p *blockPtr, ptrs, mask *ir.Value) {
	desc := c.descArg(a.vals[0], what, a.pos)
	if desc == nil || xv.k == kInvalid || yv.k == kInvalid {
		return nil, nil, nil
	}
	if desc.rank() != 2 {
		c.errorf(a.pos, diag.CodeValue, "descriptor must be 2D, but got %s", ir.Shape(desc.block))
		return nil, nil, nil
	}
	if desc.block[0] != 1 {
		c.errorf(a.pos, diag.CodeValue, "descriptor block must have 1 row, but got %s", ir.Shape(desc.block))
		return nil, nil, nil
	}
	if xv.k != kRuntime || xv.rt.Type.Shape.Rank() != 1 || !xv.rt.Type.Kind.IsInt() {
		c.errorf(a.pos, diag.CodeType, "x offsets must be a 1D tensor of integers, but got %s", xv.describe())
		return nil, nil, nil
	}
	rows := xv.rt.Type.Shape[0]
	if rows < 8 {
		c.errorf(a.pos, diag.CodeValue, "%s must have at least 8 rows, but got %s", what, xv.rt.Type.Shape)
		return nil, nil, nil
	}
	elem := desc.elem()
	if minCols := 32 / elem.Kind.Bits() * 8; desc.block[1] < minCols {
		c.errorf(a.pos, diag.CodeValue, "%s of %s must have at least %d columns, but got %s", what, tritonName(elem), minCols, ir.Shape(desc.block))
		return nil, nil, nil
	}
	y := c.blockIndex(yv, true, a.pos)
	if y == nil {
		return nil, nil, nil
	}
	q := *desc
	q.block = []int{rows, desc.block[1]}
	rowIdx := func(d int) *ir.Value {
		if d == 0 {
			return c.cast(c.cast(xv.rt, ir.TInt32, a.pos), ir.TInt64, a.pos)
		}
		return c.offsetIndex(y, q.block[1], a.pos)
	}
	ptrs, mask = c.indexAccess(&q, rowIdx, []int{0, 1}, a.pos)
	return &q, ptrs, mask
}

func bDescGather(c *compiler, a *args) *val {
	p, ptrs, mask := c.gatherDesc(a, "descriptor gather", a.vals[1], a.vals[2])
	if p == nil {
		return invalid
	}
	return c.paddedLoad(ptrs, mask, p.elem(), p.padding, 0, a.pos)
}

func bDescScatter(c *compiler, a *args) *val {
	p, ptrs, mask := c.gatherDesc(a, "descriptor scatter", a.vals[2], a.vals[3])
	if p == nil {
		return invalid
	}
	vv := a.vals[1]
	if vv.k != kRuntime || !vv.rt.Type.Shape.Equal(ptrs.Type.Shape) {
		return c.errorf(a.pos, diag.CodeType, "the value of a descriptor scatter must be a tensor of shape %s, got %s", ptrs.Type.Shape, vv.describe())
	}
	c.emit(ir.OpStore, ir.ScalarType(ir.TVoid), a.pos, ptrs, c.cast(vv.rt, p.elem(), a.pos), mask)
	return noneVal
}

// descSpec prints a descriptor argument's specialization as Triton's
// signature does: tensordesc<fp16[64, 64]>, with the padding when it is
// "nan", and which dimensions of the shape are multiples of 16
// (:shape(16,_) for the first of two).
func descSpec(a Arg) string {
	s := fmt.Sprintf("tensordesc<%s%s>", ir.Scalar(a.DType.Elem), ir.Shape(a.Block))
	if a.Padding == "nan" {
		s += ":nan"
	}
	if slices.Contains(a.ShapeDiv16, true) {
		dims := make([]string, len(a.ShapeDiv16))
		for i, div := range a.ShapeDiv16 {
			dims[i] = "_"
			if div {
				dims[i] = "16"
			}
		}
		s += ":shape(" + strings.Join(dims, ",") + ")"
	}
	return s
}
