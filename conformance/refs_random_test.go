package conformance

// This file implements the references of the random number constructs and
// of tutorial 04's dropout sample, written from the published algorithm
// rather than from tri's expansion: Random123's Philox 4x32 and 4x64 (key
// raised before every round but the first, and checked against
// Random123's known-answer vectors below), the counter and key Triton
// builds from a seed and an offset, its integer-to-float scaling and its
// Box-Muller transform, all in float32 arithmetic rounded at each step.

import (
	"math"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
)

func init() {
	references["rand_randint"] = refRandint
	references["rand_seeds"] = refRandSeeds
	references["rand_rand"] = refRandRand
	references["rand_randn"] = refRandn
	references["rand_4x"] = refRand4x
	references["rand_randn4x"] = refRandn4x
	references["rand_philox"] = refPhilox
	references["rand_offsets_2d"] = refRandOffsets2D
	references["rand_int64_offsets"] = refRandInt64Offsets
	references["rand_uniform_float"] = refUniformFloat
	references["rand_pair_normal"] = refPairNormal
	references["rand_umulhi"] = refUmulhi
	references["rand_seed_tile"] = refRandSeedTile
	references["sample/dropout_tutorial04"] = refSampleDropout
}

// philox4x32 is Random123's Philox4x32 with the given number of rounds.
func philox4x32(ctr [4]uint32, key [2]uint32, rounds int) [4]uint32 {
	const m0, m1, w0, w1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
	for r := range rounds {
		if r > 0 {
			key[0] += w0
			key[1] += w1
		}
		p0, p1 := uint64(m0)*uint64(ctr[0]), uint64(m1)*uint64(ctr[2])
		ctr = [4]uint32{uint32(p1>>32) ^ ctr[1] ^ key[0], uint32(p1), uint32(p0>>32) ^ ctr[3] ^ key[1], uint32(p0)}
	}
	return ctr
}

// philox4x64 is Random123's Philox4x64 with the given number of rounds.
func philox4x64(ctr [4]uint64, key [2]uint64, rounds int) [4]uint64 {
	const m0, m1, w0, w1 = 0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B
	for r := range rounds {
		if r > 0 {
			key[0] += w0
			key[1] += w1
		}
		hi0, lo0 := bits.Mul64(m0, ctr[0])
		hi1, lo1 := bits.Mul64(m1, ctr[2])
		ctr = [4]uint64{hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0}
	}
	return ctr
}

