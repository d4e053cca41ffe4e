package sema

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestRandomTypes compiles calls of the random number functions and checks
// the dtypes and shapes of their results (names bound in the kernel) and
// the shape of the expansion: Philox 4x32, with a 64-bit offset split into
// two 32-bit counters (4x64 and its [1] key only where tl.philox gets 64-bit
// counters, as in Triton), the number of rounds, and the Python-number
// typing of tl.umulhi's operands.
func TestRandomTypes(t *testing.T) {
	f32, i32, i64 := ptr(ir.Float32), scalar(ir.Int32), scalar(ir.Int64)
	tests := []struct {
		name, body string
		sig        Signature
		want       []string
		rounds     int // umulhi ops expected, 0 to skip the count
	}{
		{"randint, int32 offsets", "r = tl.randint(seed, offs)", sig(f32, i32), []string{"r: u32[16] = xor", "seed_lo: u32 = cast", "seed_hi: u32 = cast", "c0: u32[16] = cast", "c0_r1: u32[16]", "k0_r10: u32 = add"}, 10*2 - 1},
		{"randint, int64 offsets and seed", "r = tl.randint(seed, offs.to(tl.int64))", sig(f32, i64), []string{"r: u32[16] = xor", "seed_lo: u32 = cast", "c0: u32[16] = cast", "c1: u32[16] = cast"}, 19},
		{"philox with 64-bit counters", "o = offs.to(tl.int64)\n    a, b, c, d = tl.philox(seed, o, o, o, o)", sig(f32, i64), []string{"a: u64[16] = xor", "seed_lo: u64 = cast", "k1_r2: u64[1] = add"}, 20},
		{"rand", "r = tl.rand(seed, offs)", sig(f32, i32), []string{"i1: u32[16] = xor", "r: fp32[16] = mul"}, 19},
		{"rand, 64-bit offsets", "r = tl.rand(seed, offs.to(tl.uint64))", sig(f32, i32), []string{"r: fp32[16] = mul", ": i32[16] = bitcast", ": fp32 = const " + fp32Text(uniformScale32)}, 19},
		{"randn", "r = tl.randn(seed, offs)", sig(f32, i32), []string{"th: fp32[16] = mul", "r: fp32[16] = sqrt", "r: fp32[16] = mul", "cos"}, 19},
		{"randint4x and n_rounds", "a, b, c, d = tl.randint4x(seed, offs, n_rounds=3)", sig(f32, i32), []string{"a: u32[16] = xor", "b: u32[16] = mul", "c: u32[16] = xor", "d: u32[16] = mul"}, 6},
		{"rand4x", "a, b, c, d = tl.rand4x(seed, offs)", sig(f32, i32), []string{"a: fp32[16] = mul", "d: fp32[16] = mul"}, 20},
		{"randn4x", "a, b, c, d = tl.randn4x(seed, offs)", sig(f32, i32), []string{"a: fp32[16] = mul", "b: fp32[16] = mul", "sin"}, 20},
		{"scalar offset", "r = tl.randint(seed, 7)", sig(f32, i32), []string{"r: u32 = xor"}, 19},
		{"scalar 64-bit offset", "r = tl.randint(seed, seed.to(tl.int64))", sig(f32, i32), []string{"r: u32 = xor", "c1: u32 = cast"}, 19},
		{"2-D offsets", "r = tl.rand(seed, offs[:, None] * 16 + offs[None, :])", sig(f32, i32), []string{"r: fp32[16,16] = mul"}, 19},
		{"philox with zero rounds", "a, b, c, d = tl.philox(seed, offs, offs, offs, offs, n_rounds=0)", sig(f32, i32), []string{"c0: u32[16] = bitcast", "c3: u32[16] = bitcast"}, 0},
		{"philox_impl through tl.random", "a, b, c, d = tl.random.philox_impl(offs.to(tl.uint32), 0, 0, 0, seed.to(tl.uint32), 5, 2)", sig(f32, i32), []string{"a: u32[16] = xor"}, 4},
		{"umulhi promotes like tensors", "r = tl.umulhi(offs, 0xCD9E8D57)", sig(f32, i32), []string{"r: u32[16] = umulhi"}, 1},
		{"umulhi of int64", "r = tl.math.umulhi(offs.to(tl.int64), 3)", sig(f32, i32), []string{"r: i64[16] = umulhi"}, 1},
		{"uint_to_uniform_float", "r = tl.uint_to_uniform_float(offs)", sig(f32, i32), []string{"r: fp32[16] = mul", "fp32 = const " + fp32Text(uniformScale32)}, 0},
		{"pair_uniform_to_normal", "a, b = tl.random.pair_uniform_to_normal(tl.load(p + offs), tl.load(p + offs))", sig(f32, i32), []string{"a: fp32[16] = mul", "b: fp32[16] = mul", "max"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "@triton.jit\ndef k(p, seed):\n    offs = tl.arange(0, 16)\n    " + tc.body + "\n"
			k := compile(t, src, "k", tc.sig)
			out := printed(k)
			for _, w := range tc.want {
				assert.Contains(t, out, w)
			}
			if tc.rounds > 0 {
				assert.Equal(t, tc.rounds, strings.Count(out, "= umulhi"), "umulhi ops")
			}
		})
	}
}

// fp32Text is how the IR prints an fp32 constant of value x.
func fp32Text(x float64) string { return strconv.FormatFloat(float64(float32(x)), 'g', -1, 64) }
