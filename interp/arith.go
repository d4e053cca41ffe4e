package interp

// This file implements elementwise arithmetic, bitwise ops and comparisons
// on integer and float tiles.

import (
	"math"

	"github.com/tri-lang/tri/ir"
)

// intBinary applies a binary op to integer (or Bool) tiles of kind
// v.Type.Kind, wrapping the result to the kind's width. A division by zero
// or a shift by a negative amount or by the width or more leaves its lane
// undefined.
func intBinary(v *ir.Value, a, b *tile) *tile {
	k := v.Type.Kind
	x, y := a.ints, b.ints
	t := newTile(k, a.shape)
	out := t.ints
	switch v.Op {
	case ir.OpAdd:
		for i := range out {
			out[i] = x[i] + y[i]
		}
	case ir.OpSub:
		for i := range out {
			out[i] = x[i] - y[i]
		}
	case ir.OpMul:
		for i := range out {
			out[i] = x[i] * y[i]
		}
	case ir.OpDiv, ir.OpRem:
		divRem(k, v.Op == ir.OpDiv, x, zeroDivisors(v.Pos, a.shape, y, t), out)
	case ir.OpMax, ir.OpMin:
		isMax := v.Op == ir.OpMax
		for i := range out {
			if less(k, x[i], y[i]) != isMax {
				out[i] = x[i]
			} else {
				out[i] = y[i]
			}
		}
	case ir.OpAnd:
		for i := range out {
			out[i] = x[i] & y[i]
		}
	case ir.OpOr:
		for i := range out {
			out[i] = x[i] | y[i]
		}
	case ir.OpXor:
		for i := range out {
			out[i] = x[i] ^ y[i]
		}
	case ir.OpShl, ir.OpShr:
		badShifts(v, a.shape, y, t)
		shift(k, v.Op == ir.OpShl, x, y, out)
	case ir.OpUmulhi:
		umulhi(k, x, y, out)
	}
	wrapInts(k, out)
	return t
}

func atLane(shape ir.Shape, i int) string {
	if len(shape) == 0 {
		return ""
	}
	return " at lane " + laneString(shape, i)
}

// less compares canonical integers of kind k.
func less(k ir.Kind, a, b int64) bool {
	if k == ir.Uint64 {
		return uint64(a) < uint64(b)
	}
	return a < b
}

// divRem computes truncating division or C remainder; no divisor is zero.
// MIN / -1 wraps (Go defines it as MIN).
func divRem(k ir.Kind, div bool, x, y, out []int64) {
	switch {
	case k == ir.Uint64 && div:
		for i := range out {
			out[i] = int64(uint64(x[i]) / uint64(y[i]))
		}
	case k == ir.Uint64:
		for i := range out {
			out[i] = int64(uint64(x[i]) % uint64(y[i]))
		}
	case div:
		for i := range out {
			out[i] = x[i] / y[i]
		}
	default:
		for i := range out {
			out[i] = x[i] % y[i]
		}
	}
}

// shift computes x << y or x >> y (arithmetic for signed kinds). An amount
// that is negative or at least the width gives 0, or the sign fill for an
// arithmetic right shift: a value for lanes that badShifts has marked
// undefined, never looked at.
func shift(k ir.Kind, left bool, x, y, out []int64) {
	w := uint64(k.Bits())
	for i := range out {
		n := uint64(y[i])
		if k.IsSigned() && y[i] < 0 {
			n = w
		}
		switch {
		case left && n >= w:
			out[i] = 0
		case left:
			out[i] = x[i] << n
		case k.IsSigned():
			out[i] = x[i] >> min(n, w-1)
		case n >= w:
			out[i] = 0
		default:
			out[i] = int64(uint64(x[i]) >> n)
		}
	}
}

// intUnary computes -x, ~x or |x| on integers, wrapping.
func intUnary(v *ir.Value, a *tile) *tile {
	k := v.Type.Kind
	t := newTile(k, a.shape)
	for i, x := range a.ints {
		switch v.Op {
		case ir.OpNeg:
			t.ints[i] = -x
		case ir.OpNot:
			t.ints[i] = ^x
		case ir.OpAbs:
			if x < 0 && k.IsSigned() {
				x = -x
			}
			t.ints[i] = x
		}
	}
	wrapInts(k, t.ints)
	return t
}

