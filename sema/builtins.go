package sema

// This file implements the builtins of triton.language and Python that
// kernels call: program ids, arange, loads and stores, creation, casts,
// selection, hints and compile-time helpers.

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// maxNumel is Triton's TRITON_MAX_TENSOR_NUMEL.
const maxNumel = ir.MaxTensorNumel

// constPaths are attribute paths that name constants.
var constPaths = map[string]*val{
	"triton.language.PropagateNan.ALL":  intVal(0xFFFF),
	"triton.language.PropagateNan.NONE": intVal(0),
}

// rangeParams are the parameters of Triton 3.6's tl.range; tl.static_range
// takes the first three. Python's range is bound to them by position, and
// its keywords, whatever their names, are evaluated and ignored, as
// Triton's code generator does (see forStmt).
var rangeParams = []string{"arg1", "arg2", "step", "num_stages", "loop_unroll_factor", "disallow_acc_multi_buffer", "flatten", "warp_specialize", "disable_licm"}

func variadic(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("arg%d", i)
	}
	return out
}

func init() {
	tl := func(name string) string { return "triton.language." + name }
	builtins = map[string]*builtin{
		"range":                  {rangeParams, 1, bRangeOutsideFor},
		tl("range"):              {rangeParams, 1, bRangeOutsideFor},
		tl("static_range"):       {rangeParams[:3], 1, bRangeOutsideFor},
		tl("condition"):          {[]string{"arg1", "disable_licm"}, 1, bConditionOutsideWhile},
		"min":                    {variadic(8), 1, bPyMinMax("min")},
		"max":                    {variadic(8), 1, bPyMinMax("max")},
		"int":                    {[]string{"x"}, 1, bPyConv("int")},
		"float":                  {[]string{"x"}, 1, bPyConv("float")},
		"bool":                   {[]string{"x"}, 1, bPyConv("bool")},
		"len":                    {[]string{"x"}, 1, bLen},
		"abs":                    {[]string{"x"}, 1, bAbs},
		"triton.cdiv":            {[]string{"x", "div"}, 2, bCdiv},
		"triton.next_power_of_2": {[]string{"n"}, 1, bNextPow2},
		tl("cdiv"):               {[]string{"x", "div"}, 2, bCdiv},
		tl("get_int_dtype"):      {[]string{"bitwidth", "signed"}, 2, bGetIntDType}, // tl.core's
		tl("program_id"):         {[]string{"axis"}, 1, bProgramID(ir.OpProgramID)},
		tl("num_programs"):       {[]string{"axis"}, 1, bProgramID(ir.OpNumPrograms)},
		tl("arange"):             {[]string{"start", "end"}, 2, bArange},
		tl("load"):               {[]string{"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier", "eviction_policy", "volatile"}, 1, bLoad},
		tl("store"):              {[]string{"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"}, 2, bStore},
		tl("where"):              {[]string{"condition", "x", "y"}, 3, bWhere},
		tl("zeros"):              {[]string{"shape", "dtype"}, 2, bZeros},
		tl("zeros_like"):         {[]string{"input"}, 1, bZerosLike},
		tl("full"):               {[]string{"shape", "value", "dtype"}, 3, bFull},
		tl("cast"):               {[]string{"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, bCast},
		tl("abs"):                {[]string{"x"}, 1, bAbs},
		tl("sigmoid"):            {[]string{"x"}, 1, bSigmoid},
		tl("fma"):                {[]string{"x", "y", "z"}, 3, bFma},
		tl("maximum"):            {[]string{"x", "y", "propagate_nan"}, 2, bMinMax(ir.OpMax)},
		tl("minimum"):            {[]string{"x", "y", "propagate_nan"}, 2, bMinMax(ir.OpMin)},
		tl("clamp"):              {[]string{"x", "min", "max", "propagate_nan"}, 3, bClamp},
		tl("multiple_of"):        {[]string{"input", "values"}, 2, bHint(ir.OpMultipleOf)},
		tl("max_contiguous"):     {[]string{"input", "values"}, 2, bHint(ir.OpMaxContiguous)},
		tl("max_constancy"):      {[]string{"input", "values"}, 2, bHint(ir.OpInvalid)},
		tl("assume"):             {[]string{"cond"}, 1, bAssume},
		tl("debug_barrier"):      {nil, 0, bBarrier},
		// Programmatic dependent launch (tutorial 11).
		"triton.language.extra.cuda.gdc_wait":              {nil, 0, bGdc(ir.OpGdcWait)},
		"triton.language.extra.cuda.gdc_launch_dependents": {nil, 0, bGdc(ir.OpGdcLaunchDependents)},
		"triton.language.extra.cuda.num_threads":           {nil, 0, bNumThreads},
		tl("static_assert"):                                {[]string{"cond", "msg"}, 1, bStaticAssert},
		tl("constexpr"):                                    {[]string{"value"}, 1, bConstexpr},
		tl("pointer_type"):                                 {[]string{"element_ty", "address_space", "const"}, 1, bPointerType},
		tl("block_type"):                                   {[]string{"element_ty", "shape"}, 2, bBlockType},
		tl("expand_dims"):                                  {[]string{"input", "axis"}, 2, bExpandDims},
		tl("broadcast_to"):                                 {append([]string{"input"}, variadic(8)...), 2, bBroadcastTo},
		tl("broadcast"):                                    {[]string{"input", "other"}, 2, bBroadcast},
		tl("reshape"):                                      {append(append([]string{"input"}, variadic(8)...), "can_reorder"), 2, bReshape},
	}
	addMathBuiltins(tl)
	addShapeBuiltins(tl)
	addReduceBuiltins(tl)
	addAtomicBuiltins(tl)
	addDotBuiltins(tl)
	// Random numbers and tl.umulhi.
	addRandomBuiltins(tl)
	addLibdeviceBuiltins(tl)
	// Printing and assertions (debug.go).
	addDebugBuiltins(tl)
	// The target's predicates (targetinfo.go).
	addTargetInfoBuiltins(tl)
	// Inline assembly (asm.go).
	builtins[tl("inline_asm_elementwise")] = &builtin{inlineAsmParams, len(inlineAsmParams), bInlineAsm}
	// Tile operations (tileops.go).
	addTileOpBuiltins(tl)
	// Block pointers (blockptr.go).
	addBlockPtrBuiltins(tl)
	// Tensor descriptors (tensordesc.go).
	addTensorDescBuiltins(tl)
	// tl.dtype(name), tl.tensor and isinstance (pyclass.go).
	addPyClassBuiltins(tl)
	addPyAttrBuiltins()
	addUnsplatBuiltins()
}

func bRangeOutsideFor(c *compiler, a *args) *val {
	return c.errorf(a.pos, diag.CodeUnsupported, "%s can only be used as the iterable of a for loop", shortPath(a.name))
}

func bConditionOutsideWhile(c *compiler, a *args) *val {
	return c.errorf(a.pos, diag.CodeUnsupported, "tl.condition can only be used as the condition of a while loop")
}

func given(v *val) bool { return v != nil && v.k != kNone }

// constInt reads a compile-time integer argument.
func (c *compiler) constInt(v *val, what string, pos diag.Pos) (int64, bool) {
	n, ok := v.asInt()
	if !ok || v.k == kBool {
		c.errorf(pos, diag.CodeValue, "%s must be a compile-time integer, got %s", what, v.describe())
		return 0, false
	}
	if !n.IsInt64() {
		c.errorf(pos, diag.CodeValue, "%s is out of range: %s", what, n)
		return 0, false
	}
	return n.Int64(), true
}

// runtimeArg converts a value argument to a runtime value.
func (c *compiler) runtimeArg(v *val, what string, pos diag.Pos) *ir.Value {
	if v.k != kRuntime && !v.isNum() {
		c.errorf(pos, diag.CodeType, "%s must be a tensor or a number, got %s", what, v.describe())
		return nil
	}
	return c.toRuntime(v, pos)
}

func bProgramID(op ir.Op) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		axis, ok := c.constInt(a.vals[0], "axis", a.pos)
		if !ok {
			return invalid
		}
		if axis < 0 || axis > 2 {
			return c.errorf(a.pos, diag.CodeValue, "axis must be 0, 1 or 2, got %d", axis)
		}
		v := c.emit(op, ir.ScalarType(ir.TInt32), a.pos)
		v.Axis = int(axis)
		return rtVal(v)
	}
}

