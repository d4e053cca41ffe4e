package sema

// This file implements expressions: names, literals, operators,
// attributes, subscripts and tuples. Calls are in call.go.

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// pyBuiltins are the Python builtins kernels may use.
var pyBuiltins = map[string]bool{"range": true, "min": true, "max": true, "print": true, "int": true, "float": true, "len": true, "abs": true, "isinstance": true, "bool": true, "getattr": true, "hasattr": true}

func (c *compiler) expr(fr *frame, e frontend.Expr) *val {
	switch e := e.(type) {
	case *frontend.Name:
		return c.lookup(fr, e)
	case *frontend.Const:
		switch e.Kind {
		case frontend.ConstInt:
			if e.Int == nil {
				return intVal(0)
			}
			return bigVal(e.Int)
		case frontend.ConstFloat:
			return floatVal(e.Float)
		case frontend.ConstStr:
			return strVal(e.Str)
		case frontend.ConstBool:
			return boolVal(e.Bool)
		case frontend.ConstNone:
			return noneVal
		}
		return c.errorf(e.Pos, diag.CodeUnsupported, "... is not supported in Triton kernels")
	case *frontend.Binary:
		return c.binary(e.Op, c.expr(fr, e.X), c.expr(fr, e.Y), e.Pos)
	case *frontend.Unary:
		return c.unary(e.Op, c.expr(fr, e.X), e.Pos)
	case *frontend.BoolOp:
		return c.boolOp(fr, e)
	case *frontend.Compare:
		return c.compareChain(fr, e)
	case *frontend.Call:
		if v, ok := c.hostConstant(fr, e); ok { // hostconst.go
			return v
		}
		return c.call(fr, e)
	case *frontend.Attribute:
		if v, ok := c.hostConstant(fr, e); ok {
			return v
		}
		return c.attribute(fr, e)
	case *frontend.Subscript:
		return c.subscript(fr, e)
	case *frontend.Tuple:
		return c.tuple(fr, e.Elts)
	case *frontend.List:
		return c.tuple(fr, e.Elts)
	case *frontend.IfExp:
		return c.ifExp(fr, e)
	case *frontend.Slice:
		return c.errorf(e.Pos, diag.CodeUnsupported, "a slice is only allowed inside a subscript")
	case *frontend.Lambda:
		return c.errorf(e.Pos, diag.CodeUnsupported, "lambda is not supported in Triton kernels; define a @triton.jit function")
	case *frontend.Dict:
		return c.errorf(e.Pos, diag.CodeUnsupported, "dicts are not supported in Triton kernels")
	case *frontend.FString:
		return c.fstring(fr, e)
	case *frontend.Starred:
		return c.errorf(e.Pos, diag.CodeUnsupported, "*args is not supported in Triton kernels")
	case *frontend.BadExpr:
		if e.Comp != nil {
			return c.listComp(fr, e)
		}
		return c.errorf(e.Pos, diag.CodeUnsupported, "%s is not supported in Triton kernels", e.What)
	case nil:
		return invalid
	}
	return c.errorf(e.Position(), diag.CodeUnsupported, "unsupported expression")
}

func (c *compiler) tuple(fr *frame, elts []frontend.Expr) *val {
	t := &val{k: kTuple}
	for _, e := range elts {
		v := c.expr(fr, e)
		if v.k == kInvalid {
			return invalid
		}
		t.elts = append(t.elts, v)
	}
	return t
}

// lookup resolves a name: locals, then the @jit functions of the host
// function the code is defined in (closureFunc), then the names of the
// module the code is in (globals, @jit functions, imports, followed into
// other modules), then Python builtins.
func (c *compiler) lookup(fr *frame, n *frontend.Name) *val {
	if v, ok := fr.env[n.ID]; ok {
		if v.k == kUndef {
			return c.errorf(n.Pos, diag.CodeUndefined, "%s", v.s)
		}
		return v
	}
	if fr != nil {
		if cl := closureFunc(fr.fn, n.ID); cl != nil {
			return &val{k: kFunc, fn: cl}
		}
	}
	f := c.fileOf(fr)
	sym, d := f.Lookup(n.ID)
	if d != nil {
		return c.importError(d, n.Pos)
	}
	if sym.Kind != frontend.SymNone {
		return c.symbolVal(sym, n.ID, n.Pos)
	}
	if pyBuiltins[n.ID] {
		return &val{k: kBuiltin, s: n.ID}
	}
	d = c.errorAt(n.Pos, diag.CodeUndefined, "undefined name %s", n.ID)
	if s := suggest(n.ID, c.visibleNames(fr)); s != "" {
		d.WithSuggestion("did you mean %s?", s)
	}
	return invalid
}

