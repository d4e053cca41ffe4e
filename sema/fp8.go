package sema

// This file implements the rules of conversions to and from the fp8
// storage types: exactly those Triton 3.6 compiles for NVIDIA GPUs (its
// FpToFpOp lowering, third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/
// ElementwiseOpToLLVM.cpp, and its software conversion of fp8e4b15,
// convert_custom_float8), as measured on sm_90:
//
//   - fp8e4nv and fp8e5 widen to fp16, bf16 and fp32, not to fp64, and
//     fp32, fp16 and bf16 narrow to them to nearest even (saturating);
//     toward zero ("rtz") only from fp32 to fp8e5;
//   - fp8e4b15 widens to every float and narrows from fp16 and fp32 only,
//     ignoring the rounding mode.
//
// The rest stops with Triton's words. Integers convert to and from fp8
// through a float: Triton has no direct conversion.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// fp8Partner reports whether fp8 kind f converts directly to and from k.
func fp8Partner(f, k ir.Kind) bool {
	if f == ir.Float8E4B15 {
		return k == ir.Float16 || k == ir.Float32
	}
	return k == ir.Float16 || k == ir.BFloat16 || k == ir.Float32
}

// mlirName is the name Triton's compiler errors give a float kind.
func mlirName(k ir.Kind) string {
	switch k {
	case ir.Float8E4NV:
		return "f8E4M3FN"
	case ir.Float8E5:
		return "f8E5M2"
	case ir.BFloat16:
		return "bf16"
	case ir.Float16:
		return "f16"
	case ir.Float32:
		return "f32"
	case ir.Float64:
		return "f64"
	}
	return ir.Scalar(k).PyName()
}

// fp8CastError is the reason a cast from src to dst (toward zero with tz)
// is not supported, or "" when it is or no fp8 kind is involved.
func fp8CastError(src, dst ir.Kind, tz bool) string {
	if src == dst || !src.IsFP8() && !dst.IsFP8() {
		return "" // Triton's cast returns a value of the same type as it is
	}
	pair := "from " + ir.Scalar(src).PyName() + " to " + ir.Scalar(dst).PyName()
	unsupported := "casting " + pair + " is not supported: "
	switch {
	case src.IsFP8() && dst.IsFP8():
		return unsupported + "Triton converts between fp8 formats through a wider float; use .to(tl.float16).to(...)"
	case src == ir.Float8E4B15 && dst.IsFloat():
		return "" // widened through fp16, exactly, to any float
	case src == ir.Float8E4B15, dst == ir.Float8E4B15 && !fp8Partner(dst, src):
		return unsupported + "Triton converts to float8e4b15 from float16 and float32 only, and from float8e4b15 to floats only"
	case dst == ir.Float8E4B15:
		return ""
	case tz && src != ir.Float32:
		// Triton checks the rounding mode before the pair.
		return "fp_downcast_rounding=\"rtz\" is not supported " + pair + ": Triton fails with \"Unsupported rounding mode for conversion to fp8: rtz\" (toward zero only from float32 to float8e5)"
	case src == ir.Float64 || dst == ir.Float64:
		return unsupported + "Triton fails with \"Unsupported conversion " + fp8MLIRPair(src, dst, tz) + "\"; go through float32"
	case src.IsFP8() && !fp8Partner(src, dst), dst.IsFP8() && !fp8Partner(dst, src):
		return unsupported + "fp8 converts to and from float16, bfloat16 and float32 only"
	case tz && dst != ir.Float8E5:
		return "fp_downcast_rounding=\"rtz\" is not supported " + pair + ": Triton fails with \"Unsupported conversion " + fp8MLIRPair(src, dst, tz) + "\" (toward zero only from float32 to float8e5)"
	}
	return ""
}

// fp8MLIRPair is the conversion as Triton's lowering names it in its error:
// "from f32 to f8E4M3FN with rounding mode rtz"; a narrowing always has a
// rounding mode (rtne by default).
func fp8MLIRPair(src, dst ir.Kind, tz bool) string {
	s := "from " + mlirName(src) + " to " + mlirName(dst)
	switch {
	case !dst.IsFP8():
	case tz:
		s += " with rounding mode rtz"
	default:
		s += " with rounding mode rtne"
	}
	return s
}

// fp8Indirect reports whether a conversion from src to dst involves an fp8
// kind and a kind it does not convert to directly, so that it goes through
// fp32 (the conversions sema inserts itself, as a store into an fp8
// pointer does).
func fp8Indirect(src, dst ir.Kind) bool {
	return src.IsFP8() && !fp8Partner(src, dst) || dst.IsFP8() && !fp8Partner(dst, src)
}

// implicitFP8OK reports whether the conversion of v to dst that a store or
// a load's other implies is one Triton compiles, placing the error where
// it is not. Triton converts there with the same cast, so a float that
// .to() refuses is refused there too; integers are left to the cast rules.
func (c *compiler) implicitFP8OK(v *val, dst ir.Kind, what string, pos diag.Pos) bool {
	if v.k != kRuntime || !v.rt.Type.Kind.IsFloat() || !dst.IsFloat() {
		return true
	}
	if msg := fp8CastError(v.rt.Type.Kind, dst, false); msg != "" {
		c.errorf(pos, diag.CodeType, "%s: %s", what, msg)
		return false
	}
	return true
}