func bArange(c *compiler, a *args) *val {
	lo, ok1 := c.constInt(a.vals[0], "the start of tl.arange", a.pos)
	hi, ok2 := c.constInt(a.vals[1], "the end of tl.arange", a.pos)
	if !ok1 || !ok2 {
		return invalid
	}
	// Triton's checks, in its order and with its words: both bounds in
	// [0, 2**32) (tri's values are int32, so the end stops at 2**31), a
	// non-empty range, a power-of-2 length, then the block size limit.
	n := hi - lo
	bounds := a.vals[:2]
	switch {
	case lo < 0 || hi < 0 || lo > 1<<31 || hi > 1<<31:
		return c.metaErrorf(a.pos, bounds, diag.CodeValue, "tl.arange(%d, %d): arange must fit in int32 (start and end in 0..2**31)", lo, hi)
	case n <= 0:
		return c.metaErrorf(a.pos, bounds, diag.CodeValue, "tl.arange(%d, %d): arange's end argument must be greater than the start argument", lo, hi)
	case n&(n-1) != 0:
		return c.metaErrorf(a.pos, bounds, diag.CodeValue, "tl.arange(%d, %d): arange's range must be a power of 2, got %d", lo, hi, n)
	case n > maxNumel:
		return c.metaErrorf(a.pos, bounds, diag.CodeValue, "tl.arange(%d, %d) has %d elements, more than the maximum of %d", lo, hi, n, maxNumel)
	}
	v := c.emit(ir.OpArange, ir.TileType(ir.TInt32, int(n)), a.pos)
	v.Const = ir.IntConst(lo)
	return rtVal(v)
}

// memArgs checks a pointer and a mask and returns both at the access shape.
// tl.load broadcasts the pointer and the mask together, as Triton does, so a
// mask may widen the pointer block ([1, N] with [M, N] loads [M, N]);
// tl.store (growPtr false) keeps the pointer's shape, as Triton requires.
func (c *compiler) memArgs(a *args, what string, maskIdx int, growPtr bool) (ptr, mask *ir.Value, ok bool) {
	pv := a.vals[0]
	if pv.k != kRuntime || !pv.rt.Type.IsPtr() {
		c.errorf(a.pos, diag.CodeType, "%s needs a pointer or a tensor of pointers, got %s", what, pv.describe())
		return nil, nil, false
	}
	ptr = pv.rt
	if mv := a.vals[maskIdx]; given(mv) {
		mask = c.runtimeArg(mv, "mask", a.pos)
		if mask == nil {
			return nil, nil, false
		}
		if mask.Type.Kind != ir.Bool {
			c.errorf(a.pos, diag.CodeType, "the mask of %s must be boolean (i1), got %s; compare it, e.g. offs < n", what, mask.Type)
			return nil, nil, false
		}
		s, ok := broadcastShape(ptr.Type.Shape, mask.Type.Shape)
		if !ok || (!ptr.Type.IsScalar() && !growPtr && !s.Equal(ptr.Type.Shape)) {
			c.errorf(a.pos, diag.CodeType, "the mask of %s has shape %s, which does not match the pointer's shape %s", what, mask.Type.Shape, ptr.Type.Shape)
			return nil, nil, false
		}
		ptr = c.splatTo(ptr, s, a.pos)
		mask = c.splatTo(mask, s, a.pos)
	}
	return ptr, mask, true
}

