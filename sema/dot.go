package sema

// This file implements tl.dot as Triton 3.6's core.py and semantic.py type
// it, and tl.swizzle2d, standard.py's grouped program ordering.
//
// tl.dot(input, other, acc=None, input_precision=None, allow_tf32=None,
// max_num_imprecise_acc=None, out_dtype=tl.float32) multiplies two blocks
// of rank 2 ([M, K] x [K, N]) or rank 3 ([B, M, K] x [B, K, N]) of one
// dtype among int8, float16, bfloat16, float32 and float64 (uint8 passes
// the dtype check but is then refused, as in Triton), or of the fp8 types
// float8e4nv and float8e5, which may be mixed. The NVIDIA backend's
// min_dot_size asks for K >= 32 for 8-bit operands and K >= 16 otherwise.
// The result is int32 for int8, float32 for float32 and bfloat16, float64
// for float64, and out_dtype (float32 or float16) for float16 and fp8;
// out_dtype=bfloat16 is refused; out_dtype=None is taken as the default
// (Triton 3.6 fails on it for float operands). An accumulator must have the result's
// shape and, as semantic.py asserts, out_dtype as its dtype, so an int8
// dot with an int32 accumulator needs out_dtype=tl.int32. Without one the
// accumulator is a zero splat of the result type. The input precision
// ("tf32" unless allow_tf32=False or input_precision says otherwise) is
// recorded on every dot, though it only changes float32 products.