// visibleNames lists every name a kernel could mean, for suggestions.
func (c *compiler) visibleNames(fr *frame) []string {
	var out []string
	for n, v := range fr.env {
		if v.k != kUndef {
			out = append(out, n)
		}
	}
	out = append(out, scopeNames(c.fileOf(fr))...)
	for b := range pyBuiltins {
		out = append(out, b)
	}
	return out
}

// global evaluates a module-level assignment of file f on first use: a
// compile-time constant, or an alias of a function, module or dtype
// (my_exp = tl.exp).
func (c *compiler) global(f *frontend.File, g *frontend.Global, pos diag.Pos) *val {
	if v, ok := c.globals[g]; ok {
		return v
	}
	if c.globalsBusy[g] {
		return c.errorf(pos, diag.CodeValue, "global %s is defined in terms of itself", g.Name)
	}
	if g.Stale != "" {
		v := c.staleGlobal(f, g, pos)
		c.globals[g] = v
		return v
	}
	c.globalsBusy[g] = true
	gf := &frame{env: map[string]*val{}, file: f}
	value := g.Value
	if k, ok := f.Value(value); ok && hasCall(value) {
		value = k // hasattr(tl, "gather"), os.environ.get(...): computed as at import
	}
	saved, before := c.blk, len(c.diags.Items)
	c.blk = &ir.Block{}
	v := c.expr(gf, value)
	emitted := len(c.blk.Stmts) > 0
	c.blk = saved
	delete(c.globalsBusy, g)
	if v.k != kInvalid && (!v.isConst() || emitted) {
		v = c.errorf(g.Pos, diag.CodeValue, "global %s must be a compile-time constant (a number, string, dtype or tl.constexpr(...)) or a function or module, not %s", g.Name, v.describe())
	}
	if len(c.diags.Items) > before {
		if k, ok := c.hostValue(f, g, before); ok {
			v = c.expr(gf, k)
		}
	}
	noteUse(c.diags, before, g.Name, pos)
	c.globals[g] = v
	return v
}

// modulePath turns a dotted path into a module, builtin or dtype value.
func (c *compiler) modulePath(path string, pos diag.Pos) *val {
	path = normalizePath(path)
	if v, ok := constPaths[path]; ok {
		return v
	}
	if modules[path] {
		return &val{k: kModule, s: path}
	}
	if d, ok := dtypeByPath(path); ok {
		return dtypeVal(d)
	}
	if _, ok := builtins[path]; ok {
		return &val{k: kBuiltin, s: path}
	}
	if unsupported(path) {
		return c.errorf(pos, diag.CodeUnsupported, "%s is not supported by tri yet", shortPath(path))
	}
	parent, name := path, ""
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		parent, name = path[:i], path[i+1:]
	}
	if msg, ok := foreignPath(path); ok {
		return c.errorf(pos, diag.CodeUnsupported, "%s", msg)
	}
	d := c.errorAt(pos, diag.CodeUndefined, "%s has no attribute %s%s", shortPath(parent), name, tritonLacks(parent, name))
	if s := suggestMember(parent, name); s != "" {
		d.WithSuggestion("did you mean %s.%s?", shortPath(parent), s)
	}
	return invalid
}

// shortPath writes triton.language as tl for messages.
func shortPath(p string) string {
	if p == "triton.language" {
		return "tl"
	}
	if strings.HasPrefix(p, "triton.language.") {
		return "tl." + strings.TrimPrefix(p, "triton.language.")
	}
	return p
}