func bLoad(c *compiler, a *args) *val {
	flags, ok := c.loadFlags(a)
	if !ok {
		return invalid
	}
	padding, ok := c.paddingOption(a.vals[4], a.pos)
	if !ok {
		return invalid
	}
	if a.vals[0].k == kBlockPtr {
		return c.loadBlock(a, flags)
	}
	if padding != "" || given(a.vals[3]) && a.vals[3].truth() {
		return c.errorf(a.pos, diag.CodeValue, "`padding_option` or `boundary_check` argument is not supported for loading a tensor of pointers or loading a scalar, because the compiler does not know the boundary; please use block pointers (defined by `make_block_ptr`) instead")
	}
	ptr, mask, ok := c.memArgs(a, "tl.load", 1, true)
	if !ok {
		return invalid
	}
	t := ir.Type{DType: ir.Scalar(ptr.Type.Elem), Shape: cloneShape(ptr.Type.Shape)}
	var other *ir.Value
	if ov := a.vals[2]; given(ov) {
		if mask == nil {
			return c.errorf(a.pos, diag.CodeValue, "tl.load: other is given without a mask; other is only used where the mask is false")
		}
		if ov.k != kRuntime && !ov.isNum() {
			return c.errorf(a.pos, diag.CodeType, "other must be a number or a tensor, got %s", ov.describe())
		}
		if ov.k == kRuntime {
			if _, ok := broadcastShape(t.Shape, ov.rt.Type.Shape); !ok || ov.rt.Type.Shape.Rank() > t.Shape.Rank() {
				return c.errorf(a.pos, diag.CodeType, "other has shape %s, which does not match the loaded shape %s", ov.rt.Type.Shape, t.Shape)
			}
		}
		if !c.implicitFP8OK(ov, t.Kind, "other", a.pos) {
			return invalid
		}
		other = c.splatTo(c.castTo(ov, t.DType, a.pos), t.Shape, a.pos)
	}
	v := c.emit(ir.OpLoad, t, a.pos, ptr, mask, other)
	v.Flags = flags
	return rtVal(v)
}

// loadFlags reads tl.load's cache_modifier, eviction_policy and volatile.
func (c *compiler) loadFlags(a *args) (ir.Flags, bool) {
	var flags ir.Flags
	f, ok := c.cacheFlags(a.vals[5], map[string]ir.Flags{"": 0, ".ca": ir.FlagCacheCA, ".cg": ir.FlagCacheCG, ".cv": ir.FlagVolatile}, "cache_modifier", a.pos)
	if !ok {
		return 0, false
	}
	flags |= f
	if f, ok = c.cacheFlags(a.vals[6], evictions, "eviction_policy", a.pos); !ok {
		return 0, false
	}
	flags |= f
	if v := a.vals[7]; given(v) {
		if !v.isConst() {
			c.errorf(a.pos, diag.CodeValue, "volatile must be a compile-time bool")
			return 0, false
		}
		if v.truth() {
			flags |= ir.FlagVolatile
		}
	}
	return flags, true
}

var evictions = map[string]ir.Flags{"": 0, "evict_normal": 0, "evict_first": ir.FlagEvictFirst, "evict_last": ir.FlagEvictLast}

func (c *compiler) cacheFlags(v *val, table map[string]ir.Flags, what string, pos diag.Pos) (ir.Flags, bool) {
	if !given(v) {
		return 0, true
	}
	if v.k != kStr {
		c.errorf(pos, diag.CodeValue, "%s must be a string, got %s", what, v.describe())
		return 0, false
	}
	f, ok := table[v.s]
	if !ok {
		var names []string
		for k := range table {
			if k != "" {
				names = append(names, fmt.Sprintf("%q", k))
			}
		}
		c.errorf(pos, diag.CodeValue, "unknown %s %q; expected one of %s", what, v.s, sortedJoin(names))
		return 0, false
	}
	return f, true
}

