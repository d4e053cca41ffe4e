package cudagen_test

// This file checks fp8e5's software conversions before sm_89 bit for bit:
// the C that tri emits (compiled with clang and run on the host), a model
// of Triton 3.6's PTX for targets without fp8 cvt written here in Go, and
// the interpreter, which rounds as the cvt instructions do. The model must
// equal the C on every input, and the interpreter on every input except
// those the lists below name, where Triton's results before sm_89 differ
// from its results from sm_89 on; there the model must give what the list
// says.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/x448/float16"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
)

// The model of Triton's conversions of fp8e5 without the fp8 cvt
// instructions (ElementwiseOpToLLVM.cpp's Fp8E5M2_to_Fp16, Fp16_to_Fp8E5M2_RTNE,
// Fp8E5M2_to_Bf16 and Bf16_to_Fp8E5M2 for !hasNativeFP, and the fp32 ->
// fp16 toward zero -> fp8 path below sm_90), one element at a time.

func e5ToH(c uint8) uint16 { return uint16(c) << 8 }

// e5FromH clears bit 0, adds 0x80 and keeps the high byte.
func e5FromH(h uint16) uint8 { return uint8((uint32(h&0xfffe) + 0x80) >> 8) }

// e5ToBF shifts the magnitude right by 3 as a bf16, multiplies it by 2^112
// in fp32, keeps the high half and puts the sign back.
func e5ToBF(c uint8) uint16 {
	m := uint32(e5ToH(c)&0x7fff) >> 3 << 16
	p := math.Float32frombits(m) * math.Float32frombits(0x77800000)
	return uint16(math.Float32bits(p)>>16) | uint16(c&0x80)<<8
}

// e5FromBF clamps the magnitude to [0x3800, 0x57e0], adds 0x10, subtracts
// 0x3800, shifts left by 3 and keeps the high byte, ORing the sign in.
func e5FromBF(b uint16) uint8 {
	a := min(max(uint32(b&0x7fff), 0x3800), 0x57e0)
	return uint8(((a+0x10-0x3800)<<3)>>8) | uint8(b>>8)&0x80
}

// f2hRZ is cvt.rz.f16.f32: toward zero, finite magnitudes past 65504 to
// 65504, NaN to the canonical 0x7FFF.
func f2hRZ(f float32) uint16 {
	if f != f {
		return 0x7fff
	}
	h := float16.Fromfloat32(f).Bits()
	if math.Abs(float64(float16.Frombits(h).Float32())) > math.Abs(float64(f)) {
		h-- // the nearest was the next one out: the one toward zero is below it
	}
	return h
}

func e5FromF(f float32) uint8 { return e5FromH(f2hRZ(f)) }

// e5Tie reports whether v lies exactly halfway between two neighbouring
// e5m2 magnitudes below 61440, and the code of the larger one.
func e5Tie(v float64) (uint8, bool) {
	a := math.Abs(v)
	if a == 0 || a >= 61440 || math.IsNaN(a) {
		return 0, false
	}
	_, exp := math.Frexp(a)
	step := math.Ldexp(1, max(exp-1, -14)-2)
	m := a / step
	if m-math.Floor(m) != 0.5 {
		return 0, false
	}
	f, _ := ir.Float8E5.FP8()
	return f.Encode(math.Copysign(math.Ceil(m)*step, v)), true
}

func signBit(v float64) int {
	if math.Signbit(v) {
		return 0x80
	}
	return 0
}

func bfValue(b uint16) float64 { return float64(math.Float32frombits(uint32(b) << 16)) }

func hValue(h uint16) float64 { return float64(float16.Frombits(h).Float32()) }

// sweepF32 is the fp32 of element i of the interpreter kernel's sweep:
// sign bit 15 of i, exponent field 0, 255 or 96 + bits 9..14, the top
// five mantissa bits from bits 0..4, and low mantissa bits chosen by bits
// 5..8 (none, the lowest, all, or others).
func sweepF32(i int) float32 {
	e, l := (i>>9)&63, uint32(i>>5)&15
	field := uint32(96 + e)
	switch e {
	case 0:
		field = 0
	case 63:
		field = 255
	}
	low := l * 40503 & 0x3ffff
	switch l {
	case 0:
		low = 0
	case 1:
		low = 1
	case 2:
		low = 0x3ffff
	}
	return math.Float32frombits(uint32(i>>15&1)<<31 | field<<23 | uint32(i&31)<<18 | low)
}

