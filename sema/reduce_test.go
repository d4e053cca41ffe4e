package sema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// namedTypes maps the source names of the top-level values of k to their
// types.
func namedTypes(k *ir.Kernel) map[string]ir.Type {
	out := map[string]ir.Type{}
	for _, s := range k.Body.Stmts {
		if v, ok := s.(*ir.Value); ok && v.Name != "" {
			out[v.Name] = v.Type
		}
	}
	return out
}

// TestReductionDTypes pins the result dtypes of standard.py's reductions
// and scans for every input dtype: sum and cumsum widen integers narrower
// than 32 bits keeping the sign (int1 counts as unsigned), max and min
// widen everything narrower than 32 bits (bf16 and fp16 to fp32, integers
// to i32), max with return_indices keeps the dtype except bf16, and the
// scans compute bf16 in fp32.
func TestReductionDTypes(t *testing.T) {
	src := `
@triton.jit
def k(p, q):
    x = tl.load(p + tl.arange(0, 16))
    s = tl.sum(x, 0)
    m = tl.max(x, 0)
    n = tl.min(x, axis=0)
    v, i = tl.max(x, 0, return_indices=True)
    a = tl.argmin(x, 0)
    c = tl.cumsum(x, 0)
    r = tl.cumprod(x, 0)
    tl.store(q, s.to(tl.float32) + m + n + v + i + a + tl.sum(c) + tl.sum(r))
`
	tests := []struct {
		in                                  ir.Kind
		sum, max, maxValue, cumsum, cumprod ir.Kind
	}{
		{ir.Bool, ir.Uint32, ir.Int32, ir.Bool, ir.Uint32, ir.Bool},
		{ir.Int8, ir.Int32, ir.Int32, ir.Int8, ir.Int32, ir.Int8},
		{ir.Int16, ir.Int32, ir.Int32, ir.Int16, ir.Int32, ir.Int16},
		{ir.Uint8, ir.Uint32, ir.Int32, ir.Uint8, ir.Uint32, ir.Uint8},
		{ir.Uint16, ir.Uint32, ir.Int32, ir.Uint16, ir.Uint32, ir.Uint16},
		{ir.Int32, ir.Int32, ir.Int32, ir.Int32, ir.Int32, ir.Int32},
		{ir.Uint32, ir.Uint32, ir.Uint32, ir.Uint32, ir.Uint32, ir.Uint32},
		{ir.Int64, ir.Int64, ir.Int64, ir.Int64, ir.Int64, ir.Int64},
		{ir.Float16, ir.Float16, ir.Float32, ir.Float16, ir.Float16, ir.Float16},
		{ir.BFloat16, ir.BFloat16, ir.Float32, ir.Float32, ir.Float32, ir.Float32},
		{ir.Float32, ir.Float32, ir.Float32, ir.Float32, ir.Float32, ir.Float32},
		{ir.Float64, ir.Float64, ir.Float64, ir.Float64, ir.Float64, ir.Float64},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			k := compile(t, src, "k", sig(ptr(tt.in), ptr(ir.Float64)))
			got := namedTypes(k)
			assert.Equal(t, ir.ScalarType(ir.Scalar(tt.sum)), got["s"], "sum")
			assert.Equal(t, ir.ScalarType(ir.Scalar(tt.max)), got["m"], "max")
			assert.Equal(t, ir.ScalarType(ir.Scalar(tt.max)), got["n"], "min")
			assert.Equal(t, ir.ScalarType(ir.Scalar(tt.maxValue)), got["v"], "max with return_indices")
			assert.Equal(t, ir.ScalarType(ir.TInt32), got["i"], "index of max")
			assert.Equal(t, ir.ScalarType(ir.TInt32), got["a"], "argmin")
			assert.Equal(t, ir.TileType(ir.Scalar(tt.cumsum), 16), got["c"], "cumsum")
			assert.Equal(t, ir.TileType(ir.Scalar(tt.cumprod), 16), got["r"], "cumprod")
		})
	}
}

// TestAtomicDTypes pins which pointee dtypes each atomic accepts
// (semantic.py's atom_red_typechecking_impl, atomic_max/min on floats,
// atomic_cas widths).
func TestAtomicDTypes(t *testing.T) {
	ops := []string{"atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas"}
	ok := map[ir.Kind]string{
		ir.Bool:     "",
		ir.Int8:     "",
		ir.Int16:    "atomic_cas",
		ir.Uint16:   "atomic_cas",
		ir.Int32:    "atomic_add atomic_max atomic_min atomic_and atomic_or atomic_xor atomic_xchg atomic_cas",
		ir.Uint32:   "atomic_add atomic_max atomic_min atomic_and atomic_or atomic_xor atomic_xchg atomic_cas",
		ir.Int64:    "atomic_add atomic_max atomic_min atomic_and atomic_or atomic_xor atomic_xchg atomic_cas",
		ir.Uint64:   "atomic_add atomic_max atomic_min atomic_and atomic_or atomic_xor atomic_xchg atomic_cas",
		ir.Float16:  "atomic_add atomic_cas",
		ir.BFloat16: "atomic_add atomic_cas",
		ir.Float32:  "atomic_add atomic_max atomic_min atomic_xchg atomic_cas",
		ir.Float64:  "atomic_add atomic_max atomic_min atomic_xchg atomic_cas",
	}
	for kind, allowed := range ok {
		for _, op := range ops {
			call := "tl." + op + "(p + tl.arange(0, 16), 1)"
			if op == "atomic_cas" {
				call = "tl.atomic_cas(p + tl.arange(0, 16), 1, 1)"
			}
			src := "@triton.jit\ndef k(p):\n    " + call + "\n"
			_, err := tryCompile(t, src, "k", sig(ptr(kind)))
			want := false
			for _, a := range strings.Fields(allowed) {
				want = want || a == op
			}
			assert.Equal(t, want, err == nil, "%s on %s: %v", op, kind, err)
		}
	}
}