func (c *compiler) boolOp(fr *frame, e *frontend.BoolOp) *val {
	acc := c.expr(fr, e.Values[0])
	for _, x := range e.Values[1:] {
		if acc.k == kInvalid {
			return invalid
		}
		if acc.isConst() {
			// Python: `a and b` is a if a is false, else b.
			if acc.truth() == (e.Op == "or") {
				return acc
			}
			acc = c.expr(fr, x)
			continue
		}
		acc = c.logical(e.Op, acc, c.expr(fr, x), e.Pos)
	}
	return acc
}

func (c *compiler) compareChain(fr *frame, e *frontend.Compare) *val {
	left := c.expr(fr, e.Left)
	var result *val
	for i, op := range e.Ops {
		right := c.expr(fr, e.Rights[i])
		r := c.compare(op, left, right, e.Pos)
		if r.k == kInvalid {
			return invalid
		}
		switch {
		case result == nil:
			result = r
		case result.isConst() && r.isConst():
			if !result.truth() {
				return result
			}
			result = r
		default:
			return c.errorf(e.Pos, diag.CodeUnsupported, "chained comparisons of tensors are not supported; split them with &")
		}
		left = right
	}
	return result
}

func (c *compiler) ifExp(fr *frame, e *frontend.IfExp) *val {
	cond := c.expr(fr, e.Cond)
	if cond.k == kInvalid {
		return invalid
	}
	if cond.isConst() {
		if cond.truth() {
			return c.expr(fr, e.Then)
		}
		return c.expr(fr, e.Else)
	}
	cv := c.condition(cond, e.Cond.Position())
	a, b := c.expr(fr, e.Then), c.expr(fr, e.Else)
	if cv == nil || a.k == kInvalid || b.k == kInvalid {
		return invalid
	}
	x, y := c.toRuntime(a, e.Pos), c.toRuntime(b, e.Pos)
	if x == nil || y == nil {
		return invalid
	}
	if !x.Type.Equal(y.Type) {
		return c.errorf(e.Pos, diag.CodeType, "the two sides of a runtime conditional expression have types %s and %s; they must match", x.Type, y.Type)
	}
	cv = c.splatTo(cv, x.Type.Shape, e.Pos)
	return rtVal(c.emit(ir.OpWhere, x.Type, e.Pos, cv, x, y))
}

// attribute evaluates X.Name.
func (c *compiler) attribute(fr *frame, e *frontend.Attribute) *val {
	return c.attrOf(c.expr(fr, e.X), e.Name, e.Pos)
}

// attrOf is the attribute name of the evaluated value x: x.name, and also
// getattr(x, name).
func (c *compiler) attrOf(x *val, name string, pos diag.Pos) *val {
	e := struct {
		Name string
		Pos  diag.Pos
	}{name, pos}
	switch x.k {
	case kInvalid:
		return invalid
	case kModule:
		return c.modulePath(x.s+"."+e.Name, e.Pos)
	case kPyModule:
		return c.moduleAttr(x.mod, e.Name, e.Pos)
	case kRuntime:
		return c.tensorAttr(x, e.Name, e.Pos)
	case kDType:
		// Triton passes a non-tensor argument of a @jit function wrapped in
		// tl.constexpr, annotated or not: get_dtype_min(dtype) reads the
		// dtype as dtype.value.
		if e.Name == "value" {
			return x
		}
		if x.block != nil {
			return c.blockTypeAttr(x, e.Name, e.Pos)
		}
		return c.dtypeAttr(x.dt, e.Name, e.Pos)
	case kBlockPtr:
		return c.blockPtrAttr(x, e.Name, e.Pos)
	case kTuple:
		if e.Name == "index" || e.Name == "count" {
			return c.errorf(e.Pos, diag.CodeUnsupported, "tuple.%s is not supported", e.Name)
		}
	case kConstType:
		if e.Name == "value" {
			return x.recv
		}
	case kInt, kFloat, kBool, kStr, kNone:
		if e.Name == "value" && x.k != kNone {
			return x
		}
		if e.Name == "type" {
			// Triton's constexpr.type is constexpr_type(value).
			return &val{k: kConstType, recv: x}
		}
		if x.isNum() {
			if _, ok := members[e.Name]; ok {
				return &val{k: kMethod, s: e.Name, recv: x}
			}
			if x.assigned && e.Name == "dtype" {
				return dtypeVal(toTensorDType(x))
			}
		}
	}
	return c.errorf(e.Pos, diag.CodeType, "%s has no attribute %s", x.describe(), e.Name)
}