import (
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

func addDotBuiltins(tl func(string) string) {
	builtins[tl("dot")] = &builtin{[]string{"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"}, 2, bDot}
	builtins[tl("swizzle2d")] = &builtin{[]string{"i", "j", "size_i", "size_j", "size_g"}, 5, bSwizzle2D}
}

// precisions are the input precisions the NVIDIA backend allows
// (allowed_dot_input_precisions), lower-cased.
var precisions = map[string]ir.Precision{"tf32": ir.PrecisionTF32, "tf32x3": ir.PrecisionTF32x3, "ieee": ir.PrecisionIEEE}

// dotPrecision reads input_precision and the deprecated allow_tf32.
func (c *compiler) dotPrecision(prec, allowTF32 *val, pos diag.Pos) (ir.Precision, bool) {
	if given(prec) && given(allowTF32) {
		c.errorf(pos, diag.CodeArgs, "tl.dot: only one of input_precision and allow_tf32 can be given; allow_tf32 is deprecated, use input_precision")
		return 0, false
	}
	if given(allowTF32) {
		if !allowTF32.isConst() {
			c.errorf(pos, diag.CodeValue, "allow_tf32 must be a compile-time bool, got %s", allowTF32.describe())
			return 0, false
		}
		if allowTF32.truth() {
			return ir.PrecisionTF32, true
		}
		return ir.PrecisionIEEE, true
	}
	if !given(prec) {
		return ir.PrecisionTF32, true
	}
	if prec.k != kStr {
		c.errorf(pos, diag.CodeValue, "input_precision must be a compile-time string (\"tf32\", \"tf32x3\" or \"ieee\"), got %s", prec.describe())
		return 0, false
	}
	p, ok := precisions[strings.ToLower(prec.s)]
	if !ok {
		c.errorf(pos, diag.CodeValue, "input_precision must be one of \"tf32\", \"tf32x3\" or \"ieee\", got %s", prec.repr())
	}
	return p, ok
}

// dotOperand reads an operand of tl.dot: a block of rank 2 or 3 of a dtype
// tensor cores take.
func (c *compiler) dotOperand(v *val, name string, pos diag.Pos) *ir.Value {
	if v.k != kRuntime || v.rt.Type.IsScalar() {
		c.errorf(pos, diag.CodeType, "the %s of tl.dot must be a block (a tensor of rank 2 or 3), got %s", name, v.describe())
		return nil
	}
	x := v.rt
	switch x.Type.Kind {
	case ir.Int8, ir.Uint8, ir.Float16, ir.BFloat16, ir.Float32, ir.Float64, ir.Float8E4NV, ir.Float8E5:
		return x
	}
	c.errorf(pos, diag.CodeType, "tl.dot does not support %s operands; the %s must be int8, float16, bfloat16, float32, float64, float8e4nv or float8e5", x.Type.DType.PyName(), name)
	return nil
}

// dotResultType is semantic.py's choice of the result dtype.
func (c *compiler) dotResultType(in, out ir.DType, pos diag.Pos) (ir.DType, bool) {
	switch {
	case in.Kind.IsInt():
		if in.Kind != ir.Int8 {
			c.errorf(pos, diag.CodeType, "only int8 is supported for integer dot, got %s", in.PyName())
			return ir.DType{}, false
		}
		return ir.TInt32, true
	case out.Kind == ir.BFloat16:
		c.errorf(pos, diag.CodeType, "out_dtype=bfloat16 is unsupported; use float32 or float16 and cast with .to(tl.bfloat16)")
		return ir.DType{}, false
	case in.Kind == ir.Float32 || in.Kind == ir.BFloat16:
		return ir.TFloat32, true
	case in.Kind == ir.Float64:
		return ir.TFloat64, true
	case out.Kind != ir.Float32 && out.Kind != ir.Float16:
		// semantic.py would build an fp32 zero into a block of out_dtype.
		c.errorf(pos, diag.CodeType, "out_dtype of a %s tl.dot must be float32 or float16, got %s", in.PyName(), out.PyName())
		return ir.DType{}, false
	}
	return out, true
}

func bDot(c *compiler, a *args) *val {
	x := c.dotOperand(a.vals[0], "input", a.pos)
	if x == nil {
		return invalid
	}
	y := c.dotOperand(a.vals[1], "other", a.pos)
	if y == nil {
		return invalid
	}
	xt, yt := x.Type, y.Type
	if xt.DType != yt.DType && !(xt.Kind.IsFP8() && yt.Kind.IsFP8()) {
		return c.errorf(a.pos, diag.CodeType, "both operands of tl.dot must have the same dtype, got %s and %s", xt.DType.PyName(), yt.DType.PyName())
	}
	prec, ok := c.dotPrecision(a.vals[3], a.vals[4], a.pos)
	if !ok {
		return invalid
	}
	imprecise := int64(-1)
	if v := a.vals[5]; given(v) {
		if imprecise, ok = c.constInt(v, "max_num_imprecise_acc", a.pos); !ok {
			return invalid
		}
	}
	r := xt.Shape.Rank()
	if r != yt.Shape.Rank() || r != 2 && r != 3 {
		return c.errorf(a.pos, diag.CodeType, "the operands of tl.dot must both be of rank 2, or both of rank 3 (batched); got shapes %s and %s", xt.Shape, yt.Shape)
	}
	if r == 3 && xt.Shape[0] != yt.Shape[0] {
		return c.errorf(a.pos, diag.CodeType, "the batch dimensions of the operands of tl.dot must be equal; got shapes %s and %s", xt.Shape, yt.Shape)
	}
	k := xt.Shape[r-1]
	if k != yt.Shape[r-2] {
		return c.errorf(a.pos, diag.CodeType, "tl.dot: shapes %s and %s are not compatible for a matrix product; the last dimension of the first (%d) must equal the second-to-last of the second (%d)", xt.Shape, yt.Shape, k, yt.Shape[r-2])
	}
	if xt.Kind.IsFP8() && imprecise > int64(k) {
		return c.errorf(a.pos, diag.CodeValue, "max_num_imprecise_acc (%d) must be <= K (%d)", imprecise, k)
	}
	minK := 16
	if xt.Kind.Bits() == 8 {
		minK = 32
	}
	if k < minK {
		return c.errorf(a.pos, diag.CodeType, "tl.dot of %s operands needs K >= %d, got K = %d (shapes %s and %s)", xt.DType.PyName(), minK, k, xt.Shape, yt.Shape)
	}
	out := ir.TFloat32
	if v := a.vals[6]; given(v) {
		if out, ok = c.dtypeArg(v, a.pos); !ok {
			return invalid
		}
	}
	rd, ok := c.dotResultType(xt.DType, out, a.pos)
	if !ok {
		return invalid
	}
	shape := append(cloneShape(xt.Shape[:r-1]), yt.Shape[r-1])
	t := ir.Type{DType: rd, Shape: shape}
	var acc *ir.Value
	if v := a.vals[2]; given(v) {
		if acc = c.dotAcc(v, t, out, a.pos); acc == nil {
			return invalid
		}
	} else {
		acc = c.splatTo(c.constOf(rd, intVal(0), a.pos), shape, a.pos)
	}
	d := c.emit(ir.OpDot, t, a.pos, x, y, acc)
	d.Precision = prec
	return rtVal(d)
}

// dotAcc checks the accumulator of a dot of result type t.
func (c *compiler) dotAcc(v *val, t ir.Type, out ir.DType, pos diag.Pos) *ir.Value {
	if v.k != kRuntime || !v.rt.Type.Shape.Equal(t.Shape) {
		c.errorf(pos, diag.CodeType, "the accumulator of tl.dot must be a tensor of the product's shape %s, got %s", t.Shape, v.describe())
		return nil
	}
	acc := v.rt
	if acc.Type.DType != out {
		d := c.errorAt(pos, diag.CodeType, "the accumulator of tl.dot has dtype %s but out_dtype is %s; they must be equal", acc.Type.DType.PyName(), out.PyName())
		if acc.Type.DType == t.DType {
			d.WithSuggestion("pass out_dtype=tl.%s", t.DType.PyName())
		}
		return nil
	}
	if acc.Type.DType != t.DType {
		c.errorf(pos, diag.CodeType, "the accumulator of this tl.dot must be %s, the dtype of its product, got %s", t.DType.PyName(), acc.Type.DType.PyName())
		return nil
	}
	return acc
}

// bSwizzle2D is standard.py's swizzle2d, emitted through the operators so
// that constexprs fold with Python's rules and runtime values follow
// Triton's (truncating // and C %). As in Triton, core.minimum makes the
// results runtime values even when every input is a constexpr.
func bSwizzle2D(c *compiler, a *args) *val {
	i, j, sizeI, sizeJ, sizeG := a.vals[0], a.vals[1], a.vals[2], a.vals[3], a.vals[4]
	op := func(o string, x, y *val) *val { return c.binary(o, x, y, a.pos) }
	ij := op("+", op("*", i, sizeJ), j)
	sizeGJ := op("*", sizeG, sizeJ)
	offI := op("*", op("//", ij, sizeGJ), sizeG)
	rows := op("-", sizeI, offI)
	if rows.k == kInvalid || sizeG.k == kInvalid {
		return invalid
	}
	sizeG = c.minMax(ir.OpMin, rows, sizeG, nil, a.pos)
	ij = op("%", ij, sizeGJ)
	newI := op("+", offI, op("%", ij, sizeG))
	newJ := op("//", ij, sizeG)
	if newI.k == kInvalid || newJ.k == kInvalid {
		return invalid
	}
	return &val{k: kTuple, elts: []*val{newI, newJ}}
}