// floatBinary applies a binary arithmetic op to float tiles, computing in
// float64 and rounding to the kind.
func floatBinary(v *ir.Value, a, b *tile) *tile {
	k := v.Type.Kind
	x, y := a.flts, b.flts
	t := newTile(k, a.shape)
	out := t.flts
	switch v.Op {
	case ir.OpAdd:
		for i := range out {
			out[i] = x[i] + y[i]
		}
	case ir.OpSub:
		for i := range out {
			out[i] = x[i] - y[i]
		}
	case ir.OpMul:
		for i := range out {
			out[i] = x[i] * y[i]
		}
	case ir.OpDiv:
		for i := range out {
			out[i] = x[i] / y[i]
		}
	case ir.OpRem:
		for i := range out {
			out[i] = math.Mod(x[i], y[i])
		}
	case ir.OpMax:
		f := fmax
		if v.Flags&ir.FlagPropagateNaN != 0 {
			f = math.Max
		}
		for i := range out {
			out[i] = f(x[i], y[i])
		}
	case ir.OpMin:
		f := fmin
		if v.Flags&ir.FlagPropagateNaN != 0 {
			f = math.Min
		}
		for i := range out {
			out[i] = f(x[i], y[i])
		}
	}
	roundFloats(k, out)
	return t
}

// floatUnaryFuncs computes each unary float op exactly (or as exactly as
// Go's math does) in float64.
var floatUnaryFuncs = map[ir.Op]func(float64) float64{
	ir.OpNeg:   func(x float64) float64 { return -x },
	ir.OpAbs:   math.Abs,
	ir.OpExp:   math.Exp,
	ir.OpExp2:  math.Exp2,
	ir.OpLog:   math.Log,
	ir.OpLog2:  math.Log2,
	ir.OpSqrt:  math.Sqrt,
	ir.OpRsqrt: func(x float64) float64 { return 1 / math.Sqrt(x) },
	ir.OpSin:   math.Sin,
	ir.OpCos:   math.Cos,
	ir.OpFloor: math.Floor,
	ir.OpCeil:  math.Ceil,
	ir.OpErf:   math.Erf,
}

// fp32Funcs replace floatUnaryFuncs for fp32 where Triton's lowering is a
// composition whose intermediate rounding shows in the result: tl.exp is
// ex2.approx of the fp32 product x*log2(e). Rounding x*log2(e) to fp32
// moves exp's result by up to |x*log2(e)| * 2^-24 relative, several ulp for
// large |x|; reproducing it keeps the interpreter within an ulp or two of
// the GPU. (tl.log is libdevice's precise logf, within an ulp of the
// correctly rounded result floatUnaryFuncs gives.)
//
// tl.exp2 is ex2.approx.ftz.f32, as libdevice's exp2f in Triton's
// flush-to-zero linking: results below the smallest normal fp32 are zero.
var fp32Funcs = map[ir.Op]func(float64) float64{
	ir.OpExp: func(x float64) float64 {
		return math.Exp2(float64(float32(x * float64(float32(math.Log2E)))))
	},
	ir.OpExp2: func(x float64) float64 {
		if r := math.Exp2(x); r >= 0x1p-126 || math.IsNaN(r) {
			return r
		}
		return 0
	},
}

// floatUnary applies a unary op to a float tile and rounds to its kind.
func floatUnary(v *ir.Value, a *tile) *tile {
	k := v.Type.Kind
	f := floatUnaryFuncs[v.Op]
	if g, ok := fp32Funcs[v.Op]; ok && k == ir.Float32 {
		f = g
	}
	t := newTile(k, a.shape)
	for i, x := range a.flts {
		t.flts[i] = f(x)
	}
	roundFloats(k, t.flts)
	return t
}

// fma computes a*b+c with one rounding in float64, then rounds to k; fp32
// is rounded once from the exact value (fma32).
func fma(k ir.Kind, a, b, c *tile) *tile {
	t := newTile(k, a.shape)
	f := math.FMA
	if k == ir.Float32 {
		f = fma32
	}
	for i := range t.flts {
		t.flts[i] = f(a.flts[i], b.flts[i], c.flts[i])
	}
	roundFloats(k, t.flts)
	return t
}

// compare computes a Bool tile. Floats compare ordered, except that != is
// true when either side is NaN.
func compare(op ir.Op, a, b *tile) *tile {
	t := newTile(ir.Bool, a.shape)
	out := t.ints
	if a.flts != nil {
		x, y := a.flts, b.flts
		for i := range out {
			var r bool
			switch op {
			case ir.OpEq:
				r = x[i] == y[i]
			case ir.OpNe:
				r = x[i] != y[i]
			case ir.OpLt:
				r = x[i] < y[i]
			case ir.OpLe:
				r = x[i] <= y[i]
			case ir.OpGt:
				r = x[i] > y[i]
			case ir.OpGe:
				r = x[i] >= y[i]
			}
			out[i] = b2i(r)
		}
		return t
	}
	x, y := a.ints, b.ints
	k := a.kind
	for i := range out {
		var r bool
		switch op {
		case ir.OpEq:
			r = x[i] == y[i]
		case ir.OpNe:
			r = x[i] != y[i]
		case ir.OpLt:
			r = less(k, x[i], y[i])
		case ir.OpLe:
			r = !less(k, y[i], x[i])
		case ir.OpGt:
			r = less(k, y[i], x[i])
		case ir.OpGe:
			r = !less(k, x[i], y[i])
		}
		out[i] = b2i(r)
	}
	return t
}
