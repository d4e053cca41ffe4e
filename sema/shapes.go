package sema

// This file implements the shape builtins of tiles of rank 2 and more:
// tl.trans/tl.permute/x.T, tl.join, tl.split, tl.ravel and tl.view, and
// Python's float()/int() of strings such as float('inf').

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addShapeBuiltins(tl func(string) string) {
	builtins[tl("trans")] = &builtin{append([]string{"input"}, variadic(8)...), 1, bTrans}
	builtins[tl("permute")] = &builtin{append([]string{"input"}, variadic(8)...), 2, bTrans}
	builtins[tl("join")] = &builtin{[]string{"a", "b"}, 2, bJoin}
	builtins[tl("split")] = &builtin{[]string{"a"}, 1, bSplit}
	builtins[tl("ravel")] = &builtin{[]string{"x", "can_reorder"}, 1, bRavel}
	builtins[tl("view")] = &builtin{append([]string{"input"}, variadic(8)...), 2, bView}
}

// parseNumber is Python's float(s) and int(s) of a constexpr string.
func (c *compiler) parseNumber(name, s string, pos diag.Pos) *val {
	t := strings.TrimSpace(s)
	if name == "int" {
		if n, ok := new(big.Int).SetString(strings.ReplaceAll(t, "_", ""), 10); ok && !strings.HasPrefix(t, "_") {
			return bigVal(n)
		}
		return c.errorf(pos, diag.CodeValue, "invalid literal for int() with base 10: %s", strVal(s).repr())
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !strings.Contains(err.Error(), "range") || strings.HasPrefix(strings.ToLower(t), "0x") {
		return c.errorf(pos, diag.CodeValue, "could not convert string to float: %s", strVal(s).repr())
	}
	return floatVal(f)
}

// tensorArg reads an argument that must be a runtime tensor (not a scalar).
func (c *compiler) tensorArg(v *val, what string, pos diag.Pos) *ir.Value {
	if v.k != kRuntime || v.rt.Type.IsScalar() {
		c.errorf(pos, diag.CodeType, "%s needs a tensor, got %s", what, v.describe())
		return nil
	}
	return v.rt
}

// bTrans is tl.trans(x, *dims) and tl.permute(x, dims): core.py's trans
// defaults dims to (1, 0).
func bTrans(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], shortPath(a.name), a.pos)
	if x == nil {
		return invalid
	}
	var dims []*val
	for _, v := range a.vals[1:] {
		if v != nil {
			dims = append(dims, v)
		}
	}
	if len(dims) == 1 && dims[0].k == kTuple {
		dims = dims[0].elts
	}
	perm := make([]int, 0, len(dims))
	for _, d := range dims {
		n, ok := c.constInt(d, "a dimension of "+shortPath(a.name), a.pos)
		if !ok {
			return invalid
		}
		perm = append(perm, int(n))
	}
	if len(dims) == 0 {
		perm = nil
	}
	return c.permute(x, perm, shortPath(a.name), a.pos)
}

// permute is semantic.py's permute; a nil perm is (1, 0).
func (c *compiler) permute(x *ir.Value, perm []int, what string, pos diag.Pos) *val {
	if perm == nil {
		perm = []int{1, 0}
	}
	r := x.Type.Shape.Rank()
	if len(perm) != r {
		return c.errorf(pos, diag.CodeType, "%s: the dims %v must have one entry per dimension of the input of shape %s", what, perm, x.Type.Shape)
	}
	used := make([]bool, r)
	shape := make(ir.Shape, r)
	identity := true
	for i, p := range perm {
		if p < 0 || p >= r || used[p] {
			return c.errorf(pos, diag.CodeValue, "%s: the dims %v must be a permutation of 0, ..., %d", what, perm, r-1)
		}
		used[p] = true
		shape[i] = x.Type.Shape[p]
		identity = identity && p == i
	}
	if identity {
		return rtVal(x)
	}
	v := c.emit(ir.OpTrans, ir.Type{DType: x.Type.DType, Shape: shape}, pos, x)
	v.Perm = perm
	return rtVal(v)
}

// bJoin is semantic.py's join: the operands are broadcast to one shape and
// must have the same dtype.
func bJoin(c *compiler, a *args) *val {
	x := c.runtimeArg(a.vals[0], "the first input of tl.join", a.pos)
	y := c.runtimeArg(a.vals[1], "the second input of tl.join", a.pos)
	if x == nil || y == nil {
		return invalid
	}
	if x.Type.DType != y.Type.DType {
		return c.errorf(a.pos, diag.CodeType, "tl.join needs operands of the same dtype, got %s and %s; cast one of them", x.Type.DType, y.Type.DType)
	}
	s, ok := broadcastShape(x.Type.Shape, y.Type.Shape)
	if !ok {
		return c.errorf(a.pos, diag.CodeType, "tl.join: the shapes %s and %s do not match and cannot be broadcast", x.Type.Shape, y.Type.Shape)
	}
	x, y = c.splatTo(x, s, a.pos), c.splatTo(y, s, a.pos)
	if s.NumElements()*2 > maxNumel {
		return c.errorf(a.pos, diag.CodeValue, "tl.join would make a tensor of more than %d elements", maxNumel)
	}
	t := ir.Type{DType: x.Type.DType, Shape: append(cloneShape(s), 2)}
	return rtVal(c.emit(ir.OpJoin, t, a.pos, x, y))
}

// bSplit is tl.split: the last dimension must be 2; the result is a tuple.
func bSplit(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], "tl.split", a.pos)
	if x == nil {
		return invalid
	}
	r := x.Type.Shape.Rank()
	if x.Type.Shape[r-1] != 2 {
		return c.errorf(a.pos, diag.CodeType, "tl.split: the last dimension must be 2, but the shape is %s", x.Type.Shape)
	}
	half := ir.ReducedType(x.Type, r-1)
	v := c.emit(ir.OpSplit, ir.ScalarType(ir.TVoid), a.pos, x)
	v.Types = []ir.Type{half, half}
	return c.tupleResults(v)
}

// tupleResults reads every result of a multi-result value into a tuple.
func (c *compiler) tupleResults(v *ir.Value) *val {
	out := &val{k: kTuple}
	for i, t := range v.Types {
		g := c.emit(ir.OpTupleGet, t, diag.Pos(v.Pos), v)
		g.Axis = i
		out.elts = append(out.elts, rtVal(g))
	}
	return out
}

// bRavel is tl.ravel: a reshape to one dimension.
func bRavel(c *compiler, a *args) *val {
	x := c.tensorArg(a.vals[0], "tl.ravel", a.pos)
	if x == nil {
		return invalid
	}
	return bReshape(c, &args{name: a.name, pos: a.pos, vals: []*val{rtVal(x), intVal(int64(x.Type.Shape.NumElements())), nil, nil, nil, nil, nil, nil, nil, nil}})
}

// bView is the deprecated tl.view: a reshape that may reorder elements.
func bView(c *compiler, a *args) *val {
	return bReshape(c, &args{name: a.name, pos: a.pos, vals: append(append([]*val(nil), a.vals...), nil)})
}
