package tri

// This file implements the Go values a kernel takes: slices, which the
// interpreter and the GPU read and write in place (the interpreter works
// on the slice's own memory; a GPU run copies it to the device and back),
// device buffers, Tensor for a shape, and numbers.

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

// Args binds the names a launch line uses to Go values: slices of
// float32, float64, float16.Float16 (github.com/x448/float16), int8 to
// int64, uint8 to uint64 or bool (a 1-D tensor of that dtype); a *Buffer
// (GPU runs only); a Tensor (a slice or buffer with a shape); an int,
// float or bool; a string; nil (None).
type Args map[string]any

// Tensor is a slice or a *Buffer viewed as a row-major tensor of Shape,
// whose product must be its length; x.shape[i], x.stride(i) and
// x.numel() in a launch line read it.
type Tensor struct {
	Data  any
	Shape []int
}

// data is a tensor argument: a Go slice's memory, or a device buffer.
type data struct {
	kind  ir.Kind
	shape []int
	bytes []byte  // the slice's own memory; nil for a buffer
	buf   *Buffer // the device buffer, or nil
}

// littleEndian is true on the machines tri's tensors are laid out for:
// the interpreter and the GPU read a slice's memory as little-endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// sliceData views a Go slice's memory; ok is false for a value that is no
// slice of a supported element type.
func sliceData(v any) (d data, ok bool) {
	switch s := v.(type) {
	case []float32:
		return view(ir.Float32, s), true
	case []float64:
		return view(ir.Float64, s), true
	case []float16.Float16:
		return view(ir.Float16, s), true
	case []int8:
		return view(ir.Int8, s), true
	case []int16:
		return view(ir.Int16, s), true
	case []int32:
		return view(ir.Int32, s), true
	case []int64:
		return view(ir.Int64, s), true
	case []uint8:
		return view(ir.Uint8, s), true
	case []uint16:
		return view(ir.Uint16, s), true
	case []uint32:
		return view(ir.Uint32, s), true
	case []uint64:
		return view(ir.Uint64, s), true
	case []bool:
		return view(ir.Bool, s), true // one byte each, 0 or 1, as tensor.Tensor's
	}
	return data{}, false
}

func view[T any](k ir.Kind, s []T) data {
	var zero T
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
	return data{kind: k, shape: []int{len(s)}, bytes: b}
}

// dataOf reads a tensor argument: a slice, a *Buffer, or a Tensor of
// either; ok is false for a value of another type.
func dataOf(v any) (d data, ok bool, err error) {
	switch x := v.(type) {
	case *Buffer:
		if x == nil {
			return data{}, true, fmt.Errorf("a nil *Buffer")
		}
		if err := x.live(); err != nil {
			return data{}, true, err
		}
		return data{kind: x.kind, shape: []int{x.n}, buf: x}, true, nil
	case Tensor:
		return x.data()
	case *Tensor:
		if x == nil {
			return data{}, true, fmt.Errorf("a nil *Tensor")
		}
		return x.data()
	}
	d, ok = sliceData(v)
	if ok && !littleEndian {
		return data{}, true, fmt.Errorf("the interpreter and the GPU read slices as little-endian, and this machine is big-endian")
	}
	return d, ok, nil
}

func (t Tensor) data() (data, bool, error) {
	if _, isTensor := t.Data.(Tensor); isTensor {
		return data{}, true, fmt.Errorf("a Tensor's Data is a slice or a *Buffer, not another Tensor")
	}
	d, ok, err := dataOf(t.Data)
	if err != nil || !ok {
		if !ok {
			err = fmt.Errorf("a Tensor's Data is a slice or a *Buffer, not %T", t.Data)
		}
		return data{}, true, err
	}
	n := 1
	for _, s := range t.Shape {
		if s < 0 || (s > 0 && n > math.MaxInt/s) {
			return data{}, true, fmt.Errorf("a Tensor of shape %v", t.Shape)
		}
		n *= s
	}
	if n != d.shape[0] {
		return data{}, true, fmt.Errorf("a Tensor of shape %v holds %d elements, but its Data has %d", t.Shape, n, d.shape[0])
	}
	d.shape = append([]int(nil), t.Shape...)
	return d, true, nil
}

