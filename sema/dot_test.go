package sema

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// dots returns the OpDot values of k in program order.
func dots(k *ir.Kernel) []*ir.Value {
	var out []*ir.Value
	ir.Inspect(k.Body, func(v *ir.Value) {
		if v.Op == ir.OpDot {
			out = append(out, v)
		}
	})
	return out
}

// oneDot compiles src and returns its only OpDot.
func oneDot(t *testing.T, src string, s Signature) (*ir.Kernel, *ir.Value) {
	t.Helper()
	k := compile(t, src, "k", s)
	ds := dots(k)
	require.Len(t, ds, 1)
	return k, ds[0]
}

// isZeroSplat reports whether v is a splat of the constant 0.
func isZeroSplat(v *ir.Value) bool {
	if v.Op != ir.OpSplat || v.Args[0].Op != ir.OpConst {
		return false
	}
	c := v.Args[0].Const
	return c.Int == 0 && c.Float == 0
}

// TestDotDTypes pins semantic.py's result dtypes: int8 gives int32, fp32
// and bf16 give fp32 whatever out_dtype says, fp64 gives fp64, fp16 gives
// out_dtype; the implicit accumulator is a zero of the result type.
func TestDotDTypes(t *testing.T) {
	src := `
@triton.jit
def k(a_ptr, b_ptr, c_ptr, OUT: tl.constexpr):
    m = tl.arange(0, 16)
    kk = tl.arange(0, 32)
    n = tl.arange(0, 64)
    a = tl.load(a_ptr + m[:, None] * 32 + kk[None, :])
    b = tl.load(b_ptr + kk[:, None] * 64 + n[None, :])
    c = tl.dot(a, b, out_dtype=OUT)
    tl.store(c_ptr + m[:, None] * 64 + n[None, :], c)
`
	none := Arg{Kind: ArgNone}
	tests := []struct {
		in   ir.Kind
		out  Arg
		want ir.DType
	}{
		{ir.Int8, none, ir.TInt32},
		{ir.Int8, cDType(ir.TBF16), ir.TInt32},
		{ir.Float16, none, ir.TFloat32},
		{ir.Float16, cDType(ir.TFloat32), ir.TFloat32},
		{ir.Float16, cDType(ir.TFloat16), ir.TFloat16},
		{ir.BFloat16, none, ir.TFloat32},
		{ir.BFloat16, cDType(ir.TFloat16), ir.TFloat32},
		{ir.Float32, none, ir.TFloat32},
		{ir.Float32, cDType(ir.TFloat16), ir.TFloat32},
		{ir.Float64, none, ir.TFloat64},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s out=%v", tt.in, tt.out.Value.DType), func(t *testing.T) {
			k, d := oneDot(t, src, sig(ptr(tt.in), ptr(tt.in), ptr(ir.Float32), tt.out))
			want := ir.TileType(tt.want, 16, 64)
			assert.Equal(t, want, d.Type)
			assert.Equal(t, want, namedTypes(k)["c"])
			assert.Equal(t, ir.TileType(ir.Scalar(tt.in), 16, 32), d.Args[0].Type)
			assert.Equal(t, ir.TileType(ir.Scalar(tt.in), 32, 64), d.Args[1].Type)
			assert.Equal(t, want, d.Args[2].Type)
			assert.True(t, isZeroSplat(d.Args[2]), "the accumulator is a zero splat")
		})
	}
}

// TestDotShapes checks result shapes: rank 2 with M and N below the
// tensor-core tile (min_dot_size allows any M and N), and rank 3.
func TestDotShapes(t *testing.T) {
	f32 := ptr(ir.Float32)
	tests := []struct {
		name, src string
		want      ir.Type
	}{
		{"rank 2, small M and N", `
@triton.jit
def k(p, q):
    a = tl.load(p + tl.arange(0, 2)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(p + tl.arange(0, 16)[:, None] * 4 + tl.arange(0, 4)[None, :])
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :], c)
`, ir.TileType(ir.TFloat32, 2, 4)},
		{"rank 3", `
@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 512))
    a = tl.reshape(x, 2, 16, 16)
    b = tl.reshape(x, (2, 16, 16))
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 512), tl.reshape(c, 512))
`, ir.TileType(ir.TFloat32, 2, 16, 16)},
		{"rank 3, M != N", `
@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 1024))
    a = tl.reshape(x, 4, 8, 32)
    b = tl.reshape(x, 4, 32, 8)
    c = tl.dot(a, b)
    tl.store(q + tl.arange(0, 256), tl.reshape(c, 256))
`, ir.TileType(ir.TFloat32, 4, 8, 8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, d := oneDot(t, tt.src, sig(f32, f32))
			assert.Equal(t, tt.want, d.Type)
			assert.Equal(t, tt.want, d.Args[2].Type)
		})
	}
}

