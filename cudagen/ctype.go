package cudagen

// This file implements the mapping from tri dtypes to C types and the
// printing of constants as C literals.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/x448/float16"

	"github.com/tri-lang/tri/ir"
)

// regType is the C type a value of kind k has in registers. fp16 and bf16
// stay as their 16-bit storage and are widened to float for arithmetic.
func regType(k ir.Kind) string {
	switch k {
	case ir.Bool:
		return "bool"
	case ir.Int8:
		return "signed char"
	case ir.Int16:
		return "short"
	case ir.Int32:
		return "int"
	case ir.Int64:
		return "long long"
	case ir.Uint8:
		return "unsigned char"
	case ir.Uint16:
		return "unsigned short"
	case ir.Uint32:
		return "unsigned int"
	case ir.Uint64:
		return "unsigned long long"
	case ir.Float16:
		return "tri_half"
	case ir.BFloat16:
		return "tri_bf16"
	case ir.Float32:
		return "float"
	case ir.Float64:
		return "double"
	case ir.Float8E4NV, ir.Float8E5, ir.Float8E4B15:
		return "tri_" + k.String()
	}
	return "void"
}

// memType is the C type of one element of kind k in global memory (Bool is
// one byte, as Triton stores int1).
func memType(k ir.Kind) string {
	if k == ir.Bool {
		return "unsigned char"
	}
	return regType(k)
}

// cType is the C type of a scalar of dtype d (pointers included).
func cType(d ir.DType) string {
	if d.IsPtr() {
		return memType(d.Elem) + "*"
	}
	return regType(d.Kind)
}

// isHalf reports whether k is a 16-bit float kept as bits and computed in
// float.
func isHalf(k ir.Kind) bool { return k == ir.Float16 || k == ir.BFloat16 }

// toFloat wraps expr, a value of half kind k, in its widening to float.
func toFloat(k ir.Kind, expr string) string {
	if k == ir.Float16 {
		return "tri_h2f(" + expr + ")"
	}
	return "tri_bf2f(" + expr + ")"
}

// fromFloat wraps expr, a float, in its rounding to half kind k.
func fromFloat(k ir.Kind, expr string) string {
	if k == ir.Float16 {
		return "tri_f2h(" + expr + ")"
	}
	return "tri_f2bf(" + expr + ")"
}

// literal prints the constant c of dtype d as a C expression that needs no
// parentheses around it.
func literal(d ir.DType, c ir.Const) string {
	switch k := d.Kind; {
	case k == ir.Bool:
		if c.Int != 0 {
			return "true"
		}
		return "false"
	case k == ir.Float32:
		return f32Literal(float32(c.Float))
	case k == ir.Float64:
		return f64Literal(c.Float)
	case k == ir.Float16:
		return fmt.Sprintf("((tri_half)0x%04x)", uint16(float16.Fromfloat32(float32(c.Float))))
	case k == ir.BFloat16:
		return fmt.Sprintf("((tri_bf16)0x%04x)", uint16(math.Float32bits(float32(c.Float))>>16))
	case k.IsFP8():
		return fp8Literal(k, c.Float)
	case k == ir.Int64:
		if c.Int == math.MinInt64 {
			return "(-9223372036854775807LL - 1)"
		}
		return paren(strconv.FormatInt(c.Int, 10) + "LL")
	case k == ir.Uint64:
		return strconv.FormatUint(c.Uint(), 10) + "ull"
	case k == ir.Uint32:
		return strconv.FormatUint(uint64(uint32(c.Int)), 10) + "u"
	case k == ir.Int32:
		if int32(c.Int) == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		return paren(strconv.FormatInt(int64(int32(c.Int)), 10))
	case k.IsInt():
		return "((" + regType(k) + ")" + strconv.FormatInt(c.Int, 10) + ")"
	case k == ir.Ptr:
		return "((" + cType(d) + ")" + strconv.FormatInt(c.Int, 10) + "ull)"
	}
	return "0"
}

// paren wraps negative numbers so they can stand next to any operator.
func paren(s string) string {
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

func f32Literal(f float32) string {
	switch {
	case math.IsNaN(float64(f)) || math.IsInf(float64(f), 0):
		return fmt.Sprintf("tri_f32_bits(0x%08xu)", math.Float32bits(f))
	case f == 0 && math.Signbit(float64(f)):
		return "(-0.0f)"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return paren(s + "f")
}

func f64Literal(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return fmt.Sprintf("tri_f64_bits(0x%016xull)", math.Float64bits(f))
	case f == 0 && math.Signbit(f):
		return "(-0.0)"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return paren(s)
}