// tensor is the host tensor a launch line sees for d: the slice's memory
// itself, or for a buffer a tensor with its shape and no host data (the
// binding reads only dtypes and shapes; the interpreter refuses it).
func (d data) tensor() *tensor.Tensor {
	return &tensor.Tensor{Kind: d.kind, Shape: d.shape, Data: d.bytes}
}

// hostValue converts a Go value bound by Args; tensors are recorded in
// seen, by the host tensor made for them.
func hostValue(name string, v any, seen map[*tensor.Tensor]data) (hosteval.Value, error) {
	if d, ok, err := dataOf(v); ok || err != nil {
		if err != nil {
			return hosteval.Value{}, fmt.Errorf("Args[%q]: %v", name, err)
		}
		t := d.tensor()
		seen[t] = d
		return hosteval.TensorValue(t), nil
	}
	switch x := v.(type) {
	case nil:
		return hosteval.None, nil
	case bool:
		return hosteval.BoolValue(x), nil
	case string:
		return hosteval.StrValue(x), nil
	case float32:
		return hosteval.FloatValue(float64(x)), nil
	case float64:
		return hosteval.FloatValue(x), nil
	}
	if i, ok := intOf(v); ok {
		return hosteval.IntValue(i), nil
	}
	return hosteval.Value{}, fmt.Errorf("Args[%q]: a %T; want a slice, a *Buffer, a Tensor, a number, a bool, a string or nil", name, v)
}

// intOf converts a Go integer; ok is false for other values and for a
// uint64 past int64's range, which no kernel parameter holds.
func intOf(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), uint64(x) <= math.MaxInt64
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

// arg is one runtime argument of a kernel: a tensor, or a number
// converted to the parameter's dtype.
type arg struct {
	data   *data
	scalar ir.Const
}

// runtimeArg converts v, the Go value given for runtime parameter p.
func runtimeArg(p *ir.Param, v any) (arg, error) {
	if p.DType.IsPtr() {
		d, ok, err := dataOf(v)
		switch {
		case err != nil:
			return arg{}, fmt.Errorf("parameter %s: %v", p.Name, err)
		case !ok:
			return arg{}, fmt.Errorf("parameter %s is a pointer (%s) and takes a slice, a *Buffer or a Tensor, not %T", p.Name, p.DType, v)
		case d.kind != p.DType.Elem:
			return arg{}, fmt.Errorf("parameter %s is %s but got %s data", p.Name, p.DType, ir.Scalar(d.kind))
		}
		return arg{data: &d}, nil
	}
	var c ir.Const
	switch x := v.(type) {
	case bool:
		if x {
			c.Int = 1
		}
	case float32, float64:
		if !p.DType.Kind.IsFloat() {
			return arg{}, fmt.Errorf("parameter %s is %s but got the float %v", p.Name, p.DType, x)
		}
		f, _ := x.(float64)
		if f32, ok := x.(float32); ok {
			f = float64(f32)
		}
		c.Float = f
	default:
		i, ok := intOf(v)
		if !ok {
			return arg{}, fmt.Errorf("parameter %s is %s and takes a number, not %T", p.Name, p.DType, v)
		}
		c.Int, c.Float = i, float64(i)
		if !p.DType.Kind.IsFloat() {
			if err := fits(p, i); err != nil {
				return arg{}, err
			}
		}
	}
	if p.DType.Kind == ir.Float32 {
		c.Float = float64(float32(c.Float))
	}
	return arg{scalar: c}, nil
}

// fits checks an integer against the parameter's dtype and what the
// kernel was specialized for (a multiple of 16).
func fits(p *ir.Param, i int64) error {
	if bits := p.DType.Kind.Bits(); bits < 64 && bits > 1 {
		lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1
		if p.DType.Kind.IsUnsigned() {
			lo, hi = 0, int64(1)<<bits-1
		}
		if i < lo || i > hi {
			return fmt.Errorf("parameter %s is %s and cannot hold %d", p.Name, p.DType, i)
		}
	}
	if p.DivisibleBy16 && i%16 != 0 {
		return fmt.Errorf("parameter %s was specialized for a multiple of 16 (%s:16) but got %d", p.Name, p.DType, i)
	}
	return nil
}