func bStore(c *compiler, a *args) *val {
	flags, ok := c.storeFlags(a)
	if !ok {
		return invalid
	}
	if a.vals[0].k == kBlockPtr {
		return c.storeBlock(a, flags)
	}
	if given(a.vals[3]) && a.vals[3].truth() {
		return c.errorf(a.pos, diag.CodeValue, "`boundary_check` argument is not supported for storing a tensor of pointers or storing a scalar, because the compiler does not know the boundary; please use block pointers (defined by `make_block_ptr`) instead")
	}
	ptr, mask, ok := c.memArgs(a, "tl.store", 2, false)
	if !ok {
		return invalid
	}
	vv := a.vals[1]
	if vv.k != kRuntime && !vv.isNum() {
		return c.errorf(a.pos, diag.CodeType, "the value stored must be a tensor or a number, got %s", vv.describe())
	}
	if vv.k == kRuntime {
		s, ok := broadcastShape(ptr.Type.Shape, vv.rt.Type.Shape)
		if !ok || !s.Equal(ptr.Type.Shape) {
			if ptr.Type.IsScalar() {
				return c.errorf(a.pos, diag.CodeType, "cannot store a tensor of shape %s through a scalar pointer", vv.rt.Type.Shape)
			}
			return c.errorf(a.pos, diag.CodeType, "the value stored has shape %s, which does not match the pointer's shape %s", vv.rt.Type.Shape, ptr.Type.Shape)
		}
	}
	if !c.implicitFP8OK(vv, ptr.Type.Elem, "the value stored", a.pos) {
		return invalid
	}
	x := c.castTo(vv, ir.Scalar(ptr.Type.Elem), a.pos)
	if x == nil {
		return invalid
	}
	x = c.splatTo(x, ptr.Type.Shape, a.pos)
	v := c.emit(ir.OpStore, ir.ScalarType(ir.TVoid), a.pos, ptr, x, mask)
	v.Flags = flags
	return noneVal
}

// storeFlags reads tl.store's cache_modifier and eviction_policy.
func (c *compiler) storeFlags(a *args) (ir.Flags, bool) {
	f, ok := c.cacheFlags(a.vals[4], map[string]ir.Flags{"": 0, ".wb": 0, ".cg": ir.FlagCacheCG, ".cs": ir.FlagCacheCS, ".wt": ir.FlagCacheWT}, "cache_modifier", a.pos)
	if !ok {
		return 0, false
	}
	e, ok := c.cacheFlags(a.vals[5], evictions, "eviction_policy", a.pos)
	return f | e, ok
}

func bWhere(c *compiler, a *args) *val {
	cond := c.runtimeArg(a.vals[0], "the condition of tl.where", a.pos)
	if cond == nil {
		return invalid
	}
	cond = c.cast(cond, ir.TBool, a.pos)
	x, y := a.vals[1], a.vals[2]
	if !c.tensorOperand(x, "tl.where", a.pos) || !c.tensorOperand(y, "tl.where", a.pos) {
		return invalid
	}
	xd, ok1 := c.operandType(x, a.pos)
	yd, ok2 := c.operandType(y, a.pos)
	if !ok1 || !ok2 {
		return invalid
	}
	var t ir.DType
	if xd.IsPtr() || yd.IsPtr() {
		if xd != yd {
			return c.errorf(a.pos, diag.CodeType, "tl.where: cannot choose between %s and %s", xd, yd)
		}
		t = xd
	} else {
		var err error
		if t, err = selectType(xd, x.isNum(), yd, y.isNum()); err != nil {
			return c.errorf(a.pos, diag.CodeType, "tl.where: %v", err)
		}
	}
	xv, yv := c.materialize(x, t, a.pos), c.materialize(y, t, a.pos)
	s, ok := broadcastShape(cond.Type.Shape, xv.Type.Shape)
	if ok {
		s, ok = broadcastShape(s, yv.Type.Shape)
	}
	if !ok {
		return c.errorf(a.pos, diag.CodeType, "tl.where: incompatible shapes %s, %s and %s", cond.Type.Shape, xv.Type.Shape, yv.Type.Shape)
	}
	cond, xv, yv = c.splatTo(cond, s, a.pos), c.splatTo(xv, s, a.pos), c.splatTo(yv, s, a.pos)
	return rtVal(c.emit(ir.OpWhere, xv.Type, a.pos, cond, xv, yv))
}

// blockShape reads a constexpr shape (an int or a tuple of ints).
func (c *compiler) blockShape(v *val, pos diag.Pos) (ir.Shape, bool) {
	var dims []*val
	switch {
	case v.k == kTuple:
		dims = v.elts
	case v.k == kInt:
		dims = []*val{v}
	default:
		c.errorf(pos, diag.CodeValue, "a shape must be a compile-time int or tuple of ints, got %s", v.describe())
		return nil, false
	}
	shape := ir.Shape{}
	n := int64(1)
	for _, d := range dims {
		x, ok := c.constInt(d, "a shape dimension", pos)
		if !ok {
			return nil, false
		}
		if x <= 0 || x&(x-1) != 0 {
			c.metaErrorf(pos, []*val{d}, diag.CodeValue, "shape dimension %d is not a power of 2", x)
			return nil, false
		}
		if n *= x; n > maxNumel {
			c.metaErrorf(pos, []*val{v}, diag.CodeValue, "a block of shape %s has more than %d elements", v.repr(), maxNumel)
			return nil, false
		}
		shape = append(shape, int(x))
	}
	if len(shape) == 0 {
		return nil, true
	}
	return shape, true
}

func (c *compiler) dtypeArg(v *val, pos diag.Pos) (ir.DType, bool) {
	if v.k != kDType {
		c.errorf(pos, diag.CodeType, "expected a dtype such as tl.float32, got %s", v.describe())
		return ir.DType{}, false
	}
	return v.dt, true
}

func bZeros(c *compiler, a *args) *val {
	return bFull(c, &args{name: a.name, pos: a.pos, vals: []*val{a.vals[0], intVal(0), a.vals[1]}})
}

func bZerosLike(c *compiler, a *args) *val {
	x := a.vals[0]
	if x.k != kRuntime {
		return c.errorf(a.pos, diag.CodeType, "tl.zeros_like needs a tensor, got %s", x.describe())
	}
	return bFull(c, &args{name: a.name, pos: a.pos, vals: []*val{intTuple(x.rt.Type.Shape), intVal(0), dtypeVal(x.rt.Type.DType)}})
}

