package sema

// This file implements triton.language's random numbers: tl.philox,
// tl.randint, tl.rand, tl.randn, their 4x forms, the two helpers of
// triton.language.random (uint_to_uniform_float and pair_uniform_to_normal),
// philox_impl, and tl.umulhi.
//
// Triton writes these as @jit functions in random.py; tri expands them here,
// step by step as those functions do, through the same operators, casts and
// builtins a kernel would call (c.binary, tl.cast, tl.where, tl.maximum,
// tl.log...). So their typing (Python numbers against uint32 tensors, the
// broadcasting of a [1] key against a tile) is Triton's by construction,
// the interpreter and cudagen need nothing beyond tl.umulhi (ir.OpUmulhi),
// and the numbers are Triton's bit for bit wherever the ops are.
//
// The algorithm (Triton 3.6's random.py):
//   - philox(seed, c0..c3, n_rounds): the seed goes to uint64. Counters of
//     32 bits use Philox 4x32 with the key (low, high) 32-bit halves of the
//     seed; counters of 64 bits use Philox 4x64 with the key (seed, a [1]
//     tile of 0). The counters are bitcast to the unsigned type of their
//     width.
//   - each of n_rounds rounds (10 by default, unrolled) computes
//     c0 = umulhi(B, c2) ^ c1 ^ k0, c2 = umulhi(A, c0) ^ c3 ^ k1,
//     c1 = B * c2, c3 = A * c0 (from the round's inputs), then raises the
//     key by (KEY_A, KEY_B): Random123's Philox with its constants.
//   - randint4x(seed, offset) is philox(seed, lo, hi, 0, 0) with the
//     offset's low 32 bits and, for offsets wider than 32 bits, its high
//     32 bits (offset >> 32) as 32-bit counters: the numbers are uint32
//     whatever the offset's width. randint is its first result. Philox
//     4x64 is reached only by calling tl.philox with 64-bit counters.
//   - uint_to_uniform_float bitcasts to the signed type, folds negative x to
//     -x - 1 and multiplies by 4.6566127342e-10 (32 bits) or
//     1.0842020432385337e-19 (64 bits), in fp32: rand and rand4x.
//   - pair_uniform_to_normal is Box-Muller with tl.log, tl.sqrt, tl.cos and
//     tl.sin, after clamping u1 to at least 1e-7: randn is its first result
//     on the first two numbers of randint4x, randn4x both results on each
//     pair of rand4x.
//
// The generated values carry the names random.py gives them, and each
// round's counters and keys the round's number (c0_r3, k0_r4), so that the
// unrolled rounds read as what they are in the CUDA.

