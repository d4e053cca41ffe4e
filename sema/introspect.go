package sema

// This file implements dtype introspection at compile time: the numeric
// attributes that Triton's dtype class sets in its constructor, and
// tl.core.get_int_dtype, and get_int_max_value()/get_int_min_value().

import (
	"math/big"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// dtypeNumber evaluates d.name for the attributes Triton's dtype sets:
// itemsize (primitive_bitwidth // 8, so 0 for int1), int_bitwidth for
// integer types (int1 included), fp_mantissa_width and exponent_bias for
// floating types, and scalar (the dtype itself, as for a scalar or pointer
// type). ok is false where Triton's dtype has no such attribute.
func dtypeNumber(d ir.DType, name string) (_ *val, ok bool) {
	k := d.Kind
	switch name {
	case "scalar":
		return dtypeVal(d), true
	case "itemsize":
		if d.IsPtr() {
			return nil, false
		}
		return intVal(int64(k.Bits() / 8)), true
	case "int_bitwidth":
		if k.IsInt() {
			return intVal(int64(k.Bits())), true
		}
	case "fp_mantissa_width", "exponent_bias":
		f, ok := floatFormats[k]
		if !ok {
			return nil, false
		}
		if name == "fp_mantissa_width" {
			return intVal(f[0]), true
		}
		return intVal(f[1]), true
	}
	return nil, false
}

// floatFormats are the mantissa width and exponent bias of each floating
// kind.
var floatFormats = map[ir.Kind][2]int64{
	ir.Float16: {10, 15}, ir.BFloat16: {7, 127}, ir.Float32: {23, 127}, ir.Float64: {52, 1023},
}

// bGetIntDType is tl.core.get_int_dtype(bitwidth, signed): the integer
// dtype of a width and signedness (int1 for width 1 either way).
func bGetIntDType(c *compiler, a *args) *val {
	w, ok := a.vals[0].asInt()
	if !ok || !a.vals[1].isConst() {
		return c.errorf(a.pos, diag.CodeValue, "get_int_dtype needs a compile-time bit width and signedness")
	}
	signed := a.vals[1].truth()
	kinds := map[int64][2]ir.Kind{1: {ir.Bool, ir.Bool}, 8: {ir.Uint8, ir.Int8}, 16: {ir.Uint16, ir.Int16}, 32: {ir.Uint32, ir.Int32}, 64: {ir.Uint64, ir.Int64}}
	ks, found := kinds[w.Int64()]
	if !w.IsInt64() || !found {
		return c.errorf(a.pos, diag.CodeValue, "get_int_dtype: unsupported bit width %s (1, 8, 16, 32 or 64)", w)
	}
	if signed {
		return dtypeVal(ir.DType{Kind: ks[1]})
	}
	return dtypeVal(ir.DType{Kind: ks[0]})
}

// dtypeIntLimit evaluates dtype.get_int_max_value() and
// get_int_min_value(): the largest and smallest value of an integer dtype
// (int1 counts as unsigned, as in Triton). ok is false for other names;
// valid is false for a dtype that is not an integer, where Triton's assert
// fails.
func dtypeIntLimit(d ir.DType, name string) (_ *big.Int, ok, valid bool) {
	if name != "get_int_max_value" && name != "get_int_min_value" {
		return nil, false, false
	}
	k := d.Kind
	if !k.IsInt() || d.IsPtr() {
		return nil, true, false
	}
	bits := uint(k.Bits())
	switch {
	case name == "get_int_min_value" && k.IsSigned():
		return new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), bits-1)), true, true
	case name == "get_int_min_value":
		return new(big.Int), true, true
	case k.IsSigned():
		bits--
	}
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1)), true, true
}