func bFull(c *compiler, a *args) *val {
	shape, ok := c.blockShape(a.vals[0], a.pos)
	d, ok2 := c.dtypeArg(a.vals[2], a.pos)
	if !ok || !ok2 {
		return invalid
	}
	v := a.vals[1]
	if v.k == kRuntime && !v.rt.Type.IsScalar() {
		return c.errorf(a.pos, diag.CodeType, "the value of tl.full must be a scalar, got %s", v.describe())
	}
	x := c.castTo(v, d, a.pos)
	if x == nil {
		return invalid
	}
	return rtVal(c.splatTo(x, shape, a.pos))
}

func bCast(c *compiler, a *args) *val {
	d, ok := c.dtypeArg(a.vals[1], a.pos)
	if !ok {
		return invalid
	}
	x := c.runtimeArg(a.vals[0], "the input of a cast", a.pos)
	if x == nil {
		return invalid
	}
	// semantic.py's bitcast of a pointer, or to one, is the cast.
	if given(a.vals[3]) && a.vals[3].truth() && !x.Type.IsPtr() && !d.IsPtr() {
		if x.Type.Kind.Bits() != d.Kind.Bits() || x.Type.Kind == ir.Bool || d.Kind == ir.Bool {
			return c.errorf(a.pos, diag.CodeType, "cannot bitcast %s to %s: the sizes differ", x.Type.DType, d)
		}
		if x.Type.DType == d {
			return rtVal(x)
		}
		return rtVal(c.emit(ir.OpBitcast, ir.Type{DType: d, Shape: cloneShape(x.Type.Shape)}, a.pos, x))
	}
	if x.Type.IsPtr() && !d.IsPtr() && d.Kind != ir.Int64 && d.Kind != ir.Uint64 && d.Kind != ir.Bool {
		return c.errorf(a.pos, diag.CodeType, "a pointer can only be cast to another pointer type or to int64, not %s", d)
	}
	if d.IsPtr() && !x.Type.IsPtr() && x.Type.Kind != ir.Int64 && x.Type.Kind != ir.Uint64 {
		return c.errorf(a.pos, diag.CodeType, "only int64 values and pointers can be cast to %s, not %s", d, x.Type.DType)
	}
	var flags ir.Flags
	// As in Triton, a cast to the same type returns its input before the
	// rounding mode is looked at.
	if r := a.vals[2]; given(r) && x.Type.DType != d {
		if r.k != kStr || (r.s != "rtne" && r.s != "rtz") {
			return c.errorf(a.pos, diag.CodeValue, "fp_downcast_rounding must be \"rtne\" or \"rtz\", got %s", r.repr())
		}
		if !x.Type.Kind.IsFloat() || !d.Kind.IsFloat() || d.Kind.Bits() >= x.Type.Kind.Bits() {
			return c.errorf(a.pos, diag.CodeValue, "fp_downcast_rounding applies only to casts from a float to a narrower float")
		}
		if r.s == "rtz" {
			flags = ir.FlagRoundTZ
		}
	}
	if msg := fp8CastError(x.Type.Kind, d.Kind, flags == ir.FlagRoundTZ); msg != "" {
		return c.errorf(a.pos, diag.CodeType, "%s", msg)
	}
	r := c.cast(x, d, a.pos)
	if flags != 0 && r != x {
		r.Flags |= flags
	}
	return rtVal(r)
}

// floatArg converts a math function's argument and checks its dtype.
func (c *compiler) floatArg(v *val, name string, pos diag.Pos) *ir.Value {
	x := c.runtimeArg(v, "the argument of tl."+name, pos)
	if x == nil {
		return nil
	}
	if x.Type.Kind != ir.Float32 && x.Type.Kind != ir.Float64 {
		c.errorf(pos, diag.CodeType, "tl.%s takes fp32 or fp64, got %s; convert with .to(tl.float32)", name, x.Type.DType)
		return nil
	}
	return x
}

// addMathBuiltins binds tl.<name> for every math op of ir's op table that
// names its tl function, so that a new math op needs no edit here.
func addMathBuiltins(tl func(string) string) {
	for op := ir.Op(1); op < ir.NumOps; op++ {
		if name := op.Info().TL; name != "" {
			builtins[tl(name)] = &builtin{[]string{"x"}, 1, bMath(op, name)}
		}
	}
}

func bMath(op ir.Op, name string) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		x := c.floatArg(a.vals[0], name, a.pos)
		if x == nil {
			return invalid
		}
		return rtVal(c.emit(op, x.Type, a.pos, x))
	}
}

func bAbs(c *compiler, a *args) *val {
	v := a.vals[0]
	if v.isNum() && a.name == "abs" {
		if v.k == kFloat {
			return floatVal(max(v.f, -v.f))
		}
		n, _ := v.asInt()
		return bigVal(new(big.Int).Abs(n))
	}
	x := c.runtimeArg(v, "the argument of abs", a.pos)
	if x == nil {
		return invalid
	}
	if x.Type.IsPtr() {
		return c.errorf(a.pos, diag.CodeType, "abs is not defined for pointers")
	}
	if x.Type.Kind.IsUnsigned() {
		return rtVal(x)
	}
	if f, ok := x.Type.Kind.FP8(); ok {
		// The 8-bit floats are not computed on: abs clears the sign bit of
		// the code, as Triton's math.abs does for fp8e4b15 (and its fabs
		// comes to for the others); 0x80, the NaN of the FNUZ formats,
		// stays NaN.
		u8 := ir.Type{DType: ir.TUint8, Shape: cloneShape(x.Type.Shape)}
		bits := rtVal(c.emit(ir.OpBitcast, u8, a.pos, x))
		r := c.binary("&", bits, intVal(0x7f), a.pos)
		if f.FNUZ {
			r = c.tlCall("where", a.pos, c.binary("==", bits, intVal(0x80), a.pos), bits, r)
		}
		if r.k != kRuntime {
			return invalid
		}
		return rtVal(c.emit(ir.OpBitcast, x.Type, a.pos, r.rt))
	}
	return rtVal(c.emit(ir.OpAbs, x.Type, a.pos, x))
}