// TestDotAcc checks accumulators given positionally and by keyword, in a
// loop (the loop-carried value keeps its type) and with the out_dtype
// semantic.py asks for (int32 for int8, float16 for an fp16 accumulator).
func TestDotAcc(t *testing.T) {
	tests := []struct {
		name, src string
		in        ir.Kind
		want      ir.DType
	}{
		{"positional in a loop", `
@triton.jit
def k(p, q):
    r = tl.arange(0, 32)
    acc = tl.zeros((32, 32), dtype=tl.float32)
    for i in range(2):
        a = tl.load(p + i * 1024 + r[:, None] * 32 + r[None, :])
        acc = tl.dot(a, a, acc)
    tl.store(q + r[:, None] * 32 + r[None, :], acc)
`, ir.Float16, ir.TFloat32},
		{"keyword", `
@triton.jit
def k(p, q):
    r = tl.arange(0, 32)
    a = tl.load(p + r[:, None] * 32 + r[None, :])
    acc = tl.full((32, 32), 1.0, tl.float32)
    acc = tl.dot(a, a, acc=acc)
    tl.store(q + r[:, None] * 32 + r[None, :], acc)
`, ir.Float32, ir.TFloat32},
		{"fp16 accumulator", `
@triton.jit
def k(p, q):
    r = tl.arange(0, 32)
    a = tl.load(p + r[:, None] * 32 + r[None, :])
    acc = tl.full((32, 32), 1.0, tl.float16)
    acc = tl.dot(a, a, acc, out_dtype=tl.float16)
    tl.store(q + r[:, None] * 32 + r[None, :], acc)
`, ir.Float16, ir.TFloat16},
		{"int8 with an int32 accumulator", `
@triton.jit
def k(p, q):
    r = tl.arange(0, 32)
    a = tl.load(p + r[:, None] * 32 + r[None, :])
    acc = tl.full((32, 32), 7, tl.int32)
    acc = tl.dot(a, a, acc, out_dtype=tl.int32)
    tl.store(q + r[:, None] * 32 + r[None, :], acc)
`, ir.Int8, ir.TInt32},
		{"batched", `
@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 512))
    a = tl.reshape(x, 2, 16, 16)
    acc = tl.dot(a, a)
    acc = tl.dot(a, a, acc)
    tl.store(q + tl.arange(0, 512), tl.reshape(acc, 512).to(tl.float32))
`, ir.BFloat16, ir.TFloat32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := compile(t, tt.src, "k", sig(ptr(tt.in), ptr(ir.Float32)))
			ds := dots(k)
			require.NotEmpty(t, ds)
			d := ds[len(ds)-1]
			assert.Equal(t, tt.want, d.Type.DType)
			assert.False(t, isZeroSplat(d.Args[2]), "the given accumulator is used")
			assert.Equal(t, d.Type, d.Args[2].Type)
		})
	}
}

// TestDotPrecision maps input_precision (case-insensitive) and the
// deprecated allow_tf32 to ir.Precision, which every dot records, and
// checks that the printer shows it for fp32 operands only.
func TestDotPrecision(t *testing.T) {
	tests := []struct {
		args string
		want ir.Precision
	}{
		{"", ir.PrecisionTF32},
		{`, input_precision="tf32"`, ir.PrecisionTF32},
		{`, input_precision="TF32x3"`, ir.PrecisionTF32x3},
		{`, input_precision="tf32X3"`, ir.PrecisionTF32x3},
		{`, input_precision="ieee"`, ir.PrecisionIEEE},
		{`, input_precision="IEEE"`, ir.PrecisionIEEE},
		{`, input_precision=P`, ir.PrecisionIEEE},
		{`, input_precision=None`, ir.PrecisionTF32},
		{`, allow_tf32=True`, ir.PrecisionTF32},
		{`, allow_tf32=False`, ir.PrecisionIEEE},
		{`, None, None, False`, ir.PrecisionIEEE},
		{`, input_precision=None, allow_tf32=False`, ir.PrecisionIEEE},
		{`, input_precision="ieee", allow_tf32=None`, ir.PrecisionIEEE},
		{`, max_num_imprecise_acc=0, input_precision="tf32x3"`, ir.PrecisionTF32x3},
	}
	for _, tt := range tests {
		for _, in := range []ir.Kind{ir.Float32, ir.Float16} {
			t.Run(in.String()+tt.args, func(t *testing.T) {
				src := `
@triton.jit
def k(p, q, P: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(p + r[:, None] * 16 + r[None, :])
    c = tl.dot(a, a` + tt.args + `)
    tl.store(q + r[:, None] * 16 + r[None, :], c)
`
				k, d := oneDot(t, src, sig(ptr(in), ptr(ir.Float32), cStr("ieee")))
				assert.Equal(t, tt.want, d.Precision)
				if in == ir.Float32 {
					assert.Contains(t, printed(k), "c: fp32[16,16] = dot %")
					assert.Contains(t, printed(k), "input_precision="+tt.want.String())
				} else {
					assert.NotContains(t, printed(k), "input_precision")
				}
			})
		}
	}
}

