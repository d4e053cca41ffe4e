package sema

// This file implements conversions: constants of a dtype, constexprs to
// runtime values, casts, and broadcasting.

import (
	"math"
	"math/big"

	"github.com/x448/float16"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// constOf emits a scalar constant of dtype d holding the constexpr number v,
// converted as a cast would (ints wrap, floats round to d).
func (c *compiler) constOf(d ir.DType, v *val, pos diag.Pos) *ir.Value {
	var k ir.Const
	switch {
	case d.Kind.IsFloat():
		k.Float = roundFloat(d.Kind, v.asFloat())
	case d.Kind == ir.Bool:
		if v.truth() {
			k.Int = 1
		}
	default:
		if v.k == kFloat {
			f := math.Trunc(v.f)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				f = 0
			}
			bf, _ := new(big.Float).SetFloat64(f).Int(nil)
			k.Int = wrapInt(d.Kind, bf)
		} else {
			i, _ := v.asInt()
			k.Int = wrapInt(d.Kind, i)
		}
	}
	cv := c.emit(ir.OpConst, ir.ScalarType(d), pos)
	cv.Const = k
	return cv
}

// wrapInt truncates i to the width of kind k; unsigned kinds keep their bit
// pattern, signed ones are sign-extended.
func wrapInt(k ir.Kind, i *big.Int) int64 {
	bits := uint(k.Bits())
	m := new(big.Int).And(i, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1)))
	u := m.Uint64()
	if k.IsSigned() && bits < 64 && u&(1<<(bits-1)) != 0 {
		return int64(u) - int64(1)<<bits
	}
	return int64(u)
}

// roundFloat rounds f to the precision of float kind k.
func roundFloat(k ir.Kind, f float64) float64 {
	switch k {
	case ir.Float32:
		return float64(float32(f))
	case ir.Float16:
		return float64(float16.Fromfloat32(float32(f)).Float32())
	case ir.BFloat16:
		b := math.Float32bits(float32(f))
		if math.IsNaN(f) {
			return f
		}
		b += 0x7fff + (b>>16)&1
		return float64(math.Float32frombits(b &^ 0xffff))
	}
	if f8, ok := k.FP8(); ok {
		return f8.RoundSat(float64(float32(f)), false)
	}
	return f
}

// toRuntime converts v to a runtime value: constexpr numbers become
// constants of their literal type.
func (c *compiler) toRuntime(v *val, pos diag.Pos) *ir.Value {
	switch v.k {
	case kRuntime:
		return v.rt
	case kInvalid:
		return nil
	}
	d, err := literalType(v)
	if err != nil {
		c.errorf(pos, diag.CodeType, "%v", err)
		return nil
	}
	return c.constOf(d, v, pos)
}

// cast converts x to dtype d keeping its shape (no-op if already d).
func (c *compiler) cast(x *ir.Value, d ir.DType, pos diag.Pos) *ir.Value {
	if x.Type.DType == d {
		return x
	}
	if fp8Indirect(x.Type.Kind, d.Kind) && !d.IsPtr() && !x.Type.IsPtr() {
		// The backends convert fp8 only to and from fp16, bf16 and fp32.
		return c.cast(c.cast(x, ir.TFloat32, pos), d, pos)
	}
	t := ir.Type{DType: d, Shape: x.Type.Shape}
	switch {
	case d.Kind == ir.Bool && !x.Type.IsPtr():
		// Triton compares with zero instead of truncating.
		zero := c.splatTo(c.constOf(x.Type.DType, intVal(0), pos), x.Type.Shape, pos)
		return c.emit(ir.OpNe, t, pos, x, zero)
	case d.IsPtr() && x.Type.IsPtr():
		return c.emit(ir.OpBitcast, t, pos, x)
	}
	return c.emit(ir.OpCast, t, pos, x)
}

// castTo converts a val to dtype d: constexpr numbers become constants of d
// directly, runtime values are cast.
func (c *compiler) castTo(v *val, d ir.DType, pos diag.Pos) *ir.Value {
	if v.isNum() {
		return c.constOf(d, v, pos)
	}
	x := c.toRuntime(v, pos)
	if x == nil {
		return nil
	}
	return c.cast(x, d, pos)
}

// splatTo makes x (a scalar or tile) have the given shape.
func (c *compiler) splatTo(x *ir.Value, shape ir.Shape, pos diag.Pos) *ir.Value {
	if x.Type.Shape.Equal(shape) {
		return x
	}
	if x.Type.IsScalar() {
		return c.emit(ir.OpSplat, ir.Type{DType: x.Type.DType, Shape: cloneShape(shape)}, pos, x)
	}
	for x.Type.Shape.Rank() < shape.Rank() {
		s := append(ir.Shape{1}, x.Type.Shape...)
		v := c.emit(ir.OpExpandDims, ir.Type{DType: x.Type.DType, Shape: s}, pos, x)
		v.Axis = 0
		x = v
	}
	if x.Type.Shape.Equal(shape) {
		return x
	}
	return c.emit(ir.OpBroadcast, ir.Type{DType: x.Type.DType, Shape: cloneShape(shape)}, pos, x)
}

func cloneShape(s ir.Shape) ir.Shape {
	if s == nil {
		return nil
	}
	return append(ir.Shape{}, s...)
}

// broadcastShape is the shape two operands broadcast to, or false.
func broadcastShape(a, b ir.Shape) (ir.Shape, bool) {
	if a.Rank() == 0 {
		return cloneShape(b), true
	}
	if b.Rank() == 0 {
		return cloneShape(a), true
	}
	for a.Rank() < b.Rank() {
		a = append(ir.Shape{1}, a...)
	}
	for b.Rank() < a.Rank() {
		b = append(ir.Shape{1}, b...)
	}
	out := make(ir.Shape, len(a))
	for i := range a {
		switch {
		case a[i] == b[i], b[i] == 1:
			out[i] = a[i]
		case a[i] == 1:
			out[i] = b[i]
		default:
			return nil, false
		}
	}
	return out, true
}

// broadcastPair brings x and y to a common shape.
func (c *compiler) broadcastPair(x, y *ir.Value, pos diag.Pos) (*ir.Value, *ir.Value, bool) {
	s, ok := broadcastShape(x.Type.Shape, y.Type.Shape)
	if !ok {
		c.errorf(pos, diag.CodeType, "incompatible shapes %s and %s: dimensions must be equal or 1", x.Type.Shape, y.Type.Shape)
		return nil, nil, false
	}
	return c.splatTo(x, s, pos), c.splatTo(y, s, pos), true
}