// bSigmoid is standard.py's sigmoid: 1 / (1 + exp(-x)).
func bSigmoid(c *compiler, a *args) *val {
	x := c.floatArg(a.vals[0], "sigmoid", a.pos)
	if x == nil {
		return invalid
	}
	neg := rtVal(c.emit(ir.OpNeg, x.Type, a.pos, x))
	e := rtVal(c.emit(ir.OpExp, x.Type, a.pos, neg.rt))
	return c.binary("/", intVal(1), c.binary("+", intVal(1), e, a.pos), a.pos)
}

func bFma(c *compiler, a *args) *val {
	var xs [3]*ir.Value
	t := ir.DType{}
	for i, v := range a.vals[:3] {
		d, ok := c.operandType(v, a.pos)
		if !ok || !c.tensorOperand(v, "tl.fma", a.pos) {
			return invalid
		}
		if i == 0 {
			t = d
			continue
		}
		var err error
		if t, err = computationType(t, false, d, false, false); err != nil {
			return c.errorf(a.pos, diag.CodeType, "tl.fma: %v", err)
		}
	}
	if !t.Kind.IsFloat() {
		return c.errorf(a.pos, diag.CodeType, "tl.fma takes floating-point operands, got %s", t)
	}
	var s ir.Shape
	for i, v := range a.vals[:3] {
		xs[i] = c.materialize(v, t, a.pos)
		var ok bool
		if s, ok = broadcastShape(s, xs[i].Type.Shape); !ok {
			return c.errorf(a.pos, diag.CodeType, "tl.fma: incompatible shapes")
		}
	}
	for i := range xs {
		xs[i] = c.splatTo(xs[i], s, a.pos)
	}
	return rtVal(c.emit(ir.OpFma, xs[0].Type, a.pos, xs[0], xs[1], xs[2]))
}

// minMax is tl.maximum/tl.minimum: bf16 goes to fp32 and Python scalars
// are typed as literals before promotion.
func (c *compiler) minMax(op ir.Op, x, y *val, nan *val, pos diag.Pos) *val {
	if !c.tensorOperand(x, "tl.maximum", pos) || !c.tensorOperand(y, "tl.maximum", pos) {
		return invalid
	}
	xd, ok1 := c.operandType(x, pos)
	yd, ok2 := c.operandType(y, pos)
	if !ok1 || !ok2 {
		return invalid
	}
	if xd.Kind == ir.BFloat16 {
		xd = ir.TFloat32
	}
	if yd.Kind == ir.BFloat16 {
		yd = ir.TFloat32
	}
	t, err := computationType(xd, false, yd, false, false)
	if err != nil {
		return c.errorf(pos, diag.CodeType, "%s: %v", op, err)
	}
	xv, yv := c.materialize(x, t, pos), c.materialize(y, t, pos)
	xv, yv, ok := c.broadcastPair(xv, yv, pos)
	if !ok {
		return invalid
	}
	r := c.emit(op, xv.Type, pos, xv, yv)
	if given(nan) {
		if !nan.isConst() {
			return c.errorf(pos, diag.CodeValue, "propagate_nan must be a compile-time value such as tl.PropagateNan.ALL")
		}
		if nan.truth() && t.Kind.IsFloat() {
			r.Flags |= ir.FlagPropagateNaN
		}
	}
	return rtVal(r)
}

func bMinMax(op ir.Op) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val { return c.minMax(op, a.vals[0], a.vals[1], a.vals[2], a.pos) }
}

func bClamp(c *compiler, a *args) *val {
	x := a.vals[0]
	if x.k != kRuntime || !x.rt.Type.Kind.IsFloat() {
		return c.errorf(a.pos, diag.CodeType, "tl.clamp is only supported for floating-point tensors, got %s", x.describe())
	}
	lo := c.minMax(ir.OpMax, x, a.vals[1], a.vals[3], a.pos)
	if lo.k == kInvalid {
		return invalid
	}
	return c.minMax(ir.OpMin, lo, a.vals[2], a.vals[3], a.pos)
}

// bPyMinMax is Python's min/max: Python on constexprs, tl.minimum/maximum
// on tensors.
func bPyMinMax(name string) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		var vs []*val
		for _, v := range a.vals {
			if v != nil {
				vs = append(vs, v)
			}
		}
		if len(vs) == 1 && vs[0].k == kTuple {
			vs = vs[0].elts
		}
		if len(vs) == 0 {
			return c.errorf(a.pos, diag.CodeArgs, "%s() needs at least one argument", name)
		}
		acc := vs[0]
		for _, v := range vs[1:] {
			if acc.isNum() && v.isNum() {
				op := "<"
				if name == "max" {
					op = ">"
				}
				if better, _ := pyCompare(op, v, acc); better {
					acc = v
				}
				continue
			}
			op := ir.OpMin
			if name == "max" {
				op = ir.OpMax
			}
			acc = c.minMax(op, acc, v, nil, a.pos)
			if acc.k == kInvalid {
				return invalid
			}
		}
		return acc
	}
}

