package hosteval

// This file implements host tensor descriptors in launch lines and --let:
// TensorDescriptor(x, shape, strides, block_shape, padding="zero") and
// TensorDescriptor.from_tensor(x, block_shape, padding="zero"), with the
// checks of triton.tools.tensor_descriptor (in its words). A kernel
// parameter given a descriptor takes its block shape and padding as part
// of the specialization and its base, shape and strides at launch.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// Descriptor is a host tensor descriptor. It is shared by the Values that
// hold it, so an autotune pre_hook that sets its block shape sets it for
// the launch.
type Descriptor struct {
	Base    Value // a tensor
	Shape   []int64
	Strides []int64
	Block   []int64
	Padding string // "zero" or "nan"
}

// DescValue returns a descriptor Value.
func DescValue(d *Descriptor) Value { return Value{Kind: VDesc, Desc: d} }

// String prints d as Python's dataclass does, with the tensor short.
func (d *Descriptor) String() string {
	ints := func(xs []int64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	return fmt.Sprintf("TensorDescriptor(base=%s, shape=%s, strides=%s, block_shape=%s, padding='%s')",
		d.Base, ints(d.Shape), ints(d.Strides), ints(d.Block), d.Padding)
}

// Check makes the checks of TensorDescriptor.__post_init__ (the base is
// always 16-byte aligned here: allocations are 256-byte aligned).
func (d *Descriptor) Check() error {
	rank := len(d.Shape)
	switch {
	case len(d.Strides) != rank || len(d.Block) != rank:
		return fmt.Errorf("rank mismatch: %s", d)
	case rank == 0:
		return fmt.Errorf("rank must not be zero")
	case rank > 5:
		return fmt.Errorf("rank cannot be more than 5")
	}
	if err := CheckBlockShape(d.Block); err != nil {
		return err
	}
	size := int64(d.Base.Tensor.ElemSize())
	for _, s := range d.Strides[:rank-1] {
		if s*size%16 != 0 {
			return fmt.Errorf("strides must be 16-byte aligned")
		}
	}
	for _, n := range d.Shape {
		if n <= 0 {
			return fmt.Errorf("shape must be positive")
		}
	}
	if d.Strides[rank-1] != 1 {
		return fmt.Errorf("Last dimension must be contiguous")
	}
	if d.Padding != "zero" && d.Padding != "nan" {
		return fmt.Errorf("Illegal value for padding")
	}
	if d.Padding == "nan" && !d.Base.Tensor.Kind.IsFloat() {
		return fmt.Errorf("Padding option `nan` is only supported for floating point tensors")
	}
	return nil
}

// CheckBlockShape is Triton's validate_block_shape: powers of 2, and no
// more elements than a tensor may have.
func CheckBlockShape(block []int64) error {
	s := make(ir.Shape, len(block))
	for i, n := range block {
		s[i] = int(n)
	}
	return s.BlockShapeError()
}

// descArgs binds a descriptor constructor's arguments by position, then
// keyword, to names; padding may be left out.
func (c *callArgs) descArgs(names []string) (map[string]arg, error) {
	if err := c.nargs(0, len(names)); err != nil {
		return nil, err
	}
	out := map[string]arg{}
	for i, a := range c.pos {
		out[names[i]] = a
	}
	for _, n := range names {
		if a, ok := c.take(n); ok {
			if _, dup := out[n]; dup {
				return nil, Errf(a.at, "%s() got multiple values for argument '%s'", c.name, n)
			}
			out[n] = a
		}
	}
	for _, n := range names {
		if _, ok := out[n]; !ok && n != "padding" {
			return nil, Errf(c.call, "%s() missing required argument '%s'", c.name, n)
		}
	}
	return out, nil
}

// ints reads a list or tuple of integers.
func (c *callArgs) ints(a arg, what string) ([]int64, error) {
	v := a.v
	if v.Kind != VTuple {
		return nil, Errf(a.at, "%s() wants a list of integers for %s, not %s", c.name, what, v.Describe())
	}
	out := make([]int64, len(v.Elems))
	for i, e := range v.Elems {
		e = e.AsInt()
		if e.Kind != VInt {
			return nil, Errf(a.at, "%s() wants a list of integers for %s, not %s", c.name, what, v)
		}
		out[i] = e.Int
	}
	return out, nil
}

// newDescriptor builds and checks a descriptor from bound arguments.
func (c *callArgs) newDescriptor(base arg, args map[string]arg, shape, strides []int64) (Value, error) {
	if base.v.Kind != VTensor || base.v.Ptrs != nil {
		return Value{}, Errf(base.at, "%s() wants a tensor as its base, not %s", c.name, base.v.Describe())
	}
	block, err := c.ints(args["block_shape"], "block_shape")
	if err != nil {
		return Value{}, err
	}
	d := &Descriptor{Base: base.v, Shape: shape, Strides: strides, Block: block, Padding: "zero"}
	if p, ok := args["padding"]; ok {
		if p.v.Kind != VStr {
			return Value{}, Errf(p.at, "Illegal value for padding")
		}
		d.Padding = p.v.Str
	}
	if err := d.Check(); err != nil {
		return Value{}, Errf(c.call, "%v", err)
	}
	return DescValue(d), nil
}

// ctorTensorDescriptor is TensorDescriptor(base, shape, strides,
// block_shape, padding="zero").
func ctorTensorDescriptor(e *Env, c *callArgs) (Value, error) {
	args, err := c.descArgs([]string{"base", "shape", "strides", "block_shape", "padding"})
	if err != nil {
		return Value{}, err
	}
	shape, err := c.ints(args["shape"], "shape")
	if err != nil {
		return Value{}, err
	}
	strides, err := c.ints(args["strides"], "strides")
	if err != nil {
		return Value{}, err
	}
	return c.newDescriptor(args["base"], args, shape, strides)
}

// ctorDescFromTensor is TensorDescriptor.from_tensor(tensor, block_shape,
// padding="zero"): the tensor's own shape and strides.
func ctorDescFromTensor(e *Env, c *callArgs) (Value, error) {
	args, err := c.descArgs([]string{"tensor", "block_shape", "padding"})
	if err != nil {
		return Value{}, err
	}
	t := args["tensor"].v
	if t.Kind != VTensor || t.Ptrs != nil {
		return Value{}, Errf(args["tensor"].at, "%s() wants a tensor, not %s", c.name, t.Describe())
	}
	shape := make([]int64, len(t.Tensor.Shape))
	strides := make([]int64, len(shape))
	for i, n := range t.Tensor.Shape {
		shape[i], strides[i] = int64(n), int64(t.Tensor.Stride(i))
	}
	return c.newDescriptor(args["tensor"], args, shape, strides)
}

// descAttribute evaluates d.base, d.shape, d.strides, d.block_shape and
// d.padding.
func descAttribute(x *frontend.Attribute, d *Descriptor) (Value, error) {
	ints := func(xs []int64) Value {
		out := Value{Kind: VTuple, Elems: make([]Value, len(xs))}
		for i, n := range xs {
			out.Elems[i] = IntValue(n)
		}
		return out
	}
	switch x.Name {
	case "base":
		return d.Base, nil
	case "shape":
		return ints(d.Shape), nil
	case "strides":
		return ints(d.Strides), nil
	case "block_shape":
		return ints(d.Block), nil
	case "padding":
		return StrValue(d.Padding), nil
	case "dtype":
		return DTypeValue(ir.Scalar(d.Base.Tensor.Kind)), nil
	}
	return Value{}, Errf(x, "a TensorDescriptor has no attribute '%s'", x.Name)
}