import (
	"fmt"
	"math/big"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// nRoundsDefault is random.py's N_ROUNDS_DEFAULT.
const nRoundsDefault = 10

// philoxConsts are Philox's key increments and round multipliers, for
// counters of 32 and 64 bits.
var philoxConsts = map[int]struct{ keyA, keyB, roundA, roundB uint64 }{
	32: {0x9E3779B9, 0xBB67AE85, 0xD2511F53, 0xCD9E8D57},
	64: {0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, 0xD2E7470EE14C6C93, 0xCA5A826395121157},
}

// Scales of uint_to_uniform_float: the largest values whose products with
// the largest int32 (int64) stay below 1.0 in fp32.
const (
	uniformScale32 = 4.6566127342e-10
	uniformScale64 = 1.0842020432385337e-19
)

// addRandomBuiltins binds the random number functions of triton.language
// (also reached as tl.random.<name>) and tl.umulhi.
func addRandomBuiltins(tl func(string) string) {
	so := []string{"seed", "offset", "n_rounds"}
	builtins[tl("umulhi")] = &builtin{[]string{"x", "y"}, 2, bUmulhi}
	builtins[tl("philox_impl")] = &builtin{[]string{"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"}, 6, bPhiloxImpl}
	builtins[tl("philox")] = &builtin{[]string{"seed", "c0", "c1", "c2", "c3", "n_rounds"}, 5, bPhilox}
	builtins[tl("randint")] = &builtin{so, 2, bRandom(1, false, false)}
	builtins[tl("randint4x")] = &builtin{so, 2, bRandom(4, false, false)}
	builtins[tl("rand")] = &builtin{so, 2, bRandom(1, true, false)}
	builtins[tl("rand4x")] = &builtin{[]string{"seed", "offsets", "n_rounds"}, 2, bRandom(4, true, false)}
	builtins[tl("randn")] = &builtin{so, 2, bRandom(1, true, true)}
	builtins[tl("randn4x")] = &builtin{so, 2, bRandom(4, true, true)}
	builtins[tl("uint_to_uniform_float")] = &builtin{[]string{"x"}, 1, bUintToUniformFloat}
	builtins[tl("pair_uniform_to_normal")] = &builtin{[]string{"u1", "u2"}, 2, bPairUniformToNormal}
}

// tlCall calls the builtin tl.<name> with vals for its leading parameters.
func (c *compiler) tlCall(name string, pos diag.Pos, vals ...*val) *val {
	path := "triton.language." + name
	b := builtins[path]
	a := &args{name: path, pos: pos, vals: make([]*val, len(b.params))}
	copy(a.vals, vals)
	return b.fn(c, a)
}

// nameVal names a generated runtime value, unless it has a name already.
func nameVal(v *val, name string) {
	if v.k == kRuntime && v.rt.Name == "" && v.rt.Op != ir.OpConst {
		v.rt.Name = name
	}
}

// anyInvalid reports whether an earlier error left one of vs invalid.
func anyInvalid(vs ...*val) bool {
	for _, v := range vs {
		if v.k == kInvalid {
			return true
		}
	}
	return false
}

// nRounds reads the n_rounds argument (random.py's default when absent).
func (c *compiler) nRounds(v *val, pos diag.Pos) (int, bool) {
	if !given(v) {
		return nRoundsDefault, true
	}
	n, ok := c.constInt(v, "n_rounds", pos)
	if !ok {
		return 0, false
	}
	if n > maxUnroll {
		c.errorf(pos, diag.CodeValue, "n_rounds is %d; tri unrolls at most %d rounds", n, maxUnroll)
		return 0, false
	}
	return int(max(n, 0)), true
}

func bUmulhi(c *compiler, a *args) *val {
	for _, v := range a.vals {
		if v.k == kRuntime {
			if k := v.rt.Type.Kind; k != ir.Int32 && k != ir.Int64 && k != ir.Uint32 && k != ir.Uint64 {
				return c.errorf(a.pos, diag.CodeType, "tl.umulhi takes int32, int64, uint32 or uint64, got %s", v.rt.Type.DType)
			}
		}
	}
	return c.umulhi(a.vals[0], a.vals[1], a.pos)
}

// umulhi is tl.umulhi(x, y) after its dtype check: both operands become
// tensors (a Python int by its literal type), are brought to their common
// integer type and shape, and give the high half of their unsigned product.
func (c *compiler) umulhi(x, y *val, pos diag.Pos) *val {
	if anyInvalid(x, y) || !c.tensorOperand(x, "tl.umulhi", pos) || !c.tensorOperand(y, "tl.umulhi", pos) {
		return invalid
	}
	xv, yv := c.toRuntime(x, pos), c.toRuntime(y, pos)
	if xv == nil || yv == nil {
		return invalid
	}
	t, err := computationType(xv.Type.DType, false, yv.Type.DType, false, false)
	if err != nil || !t.Kind.IsInt() {
		return c.errorf(pos, diag.CodeType, "tl.umulhi needs integer operands, got %s and %s", xv.Type.DType, yv.Type.DType)
	}
	xv, yv, ok := c.broadcastPair(c.cast(xv, t, pos), c.cast(yv, t, pos), pos)
	if !ok {
		return invalid
	}
	return rtVal(c.emit(ir.OpUmulhi, xv.Type, pos, xv, yv))
}

func bPhiloxImpl(c *compiler, a *args) *val {
	n, ok := c.nRounds(a.vals[6], a.pos)
	if !ok {
		return invalid
	}
	c0 := a.vals[0]
	if c0.k != kRuntime || (c0.rt.Type.DType != ir.TUint32 && c0.rt.Type.DType != ir.TUint64) {
		return c.errorf(a.pos, diag.CodeType, "tl.philox_impl: dtype not supported in philox_impl: c0 must be a uint32 or uint64 tensor, got %s", c0.describe())
	}
	cs := [4]*val{a.vals[0], a.vals[1], a.vals[2], a.vals[3]}
	out := c.philoxRounds(cs, a.vals[4], a.vals[5], n, 4, a.pos)
	return &val{k: kTuple, elts: out[:]}
}

func bPhilox(c *compiler, a *args) *val {
	n, ok := c.nRounds(a.vals[5], a.pos)
	if !ok {
		return invalid
	}
	out := c.philox(a.vals[0], [4]*val{a.vals[1], a.vals[2], a.vals[3], a.vals[4]}, n, 4, a.pos)
	if out == nil {
		return invalid
	}
	return &val{k: kTuple, elts: out}
}

// philox is random.py's philox: the seed split into the key, the counters
// bitcast to the unsigned type of their width, then the rounds. want is the
// number of leading results the caller uses (see philoxRounds); nil after
// an error.
func (c *compiler) philox(seed *val, cs [4]*val, n, want int, pos diag.Pos) []*val {
	if seed.k != kRuntime && !seed.isNum() {
		c.errorf(pos, diag.CodeType, "the seed of Philox must be an integer scalar or tensor, got %s", seed.describe())
		return nil
	}
	if seed.k == kFloat || seed.k == kRuntime && seed.rt != nil && !seed.rt.Type.Kind.IsInt() {
		// random.py: seed = tl.to_tensor(seed); tl.static_assert(seed.dtype.is_int()).
		c.errorf(pos, diag.CodeType, "static_assert failed: the seed of Philox must be an integer (Triton's random.py asserts seed.dtype.is_int()), got %s", seed.describe())
		return nil
	}
	s := c.tlCall("cast", pos, seed, dtypeVal(ir.TUint64))
	if anyInvalid(s) {
		return nil
	}
	for i, v := range cs {
		if v.k != kRuntime && !v.isNum() {
			c.errorf(pos, diag.CodeType, "the counters of Philox must be integer scalars or tensors, got %s", v.describe())
			return nil
		}
		if cs[i] = rtVal(c.toRuntime(v, pos)); cs[i].rt == nil {
			return nil
		}
	}
	var k0, k1 *val
	var word ir.DType
	switch c0 := cs[0].rt.Type; {
	case c0.IsPtr() || c0.Kind.Bits() != 32 && c0.Kind.Bits() != 64:
		c.errorf(pos, diag.CodeType, "bitwidth not supported in philox: the counters (offsets) must be 32- or 64-bit integers, got %s", c0.DType)
		return nil
	case c0.Kind.Bits() == 32:
		word = ir.TUint32
		mask := bigVal(new(big.Int).SetUint64(0xffffffff))
		k1 = c.tlCall("cast", pos, c.binary("&", c.binary(">>", s, intVal(32), pos), mask, pos), dtypeVal(word))
		k0 = c.tlCall("cast", pos, c.binary("&", s, mask, pos), dtypeVal(word))
	default:
		word = ir.TUint64
		k1 = c.tlCall("full", pos, &val{k: kTuple, elts: []*val{intVal(1)}}, intVal(0), dtypeVal(word))
		k0 = s
	}
	nameVal(k0, "seed_lo")
	nameVal(k1, "seed_hi")
	for i, v := range cs {
		cs[i] = c.tlCall("cast", pos, v, dtypeVal(word), nil, boolVal(true))
		nameVal(cs[i], fmt.Sprintf("c%d", i))
	}
	out := c.philoxRounds(cs, k0, k1, n, want, pos)
	if anyInvalid(out[:want]...) {
		return nil
	}
	return out[:]
}

// philoxRounds is random.py's philox_impl: n rounds over the counters cs
// with the key (k0, k1). Only the first want results are computed in the
// last round (the others are invalid), and the key is not raised after it:
// neither would be used.
func (c *compiler) philoxRounds(cs [4]*val, k0, k1 *val, n, want int, pos diag.Pos) [4]*val {
	if anyInvalid(append(cs[:], k0, k1)...) {
		return [4]*val{invalid, invalid, invalid, invalid}
	}
	k := philoxConsts[cs[0].rt.Type.Kind.Bits()]
	num := func(u uint64) *val { return bigVal(new(big.Int).SetUint64(u)) }
	a, b := num(k.roundA), num(k.roundB)
	for r := 1; r <= n; r++ {
		last := r == n
		var out [4]*val
		out[0] = c.binary("^", c.binary("^", c.umulhi(b, cs[2], pos), cs[1], pos), k0, pos)
		if !last || want > 1 {
			out[1] = c.binary("*", b, cs[2], pos)
		}
		if !last || want > 2 {
			out[2] = c.binary("^", c.binary("^", c.umulhi(a, cs[0], pos), cs[3], pos), k1, pos)
			out[3] = c.binary("*", a, cs[0], pos)
		}
		if last {
			for i := range out {
				if out[i] == nil {
					out[i] = invalid
				}
			}
			return out
		}
		cs = out
		k0, k1 = c.binary("+", k0, num(k.keyA), pos), c.binary("+", k1, num(k.keyB), pos)
		for i, v := range cs {
			nameVal(v, fmt.Sprintf("c%d_r%d", i, r))
		}
		nameVal(k0, fmt.Sprintf("k0_r%d", r+1))
		nameVal(k1, fmt.Sprintf("k1_r%d", r+1))
	}
	return cs
}

// bRandom builds randint, rand and randn (n = 1) and their 4x forms
// (n = 4): Philox's numbers, made uniform floats (uniform) and then normal
// ones (normal).
func bRandom(n int, uniform, normal bool) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		rounds, ok := c.nRounds(a.vals[2], a.pos)
		if !ok {
			return invalid
		}
		want := n
		if normal && n == 1 {
			want = 2
		}
		lo, hi, zero := c.offsetWords(a.vals[1], a.pos)
		if anyInvalid(lo, hi, zero) {
			return invalid
		}
		out := c.philox(a.vals[0], [4]*val{lo, hi, zero, zero}, rounds, want, a.pos)
		if out == nil {
			return invalid
		}
		out = out[:want]
		if uniform {
			for i, v := range out {
				nameVal(v, fmt.Sprintf("i%d", i+1))
				if out[i] = c.uintToUniformFloat(v, a.pos); out[i].k == kInvalid {
					return invalid
				}
			}
		}
		if normal {
			for i := 0; i < len(out); i += 2 {
				nameVal(out[i], fmt.Sprintf("u%d", i+1))
				nameVal(out[i+1], fmt.Sprintf("u%d", i+2))
				n1, n2 := c.pairUniformToNormal(out[i], out[i+1], n > 1, a.pos)
				if anyInvalid(n1) || n > 1 && anyInvalid(n2) {
					return invalid
				}
				out[i], out[i+1] = n1, n2
			}
		}
		if n == 1 {
			return out[0]
		}
		return &val{k: kTuple, elts: out}
	}
}

