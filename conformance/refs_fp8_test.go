package conformance

// This file implements the references of the fp8 conversions, written from
// the formats' definitions with integer arithmetic on the bit patterns
// (the interpreter works on float64 values instead):
//
//	e4m3fn: 1 sign, 4 exponent bits (bias 7), 3 mantissa bits; no
//	        infinities; S.1111.111 is NaN; the largest finite is 0x7E = 448
//	e5m2:   1 sign, 5 exponent bits (bias 15), 2 mantissa bits; S.11111.00
//	        is ±inf, S.11111.{01,10,11} NaN; the largest finite is 0x7B
//
// Narrowing is what the PTX instructions Triton uses do: cvt.rn.satfinite
// (to nearest even; past the largest finite value, infinities included,
// the signed largest finite code; NaN 0x7F), and for e5m2 toward zero
// (from fp32 only, as Triton allows) cvt.rz to fp16 and the fp16's high
// byte (finite values saturate, infinities stay, NaN is 0x7F).

import (
	"math"

	"github.com/x448/float16"

	"github.com/tri-lang/tri/tensor"
)

func init() {
	for k, v := range map[string]Reference{
		"fp8_e4nv_codes":    refFP8E4NVCodes,
		"fp8_e5_codes":      refFP8E5Codes,
		"fp8_sweep":         refFP8Sweep,
		"fp8_dot":           refFP8Dot,
		"fp8_memory":        refFP8Memory,
		"fp8_e4b15":         refFP8E4B15,
		"sample/matmul_fp8": refSampleMatmulFP8,
	} {
		references[k] = v
	}
}

// fp8Spec is an fp8 format as the references see it.
type fp8Spec struct {
	exp, man, bias int
	maxCode        uint32 // the largest finite code
	ieee           bool   // has infinities (e5m2)
}

var (
	specE4M3 = fp8Spec{exp: 4, man: 3, bias: 7, maxCode: 0x7e}
	specE5M2 = fp8Spec{exp: 5, man: 2, bias: 15, maxCode: 0x7b, ieee: true}
)

// decode is the value of code, as a float32.
func (s fp8Spec) decode(code uint8) float64 {
	sign := 1.0
	if code&0x80 != 0 {
		sign = -1
	}
	e := int(code>>s.man) & (1<<s.exp - 1)
	m := int(code) & (1<<s.man - 1)
	if e == 1<<s.exp-1 {
		switch {
		case s.ieee && m == 0:
			return sign * math.Inf(1)
		case s.ieee || m == 1<<s.man-1:
			return math.NaN()
		}
	}
	if e == 0 {
		return sign * float64(m) * math.Pow(2, float64(1-s.bias-s.man))
	}
	return sign * float64(m+1<<s.man) * math.Pow(2, float64(e-s.bias-s.man))
}

// fromF32 narrows the fp32 with bits b, to nearest even or (rz) toward
// zero, as described at the top of the file.
func (s fp8Spec) fromF32(b uint32, rz bool) uint8 {
	sign := uint8(b>>31) << 7
	abs := b & 0x7fffffff
	switch {
	case abs > 0x7f800000:
		return 0x7f
	case abs == 0x7f800000 && rz && s.ieee:
		return sign | uint8(s.maxCode+1)
	case abs == 0x7f800000:
		return sign | uint8(s.maxCode)
	case abs < 0x00800000:
		return sign // zeros and fp32 subnormals are far below half the smallest fp8
	}
	e := int(abs>>23) - 127 + s.bias // the biased fp8 exponent
	sig := uint64(abs&0x7fffff | 1<<23)
	shift := 23 - s.man
	if e < 1 {
		shift += 1 - e
	}
	var q uint64
	if shift < 40 {
		q = sig >> shift
		rem, half := sig&(1<<shift-1), uint64(1)<<(shift-1)
		if !rz && (rem > half || rem == half && q&1 == 1) {
			q++
		}
	}
	code := q
	if e >= 1 {
		code = uint64(e-1)<<s.man + q
	}
	if code > uint64(s.maxCode) {
		code = uint64(s.maxCode)
	}
	return sign | uint8(code)
}