const fp8BitsKernel = `# launch: k[(64,)](eh, ef, ebf, he, bfe, fe, BLOCK=1024)
# let: eh=zeros(65536, dtype='float16')
# let: ef=zeros(65536)
# let: ebf=zeros(65536, dtype='bfloat16')
# let: he=zeros(65536, dtype='uint8')
# let: bfe=zeros(65536, dtype='uint8')
# let: fe=zeros(65536, dtype='uint8')
import triton
import triton.language as tl


@triton.jit
def k(eh_ptr, ef_ptr, ebf_ptr, he_ptr, bfe_ptr, fe_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = (i & 255).to(tl.uint8).to(tl.float8e5, bitcast=True)
    tl.store(eh_ptr + i, x.to(tl.float16))
    tl.store(ef_ptr + i, x.to(tl.float32))
    tl.store(ebf_ptr + i, x.to(tl.bfloat16))
    h = i.to(tl.int16).to(tl.float16, bitcast=True)
    tl.store(he_ptr + i, h.to(tl.float8e5).to(tl.uint8, bitcast=True))
    b = i.to(tl.int16).to(tl.bfloat16, bitcast=True)
    tl.store(bfe_ptr + i, b.to(tl.float8e5).to(tl.uint8, bitcast=True))
    e = (i >> 9) & 63
    l = (i >> 5) & 15
    field = tl.where(e == 0, 0, tl.where(e == 63, 255, 96 + e))
    low = tl.where(l == 0, 0, tl.where(l == 1, 1, tl.where(l == 2, 0x3ffff, (l * 40503) & 0x3ffff)))
    bits = (((i >> 15) & 1) << 31) | (field << 23) | ((i & 31) << 18) | low
    f = bits.to(tl.float32, bitcast=True)
    tl.store(fe_ptr + i, f.to(tl.float8e5).to(tl.uint8, bitcast=True))
`

// TestFP8E5SoftwareModel runs every fp8e5 code, every fp16 and bf16 bit
// pattern and a sweep of fp32 values (zeros, subnormals, every exponent
// from 2^-30 to 2^31 with ties, values just off them and others,
// infinities and NaNs) through the interpreter's conversions, and holds
// the model to them but for the inputs where Triton before sm_89 differs:
//
//   - fp8e5 to bf16: ±inf gives ±65536, a NaN ±(1 + m/4) * 65536;
//   - to fp8e5 from fp16 and fp32: ties go away from zero (the
//     interpreter: to even), magnitudes from 61440 and ±inf give ±inf
//     (the interpreter: ±57344), an fp32 NaN gives 0x80 (-0), an fp16 NaN
//     ±inf, a zero of the other sign or a NaN, as its bits round (the
//     interpreter: 0x7F);
//   - to fp8e5 from bf16: below 2^-15 ±0, below 2^-14 (the subnormals)
//     (m7 + 16) >> 5 of the bf16's 7 mantissa bits, ties away from zero,
//     from 61440 on the clamped bits' byte (inf, the NaNs, then the sign
//     bit), inf and NaN 0xFF.
func TestFP8E5SoftwareModel(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bits.tri")
	require.NoError(t, os.WriteFile(file, []byte(fp8BitsKernel), 0o644))
	s, err := launch.ReadSample(file)
	require.NoError(t, err)
	out, err := s.Interpret(0)
	require.NoError(t, err)
	u16 := func(name string, i int) uint16 { return binary.LittleEndian.Uint16(out.After[name].Data[2*i:]) }
	u8 := func(name string, i int) uint8 { return out.After[name].Data[i] }

	for c := range 256 {
		code := uint8(c)
		h, bf := u16("eh", c), u16("ebf", c)
		f := math.Float32frombits(binary.LittleEndian.Uint32(out.After["ef"].Data[4*c:]))
		if c&0x7c == 0x7c { // inf and NaN
			assert.True(t, math.IsNaN(hValue(h)) == math.IsNaN(hValue(e5ToH(code))) && math.IsNaN(float64(f)) == math.IsNaN(hValue(e5ToH(code))), "code %#x", c)
			want := math.Ldexp(1+float64(c&3)/4, 16) * float64(1-2*(c>>7))
			assert.Equal(t, want, bfValue(e5ToBF(code)), "code %#x to bf16", c)
			continue
		}
		assert.Equal(t, h, e5ToH(code), "code %#x to fp16", c)
		assert.Equal(t, float64(f), hValue(e5ToH(code)), "code %#x to fp32", c)
		assert.Equal(t, bf, e5ToBF(code), "code %#x to bf16", c)
	}

	check := func(what string, v float64, interp, model uint8, want func() (uint8, bool)) {
		t.Helper()
		if w, ok := want(); ok {
			assert.Equal(t, w, model, "%s %g: Triton before sm_89 (the interpreter: %#x)", what, v, interp)
			return
		}
		assert.Equal(t, interp, model, "%s %g", what, v)
	}
	sign := func(v float64) uint8 { return uint8(signBit(v)) }
	for i := range 65536 {
		hb := uint16(i)
		v := hValue(hb)
		check("fp16", v, u8("he", i), e5FromH(hb), func() (uint8, bool) {
			a := hb & 0x7fff
			switch {
			case math.IsNaN(v) && a < 0x7c80:
				return sign(v) | 0x7c, true
			case math.IsNaN(v) && a >= 0x7f80:
				return sign(v) ^ 0x80, true
			case math.IsNaN(v):
				return uint8(hb>>8) + uint8(hb>>7&1), true // an e5m2 NaN: the top byte, rounded
			case math.Abs(v) >= 61440:
				return sign(v) | 0x7c, true
			}
			return e5Tie(v)
		})
		bb := uint16(i)
		v = bfValue(bb)
		check("bf16", v, u8("bfe", i), e5FromBF(bb), func() (uint8, bool) {
			a := math.Abs(v)
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return 0xff, true
			case a < 0x1p-15:
				return sign(v), true
			case a < 0x1p-14:
				return sign(v) | uint8(bb&0x7f+16)>>5, true
			case a >= 61440:
				return sign(v) | uint8((min(uint32(bb&0x7fff), 0x57e0)+0x10-0x3800)>>5), true
			}
			return e5Tie(v)
		})
		f := sweepF32(i)
		v = float64(f)
		check("fp32", v, u8("fe", i), e5FromF(f), func() (uint8, bool) {
			switch {
			case math.IsNaN(v):
				return 0x80, true
			case math.Abs(v) >= 61440:
				return sign(v) | 0x7c, true
			}
			return e5Tie(v)
		})
	}
}