// offsetWords splits an offset into the two 32-bit counters randint4x
// gives Philox 4x32 (random.py's offset_lo, offset_hi and _0): the low
// word, the high word (offset >> 32, arithmetic for signed offsets) for
// offsets wider than 32 bits or zeros, and zeros of the offset's shape.
func (c *compiler) offsetWords(offset *val, pos diag.Pos) (lo, hi, zero *val) {
	lo = c.tlCall("cast", pos, offset, dtypeVal(ir.TUint32))
	if anyInvalid(lo) {
		return invalid, invalid, invalid
	}
	zero = c.zerosOf(lo, pos)
	hi = zero
	if offset.k == kRuntime && offset.rt.Type.Kind.Bits() > 32 {
		hi = c.tlCall("cast", pos, c.binary(">>", offset, intVal(32), pos), dtypeVal(ir.TUint32))
	}
	return lo, hi, zero
}

// zerosOf is random.py's `offset * 0`, the three other counters. Zeros of
// an integer offset's shape are made as constants of the unsigned type
// that philox bitcasts them to (the same bits), so that the first round
// reads as the constants they are.
func (c *compiler) zerosOf(offset *val, pos diag.Pos) *val {
	word := map[int]ir.DType{32: ir.TUint32, 64: ir.TUint64}
	if offset.k != kRuntime || !offset.rt.Type.Kind.IsInt() || word[offset.rt.Type.Kind.Bits()].Kind == ir.Invalid {
		return c.binary("*", offset, intVal(0), pos)
	}
	return c.tlCall("full", pos, intTuple(offset.rt.Type.Shape), intVal(0), dtypeVal(word[offset.rt.Type.Kind.Bits()]))
}

