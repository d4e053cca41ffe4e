package tensor

// This file implements deferred tensors: a dtype and a shape whose elements
// are made only when something reads them. Building a kernel specializes it
// on its arguments' dtypes, shapes and strides alone, so the inputs a
// command such as tri build binds (randn of a few hundred million
// elements) need never be made; the same binding under tri run is made
// when the launch reads it, with the same elements.

import "github.com/tri-lang/tri/ir"

// Deferred returns a tensor of kind k and the given shape whose elements
// are not made yet: the first call of Materialize (or of an element
// accessor: Float, Int, SetFloat, SetInt) allocates zeroed Data and calls
// fill to set them. fill must set the same elements whenever it is called,
// since a Clone of a deferred tensor calls it again. The shape is checked
// as Make checks it.
func Deferred(k ir.Kind, shape []int, fill func(*Tensor)) (*Tensor, error) {
	if _, err := byteSize(k, shape); err != nil {
		return nil, err
	}
	if fill == nil {
		fill = func(*Tensor) {}
	}
	return &Tensor{Kind: k, Shape: append([]int(nil), shape...), fill: fill}, nil
}

// IsDeferred reports whether t's elements are still to be made (its Data
// is nil until Materialize).
func (t *Tensor) IsDeferred() bool { return t.fill != nil }

// Materialize makes the elements of a deferred tensor; a tensor whose
// elements are made is left as it is. It returns t. Like the rest of a
// Tensor's methods, it is not safe to call from two goroutines at once.
func (t *Tensor) Materialize() *Tensor {
	if t.fill == nil {
		return t
	}
	fill := t.fill
	t.fill = nil
	t.Data = make([]byte, t.Bytes())
	fill(t)
	return t
}

// Bytes is the size of t's elements in bytes, whether they are made or
// deferred.
func (t *Tensor) Bytes() int { return t.NumElements() * t.ElemSize() }