func TestPhiloxKnownAnswers(t *testing.T) {
	// Random123's kat_vectors: counter, key, result.
	tests32 := []struct {
		rounds int
		ctr    [4]uint32
		key    [2]uint32
		want   [4]uint32
	}{
		{7, [4]uint32{}, [2]uint32{}, [4]uint32{0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
		{10, [4]uint32{}, [2]uint32{}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{10, [4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff},
			[4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{10, [4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0},
			[4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	}
	for _, tc := range tests32 {
		assert.Equal(t, tc.want, philox4x32(tc.ctr, tc.key, tc.rounds), "philox4x32-%d %x %x", tc.rounds, tc.ctr, tc.key)
	}
	tests64 := []struct {
		rounds int
		ctr    [4]uint64
		key    [2]uint64
		want   [4]uint64
	}{
		{7, [4]uint64{}, [2]uint64{}, [4]uint64{0x5dc8ee6268ec62cd, 0x139bc570b6c125a0, 0x84d6deb4fb65f49e, 0xaff7583376d378c2}},
		{10, [4]uint64{}, [2]uint64{}, [4]uint64{0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b}},
		{10, [4]uint64{0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89},
			[2]uint64{0x452821e638d01377, 0xbe5466cf34e90c6c},
			[4]uint64{0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6}},
	}
	for _, tc := range tests64 {
		assert.Equal(t, tc.want, philox4x64(tc.ctr, tc.key, tc.rounds), "philox4x64-%d %x %x", tc.rounds, tc.ctr, tc.key)
	}
}

// randint4x32 is tl.randint4x for a 32-bit offset: the counter (offset, 0,
// 0, 0), the key the seed's low and high 32 bits.
func randint4x32(seed uint64, offset uint32, rounds int) [4]uint32 {
	return philox4x32([4]uint32{offset}, [2]uint32{uint32(seed), uint32(seed >> 32)}, rounds)
}

// randint4x64 is tl.randint4x for a 64-bit offset: Philox 4x32 with the
// counter (low 32 bits, high 32 bits, 0, 0) of the offset and the key the
// seed's halves, as Triton 3.6's random.py splits it.
func randint4x64(seed, offset uint64, rounds int) [4]uint32 {
	return philox4x32([4]uint32{uint32(offset), uint32(offset >> 32)}, [2]uint32{uint32(seed), uint32(seed >> 32)}, rounds)
}

// uniform32 and uniform64 are tl.random.uint_to_uniform_float: the bits as
// a signed integer, negative values folded to -x - 1, times a scale just
// below 2^-31 (2^-63), in float32.
func uniform32(x uint32) float32 {
	v := int32(x)
	if v < 0 {
		v = -v - 1
	}
	return float32(v) * float32(4.6566127342e-10)
}

func uniform64(x uint64) float32 {
	v := int64(x)
	if v < 0 {
		v = -v - 1
	}
	return float32(v) * float32(1.0842020432385337e-19)
}

// normalPair is tl.random.pair_uniform_to_normal (Box-Muller) on fp32.
func normalPair(u1, u2 float32) (float32, float32) {
	u1 = max(float32(1e-7), u1)
	th := float32(6.283185307179586) * u2
	r := float32(math.Sqrt(float64(float32(-2) * float32(math.Log(float64(u1))))))
	return r * float32(math.Cos(float64(th))), r * float32(math.Sin(float64(th)))
}

// seedOf is a seed as Philox takes it: the integer converted to uint64
// (sign-extended).
func seedOf(v int64) uint64 { return uint64(v) }

// maxSeed is the seed 2**63 - 1 that rand_rand and rand_int64_offsets pass
// as a literal in their launch lines (a --let number would reach the
// references as a float64, which cannot hold it).
const maxSeed = 1<<63 - 1

// refRandint: tl.randint over 2**20 offsets with the int32 seed 2**31 - 1.
func refRandint(in tensors, num map[string]float64) tensors {
	seed := seedOf(int64(num["seed"]))
	return tensors{"out": eachInt(in["out"], func(i int) int64 { return int64(int32(randint4x32(seed, uint32(i), 10)[0])) })}
}

// refRandSeeds: row s of the outputs uses seeds[s] (int64).
func refRandSeeds(in tensors, num map[string]float64) tensors {
	seeds, n := in["seeds"], int(num["n"])
	bitsOut := eachInt(in["ints"], func(i int) int64 {
		return int64(int32(randint4x32(seedOf(seeds.Int(i/n)), uint32(i%n), 10)[0]))
	})
	unif := eachFloat(in["unif"], func(i int) float64 {
		return float64(uniform32(randint4x32(seedOf(seeds.Int(i/n)), uint32(i%n), 10)[0]))
	})
	return tensors{"ints": bitsOut, "unif": unif}
}

// refRandRand: tl.rand with the int64 seed 2**63 - 1 (out), and row s of
// urows with the uint64 seed useeds[s].
func refRandRand(in tensors, num map[string]float64) tensors {
	useeds, n := in["useeds"], int(num["n"])
	seed := seedOf(maxSeed)
	return tensors{
		"out": eachFloat(in["out"], func(i int) float64 { return float64(uniform32(randint4x32(seed, uint32(i), 10)[0])) }),
		"urows": eachFloat(in["urows"], func(i int) float64 {
			return float64(uniform32(randint4x32(uint64(useeds.Int(i/n)), uint32(i%n), 10)[0]))
		}),
	}
}

// refRandn: tl.randn, row s with seeds[s]: the first of Box-Muller's pair
// on the first two numbers of Philox.
func refRandn(in tensors, num map[string]float64) tensors {
	seeds, n := in["seeds"], int(num["n"])
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		r := randint4x32(seedOf(seeds.Int(i/n)), uint32(i%n), 10)
		n1, _ := normalPair(uniform32(r[0]), uniform32(r[1]))
		return float64(n1)
	})}
}

// refRand4x: row k of ints is the k-th number of tl.randint4x, row k of
// unif that number made uniform (tl.rand4x).
func refRand4x(in tensors, num map[string]float64) tensors {
	n, seed := int(num["n"]), seedOf(int64(num["seed"]))
	return tensors{
		"ints": eachInt(in["ints"], func(i int) int64 { return int64(int32(randint4x32(seed, uint32(i%n), 10)[i/n])) }),
		"unif": eachFloat(in["unif"], func(i int) float64 { return float64(uniform32(randint4x32(seed, uint32(i%n), 10)[i/n])) }),
	}
}

// refRandn4x: row k is the k-th result of tl.randn4x: Box-Muller on the
// pairs (u1, u2) and (u3, u4) of tl.rand4x.
func refRandn4x(in tensors, num map[string]float64) tensors {
	n, seed := int(num["n"]), seedOf(int64(num["seed"]))
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		r := randint4x32(seed, uint32(i%n), 10)
		k := i / n
		a, b := normalPair(uniform32(r[k&^1]), uniform32(r[k|1]))
		if k&1 == 0 {
			return float64(a)
		}
		return float64(b)
	})}
}

// refPhilox: tl.philox(1, c0, c1, c2, c3, n_rounds=7) on the int32 counter
// rows of cs, and tl.random.philox_impl with the key (k0, k1) on the same
// counters as uint32.
func refPhilox(in tensors, num map[string]float64) tensors {
	cs, n := in["cs"], int(num["n"])
	ctr := func(j int) [4]uint32 {
		return [4]uint32{uint32(cs.Int(j)), uint32(cs.Int(n + j)), uint32(cs.Int(2*n + j)), uint32(cs.Int(3*n + j))}
	}
	k0, k1 := uint32(int64(num["k0"])), uint32(int64(num["k1"]))
	return tensors{
		"out":  eachInt(in["out"], func(i int) int64 { return int64(int32(philox4x32(ctr(i%n), [2]uint32{1, 0}, 7)[i/n])) }),
		"impl": eachInt(in["impl"], func(i int) int64 { return int64(int32(philox4x32(ctr(i%n), [2]uint32{k0, k1}, 10)[i/n])) }),
	}
}

// refRandOffsets2D: tl.rand and tl.randint over a 2-D tile of offsets
// row * N + col.
func refRandOffsets2D(in tensors, num map[string]float64) tensors {
	seed := seedOf(int64(num["seed"]))
	return tensors{
		"u":    eachFloat(in["u"], func(i int) float64 { return float64(uniform32(randint4x32(seed, uint32(i), 10)[0])) }),
		"ints": eachInt(in["ints"], func(i int) int64 { return int64(int32(randint4x32(seed, uint32(i), 10)[0])) }),
	}
}

// refRandInt64Offsets: int64 offsets base + i (beyond 2**32) are split into
// two 32-bit counters of Philox 4x32: tl.randint gives its first uint32
// number (stored zero-extended), tl.rand that number made uniform, and
// tl.randint4x all four.
func refRandInt64Offsets(in tensors, num map[string]float64) tensors {
	seed, base, n := seedOf(maxSeed), uint64(int64(num["base"])), int(num["n"])
	return tensors{
		"ints": eachInt(in["ints"], func(i int) int64 { return int64(randint4x64(seed, base+uint64(i), 10)[0]) }),
		"unif": eachFloat(in["unif"], func(i int) float64 { return float64(uniform32(randint4x64(seed, base+uint64(i), 10)[0])) }),
		"four": eachInt(in["four"], func(i int) int64 { return int64(randint4x64(seed, base+uint64(i%n), 10)[i/n]) }),
	}
}

// refUniformFloat: uint_to_uniform_float of int32 and int64 values.
func refUniformFloat(in tensors, _ map[string]float64) tensors {
	x32, x64 := in["x32"], in["x64"]
	return tensors{
		"f32": eachFloat(in["f32"], func(i int) float64 { return float64(uniform32(uint32(x32.Int(i)))) }),
		"f64": eachFloat(in["f64"], func(i int) float64 { return float64(uniform64(uint64(x64.Int(i)))) }),
	}
}

// refPairNormal: pair_uniform_to_normal of u1 and u2, with u1's first four
// elements replaced by 0, 1e-8, 2e-8 and 3e-8 (below the clamp at 1e-7).
func refPairNormal(in tensors, _ map[string]float64) tensors {
	u1, u2 := in["u1"], in["u2"]
	pair := func(i int) (float32, float32) {
		a := float32(u1.Float(i))
		if i < 4 {
			a = float32(i) * float32(1e-8)
		}
		return normalPair(a, float32(u2.Float(i)))
	}
	return tensors{
		"n1": eachFloat(in["n1"], func(i int) float64 { a, _ := pair(i); return float64(a) }),
		"n2": eachFloat(in["n2"], func(i int) float64 { _, b := pair(i); return float64(b) }),
	}
}

// refUmulhi: the high half of the unsigned double-width product, for each
// integer type, and for uint32 with a constant.
func refUmulhi(in tensors, _ map[string]float64) tensors {
	hi32 := func(a, b int64) int64 { return int64((uint64(uint32(a)) * uint64(uint32(b))) >> 32) }
	hi64 := func(a, b int64) int64 { h, _ := bits.Mul64(uint64(a), uint64(b)); return int64(h) }
	a32, b32, au, bu, a64, b64, au64, bu64 := in["a32"], in["b32"], in["au"], in["bu"], in["a64"], in["b64"], in["au64"], in["bu64"]
	return tensors{
		"h32":  eachInt(in["h32"], func(i int) int64 { return hi32(a32.Int(i), b32.Int(i)) }),
		"hu":   eachInt(in["hu"], func(i int) int64 { return hi32(au.Int(i), bu.Int(i)) }),
		"hc":   eachInt(in["hc"], func(i int) int64 { return hi32(au.Int(i), 0xCD9E8D57) }),
		"h64":  eachInt(in["h64"], func(i int) int64 { return hi64(a64.Int(i), b64.Int(i)) }),
		"hu64": eachInt(in["hu64"], func(i int) int64 { return hi64(au64.Int(i), bu64.Int(i)) }),
	}
}

// refRandSeedTile: row i of out is tl.rand with seeds[i] (int32) at the
// offsets 0..N-1.
func refRandSeedTile(in tensors, num map[string]float64) tensors {
	seeds, n := in["seeds"], int(num["N"])
	return tensors{"out": eachFloat(in["out"], func(i int) float64 {
		return float64(uniform32(randint4x32(seedOf(seeds.Int(i/n)), uint32(i%n), 10)[0]))
	})}
}

// refSampleDropout: tutorial 04's seeded dropout: x / (1 - p) where
// tl.rand(seed, offset) > p, else 0.
func refSampleDropout(in tensors, num map[string]float64) tensors {
	x, p, seed := in["x"], float32(num["p"]), seedOf(int64(num["seed"]))
	return tensors{"output": eachFloat(in["output"], func(i int) float64 {
		if uniform32(randint4x32(seed, uint32(i), 10)[0]) > p {
			return float64(float32(x.Float(i)) / (1 - p))
		}
		return 0
	})}
}