func bUintToUniformFloat(c *compiler, a *args) *val {
	return c.uintToUniformFloat(a.vals[0], a.pos)
}

// uintToUniformFloat is random.py's uint_to_uniform_float.
func (c *compiler) uintToUniformFloat(x *val, pos diag.Pos) *val {
	if x.k == kInvalid {
		return invalid
	}
	var signedT ir.DType
	var scale float64
	if x.k == kRuntime {
		switch x.rt.Type.DType {
		case ir.TInt32, ir.TUint32:
			signedT, scale = ir.TInt32, uniformScale32
		case ir.TInt64, ir.TUint64:
			signedT, scale = ir.TInt64, uniformScale64
		}
	}
	if scale == 0 {
		return c.errorf(pos, diag.CodeType, "tl.uint_to_uniform_float takes a tensor of int32, uint32, int64 or uint64, got %s", x.describe())
	}
	x = c.tlCall("cast", pos, x, dtypeVal(signedT), nil, boolVal(true))
	folded := c.binary("-", c.unary("-", x, pos), intVal(1), pos)
	x = c.tlCall("where", pos, c.compare("<", x, intVal(0), pos), folded, x)
	return c.binary("*", x, floatVal(scale), pos)
}

func bPairUniformToNormal(c *compiler, a *args) *val {
	n1, n2 := c.pairUniformToNormal(a.vals[0], a.vals[1], true, a.pos)
	if anyInvalid(n1, n2) {
		return invalid
	}
	return &val{k: kTuple, elts: []*val{n1, n2}}
}

// pairUniformToNormal is random.py's pair_uniform_to_normal (Box-Muller);
// the second result (r * sin(th)) is computed only if both is set, and is
// invalid otherwise.
func (c *compiler) pairUniformToNormal(u1, u2 *val, both bool, pos diag.Pos) (*val, *val) {
	u1 = c.minMax(ir.OpMax, floatVal(1.0e-7), u1, nil, pos)
	th := c.binary("*", floatVal(6.283185307179586), u2, pos)
	if anyInvalid(u1, th) {
		return invalid, invalid
	}
	nameVal(th, "th")
	r := c.tlCall("sqrt", pos, c.binary("*", floatVal(-2.0), c.tlCall("log", pos, u1), pos))
	if anyInvalid(r) {
		return invalid, invalid
	}
	nameVal(r, "r")
	n1, n2 := c.binary("*", r, c.tlCall("cos", pos, th), pos), invalid
	if both {
		n2 = c.binary("*", r, c.tlCall("sin", pos, th), pos)
	}
	return n1, n2
}