// tensorAttr evaluates an attribute of a runtime value.
func (c *compiler) tensorAttr(x *val, name string, pos diag.Pos) *val {
	t := x.rt.Type
	switch name {
	case "type":
		// A tile's type is Triton's block_type (<(16,), fp32>); a scalar's,
		// and for now a tile of pointers', is its dtype.
		if t.Shape.Rank() > 0 && !t.DType.IsPtr() {
			return &val{k: kDType, dt: t.DType, block: t.Shape}
		}
		return dtypeVal(t.DType)
	case "dtype":
		return dtypeVal(t.DType)
	case "shape":
		return intTuple(t.Shape)
	case "numel":
		return intVal(int64(t.Shape.NumElements()))
	case "T":
		return c.permute(x.rt, nil, "x.T", pos)
	}
	if _, ok := members[name]; ok {
		return &val{k: kMethod, s: name, recv: x}
	}
	// Triton 3.6's tensor class declares sort only as a typing stub, which
	// gives None when called.
	if name == "sort" {
		return c.errorf(pos, diag.CodeUnsupported, "x.sort() is not a tensor method in Triton 3.6 (it gives None); call tl.sort(x)")
	}
	d := c.errorAt(pos, diag.CodeUndefined, "%s has no attribute %s", x.describe(), name)
	switch name {
	case "load", "store", "atomic_add", "gather", "scatter", "block_shape":
		// A launch that passes a number or a tensor where the kernel
		// expects a tensor descriptor.
		d.WithSuggestion("%s is a tensor descriptor's: pass TensorDescriptor(tensor, shape, strides, block_shape) or make one with tl.make_tensor_descriptor", name)
		return invalid
	}
	names := []string{"dtype", "shape", "numel"}
	for m := range members {
		names = append(names, m)
	}
	if s := suggest(name, names); s != "" {
		d.WithSuggestion("did you mean .%s?", s)
	}
	return invalid
}

// dtypeAttr evaluates an attribute of a dtype.
func (c *compiler) dtypeAttr(d ir.DType, name string, pos diag.Pos) *val {
	switch name {
	case "element_ty":
		if !d.IsPtr() {
			return c.errorf(pos, diag.CodeType, "%s is not a pointer type and has no element_ty", d.PyName())
		}
		return dtypeVal(ir.Scalar(d.Elem))
	case "primitive_bitwidth":
		return intVal(int64(d.Kind.Bits()))
	case "name":
		return strVal(d.PyName())
	}
	if v, ok := dtypeNumber(d, name); ok {
		return v
	}
	if _, limit, _ := dtypeIntLimit(d, name); strings.HasPrefix(name, "is_") || limit {
		return &val{k: kMethod, s: name, recv: dtypeVal(d)}
	}
	return c.errorf(pos, diag.CodeType, "dtype has no attribute %s", name)
}

// dtypePredicate evaluates dtype.is_xxx().
func dtypePredicate(d ir.DType, name string) (bool, bool) {
	k := d.Kind
	switch name {
	case "is_floating":
		return k.IsFloat(), true
	case "is_int":
		return k.IsInt(), true
	case "is_int_signed":
		return k.IsSigned(), true
	case "is_int_unsigned": // int1 is among Triton's unsigned types
		return k.IsUnsigned(), true
	case "is_bool", "is_int1":
		return k == ir.Bool, true
	case "is_ptr":
		return d.IsPtr(), true
	case "is_fp16":
		return k == ir.Float16, true
	case "is_bf16":
		return k == ir.BFloat16, true
	case "is_fp32":
		return k == ir.Float32, true
	case "is_fp64":
		return k == ir.Float64, true
	case "is_fp8":
		return k.IsFP8(), true
	case "is_fp8e4nv", "is_fp8e5", "is_fp8e4b15", "is_fp8e4b8", "is_fp8e5b16":
		return k.String() == name[3:], true
	case "is_int8", "is_int16", "is_int32", "is_int64":
		return k.IsSigned() && fmt.Sprint(k.Bits()) == name[6:], true
	case "is_uint8", "is_uint16", "is_uint32", "is_uint64":
		return k.IsUnsigned() && k != ir.Bool && fmt.Sprint(k.Bits()) == name[7:], true
	}
	return false, false
}

