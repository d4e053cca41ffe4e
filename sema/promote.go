package sema

// This file implements Triton's typing rules: literal types and the
// computation type of binary operators (semantic.py's
// computation_type_impl and integer_promote_impl).

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tri-lang/tri/ir"
)

// literalType is the dtype Triton gives a Python number used as a tensor:
// ints by range (i32, u32, i64, u64), floats fp32 (fp64 outside fp32's
// normal range), bools i1.
func literalType(v *val) (ir.DType, error) {
	switch v.k {
	case kBool:
		return ir.TBool, nil
	case kFloat:
		a := math.Abs(v.f)
		if math.IsInf(a, 0) || a == 0 || math.IsNaN(a) || (a >= 0x1p-126 && a <= (2-0x1p-23)*0x1p127) {
			return ir.TFloat32, nil
		}
		return ir.TFloat64, nil
	case kInt:
		switch {
		case fitsRange(v.i, -1<<31, 1<<31-1):
			return ir.TInt32, nil
		case v.i.Sign() >= 0 && v.i.IsUint64() && v.i.Uint64() < 1<<32:
			return ir.TUint32, nil
		case v.i.IsInt64():
			return ir.TInt64, nil
		case v.i.Sign() >= 0 && v.i.IsUint64():
			return ir.TUint64, nil
		}
		return ir.DType{}, fmt.Errorf("integer constant %s is out of range for 64-bit integers", v.i)
	}
	return ir.DType{}, fmt.Errorf("cannot use %s as a tensor", v.describe())
}

func fitsRange(i *big.Int, lo, hi int64) bool {
	return i.IsInt64() && i.Int64() >= lo && i.Int64() <= hi
}

// kindRank orders dtypes by kind as Triton's dtype.kind() does: bool <
// integer < float.
func kindRank(d ir.DType) int {
	switch {
	case d.Kind == ir.Bool:
		return 0
	case d.Kind.IsInt():
		return 1
	case d.Kind.IsFloat():
		return 2
	}
	return 3
}

// signed is Triton's int_signedness (int1 is one of its UINT_TYPES).
func signed(k ir.Kind) bool { return k.IsSigned() }

// intRange is the range of values of an integer kind, as Triton's
// get_int_min_value/get_int_max_value.
func intRange(k ir.Kind) (lo, hi *big.Int) {
	bits := uint(k.Bits())
	one := big.NewInt(1)
	if signed(k) {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
		return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi
	}
	return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
}

// integerPromote is Triton's integer_promote_impl, C's usual arithmetic
// conversions on the two integer dtypes.
func integerPromote(a, b ir.DType) ir.DType {
	ar, br := a.Kind.Bits(), b.Kind.Bits()
	as, bs := signed(a.Kind), signed(b.Kind)
	switch {
	case as == bs:
		if ar > br {
			return a
		}
		return b
	case !as:
		if ar >= br {
			return a
		}
		return b
	default:
		if br >= ar {
			return b
		}
		return a
	}
}

// computationType is Triton's computation_type_impl: the dtype both
// operands of an arithmetic operator are converted to. aScalar and bScalar
// say which operands are Python numbers (constexprs).
func computationType(a ir.DType, aScalar bool, b ir.DType, bScalar bool, divOrMod bool) (ir.DType, error) {
	// Where Triton would compute in fp8, tri stops: fp8 is a storage type.
	fp8 := func(d ir.DType) error {
		return fmt.Errorf("arithmetic on %s values is not supported: convert them first, e.g. x.to(tl.float32)", d)
	}
	if a.Kind.IsFP8() && b.Kind.IsFP8() {
		return ir.DType{}, fp8(a)
	}
	d, err := computationTypeImpl(a, aScalar, b, bScalar, divOrMod)
	if err == nil && d.Kind.IsFP8() {
		return ir.DType{}, fp8(d)
	}
	return d, err
}

// selectType is the common dtype of tl.where's operands: Triton's
// computation type, fp8 included, as a select computes nothing on them.
func selectType(a ir.DType, aScalar bool, b ir.DType, bScalar bool) (ir.DType, error) {
	return computationTypeImpl(a, aScalar, b, bScalar, false)
}

func computationTypeImpl(a ir.DType, aScalar bool, b ir.DType, bScalar bool, divOrMod bool) (ir.DType, error) {
	if aScalar != bScalar {
		s, t := a, b
		if bScalar {
			s, t = b, a
		}
		if kindRank(s) <= kindRank(t) {
			if divOrMod && (t.Kind == ir.Float16 || t.Kind == ir.BFloat16) {
				return ir.TFloat32, nil
			}
			return t, nil
		}
	}
	switch {
	case a.Kind == ir.Float64 || b.Kind == ir.Float64:
		return ir.TFloat64, nil
	case a.Kind == ir.Float32 || b.Kind == ir.Float32:
		return ir.TFloat32, nil
	case a.Kind == ir.Float16 || b.Kind == ir.Float16:
		if divOrMod {
			return ir.TFloat32, nil
		}
		return ir.TFloat16, nil
	case a.Kind == ir.BFloat16 || b.Kind == ir.BFloat16:
		if !divOrMod && a.Kind == b.Kind {
			return ir.TBF16, nil
		}
		return ir.TFloat32, nil
	case a.Kind.IsFP8() && b.Kind.IsFP8():
		if a.Kind == b.Kind {
			return a, nil
		}
		return ir.TFloat16, nil
	}
	if !a.Kind.IsInt() || !b.Kind.IsInt() {
		return ir.DType{}, fmt.Errorf("unexpected operand types %s and %s", a, b)
	}
	if divOrMod && signed(a.Kind) != signed(b.Kind) {
		return ir.DType{}, fmt.Errorf("cannot use /, // or %% with %s and %s because they have different signedness; cast them to the same signedness", a, b)
	}
	return integerPromote(a, b), nil
}