func bPyConv(name string) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		v := a.vals[0]
		if v.k == kStr && name != "bool" {
			return c.parseNumber(name, v.s, a.pos)
		}
		if !v.isNum() && !(name == "bool" && v.isConst()) {
			return c.errorf(a.pos, diag.CodeType, "%s() works on compile-time numbers only; use .to(...) on tensors", name)
		}
		switch name {
		case "int":
			if v.k == kFloat {
				bf, _ := new(big.Float).SetFloat64(v.f).Int(nil)
				return bigVal(bf)
			}
			n, _ := v.asInt()
			return bigVal(n)
		case "float":
			return floatVal(v.asFloat())
		}
		return boolVal(v.truth())
	}
}

func bLen(c *compiler, a *args) *val {
	v := a.vals[0]
	switch {
	case v.k == kTuple:
		return intVal(int64(len(v.elts)))
	case v.k == kRuntime && !v.rt.Type.IsScalar():
		return intVal(int64(v.rt.Type.Shape[0]))
	case v.k == kStr:
		return intVal(int64(len(v.s)))
	}
	return c.errorf(a.pos, diag.CodeType, "len() of %s", v.describe())
}

// bCdiv is standard.py's cdiv: (x + div - 1) // div.
func bCdiv(c *compiler, a *args) *val {
	x, d := a.vals[0], a.vals[1]
	return c.binary("//", c.binary("-", c.binary("+", x, d, a.pos), intVal(1), a.pos), d, a.pos)
}

func bNextPow2(c *compiler, a *args) *val {
	n, ok := a.vals[0].asInt()
	if !ok {
		return c.errorf(a.pos, diag.CodeValue, "next_power_of_2 needs a compile-time integer, got %s", a.vals[0].describe())
	}
	if n.Sign() <= 0 {
		return intVal(0)
	}
	m := new(big.Int).Sub(n, big.NewInt(1))
	return bigVal(new(big.Int).Lsh(big.NewInt(1), uint(m.BitLen())))
}

func bHint(op ir.Op) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		x := a.vals[0]
		if x.k != kRuntime {
			return x
		}
		var hs []int
		vs := a.vals[1]
		list := []*val{vs}
		if vs.k == kTuple {
			list = vs.elts
		}
		for _, h := range list {
			n, ok := c.constInt(h, "a hint value", a.pos)
			if !ok {
				return invalid
			}
			hs = append(hs, int(n))
		}
		want := max(1, x.rt.Type.Shape.Rank())
		if len(hs) != want {
			return c.errorf(a.pos, diag.CodeValue, "%s needs %d hint values for a value of shape %s, got %d", shortPath(a.name), want, x.rt.Type.Shape, len(hs))
		}
		if op == ir.OpInvalid {
			return x
		}
		r := c.emit(op, x.rt.Type, a.pos, x.rt)
		r.Hints = hs
		return rtVal(r)
	}
}

func bAssume(c *compiler, a *args) *val {
	v := a.vals[0]
	if v.isConst() {
		return noneVal
	}
	x := c.runtimeArg(v, "the condition of tl.assume", a.pos)
	if x == nil {
		return invalid
	}
	if !x.Type.IsScalar() || x.Type.Kind != ir.Bool {
		return c.errorf(a.pos, diag.CodeType, "tl.assume needs a boolean scalar, got %s", x.Type)
	}
	c.emit(ir.OpAssume, ir.ScalarType(ir.TVoid), a.pos, x)
	return noneVal
}

func bBarrier(c *compiler, a *args) *val {
	c.emit(ir.OpBarrier, ir.ScalarType(ir.TVoid), a.pos)
	return noneVal
}

// bGdc is gdc_wait or gdc_launch_dependents: a statement op with no value.
func bGdc(op ir.Op) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		c.emit(op, ir.ScalarType(ir.TVoid), a.pos)
		return noneVal
	}
}

func bStaticAssert(c *compiler, a *args) *val {
	v := a.vals[0]
	if !v.isConst() {
		return c.errorf(a.pos, diag.CodeValue, "tl.static_assert needs a compile-time condition, got %s", v.describe())
	}
	if !v.truth() {
		msg := "static_assert failed"
		if m := a.vals[1]; m != nil && m.k == kStr && m.s != "" {
			msg += ": " + m.s
		}
		return c.errorf(a.pos, diag.CodeValue, "%s", msg)
	}
	return noneVal
}

func bConstexpr(c *compiler, a *args) *val {
	v := a.vals[0]
	if !v.isConst() {
		return c.errorf(a.pos, diag.CodeValue, "tl.constexpr needs a compile-time value, got %s", v.describe())
	}
	return v
}

func bPointerType(c *compiler, a *args) *val {
	d, ok := c.dtypeArg(a.vals[0], a.pos)
	if !ok {
		return invalid
	}
	if d.IsPtr() {
		return c.errorf(a.pos, diag.CodeUnsupported, "pointers to pointers are not supported")
	}
	return dtypeVal(ir.PtrTo(d.Kind))
}

