package sema

// This file implements the rules of conversions to and from the fp8
// storage types, as Triton's FpToFpOp lowering for NVIDIA GPUs allows them
// (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ElementwiseOpToLLVM.cpp):
// fp8 widens to fp16, bf16 and fp32; fp32, fp16 and bf16 narrow to fp8 by
// round to nearest even, saturating (cvt.rn.satfinite); toward zero
// ("rtz") only from fp32 or fp16 to fp8e5, the one pairing Triton has a
// truncating conversion for. fp8e4b15, which Triton converts in software
// (convert_custom_float8), goes only to and from fp16 and fp32, and its
// conversion ignores the rounding mode. Integers convert to and from fp8
// through a float: Triton has no direct conversion.

import "github.com/tri-lang/tri/ir"

// fp8Partner reports whether fp8 kind f converts directly to and from k.
func fp8Partner(f, k ir.Kind) bool {
	if f == ir.Float8E4B15 {
		return k == ir.Float16 || k == ir.Float32
	}
	return k == ir.Float16 || k == ir.BFloat16 || k == ir.Float32
}

// fp8CastError is the reason a cast from src to dst (toward zero with tz)
// is not supported, or "" when it is or no fp8 kind is involved.
func fp8CastError(src, dst ir.Kind, tz bool) string {
	if !src.IsFP8() && !dst.IsFP8() {
		return ""
	}
	pair := "from " + ir.Scalar(src).PyName() + " to " + ir.Scalar(dst).PyName()
	switch {
	case src.IsFP8() && dst.IsFP8():
		return "casting " + pair + " is not supported: Triton converts between fp8 formats through a wider float; use .to(tl.float16).to(...)"
	case src.IsFP8() && !fp8Partner(src, dst), dst.IsFP8() && !fp8Partner(dst, src):
		if src == ir.Float8E4B15 || dst == ir.Float8E4B15 {
			return "casting " + pair + " is not supported: float8e4b15 converts to and from float16 and float32 only"
		}
		return "casting " + pair + " is not supported: fp8 converts to and from float16, bfloat16 and float32 only"
	case tz && dst != ir.Float8E5 && dst != ir.Float8E4B15 || tz && src == ir.BFloat16:
		return "fp_downcast_rounding=\"rtz\" is not supported " + pair + ": Triton rounds toward zero to fp8 only from float32 or float16 to float8e5"
	}
	return ""
}

// fp8Indirect reports whether a conversion from src to dst involves an fp8
// kind and a kind it does not convert to directly, so that it goes through
// fp32 (the conversions sema inserts itself, as a store into an fp8
// pointer does).
func fp8Indirect(src, dst ir.Kind) bool {
	return src.IsFP8() && !fp8Partner(src, dst) || dst.IsFP8() && !fp8Partner(dst, src)
}