// TestFP8E5SoftwareC compiles the C of the software conversions for the
// host with clang and runs it on every fp8e5 code, every fp16 and bf16 bit
// pattern and random fragment registers: it must give what the model
// does. It is skipped where clang is missing.
func TestFP8E5SoftwareC(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	dir := t.TempDir()
	regs := make([]uint32, 64)
	r := rand.New(rand.NewSource(1))
	for i := range regs {
		regs[i] = r.Uint32()
	}
	var words []string
	for _, w := range regs {
		words = append(words, fmt.Sprintf("%#xu", w))
	}
	src := `#include <stdio.h>
#include <string.h>
#define TRI_DEV static inline
typedef unsigned short tri_half;
typedef unsigned short tri_bf16;
TRI_DEV float tri_f32_bits(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
TRI_DEV unsigned int tri_bits_f32(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
` + cudagen.FP8SoftC() + `
int main(void) {
  static const unsigned int regs[] = {` + strings.Join(words, ", ") + `};
  for (unsigned int c = 0; c < 256; ++c) printf("%x %x\n", tri_e5m2_to_h_sw(c), tri_e5m2_to_bf_sw(c));
  for (unsigned int h = 0; h < 65536; ++h) printf("%x %x\n", tri_h_to_e5m2_sw(h), tri_bf_to_e5m2_sw(h));
  for (unsigned int i = 0; i < sizeof regs / sizeof regs[0]; ++i) printf("%x %x\n", tri_e5m2_lo_h2(regs[i]), tri_e5m2_hi_h2(regs[i]));
  return 0;
}
`
	file, bin := filepath.Join(dir, "fp8.cc"), filepath.Join(dir, "fp8")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	if out, err := exec.Command(clang, "-x", "c++", "-O1", "-o", bin, file).CombinedOutput(); err != nil {
		t.Skipf("clang cannot build host programs here: %s", out)
	}
	out, err := exec.Command(bin).Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 256+65536+len(regs))
	pair := func(i int) (a, b uint32) {
		_, err := fmt.Sscanf(lines[i], "%x %x", &a, &b)
		require.NoError(t, err)
		return a, b
	}
	for c := range 256 {
		h, bf := pair(c)
		assert.Equal(t, [2]uint32{uint32(e5ToH(uint8(c))), uint32(e5ToBF(uint8(c)))}, [2]uint32{h, bf}, "code %#x", c)
	}
	for h := range 65536 {
		fromH, fromBF := pair(256 + h)
		assert.Equal(t, [2]uint32{uint32(e5FromH(uint16(h))), uint32(e5FromBF(uint16(h)))}, [2]uint32{fromH, fromBF}, "bits %#x", h)
	}
	for i, w := range regs {
		lo, hi := pair(256 + 65536 + i)
		assert.Equal(t, [2]uint32{uint32(e5ToH(uint8(w))) | uint32(e5ToH(uint8(w>>8)))<<16, uint32(e5ToH(uint8(w>>16))) | uint32(e5ToH(uint8(w>>24)))<<16}, [2]uint32{lo, hi}, "register %#x", w)
	}
}

