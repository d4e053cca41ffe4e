package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// castBits casts one element given by its bit pattern from src to dst on
// target arch, as a kernel's bitcast, cast and bitcast back do.
func castBits(src, dst ir.Kind, b uint64, arch int, tz bool) uint64 {
	a := newTile(src, ir.Shape{1})
	setBits(a, 0, b)
	return bitsOf(cast(a, dst, tz, arch), 0)
}

// e5Case is an input's bits and the code (or widened bits) before sm_89
// and from sm_89 on; cvt -1 where that is only "a NaN".
type e5Case struct {
	what      string
	in        uint64
	soft, cvt int64
}

func checkE5Cases(t *testing.T, src, dst ir.Kind, tests []e5Case) {
	t.Helper()
	for _, tc := range tests {
		assert.Equal(t, uint64(tc.soft), castBits(src, dst, tc.in, 80, false), "%s at sm_80", tc.what)
		for _, arch := range []int{0, 90} {
			got := castBits(src, dst, tc.in, arch, false)
			if tc.cvt < 0 {
				assert.True(t, math.IsNaN(floatFromBits(dst, got)), "%s at %d: %#x", tc.what, arch, got)
				continue
			}
			assert.Equal(t, uint64(tc.cvt), got, "%s at %d", tc.what, arch)
		}
	}
}

// TestFP8E5SoftFromF16: half of the dropped byte added to the bits.
func TestFP8E5SoftFromF16(t *testing.T) {
	checkE5Cases(t, ir.Float16, ir.Float8E5, []e5Case{
		{"1.0", 0x3c00, 0x3c, 0x3c},
		{"1.125, a tie", 0x3c80, 0x3d, 0x3c},
		{"-1.125", 0xbc80, 0xbd, 0xbc},
		{"1.375, a tie to the even one above", 0x3d80, 0x3e, 0x3e},
		{"2^-17, a tie with zero", 0x0080, 0x01, 0x00},
		{"-0", 0x8000, 0x80, 0x80},
		{"61408", 0x7b7f, 0x7b, 0x7b},
		{"61440", 0x7b80, 0x7c, 0x7b},
		{"inf", 0x7c00, 0x7c, 0x7b},
		{"-inf", 0xfc00, 0xfc, 0xfb},
		{"NaN 0x7e00", 0x7e00, 0x7e, 0x7f},
		{"NaN 0x7c01", 0x7c01, 0x7c, 0x7f},
		{"NaN 0x7fff", 0x7fff, 0x80, 0x7f},
		{"NaN 0xfd80", 0xfd80, 0xfe, 0x7f},
	})
}

// TestFP8E5SoftFromF32: to fp16 toward zero, then as from fp16.
func TestFP8E5SoftFromF32(t *testing.T) {
	f := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	checkE5Cases(t, ir.Float32, ir.Float8E5, []e5Case{
		{"1.125, a tie", f(1.125), 0x3d, 0x3c},
		{"just below 1.125", 0x3f8fffff, 0x3c, 0x3c},
		{"just above 1.125", 0x3f900001, 0x3d, 0x3d},
		{"-2^-17, a tie with zero", f(-0x1p-17), 0x81, 0x80},
		{"2^-30", f(0x1p-30), 0x00, 0x00},
		{"61439", f(61439), 0x7b, 0x7b},
		{"61440", f(61440), 0x7c, 0x7b},
		{"1e10", f(1e10), 0x7c, 0x7b},
		{"-inf", f(float32(math.Inf(-1))), 0xfc, 0xfb},
		{"NaN", 0x7fc00000, 0x80, 0x7f},
		{"-NaN", 0xffc00001, 0x80, 0x7f},
	})
}

// TestFP8E5SoftFromBF16: Triton's clamp-and-shift on the bits.
func TestFP8E5SoftFromBF16(t *testing.T) {
	checkE5Cases(t, ir.BFloat16, ir.Float8E5, []e5Case{
		{"1.0", 0x3f80, 0x3c, 0x3c},
		{"1.125, a tie", 0x3f90, 0x3d, 0x3c},
		{"-1.125", 0xbf90, 0xbd, 0xbc},
		{"2^-16, below the clamp", 0x3780, 0x00, 0x01},
		{"-2^-16", 0xb780, 0x80, 0x81},
		{"2^-15, the clamp", 0x3800, 0x00, 0x02},
		{"3 * 2^-16, a subnormal", 0x3840, 0x02, 0x03},
		{"2^-14, the smallest normal", 0x3880, 0x04, 0x04},
		{"65536", 0x4780, 0x7c, 0x7b},
		{"131072, into the sign bit", 0x4800, 0x80, 0x7b},
		{"inf", 0x7f80, 0xff, 0x7b},
		{"-inf", 0xff80, 0xff, 0xfb},
		{"NaN", 0x7fc0, 0xff, 0x7f},
	})
}