// f16Bits is the fp16 (round to nearest even) of an fp32 value, NaN as the
// GPU's canonical 0x7FFF.
func f16Bits(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7fff
	}
	return float16.Fromfloat32(float32(x)).Bits()
}

// fromF16 narrows an fp16 to nearest even: its value is an fp32 exactly.
func (s fp8Spec) fromF16(h uint16) uint8 {
	return s.fromF32(math.Float32bits(float16.Frombits(h).Float32()), false)
}

func codesOut(out *tensor.Tensor, f func(i int) uint8) *tensor.Tensor {
	for i := range out.NumElements() {
		out.Data[i] = f(i)
	}
	return out
}

func f32Bits(x float64) uint32 { return math.Float32bits(float32(x)) }

func refFP8Codes(s fp8Spec, in tensors) tensors {
	c := in["c"]
	v := func(i int) float64 { return s.decode(uint8(c.Int(i))) }
	out := tensors{
		"f":      eachFloat(in["f"], v),
		"h":      eachFloat(in["h"], v),
		"back":   codesOut(in["back"], func(i int) uint8 { return s.fromF32(f32Bits(v(i)), false) }),
		"back_h": codesOut(in["back_h"], func(i int) uint8 { return s.fromF16(f16Bits(v(i))) }),
	}
	if s.ieee {
		out["back_z"] = codesOut(in["back_z"], func(i int) uint8 { return s.fromF32(f32Bits(v(i)), true) })
	}
	return out
}

func refFP8E4NVCodes(in tensors, _ map[string]float64) tensors { return refFP8Codes(specE4M3, in) }

func refFP8E5Codes(in tensors, _ map[string]float64) tensors { return refFP8Codes(specE5M2, in) }

// sweepBits is the fp32 bit pattern element i of the sweeps builds: sign
// bit 12 of i, exponent field 0, 255 or 100 + bits 6..11, the top five
// mantissa bits from bits 0..4 and the lowest from bit 5.
func sweepBits(i int) uint32 {
	field := uint32(100 + (i>>6)&63)
	switch (i >> 6) & 63 {
	case 0:
		field = 0
	case 63:
		field = 255
	}
	return uint32((i>>12)&1)<<31 | field<<23 | uint32(i&31)<<18 | uint32((i>>5)&1)
}

func refFP8Sweep(in tensors, _ map[string]float64) tensors {
	bits := sweepBits
	x := func(i int) float64 { return float64(math.Float32frombits(bits(i))) }
	h := func(i int) uint16 { return f16Bits(x(i)) }
	return tensors{
		"x":   eachFloat(in["x"], x),
		"e4":  codesOut(in["e4"], func(i int) uint8 { return specE4M3.fromF32(bits(i), false) }),
		"e5":  codesOut(in["e5"], func(i int) uint8 { return specE5M2.fromF32(bits(i), false) }),
		"e5z": codesOut(in["e5z"], func(i int) uint8 { return specE5M2.fromF32(bits(i), true) }),
		"e4h": codesOut(in["e4h"], func(i int) uint8 { return specE4M3.fromF16(h(i)) }),
		"e5h": codesOut(in["e5h"], func(i int) uint8 { return specE5M2.fromF16(h(i)) }),
	}
}

// refFP8Dot: c = init + a @ b over all K, rounded once to fp32; h is the
// first K step of a, narrowed to e5m2 through fp16, times b5, rounded to
// fp16 (the narrowing is applied to b5 too, where it changes nothing); d
// the same step of a as it is times b5, to fp32.
func refFP8Dot(in tensors, num map[string]float64) tensors {
	a, b5 := in["a"], in["b5"]
	k := int(num["K"])
	const m, n, bk = 64, 64, 32
	init := make([]float64, m*n)
	for i := range init {
		init[i] = in["init"].Float(i)
	}
	a0, b0 := tensor.New(a.Kind, m, bk), tensor.New(b5.Kind, bk, n)
	for i := range a0.Data {
		a0.Data[i] = a.Data[i/bk*k+i%bk]
	}
	copy(b0.Data, b5.Data[:bk*n])
	toE5 := func(v float64) float64 { return specE5M2.decode(specE5M2.fromF16(f16Bits(v))) }
	return tensors{
		"c": store(in["c"], matmul(a, in["b"], init, identity), r32),
		"h": store(in["h"], matmul(a0, b0, nil, toE5), r16),
		"d": store(in["d"], matmul(a0, b0, nil, identity), r32),
	}
}