// TestFP8E5MmaFragments checks the reordering tri_mma_e5m2_f16 relies on:
// the k32 fragments of fp8 a (16 x 32) and b (32 x 8), as mma.sync
// m16n8k32 lays them out over a warp's lanes, widened register by
// register (bytes 0-1 to the low fp16 pair, 2-3 to the high one) and
// passed to two m16n8k16 as a = {lo(a[2h]), lo(a[2h+1]), hi(a[2h]),
// hi(a[2h+1])} and b = {lo(b[h]), hi(b[h])}, h = 0, 1, give a @ b: the
// fp16 layout's k order is then the same reordering of each half's 16 k
// for a and b.
func TestFP8E5MmaFragments(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	code := func() uint8 { return uint8(0x30+r.Intn(0x20)) | uint8(r.Intn(2))<<7 } // 2^-3 to 2^5: every sum exact
	var a [16][32]uint8
	var b [32][8]uint8
	for i := range a {
		for k := range a[i] {
			a[i][k] = code()
		}
	}
	for k := range b {
		for j := range b[k] {
			b[k][j] = code()
		}
	}
	pack := func(c [4]uint8) uint32 { return binary.LittleEndian.Uint32(c[:]) }
	lo := func(w uint32) uint32 { return uint32(e5ToH(uint8(w))) | uint32(e5ToH(uint8(w>>8)))<<16 }
	hi := func(w uint32) uint32 { return uint32(e5ToH(uint8(w>>16))) | uint32(e5ToH(uint8(w>>24)))<<16 }
	half := func(w uint32, j int) float64 { return hValue(uint16(w >> (16 * j))) }
	var a16 [2][16][16]float64 // each half's fp16 a and b, as m16n8k16 reads its fragments
	var b16 [2][16][8]float64
	for lane := range 32 {
		g, q := lane/4, lane%4
		// m16n8k32's 8-bit fragments: a rows g and g + 8, k = 4q..4q+3 and 16 more; b column g, the same k.
		var af [4]uint32
		for i, rk := range [4][2]int{{g, 0}, {g + 8, 0}, {g, 16}, {g + 8, 16}} {
			af[i] = pack([4]uint8(a[rk[0]][rk[1]+4*q : rk[1]+4*q+4]))
		}
		var bf [2]uint32
		for i := range bf {
			var c [4]uint8
			for x := range c {
				c[x] = b[16*i+4*q+x][g]
			}
			bf[i] = pack(c)
		}
		for h := range 2 {
			ah := [4]uint32{lo(af[2*h]), lo(af[2*h+1]), hi(af[2*h]), hi(af[2*h+1])}
			bh := [2]uint32{lo(bf[h]), hi(bf[h])}
			// m16n8k16's fp16 fragments: a[0] row g, k 2q and 2q + 1 (low half first), a[1] row g + 8,
			// a[2] and a[3] k 2q + 8 and 2q + 9; b[0] k 2q, 2q + 1 and b[1] k 2q + 8, 2q + 9 of column g.
			for j := range 2 {
				a16[h][g][2*q+j], a16[h][g+8][2*q+j] = half(ah[0], j), half(ah[1], j)
				a16[h][g][2*q+8+j], a16[h][g+8][2*q+8+j] = half(ah[2], j), half(ah[3], j)
				b16[h][2*q+j][g], b16[h][2*q+8+j][g] = half(bh[0], j), half(bh[1], j)
			}
		}
	}
	for i := range 16 {
		for n := range 8 {
			var got, want float64
			for k := range 32 {
				want += hValue(e5ToH(a[i][k])) * hValue(e5ToH(b[k][n]))
			}
			for h := range 2 {
				for k := range 16 {
					got += a16[h][i][k] * b16[h][k][n]
				}
			}
			assert.Equal(t, want, got, "d[%d][%d]", i, n)
		}
	}
}
