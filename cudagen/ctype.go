package cudagen

// This file implements the mapping from tri dtypes to C types, the
// printing of constants as C literals, and the conversions between types
// with Triton's semantics other than fp8's (plainCast, bitcastExpr; fp8's
// in fp8.go, both chosen by convert.go's castExpr).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

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
	case ir.Float32:
		return "float"
	case ir.Float64:
		return "double"
	}
	if t := kindDef(k); t != "" {
		return t
	}
	return "void"
}

// kindDef is the prelude's typedef of the C type of kind k: the storage
// types of fp16, bf16 and the fp8 kinds; "" for C's own types.
func kindDef(k ir.Kind) string {
	switch k {
	case ir.Float16:
		return "tri_half"
	case ir.BFloat16:
		return "tri_bf16"
	case ir.Float8E4NV, ir.Float8E5, ir.Float8E4B15:
		return "tri_" + k.String()
	}
	return ""
}

// regType is the package function regType, recorded: the code names the
// typedef of k, if any.
func (s nameSet) regType(k ir.Kind) string {
	s.useKind(k)
	return regType(k)
}

// memType is memType, recorded.
func (s nameSet) memType(k ir.Kind) string {
	s.useKind(k)
	return memType(k)
}

// cType is cType, recorded.
func (s nameSet) cType(d ir.DType) string {
	if d.IsPtr() {
		s.useKind(d.Elem)
	} else {
		s.useKind(d.Kind)
	}
	return cType(d)
}

// useKind records the typedef of kind k, where it has one.
func (s nameSet) useKind(k ir.Kind) {
	if t := kindDef(k); t != "" {
		s.use(t)
	}
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
func (s nameSet) toFloat(k ir.Kind, expr string) string {
	f := "tri_bf2f"
	if k == ir.Float16 {
		f = "tri_h2f"
	}
	s.use(f)
	return f + "(" + expr + ")"
}

// fromFloat wraps expr, a float, in its rounding to half kind k.
func (s nameSet) fromFloat(k ir.Kind, expr string) string {
	f := "tri_f2bf"
	if k == ir.Float16 {
		f = "tri_f2h"
	}
	s.use(f)
	return f + "(" + expr + ")"
}

// literal prints the constant c of dtype d as a C expression that needs no
// parentheses around it.
func (s nameSet) literal(d ir.DType, c ir.Const) string {
	switch k := d.Kind; {
	case k == ir.Bool:
		if c.Int != 0 {
			return "true"
		}
		return "false"
	case k == ir.Float32:
		return s.f32Literal(float32(c.Float))
	case k == ir.Float64:
		return s.f64Literal(c.Float)
	case k == ir.Float16:
		s.use("tri_half")
		return fmt.Sprintf("((tri_half)0x%04x)", uint16(float16.Fromfloat32(float32(c.Float))))
	case k == ir.BFloat16:
		s.use("tri_bf16")
		return fmt.Sprintf("((tri_bf16)0x%04x)", uint16(math.Float32bits(float32(c.Float))>>16))
	case k.IsFP8():
		return s.fp8Literal(k, c.Float)
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
		return "((" + s.cType(d) + ")" + strconv.FormatInt(c.Int, 10) + "ull)"
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

func (s nameSet) f32Literal(f float32) string {
	switch {
	case math.IsNaN(float64(f)) || math.IsInf(float64(f), 0):
		s.use("tri_f32_bits")
		return fmt.Sprintf("tri_f32_bits(0x%08xu)", math.Float32bits(f))
	case f == 0 && math.Signbit(float64(f)):
		return "(-0.0f)"
	}
	t := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(t, ".en") {
		t += ".0"
	}
	return paren(t + "f")
}

func (s nameSet) f64Literal(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		s.use("tri_f64_bits")
		return fmt.Sprintf("tri_f64_bits(0x%016xull)", math.Float64bits(f))
	case f == 0 && math.Signbit(f):
		return "(-0.0)"
	}
	t := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(t, ".en") {
		t += ".0"
	}
	return paren(t)
}

// plainCast is castExpr (convert.go) between dtypes that are not fp8:
// integers wrap, floats go to integers toward zero, to Bool is != 0, and
// narrowing float conversions round to nearest even (toward zero with
// FlagRoundTZ).
func (s nameSet) plainCast(from, to ir.DType, x string, flags ir.Flags) string {
	if from == to {
		return x
	}
	fk, tk := from.Kind, to.Kind
	rz := flags&ir.FlagRoundTZ != 0
	if isHalf(fk) {
		if tk == ir.Float32 {
			return s.toFloat(fk, x)
		}
		return s.plainCast(ir.TFloat32, to, s.toFloat(fk, x), flags)
	}
	switch {
	case tk == ir.Bool:
		return fmt.Sprintf("%s != 0", x)
	case tk == ir.Ptr || fk == ir.Ptr:
		return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
	case tk == ir.Float16 && fk == ir.Float64:
		s.use("tri_half")
		if rz {
			s.use("tri_d2h_rz")
			return "tri_d2h_rz(" + x + ")"
		}
		s.use("tri_d2h")
		return "tri_d2h(" + x + ")"
	case isHalf(tk):
		f := x
		if fk != ir.Float32 {
			f = "(float)(" + x + ")"
		}
		if rz {
			if tk == ir.Float16 {
				s.use("tri_f2h_rz")
				return "tri_f2h_rz(" + f + ")"
			}
			s.use("tri_f2bf_rz")
			return "tri_f2bf_rz(" + f + ")"
		}
		return s.fromFloat(tk, f)
	}
	return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
}

// bitcastExpr reinterprets the bits of x (same width).
func (s nameSet) bitcastExpr(from, to ir.DType, x string) string {
	switch {
	case from.Kind == ir.Float32:
		s.use("tri_bits_f32")
		return fmt.Sprintf("(%s)tri_bits_f32(%s)", s.cType(to), x)
	case to.Kind == ir.Float32:
		s.use("tri_f32_bits")
		return fmt.Sprintf("tri_f32_bits((unsigned int)%s)", x)
	case from.Kind == ir.Float64:
		s.use("tri_bits_f64")
		return fmt.Sprintf("(%s)tri_bits_f64(%s)", s.cType(to), x)
	case to.Kind == ir.Float64:
		s.use("tri_f64_bits")
		return fmt.Sprintf("tri_f64_bits((unsigned long long)%s)", x)
	}
	return fmt.Sprintf("(%s)(%s)", s.cType(to), x)
}

// group is C expression x, in parentheses unless it is a name or a number.
func group(x string) string {
	for _, r := range x {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "(" + x + ")"
		}
	}
	return x
}

// fp8Literal is the C literal of the fp8 constant x of kind k: its code.
func (s nameSet) fp8Literal(k ir.Kind, x float64) string {
	f, _ := k.FP8()
	return fmt.Sprintf("((%s)0x%02x)", s.regType(k), f.Encode(f.RoundSat(x, false)))
}
