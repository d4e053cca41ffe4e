package conformance

// This file implements the references of the constructs written so that a
// small mistake in one step of cudagen's lowering changes their results:
// every butterfly step of a reduction (reduce_butterfly), the slots of a
// cross-warp reduction with a tile for a result (reduce_xwarp_2d), the
// rounding mode of conversions to fp16 and bf16 (cast_half_rounding), the
// bounds of descriptor loads and stores past a tensor's edge
// (tensor_desc_store_rows), and the full-tile test and masks of tiles
// whose last element alone lies outside (mask_last_lane). bench/mutate.sh applies such mistakes and
// reports which tests catch them. The rounding here is written from the
// formats' definitions (roundTo), not with the libraries tri uses.

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func init() {
	references["reduce_butterfly"] = refReduceButterfly
	references["reduce_xwarp_2d"] = refReduceXwarp2D
	references["cast_half_rounding"] = refCastHalfRounding
	references["tensor_desc_store_rows"] = refTensorDescStoreRows
	references["mask_last_lane"] = refMaskLastLane
}

// roundTo rounds x to the nearest value (ties to even) of a binary format
// with frac fraction bits, emin the exponent of its smallest normal value
// and maxf its largest finite value; past maxf it gives an infinity, as
// IEEE rounding to nearest does. Dividing by the quantum, a power of two,
// is exact, so math.RoundToEven rounds the fraction alone.
func roundTo(x float64, frac, emin int, maxf float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, e := math.Frexp(math.Abs(x)) // |x| = m * 2^e, m in [0.5, 1)
	q := math.Ldexp(1, max(e-1, emin)-frac)
	r := math.RoundToEven(x/q) * q
	if math.Abs(r) > maxf {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// rh16 and rb16 round to fp16 and bf16, to nearest even, from any float64
// (not through fp32).
func rh16(x float64) float64 { return roundTo(x, 10, -14, 65504) }
func rb16(x float64) float64 { return roundTo(x, 7, -126, 0x1.fep127) }

// f32bits is the fp32 value of bit pattern b.
func f32bits(b int32) float64 { return float64(math.Float32frombits(uint32(b))) }

// refReduceButterfly is butterfly_kernel: per program p, the int32 sum
// and xor of (1 << i) + p for i < 32 (wrapping), the int64 sum of
// (1 << i) - p for i < 64, and of x[p] (16 x 32) the row sums and maxima
// and the column argmaxes (the first row of equal maxima).
func refReduceButterfly(in tensors, _ map[string]float64) tensors {
	x, s32, x32, s64, rs, rm, ca := in["x"], in["s32"], in["x32"], in["s64"], in["rs"], in["rm"], in["ca"]
	const m, n = 16, 32
	for p := range 2 {
		var sum, xor int32
		for i := range 32 {
			v := int32(uint32(1)<<i) + int32(p)
			sum += v
			xor ^= v
		}
		s32.SetInt(p, int64(sum))
		x32.SetInt(p, int64(xor))
		var wide int64
		for i := range 64 {
			wide += int64(uint64(1)<<i) - int64(p)
		}
		s64.SetInt(p, wide)
		at := func(r, c int) float64 { return x.Float(p*m*n + r*n + c) }
		for r := range m {
			s, mx := 0.0, math.Inf(-1)
			for c := range n {
				s += at(r, c)
				mx = math.Max(mx, at(r, c))
			}
			rs.SetFloat(p*m+r, s)
			rm.SetFloat(p*m+r, mx)
		}
		for c := range n {
			best := 0
			for r := range m {
				if at(r, c) > at(best, c) {
					best = r
				}
			}
			ca.SetInt(p*n+c, int64(best))
		}
	}
	return tensors{"s32": s32, "x32": x32, "s64": s64, "rs": rs, "rm": rm, "ca": ca}
}

// refReduceXwarp2D is xwarp_kernel: per program p, the column sums,
// maxima and argmaxes (first of equal maxima) of x[p] (64 x 32), and the
// sums of y[p] (4 x 32 x 8) along its middle axis.
func refReduceXwarp2D(in tensors, _ map[string]float64) tensors {
	x, y, s, m, a, t := in["x"], in["y"], in["s"], in["m"], in["a"], in["t"]
	for p := range 2 {
		for c := range 32 {
			sum, mx, arg := 0.0, math.Inf(-1), 0
			for r := range 64 {
				v := x.Float(p*64*32 + r*32 + c)
				sum += v
				if v > mx {
					mx, arg = v, r
				}
			}
			s.SetFloat(p*32+c, sum)
			m.SetFloat(p*32+c, mx)
			a.SetInt(p*32+c, int64(arg))
		}
		for i := range 4 {
			for k := range 8 {
				sum := 0.0
				for j := range 32 {
					sum += y.Float(p*4*32*8 + i*32*8 + j*8 + k)
				}
				t.SetFloat(p*4*8+i*8+k, sum)
			}
		}
	}
	return tensors{"s": s, "m": m, "a": a, "t": t}
}

// refCastHalfRounding is half_rounding_kernel. Element i of x, as fp32
// bits with the fraction bits fp16 (bf16) drops cleared, plus half an ulp
// of the format plus 0 or 1 fp32 ulp, minus 1, or plus one ulp less one
// (by i % 4), rounded to fp16 (bf16); the halfway value widened to fp64
// and raised by 2^-28 of itself, rounded to fp16 from fp64; the fp16
// product a * (a / 512) of the first's result a; and e rounded to fp16.
func refCastHalfRounding(in tensors, _ map[string]float64) tensors {
	x, e, h, b, d, q, eh := in["x"], in["e"], in["h"], in["b"], in["d"], in["q"], in["eh"]
	halves := [4]int32{0x1000, 0x1001, 0xfff, 0x1fff}
	bhalves := [4]int32{0x8000, 0x8001, 0x7fff, 0xffff}
	for i := range x.NumElements() {
		xb := int32(math.Float32bits(float32(x.Float(i))))
		a := rh16(f32bits(xb&-8192 + halves[i%4]))
		h.SetFloat(i, a)
		b.SetFloat(i, rb16(f32bits(xb&-65536+bhalves[i%4])))
		tie := f32bits(xb&-8192 + 0x1000)
		d.SetFloat(i, rh16(tie+tie*0x1p-28))
		q.SetFloat(i, rh16(a*rh16(a*0x1p-9)))
	}
	for j := range e.NumElements() {
		eh.SetFloat(j, rh16(e.Float(j)))
	}
	return tensors{"h": h, "b": b, "d": d, "q": q, "eh": eh}
}

// refTensorDescStoreRows is store_rows_kernel: x's first 700 rows and 15
// columns are the tensor its descriptors see. p (1024 x 16, every element
// written) holds x there and zero elsewhere; y and z (720 x 24) hold 2x
// there, rounded to fp16, and keep their elements elsewhere; z's view is
// 16 columns wide, so its 16th column, below row 700, is 0.
func refTensorDescStoreRows(in tensors, num map[string]float64) tensors {
	x, p, y, z := in["x"], in["p"], in["y"], in["z"]
	rows, cols := int(num["M"]), int(num["N"])
	inside := func(r, c int) bool { return r < rows && c < cols }
	for r := range 1024 {
		for c := range 16 {
			v := 0.0
			if inside(r, c) {
				v = x.Float(r*16 + c)
			}
			p.SetFloat(r*16+c, v)
		}
	}
	for r := range 720 {
		for c := range 24 {
			v := 0.0 // z's 16th column: x's view reads 0 past its 15th
			if inside(r, c) {
				v = rh16(2 * x.Float(r*16+c))
				y.SetFloat(r*24+c, v)
			}
			if r < rows && c < 16 {
				z.SetFloat(r*24+c, v)
			}
		}
	}
	return tensors{"p": p, "y": y, "z": z}
}

// refMaskLastLane is last_lane_kernel: out holds x below n and -7.5 from
// there, kept 2x below n and its -1 from there; wout holds w in rows below
// M (every column is below N) and 3 elsewhere, wkept w + 1 there and its
// -1 elsewhere.
func refMaskLastLane(in tensors, num map[string]float64) tensors {
	x, out, kept, w, wout, wkept := in["x"], in["out"], in["kept"], in["w"], in["wout"], in["wkept"]
	n, m := int(num["n"]), int(num["M"])
	for i := range x.NumElements() {
		if i < n {
			out.SetFloat(i, x.Float(i))
			kept.SetFloat(i, r32(2*x.Float(i)))
		} else {
			out.SetFloat(i, -7.5)
		}
	}
	for i := range w.NumElements() {
		if i/32 < m {
			wout.SetFloat(i, w.Float(i))
			wkept.SetFloat(i, r32(w.Float(i)+1))
		} else {
			wout.SetFloat(i, 3)
		}
	}
	return tensors{"out": out, "kept": kept, "wout": wout, "wkept": wkept}
}

// TestRoundTo holds the references' rounding to values worked out by hand
// from the formats, and to the bit-level bf16 rounding of rbf.
func TestRoundTo(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1 + 0x1p-11, 1},                         // halfway, 1 is even
		{1 + 3*0x1p-11, 1 + 0x1p-9},              // halfway, 1+2^-9 is even
		{1 + 0x1p-11 + 0x1p-23, 1 + 0x1p-10},     // above halfway
		{-(1 + 0x1p-11 + 0x1p-40), -1 - 0x1p-10}, // above halfway in fp64 only
		{65519.9921875, 65504},
		{65520, math.Inf(1)},
		{-65520, math.Inf(-1)},
		{0x1p-25, 0},           // halfway to the smallest subnormal, 0 is even
		{3 * 0x1p-25, 0x1p-23}, // halfway between subnormals 1 and 2 (even)
		{0x1.8p-25, 0x1p-24},
		{1e-8, 0},
	} {
		assert.Equal(t, c.want, rh16(c.x), "rh16(%v)", c.x)
	}
	for i := range 1 << 16 {
		// Every fp32 pattern with its top 16 bits i and bottom bits halfway or
		// past: ties, just above and just below.
		for _, low := range []uint32{0x8000, 0x8001, 0x7fff, 0} {
			f := float64(math.Float32frombits(uint32(i)<<16 | low))
			if math.IsNaN(f) {
				continue
			}
			if got, want := rb16(f), rbf(f); got != want {
				t.Fatalf("rb16(%x) = %v, rbf %v", math.Float32bits(float32(f)), got, want)
			}
		}
	}
}
