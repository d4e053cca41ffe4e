package ir

// This file implements what the interpreter and cudagen share about
// OpPrint and OpAssert: their checks, and the printf format of one printed
// element, which follows Triton's NVIDIA lowering of tt.print so that tri's
// lines read exactly as Triton's:
//
//	pid (0, 0, 0) idx ( 3,  1) x: 1.500000
//
// "pid (x, y, z) " with the program id, "idx (...)" with the element's
// index along each axis ("idx ()" for a scalar), each index padded to the
// number of decimal digits of its axis' size less one rounded up
// (ceil(log10(n))), then the prefix (which sema rewrites as Triton's
// device_print does: " x: "), then "(operand i) " when several values are
// printed by one call, then the value: %f for floats (widened to double),
// %i/%lli for signed integers, %u/%llu for unsigned ones and bools (Triton
// prints i1 as an unsigned integer), or with hex "0x%0Nx" with N the hex
// digits of the dtype's width, 32-bit and narrower values widened to 32
// bits first as printf's varargs do. Floats with hex print their own bits
// (0x3f800000 for 1.0): Triton hands printf the float widened to double
// for that conversion, so its hex lines for floats show no useful bits and
// differ from tri's. Pointers print with %p. A print with no values prints
// "pid (x, y, z)" followed by the prefix.

import (
	"fmt"
	"math"
	"strings"
)

// checkDebugOp checks an OpPrint or OpAssert.
func checkDebugOp(v *Value) error {
	if v.Msg == nil {
		return fmt.Errorf("%s without its message", v.Op)
	}
	switch v.Op {
	case OpPrint:
		for _, a := range v.Args {
			if a == nil || a.Type.Kind == Void || a.Type.Kind == Invalid {
				return fmt.Errorf("print of a value without a type")
			}
		}
	case OpAssert:
		if v.Args[0].Type.DType != TBool {
			return fmt.Errorf("assert of %s, want a bool", v.Args[0].Type)
		}
	}
	return nil
}

// PrintIndexWidth is the width Triton pads an index along an axis of size
// n to: ceil(log10(n)) digits (0, no padding, for n <= 1).
func PrintIndexWidth(n int) int {
	if n <= 1 {
		return 0
	}
	return int(math.Ceil(math.Log10(float64(n))))
}

// PrintConv is the printf conversion of one printed element of dtype d.
func PrintConv(d DType, hex bool) string {
	k := d.Kind
	if k == Ptr {
		return "%p"
	}
	if hex {
		bits := k.Bits()
		if bits > 32 {
			return fmt.Sprintf("0x%%0%dllx", bits/4)
		}
		return fmt.Sprintf("0x%%0%dx", bits/4)
	}
	switch {
	case k.IsFloat():
		return "%f"
	case k.IsSigned() && k.Bits() == 64:
		return "%lli"
	case k.IsSigned():
		return "%i"
	case k.Bits() == 64:
		return "%llu"
	}
	return "%u"
}

// PrintFormat is the printf format (ending in a newline) of each element
// of operand i of n printed by an OpPrint with the given prefix and hex
// setting, the operand being of type t. Its arguments are the three
// program ids, the element's index along each axis of t, then the
// element. A '%' of the prefix is doubled.
func PrintFormat(prefix string, t Type, i, n int, hex bool) string {
	var b strings.Builder
	b.WriteString("pid (%u, %u, %u) idx (")
	for a, size := range t.Shape {
		if a > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%%%du", PrintIndexWidth(size))
	}
	b.WriteString(")")
	b.WriteString(strings.ReplaceAll(prefix, "%", "%%"))
	if n > 1 {
		fmt.Fprintf(&b, "(operand %d) ", i)
	}
	b.WriteString(PrintConv(t.DType, hex))
	b.WriteString("\n")
	return b.String()
}

// PrintBareFormat is the printf format of an OpPrint without values: the
// program ids, then the prefix.
func PrintBareFormat(prefix string) string {
	return "pid (%u, %u, %u)" + strings.ReplaceAll(prefix, "%", "%%") + "\n"
}