// refSampleMatmulFP8 is samples/matmul_fp8.tri: c = a @ b in fp16, a
// row-major e4m3 [M, K], b column-major (bt row-major [N, K]); the fp32
// accumulator adds one block of bk columns at a time, each block's exact
// sum rounded once to fp32, as the interpreter does.
func refSampleMatmulFP8(in tensors, num map[string]float64) tensors {
	a, bt, c := in["a"], in["bt"], in["c"]
	m, n, k, bk := int(num["M"]), int(num["N"]), int(num["K"]), int(num["bk"])
	var val [256]float64
	for code := range val {
		val[code] = specE4M3.decode(uint8(code))
	}
	for i := range m {
		for j := range n {
			acc := 0.0
			for k0 := 0; k0 < k; k0 += bk {
				s := 0.0
				for kk := k0; kk < min(k0+bk, k); kk++ {
					s += val[a.Data[i*k+kk]] * val[bt.Data[j*k+kk]]
				}
				acc = r32(acc + s)
			}
			c.SetFloat(i*n+j, r16(acc))
		}
	}
	return tensors{"c": c}
}

// refFP8Memory: y and v are copies of x's and w's codes; z keeps the codes
// of x's negative values (e4m3's sign is the top bit; -0 is not negative,
// nor is NaN, whose codes 0x7F and 0xFF compare false) and is +0 elsewhere.
func refFP8Memory(in tensors, _ map[string]float64) tensors {
	x, w := in["x"], in["w"]
	return tensors{
		"y": codesOut(in["y"], func(i int) uint8 { return x.Data[i] }),
		"z": codesOut(in["z"], func(i int) uint8 {
			if c := x.Data[i]; c&0x80 != 0 && c != 0x80 && c != 0xff {
				return c
			}
			return 0
		}),
		"v": codesOut(in["v"], func(i int) uint8 { return w.Data[i] }),
	}
}

// e4b15FromF16 is Triton's narrowing of the fp16 with bits h to fp8e4b15,
// on the bits: the magnitude clamped to 0x3F00 (1.75; NaN bits are larger),
// doubled so that the code is the high byte, plus half of the dropped
// byte's weight (ties up), the sign put back.
func e4b15FromF16(h uint16) uint8 {
	a := uint32(h & 0x7fff)
	a = min(a, 0x3f00)
	return uint8((a*2+0x80)>>8) | uint8(h>>8)&0x80
}

// f16BitsRZ is the fp16 toward zero of an fp32 value: the nearest one, or
// the one below it in magnitude where that is larger; NaN as f16Bits.
func f16BitsRZ(x float64) uint16 {
	h := f16Bits(x)
	if !math.IsNaN(x) && math.Abs(float64(float16.Frombits(h).Float32())) > math.Abs(x) {
		h--
	}
	return h
}

// refFP8E4B15: the codes widen as the fp16 (c & 0x80) << 8 | (c & 0x7F) << 7;
// the sweep's inputs (as in refFP8Sweep, with bits 0..17 all set where
// bit 0 is) narrow from fp32 through fp16 toward zero, and from the fp16
// to nearest even of the kernel's x.to(tl.float16).
func refFP8E4B15(in tensors, _ map[string]float64) tensors {
	c := in["c"]
	up := func(i int) float64 {
		b := uint16(c.Int(i))
		return float64(float16.Frombits(b&0x80<<8 | b&0x7f<<7).Float32())
	}
	x := func(i int) float64 {
		b := sweepBits(i)
		if b&1 != 0 {
			b |= 0x3ffff
		}
		return float64(math.Float32frombits(b))
	}
	fromF32 := func(i int) uint8 { return e4b15FromF16(f16BitsRZ(x(i))) }
	return tensors{
		"f":  eachFloat(in["f"], up),
		"h":  eachFloat(in["h"], up),
		"e":  codesOut(in["e"], fromF32),
		"eh": codesOut(in["eh"], func(i int) uint8 { return e4b15FromF16(f16Bits(x(i))) }),
		"ez": codesOut(in["ez"], fromF32),
	}
}