// bBlockType is tl.block_type(element_ty, shape): a compile-time type,
// compared with == and read through element_ty, shape, numel and the
// is_xxx predicates, as Triton's block_type. A block of pointers is
// refused: tri's block types of pointers stand for block pointers.
func bBlockType(c *compiler, a *args) *val {
	d, ok := c.dtypeArg(a.vals[0], a.pos)
	if !ok {
		return invalid
	}
	if a.vals[0].block != nil {
		return c.errorf(a.pos, diag.CodeType, "the element type of tl.block_type must be a scalar dtype, got %s", a.vals[0].repr())
	}
	if d.IsPtr() {
		return c.errorf(a.pos, diag.CodeUnsupported, "tl.block_type of a pointer type is not supported by tri")
	}
	sh := a.vals[1]
	if sh.k != kTuple {
		return c.errorf(a.pos, diag.CodeType, "the shape of tl.block_type must be a list or tuple of ints, got %s", sh.describe())
	}
	if len(sh.elts) == 0 {
		return c.errorf(a.pos, diag.CodeType, "0d block_type is forbidden")
	}
	shape := make(ir.Shape, len(sh.elts))
	for i, e := range sh.elts {
		n, ok := c.constInt(e, "a dimension of tl.block_type's shape", a.pos)
		if !ok {
			return invalid
		}
		shape[i] = int(n)
	}
	if err := shape.BlockShapeError(); err != nil {
		return c.errorf(a.pos, diag.CodeValue, "%v", err)
	}
	return &val{k: kDType, dt: d, block: shape}
}

func bExpandDims(c *compiler, a *args) *val {
	x := c.runtimeArg(a.vals[0], "the input of tl.expand_dims", a.pos)
	if x == nil {
		return invalid
	}
	axes := []*val{a.vals[1]}
	if a.vals[1].k == kTuple {
		axes = a.vals[1].elts
	}
	// As Triton's expand_dims: every axis is wrapped against the rank of
	// the result, and the new dimensions are inserted in increasing order.
	ndim := int64(x.Type.Shape.Rank() + len(axes))
	wrapped := make([]int, 0, len(axes))
	for _, av := range axes {
		ax, ok := c.constInt(av, "axis", a.pos)
		if !ok {
			return invalid
		}
		if ax < -ndim || ax >= ndim {
			return c.errorf(a.pos, diag.CodeValue, "invalid axis %d. Expected %d <= axis < %d", ax, -ndim, ndim)
		}
		if ax < 0 {
			ax += ndim
		}
		if slices.Contains(wrapped, int(ax)) {
			return c.errorf(a.pos, diag.CodeValue, "expand_dims received duplicate axes, normalized axes = %v", append(wrapped, int(ax)))
		}
		wrapped = append(wrapped, int(ax))
	}
	slices.Sort(wrapped)
	for _, ax := range wrapped {
		x = c.expandDims(x, ax, a.pos)
	}
	return rtVal(x)
}

func bBroadcastTo(c *compiler, a *args) *val {
	x := c.runtimeArg(a.vals[0], "the input of tl.broadcast_to", a.pos)
	if x == nil {
		return invalid
	}
	sv := &val{k: kTuple}
	for _, v := range a.vals[1:] {
		if v != nil {
			sv.elts = append(sv.elts, v)
		}
	}
	if len(sv.elts) == 1 && sv.elts[0].k == kTuple {
		sv = sv.elts[0]
	}
	shape, ok := c.blockShape(sv, a.pos)
	if !ok {
		return invalid
	}
	if s, ok := broadcastShape(x.Type.Shape, shape); !ok || !s.Equal(shape) {
		return c.errorf(a.pos, diag.CodeType, "cannot broadcast shape %s to %s", x.Type.Shape, shape)
	}
	return rtVal(c.splatTo(x, shape, a.pos))
}

func bBroadcast(c *compiler, a *args) *val {
	x := c.runtimeArg(a.vals[0], "the input of tl.broadcast", a.pos)
	y := c.runtimeArg(a.vals[1], "the other input of tl.broadcast", a.pos)
	if x == nil || y == nil {
		return invalid
	}
	x, y, ok := c.broadcastPair(x, y, a.pos)
	if !ok {
		return invalid
	}
	return &val{k: kTuple, elts: []*val{rtVal(x), rtVal(y)}}
}

// bReshape is tl.reshape(input, shape) (also x.reshape(a, b)); the
// element order is kept, which is one valid answer under can_reorder=True.
func bReshape(c *compiler, a *args) *val {
	x := c.runtimeArg(a.vals[0], "the input of tl.reshape", a.pos)
	if x == nil {
		return invalid
	}
	sv := &val{k: kTuple}
	for _, v := range a.vals[1:9] {
		if v != nil {
			sv.elts = append(sv.elts, v)
		}
	}
	if len(sv.elts) == 1 && sv.elts[0].k == kTuple {
		sv = sv.elts[0]
	}
	shape, ok := c.blockShape(sv, a.pos)
	if !ok {
		return invalid
	}
	if shape.NumElements() != x.Type.Shape.NumElements() {
		return c.errorf(a.pos, diag.CodeType, "cannot reshape %s (%d elements) to %s", x.Type.Shape, x.Type.Shape.NumElements(), shape)
	}
	if x.Type.Shape.Equal(shape) {
		return rtVal(x)
	}
	if shape == nil {
		return c.errorf(a.pos, diag.CodeUnsupported, "reshaping to a scalar is not supported")
	}
	return rtVal(c.emit(ir.OpReshape, ir.Type{DType: x.Type.DType, Shape: shape}, a.pos, x))
}

// bNumThreads is tl.extra.cuda.num_threads(): the threads of a program,
// 32 per warp, known at compile time.
func bNumThreads(c *compiler, a *args) *val {
	return intVal(int64(32 * c.kernel.NumWarps))
}
