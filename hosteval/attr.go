package hosteval

// This file implements attributes, methods and subscripts of values:
// x.shape[i], x.stride(i), x.numel(), meta['BLOCK'], and the like.

import (
	"sort"
	"strconv"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

func itoa(n int) string { return strconv.Itoa(n) }

// attribute evaluates v.name for a non-call attribute.
func attribute(x *frontend.Attribute, v Value) (Value, error) {
	if v.Kind == VDesc {
		return descAttribute(x, v.Desc)
	}
	if v.Kind == VDict && v.Str == torchPropsMarker {
		if a, ok := v.Dict[x.Name]; ok {
			return a, nil
		}
	}
	if v.Kind == VTensor {
		t := v.Tensor
		switch x.Name {
		case "shape":
			return intTuple(t.Shape), nil
		case "dtype":
			return DTypeValue(ir.Scalar(t.Kind)), nil
		case "ndim":
			return IntValue(int64(len(t.Shape))), nil
		}
	}
	return Value{}, Errf(x, "%s has no attribute '%s'", v.Describe(), x.Name)
}

// method calls v.name(args...): the tensor methods a launch line uses.
func method(x *frontend.Attribute, v Value, c *callArgs) (Value, error) {
	if v.Kind != VTensor {
		return Value{}, Errf(x, "%s has no method '%s'", v.Describe(), x.Name)
	}
	t := v.Tensor
	axis := func() (int, error) {
		i, err := c.int(0)
		if err != nil {
			return 0, err
		}
		r := int64(len(t.Shape))
		if i < -r || i >= r {
			return 0, Errf(c.pos[0].at, "axis %d is out of range for a tensor of rank %d", i, r)
		}
		if i < 0 {
			i += r
		}
		return int(i), nil
	}
	switch x.Name {
	case "stride", "size":
		if err := c.nargs(0, 1); err != nil {
			return Value{}, err
		}
		if len(c.pos) == 0 {
			if x.Name == "size" {
				return intTuple(t.Shape), nil
			}
			s := make([]int, len(t.Shape))
			for i := range s {
				s[i] = t.Stride(i)
			}
			return intTuple(s), nil
		}
		i, err := axis()
		if err != nil {
			return Value{}, err
		}
		if x.Name == "size" {
			return IntValue(int64(t.Shape[i])), nil
		}
		return IntValue(int64(t.Stride(i))), nil
	case "numel", "dim", "element_size":
		if err := c.nargs(0, 0); err != nil {
			return Value{}, err
		}
		switch x.Name {
		case "numel":
			return IntValue(int64(t.NumElements())), nil
		case "dim":
			return IntValue(int64(len(t.Shape))), nil
		}
		return IntValue(int64(t.ElemSize())), nil
	}
	return Value{}, Errf(x, "tensors have no method '%s' here (stride, size, numel, dim and element_size are supported)", x.Name)
}

func intTuple(s []int) Value {
	out := Value{Kind: VTuple, Elems: make([]Value, len(s))}
	for i, d := range s {
		out.Elems[i] = IntValue(int64(d))
	}
	return out
}

// index evaluates v[i] for tuples (x.shape[0]) and the meta dict.
func index(x *frontend.Subscript, v, i Value) (Value, error) {
	switch v.Kind {
	case VTuple:
		i = i.AsInt()
		if i.Kind != VInt {
			return Value{}, Errf(x.Index, "tuple indices must be integers, not %s", i.Describe())
		}
		n := int64(len(v.Elems))
		k := i.Int
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			return Value{}, Errf(x.Index, "index %d is out of range for a tuple of %d", i.Int, n)
		}
		return v.Elems[k], nil
	case VDict:
		if i.Kind != VStr {
			return Value{}, Errf(x.Index, "meta keys are strings, not %s", i.Describe())
		}
		if m, ok := v.Dict[i.Str]; ok {
			return m, nil
		}
		names := make([]string, 0, len(v.Dict))
		for k := range v.Dict {
			names = append(names, k)
		}
		sort.Strings(names)
		d := diag.Errorf(x.Index.Position(), diag.CodeLaunch, "meta has no key '%s' (it holds the kernel's parameters, num_warps and num_stages)", i.Str)
		if s := diag.Closest(i.Str, names); s != "" {
			d.WithSuggestion("did you mean '%s'?", s)
		}
		return Value{}, Usage(d)
	}
	return Value{}, Errf(x, "%s cannot be indexed here", v.Describe())
}