// swizzleRef is standard.py's swizzle2d on Go ints (non-negative inputs,
// where Python's and C's division agree).
func swizzleRef(i, j, sizeI, sizeJ, sizeG int64) (int64, int64) {
	ij := i*sizeJ + j
	sizeGJ := sizeG * sizeJ
	offI := ij / sizeGJ * sizeG
	sizeG = min(sizeI-offI, sizeG)
	ij %= sizeGJ
	return offI + ij%sizeG, ij / sizeG
}

// evalScalar evaluates a scalar integer value built from constants and
// arithmetic, with C's truncating division, as the GPU would.
func evalScalar(t *testing.T, v *ir.Value) int64 {
	t.Helper()
	if v.Op == ir.OpConst {
		return v.Const.Int
	}
	require.Len(t, v.Args, 2, "%s", v.Op)
	x, y := evalScalar(t, v.Args[0]), evalScalar(t, v.Args[1])
	switch v.Op {
	case ir.OpAdd:
		return x + y
	case ir.OpSub:
		return x - y
	case ir.OpMul:
		return x * y
	case ir.OpDiv:
		return x / y
	case ir.OpRem:
		return x % y
	case ir.OpMin:
		return min(x, y)
	}
	t.Fatalf("unexpected op %s", v.Op)
	return 0
}

// TestSwizzle2DGrid runs the practitioner's guide's check with constexpr
// ids: a 5x4 grid swizzled with groups of 3 rows. Each specialization's
// stored value is evaluated from the IR (core.minimum makes it a runtime
// value, as in Triton) and must match the table, column-major inside each
// group of 3 rows and in the last group of 2.
func TestSwizzle2DGrid(t *testing.T) {
	src := `
@triton.jit
def k(p, I: tl.constexpr, J: tl.constexpr):
    pid_m, pid_n = tl.swizzle2d(I, J, 5, 4, 3)
    tl.store(p, pid_m * 4 + pid_n)
`
	// want[r][c] is the row-major id of the program that lands at (r, c).
	want := [5][4]int64{{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 11}, {12, 14, 16, 18}, {13, 15, 17, 19}}
	var got [5][4]int64
	for i := int64(0); i < 5; i++ {
		for j := int64(0); j < 4; j++ {
			k := compile(t, src, "k", sig(ptr(ir.Int32), cInt(i), cInt(j)))
			var store *ir.Value
			ir.Inspect(k.Body, func(v *ir.Value) {
				if v.Op == ir.OpStore {
					store = v
				}
			})
			require.NotNil(t, store)
			lin := evalScalar(t, store.Args[1])
			m, n := swizzleRef(i, j, 5, 4, 3)
			assert.Equal(t, m*4+n, lin, "(%d, %d)", i, j)
			got[lin/4][lin%4] = i*4 + j
		}
	}
	assert.Equal(t, want, got)
}

// TestSwizzle2D checks the types and the IR of swizzle2d on runtime
// values: Triton's promotion applies (an i64 size makes i64 results), //
// and % are the runtime div and rem, and the results unpack as a tuple.
func TestSwizzle2D(t *testing.T) {
	tests := []struct {
		name string
		sig  Signature
		want ir.DType
	}{
		{"i32 sizes", sig(ptr(ir.Int32), scalar(ir.Int32), scalar(ir.Int32), cInt(4)), ir.TInt32},
		{"i64 size", sig(ptr(ir.Int32), scalar(ir.Int64), scalar(ir.Int32), cInt(4)), ir.TInt64},
		{"constexpr sizes", sig(ptr(ir.Int32), cInt(5), cInt(4), cInt(3)), ir.TInt32},
	}
	src := `
@triton.jit
def k(p, m, n, G: tl.constexpr):
    pid_m, pid_n = tl.swizzle2d(tl.program_id(0), tl.program_id(1), m, n, G)
    tl.store(p + pid_m * n + pid_n, 1)
`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := compile(t, src, "k", tt.sig)
			types := namedTypes(k)
			assert.Equal(t, ir.ScalarType(tt.want), types["pid_m"])
			assert.Equal(t, ir.ScalarType(tt.want), types["pid_n"])
			out := printed(k)
			for _, op := range []string{" = min %", " = div %", " = rem %"} {
				assert.Contains(t, out, op)
			}
		})
	}
}
