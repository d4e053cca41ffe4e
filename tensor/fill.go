package tensor

// This file implements the bulk setters that fill a tensor many elements
// at a time: the kind is looked at once per call, not once per element as
// SetFloat and SetInt do, and a constant fill encodes its value once and
// copies the bytes. They round exactly as SetFloat and SetInt do, so a
// tensor filled either way holds the same bytes.

import (
	"encoding/binary"
	"math"

	"github.com/tri-lang/tri/ir"
	"github.com/x448/float16"
)

// SetFloats stores vs into the elements from i on, each as SetFloat
// stores it. Like indexing a slice, it panics when they run past the
// tensor.
func (t *Tensor) SetFloats(i int, vs []float64) {
	t.Materialize()
	sz := t.ElemSize()
	b := t.Data[i*sz : (i+len(vs))*sz]
	switch t.Kind {
	case ir.Float16:
		for j, v := range vs {
			binary.LittleEndian.PutUint16(b[2*j:], float16.Fromfloat32(float32(v)).Bits())
		}
	case ir.BFloat16:
		for j, v := range vs {
			binary.LittleEndian.PutUint16(b[2*j:], BF16Bits(float32(v)))
		}
	case ir.Float32:
		for j, v := range vs {
			binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(float32(v)))
		}
	case ir.Float64:
		for j, v := range vs {
			binary.LittleEndian.PutUint64(b[8*j:], math.Float64bits(v))
		}
	default:
		if enc := fp8EncoderOf(t.Kind); enc != nil {
			for j, v := range vs {
				b[j] = enc.encode(v)
			}
			return
		}
		for j, v := range vs {
			t.SetFloat(i+j, v)
		}
	}
}

// SetInts stores vs into the elements from i on, each as SetInt stores
// it. Like indexing a slice, it panics when they run past the tensor.
func (t *Tensor) SetInts(i int, vs []int64) {
	t.Materialize()
	sz := t.ElemSize()
	b := t.Data[i*sz : (i+len(vs))*sz]
	switch t.Kind {
	case ir.Int8, ir.Uint8:
		for j, v := range vs {
			b[j] = byte(v)
		}
	case ir.Int16, ir.Uint16:
		for j, v := range vs {
			binary.LittleEndian.PutUint16(b[2*j:], uint16(v))
		}
	case ir.Int32, ir.Uint32:
		for j, v := range vs {
			binary.LittleEndian.PutUint32(b[4*j:], uint32(v))
		}
	case ir.Int64, ir.Uint64:
		for j, v := range vs {
			binary.LittleEndian.PutUint64(b[8*j:], uint64(v))
		}
	default:
		for j, v := range vs {
			t.SetInt(i+j, v)
		}
	}
}

// FillFloat sets every element to v, as SetFloat would one by one.
func (t *Tensor) FillFloat(v float64) {
	if t.NumElements() > 0 {
		t.SetFloat(0, v)
		t.repeatFirst()
	}
}

// FillInt sets every element to v, as SetInt would one by one.
func (t *Tensor) FillInt(v int64) {
	if t.NumElements() > 0 {
		t.SetInt(0, v)
		t.repeatFirst()
	}
}

// repeatFirst copies the first element's bytes over the rest, doubling
// the filled part at each copy.
func (t *Tensor) repeatFirst() {
	for done := t.ElemSize(); done < len(t.Data); done *= 2 {
		copy(t.Data[done:], t.Data[:done])
	}
}