// TestFP8E5SoftWiden: to fp16 exactly, NaN codes' bits kept; to bf16
// through 2^112, which makes infinities and NaNs finite.
func TestFP8E5SoftWiden(t *testing.T) {
	checkE5Cases(t, ir.Float8E5, ir.Float16, []e5Case{
		{"1.0", 0x3c, 0x3c00, 0x3c00},
		{"2^-16", 0x01, 0x0100, 0x0100},
		{"-inf", 0xfc, 0xfc00, 0xfc00},
		{"NaN 0x7d", 0x7d, 0x7d00, -1},
		{"NaN 0xfe", 0xfe, 0xfe00, -1},
	})
	checkE5Cases(t, ir.Float8E5, ir.BFloat16, []e5Case{
		{"1.0", 0x3c, 0x3f80, 0x3f80},
		{"2^-16", 0x01, 0x3780, 0x3780},
		{"-57344", 0xfb, 0xc760, 0xc760},
		{"inf", 0x7c, 0x4780, 0x7f80},  // 65536
		{"-inf", 0xfc, 0xc780, 0xff80}, // -65536
		{"NaN 0x7d", 0x7d, 0x47a0, -1}, // 1.25 * 65536
		{"NaN 0xff", 0xff, 0xc7e0, -1}, // -1.75 * 65536
	})
	for c := range uint64(256) {
		assert.Equal(t, castBits(ir.Float8E5, ir.Float32, c, 0, false), castBits(ir.Float8E5, ir.Float32, c, 80, false), "code %#x to fp32", c)
		h := castBits(ir.Float8E5, ir.Float16, c, 80, false)
		assert.Equal(t, c, castBits(ir.Float16, ir.Float8E5, h, 80, false), "code %#x through fp16", c)
	}
}

// TestFP8E5SoftTargets: only targets before sm_89 convert in software;
// toward zero is the same everywhere; sm_90 converts as the default does
// on every fp16 and bf16 bit pattern and every code.
func TestFP8E5SoftTargets(t *testing.T) {
	for b := range uint64(65536) {
		for _, k := range []ir.Kind{ir.Float16, ir.BFloat16} {
			assert.Equal(t, castBits(k, ir.Float8E5, b, 0, false), castBits(k, ir.Float8E5, b, 90, false), "%s %#x", k, b)
			assert.Equal(t, castBits(k, ir.Float8E5, b, 0, false), castBits(k, ir.Float8E5, b, 89, false), "%s %#x", k, b)
		}
		f := b<<16 | b>>3
		assert.Equal(t, castBits(ir.Float32, ir.Float8E5, f, 0, true), castBits(ir.Float32, ir.Float8E5, f, 80, true), "fp32 %#x toward zero", f)
	}
	for c := range uint64(256) {
		for _, k := range []ir.Kind{ir.Float16, ir.BFloat16, ir.Float32} {
			assert.Equal(t, castBits(ir.Float8E5, k, c, 0, false), castBits(ir.Float8E5, k, c, 90, false), "code %#x to %s", c, k)
		}
	}
	assert.True(t, softFP8(80) && softFP8(88) && !softFP8(0) && !softFP8(89) && !softFP8(90))
}

// TestFP8E5SoftFromInt: an integer goes through fp32, so before sm_89 its
// tie (-9, between -8 and -10) goes away from zero and 70000 to inf; from
// sm_89 on to even and to 57344.
func TestFP8E5SoftFromInt(t *testing.T) {
	a := newTile(ir.Int32, ir.Shape{3})
	copy(a.ints, []int64{3, 70000, -9})
	soft, cvt := cast(a, ir.Float8E5, false, 80), cast(a, ir.Float8E5, false, 0)
	assert.Equal(t, []float64{3, math.Inf(1), -10}, soft.flts)
	assert.Equal(t, []float64{3, 57344, -8}, cvt.flts)
}

// TestFP16NaNBits: an fp16 NaN keeps its bits through a bitcast and back,
// a signalling one too, as on the GPU.
func TestFP16NaNBits(t *testing.T) {
	for _, h := range []uint64{0x7c01, 0x7d00, 0xfe00, 0x7fff, 0xffff} {
		a := newTile(ir.Int16, ir.Shape{1})
		setBits(a, 0, h)
		back := bitcast(bitcast(a, ir.Float16), ir.Int16)
		assert.Equal(t, h, bitsOf(back, 0), "%#x", h)
	}
}