// subscript evaluates X[Index]: constexpr tuple indexing and, on tensors,
// None/: indexing that inserts axes.
func (c *compiler) subscript(fr *frame, e *frontend.Subscript) *val {
	x := c.expr(fr, e.X)
	if x.k == kInvalid {
		return invalid
	}
	if x.k == kTuple {
		if s, ok := e.Index.(*frontend.Slice); ok {
			return c.sliceTuple(fr, x, s)
		}
		i := c.expr(fr, e.Index)
		n, ok := i.asInt()
		if i.k == kInvalid {
			return invalid
		}
		if !ok {
			return c.errorf(e.Index.Position(), diag.CodeType, "tuple index must be a compile-time integer, got %s", i.describe())
		}
		idx := new(big.Int).Set(n)
		if idx.Sign() < 0 {
			idx.Add(idx, big.NewInt(int64(len(x.elts))))
		}
		if idx.Sign() < 0 || idx.Cmp(big.NewInt(int64(len(x.elts)))) >= 0 {
			return c.errorf(e.Index.Position(), diag.CodeValue, "tuple index %s out of range (length %d)", n, len(x.elts))
		}
		return x.elts[idx.Int64()]
	}
	if x.k != kRuntime {
		return c.errorf(e.Pos, diag.CodeType, "%s cannot be indexed", x.describe())
	}
	var idx []frontend.Expr
	if t, ok := e.Index.(*frontend.Tuple); ok {
		idx = t.Elts
	} else {
		idx = []frontend.Expr{e.Index}
	}
	v := x.rt
	axis := 0
	for _, ix := range idx {
		switch ix := ix.(type) {
		case *frontend.Slice:
			// A bound written as None (data[None, None:]) is no bound, as
			// in Triton's tensor.__getitem__.
			for _, b := range []frontend.Expr{ix.Lo, ix.Hi, ix.Step} {
				if b == nil {
					continue
				}
				bv := c.expr(fr, b)
				if bv.k == kInvalid {
					return invalid
				}
				if bv.k != kNone {
					return c.errorf(ix.Pos, diag.CodeUnsupported, "only full slices (:) are supported in tensor subscripts")
				}
			}
			// Triton's tensor.__getitem__ passes over a full slice without
			// checking it against the rank: a scalar's s[:, None] is s splat
			// to [1] (torchao's program_id(0)[:, None]).
			axis++
		default:
			iv := c.expr(fr, ix)
			if iv.k == kInvalid {
				return invalid
			}
			if iv.k != kNone {
				return c.errorf(ix.Position(), diag.CodeUnsupported, "tensors can only be indexed with None and : (x[:, None]); got %s", iv.describe())
			}
			if !v.Type.IsScalar() && axis > v.Type.Shape.Rank() {
				// Triton's expand_dims would make an axis past the end,
				// which its IR verifier rejects.
				return c.errorf(ix.Position(), diag.CodeType, "too many indices for a tensor of shape %s", x.rt.Type.Shape)
			}
			v = c.expandDims(v, axis, e.Pos)
			axis++
		}
	}
	return rtVal(v)
}

// expandDims inserts an axis of size 1 at axis; a scalar is splat to [1],
// as semantic.py's expand_dims does.
func (c *compiler) expandDims(v *ir.Value, axis int, pos diag.Pos) *ir.Value {
	if v.Type.IsScalar() {
		return c.emit(ir.OpSplat, ir.Type{DType: v.Type.DType, Shape: ir.Shape{1}}, pos, v)
	}
	s := make(ir.Shape, 0, v.Type.Shape.Rank()+1)
	s = append(s, v.Type.Shape[:axis]...)
	s = append(s, 1)
	s = append(s, v.Type.Shape[axis:]...)
	r := c.emit(ir.OpExpandDims, ir.Type{DType: v.Type.DType, Shape: s}, pos, v)
	r.Axis = axis
	return r
}
