package tensor

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tri-lang/tri/ir"
	"github.com/x448/float16"
)

// Tensor is a dense, row-major host tensor. Data holds NumElements()
// elements of Kind, little-endian; Bool is one byte per element (0 or 1).
// A deferred tensor (see Deferred) has no Data until Materialize makes it.
type Tensor struct {
	Kind  ir.Kind
	Shape []int
	Data  []byte
	// fill, while not nil, makes the elements of a deferred tensor.
	fill func(*Tensor)
}

// New allocates a zeroed tensor. It is for shapes the caller has already
// checked: a negative dimension, or a shape whose size in bytes overflows
// int, panics with a message naming the shape. Make returns that as an
// error instead.
func New(k ir.Kind, shape ...int) *Tensor {
	t, err := Make(k, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

// Make allocates a zeroed tensor of kind k and the given shape (rank 0 for
// no dimensions), or reports a shape no tensor can have: a negative
// dimension, or more bytes than an int counts (without the check such a
// shape's product wraps, and New(k, 1<<40, 1<<40) held no elements).
func Make(k ir.Kind, shape ...int) (*Tensor, error) {
	n, err := byteSize(k, shape)
	if err != nil {
		return nil, err
	}
	t := &Tensor{Kind: k, Shape: append([]int(nil), shape...)}
	t.Data = make([]byte, n)
	return t, nil
}

// byteSize is the size in bytes of a tensor of kind k and the given shape,
// or the error of Make for a shape no tensor can have.
func byteSize(k ir.Kind, shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("tensor: negative dimension %d in shape %v", d, shape)
		}
		if d != 0 && n > math.MaxInt/d {
			return 0, fmt.Errorf("tensor: shape %v has more elements than an int counts", shape)
		}
		n *= d
	}
	if b := k.Bytes(); b > 1 && n > math.MaxInt/b {
		return 0, fmt.Errorf("tensor: a %s tensor of shape %v has more bytes than an int counts", ir.Scalar(k).PyName(), shape)
	}
	return n * k.Bytes(), nil
}

// NumElements is the product of the shape (1 for rank 0).
func (t *Tensor) NumElements() int { return ir.Shape(t.Shape).NumElements() }

// ElemSize is the size of one element in bytes.
func (t *Tensor) ElemSize() int { return t.Kind.Bytes() }

// Stride returns the stride of axis i in elements (row-major).
func (t *Tensor) Stride(i int) int {
	s := 1
	for j := i + 1; j < len(t.Shape); j++ {
		s *= t.Shape[j]
	}
	return s
}

// Clone returns a deep copy; a deferred tensor's copy is deferred too,
// with the same elements to come.
func (t *Tensor) Clone() *Tensor {
	c := &Tensor{Kind: t.Kind, Shape: append([]int(nil), t.Shape...), fill: t.fill}
	if t.fill == nil {
		c.Data = append([]byte(nil), t.Data...)
	}
	return c
}

// String describes the tensor's dtype and shape.
func (t *Tensor) String() string {
	return fmt.Sprintf("%s%v", ir.Scalar(t.Kind).PyName(), t.Shape)
}

// Float returns element i as float64 (integers converted exactly where they
// fit). Like indexing a slice, it panics when i is outside the tensor.
func (t *Tensor) Float(i int) float64 {
	t.Materialize()
	b := t.Data[i*t.ElemSize():]
	switch t.Kind {
	case ir.Bool, ir.Uint8:
		return float64(b[0])
	case ir.Int8:
		return float64(int8(b[0]))
	case ir.Int16:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case ir.Uint16:
		return float64(binary.LittleEndian.Uint16(b))
	case ir.Int32:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case ir.Uint32:
		return float64(binary.LittleEndian.Uint32(b))
	case ir.Int64:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case ir.Uint64:
		return float64(binary.LittleEndian.Uint64(b))
	case ir.Float16:
		return float64(float16.Frombits(binary.LittleEndian.Uint16(b)).Float32())
	case ir.BFloat16:
		return float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b)) << 16))
	case ir.Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case ir.Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	if f, ok := t.Kind.FP8(); ok {
		return f.Decode(b[0])
	}
	panic(fmt.Sprintf("tensor: Float of %v", t.Kind))
}

// Int returns element i as int64 (bit pattern for unsigned 64-bit; floats
// truncated toward zero). Like indexing a slice, it panics when i is
// outside the tensor.
func (t *Tensor) Int(i int) int64 {
	t.Materialize()
	b := t.Data[i*t.ElemSize():]
	switch t.Kind {
	case ir.Bool, ir.Uint8:
		return int64(b[0])
	case ir.Int8:
		return int64(int8(b[0]))
	case ir.Int16:
		return int64(int16(binary.LittleEndian.Uint16(b)))
	case ir.Uint16:
		return int64(binary.LittleEndian.Uint16(b))
	case ir.Int32:
		return int64(int32(binary.LittleEndian.Uint32(b)))
	case ir.Uint32:
		return int64(binary.LittleEndian.Uint32(b))
	case ir.Int64, ir.Uint64:
		return int64(binary.LittleEndian.Uint64(b))
	}
	return int64(t.Float(i))
}

// SetFloat stores v into element i, rounding to the tensor's kind (round to
// nearest even for floats, saturating for fp8 as ir.FP8Format.RoundSat
// does; integers truncate toward zero and wrap).
func (t *Tensor) SetFloat(i int, v float64) {
	t.Materialize()
	if t.Kind.IsFloat() {
		b := t.Data[i*t.ElemSize():]
		switch t.Kind {
		case ir.Float16:
			binary.LittleEndian.PutUint16(b, float16.Fromfloat32(float32(v)).Bits())
		case ir.BFloat16:
			binary.LittleEndian.PutUint16(b, BF16Bits(float32(v)))
		case ir.Float32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
		case ir.Float64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		default:
			if f, ok := t.Kind.FP8(); ok {
				b[0] = f.Encode(f.RoundSat(v, false))
			}
		}
		return
	}
	if t.Kind == ir.Bool {
		if v != 0 {
			t.SetInt(i, 1)
		} else {
			t.SetInt(i, 0)
		}
		return
	}
	t.SetInt(i, int64(v))
}

// SetInt stores v into element i, wrapping to the kind's width (floats get
// the nearest value).
func (t *Tensor) SetInt(i int, v int64) {
	t.Materialize()
	b := t.Data[i*t.ElemSize():]
	switch t.Kind.Bytes() {
	case 1:
		if t.Kind.IsFP8() {
			t.SetFloat(i, float64(v))
			return
		}
		if t.Kind == ir.Bool {
			v = b2i(v != 0)
		}
		b[0] = byte(v)
		return
	}
	if t.Kind.IsFloat() {
		t.SetFloat(i, float64(v))
		return
	}
	switch t.Kind.Bytes() {
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, uint64(v))
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// BF16Bits rounds f to bfloat16 (nearest even; NaN stays NaN) and returns
// its bits.
func BF16Bits(f float32) uint16 {
	u := math.Float32bits(f)
	if f != f {
		return uint16(u>>16) | 0x40
	}
	u += 0x7fff + ((u >> 16) & 1)
	return uint16(u >> 16)
}

// BF16Float returns the float32 value of bfloat16 bits.
func BF16Float(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }
