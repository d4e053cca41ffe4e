package kernelgen

// This file generates elementwise operations over the pool: each checks
// its operands' intervals first and declines where the result could
// overflow, divide by zero or leave a math function's domain.

import (
	"fmt"
	"math"
	"strings"
)

// op tries to add one operation to the kernel; false: its preconditions
// failed and nothing was emitted.
type op func(g *gen) bool

var elementwiseOps = []struct {
	weight int
	f      op
}{
	{6, (*gen).binaryArith},
	{4, (*gen).literalArith},
	{2, (*gen).divide},
	{2, (*gen).bitwise},
	{3, (*gen).compare},
	{3, (*gen).where},
	{2, (*gen).minMax},
	{2, (*gen).unary},
	{3, (*gen).math},
	{3, (*gen).randomCast},
}

// step adds one elementwise operation.
func (g *gen) step() {
	total := 0
	for _, o := range elementwiseOps {
		total += o.weight
	}
	for range 20 {
		n := g.intn(total)
		for _, o := range elementwiseOps {
			if n -= o.weight; n < 0 {
				if o.f(g) {
					return
				}
				break
			}
		}
	}
}

func notBool(v val) bool { return v.dt != boolean }

func corners(f func(x, y float64) float64, a, b val) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range []float64{a.lo, a.hi} {
		for _, y := range []float64{b.lo, b.hi} {
			r := f(x, y)
			lo, hi = min(lo, r), max(hi, r)
		}
	}
	return lo, hi
}

var arith = map[string]func(x, y float64) float64{
	"+": func(x, y float64) float64 { return x + y },
	"-": func(x, y float64) float64 { return x - y },
	"*": func(x, y float64) float64 { return x * y },
}

func (g *gen) binaryArith() bool {
	a, ok1 := g.pickWhere(notBool)
	b, ok2 := g.pickWhere(notBool)
	if !ok1 || !ok2 {
		return false
	}
	a, b, implicit, ok := g.operands(a, b)
	if !ok {
		return false
	}
	o := []string{"+", "-", "*"}[g.intn(3)]
	lo, hi := corners(arith[o], a, b)
	r, ok := result(a.dt, lo, hi, true, a, b)
	if !ok {
		return false
	}
	if o == "*" {
		r = r.withErr(a.err*b.mag() + b.err*a.mag() + a.err*b.err)
	} else {
		r = r.withErr(a.err + b.err)
	}
	g.defineAsserted(fmt.Sprintf("%s %s %s", a.name, o, b.name), r, implicit)
	return true
}

// literal returns a small constant for an operation on dtype d, spelled as
// Python writes it, so that it takes d's type.
func (g *gen) literal(d dtype) (string, float64) {
	if d.isFloat() {
		x := []float64{0.5, 1.5, 2.0, -1.0, 3.0, 0.25, -2.5}[g.intn(7)]
		return floatLit(x), x
	}
	x := g.intn(7) + 1
	if d != u8 && g.chance(0.3) {
		x = -x
	}
	return fmt.Sprint(x), float64(x)
}

func (g *gen) literalArith() bool {
	a, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && (v.m || v.n) })
	if !ok {
		return false
	}
	o := []string{"+", "-", "*"}[g.intn(3)]
	s, x := g.literal(a.dt)
	c := val{lo: x, hi: x, exact: true}
	expr := fmt.Sprintf("%s %s %s", a.name, o, s)
	lo, hi := corners(arith[o], a, c)
	if g.chance(0.4) {
		expr = fmt.Sprintf("%s %s %s", s, o, a.name)
		lo, hi = corners(arith[o], c, a)
	}
	r, ok := result(a.dt, lo, hi, x == math.Trunc(x), a)
	if !ok {
		return false
	}
	r = r.withErr(a.err * max(1, math.Abs(x)))
	g.define(expr, r)
	return true
}

func (g *gen) divide() bool {
	a, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && (v.m || v.n) })
	if !ok {
		return false
	}
	if a.dt.isFloat() {
		// Triton divides fp16 and bf16 in fp32: so does the result.
		q := f32
		if g.chance(0.5) {
			d := []float64{2, 4, 0.5, -2, 3}[g.intn(5)]
			lo, hi := corners(func(x, y float64) float64 { return x / y }, a, val{lo: d, hi: d})
			r, ok := result(q, lo, hi, d == 0.5, a) // only a division by 0.5 keeps integers integers
			if !ok {
				return false
			}
			r = r.withErr(2*a.err/math.Abs(d) + rounding(q, lo, hi, false))
			g.define(fmt.Sprintf("%s / %s", a.name, floatLit(d)), r)
			return true
		}
		b, ok := g.pickWhere(func(v val) bool { return v.dt == a.dt })
		if !ok {
			return false
		}
		den := g.define(fmt.Sprintf("tl.abs(%s) + 1.0", b.name), val{dt: b.dt, m: b.m, n: b.n, one: b.one, lo: 1, hi: b.mag() + 1, exact: b.exact}.withErr(b.err))
		r, ok := result(q, -a.mag(), a.mag(), false, a, den)
		if !ok {
			return false
		}
		// The GPU divides approximately: the rounding counts twice.
		r = r.withErr(a.err + a.mag()*den.err + rounding(q, r.lo, r.hi, false))
		g.define(fmt.Sprintf("%s / %s", a.name, den.name), r)
		return true
	}
	c := float64([]int{2, 3, 5, 7}[g.intn(4)])
	// Integer division truncates or floors by the language's rule; both
	// stay within these bounds.
	o, lo, hi := "//", math.Min(0, a.lo/c-1), math.Max(0, a.hi/c+1)
	if g.chance(0.5) {
		o, lo, hi = "%", -(c - 1), c-1
	}
	lo, hi = max(lo, min(0, a.lo)), min(hi, max(0, a.hi))
	r, ok := result(a.dt, lo, hi, true, a)
	if !ok {
		return false
	}
	g.define(fmt.Sprintf("%s %s %d", a.name, o, int(c)), r)
	return true
}

func (g *gen) bitwise() bool {
	isInt := func(v val) bool { return v.dt.isInt() }
	a, ok1 := g.pickWhere(isInt)
	b, ok2 := g.pickWhere(isInt)
	if g.chance(0.3) {
		isBool := func(v val) bool { return v.dt == boolean }
		a, ok1 = g.pickWhere(isBool)
		b, ok2 = g.pickWhere(isBool)
	}
	if !ok1 || !ok2 {
		return false
	}
	a, b, ok := g.unify(a, b)
	if !ok {
		return false
	}
	k := 1.0
	for k <= max(a.mag(), b.mag()) {
		k *= 2
	}
	lo := -k
	if a.lo >= 0 && b.lo >= 0 {
		lo = 0
	}
	r, ok := result(a.dt, lo, k-1, true, a, b)
	if a.dt == boolean {
		r, ok = result(boolean, 0, 1, true, a, b)
	}
	if !ok {
		return false
	}
	g.define(fmt.Sprintf("%s %s %s", a.name, []string{"&", "|", "^"}[g.intn(3)], b.name), r)
	return true
}

func (g *gen) compare() bool {
	usable := func(v val) bool { return v.dt != boolean && v.exact }
	a, ok1 := g.pickWhere(usable)
	b, ok2 := g.pickWhere(usable)
	if !ok1 || !ok2 {
		return false
	}
	a, b, _, ok := g.operands(a, b)
	if !ok || !a.exact || !b.exact {
		return false
	}
	r, _ := result(boolean, 0, 1, true, a, b)
	g.define(fmt.Sprintf("%s %s %s", a.name, []string{"<", "<=", "==", "!=", ">", ">="}[g.intn(6)], b.name), r)
	return true
}

func (g *gen) where() bool {
	c, ok := g.pickWhere(func(v val) bool { return v.dt == boolean })
	if !ok {
		return g.compare()
	}
	a, ok1 := g.pickWhere(notBool)
	b, ok2 := g.pickWhere(notBool)
	if !ok1 || !ok2 {
		return false
	}
	if g.chance(0.3) && (a.m || a.n) {
		// A Python number takes the tensor's dtype.
		s, x := g.literal(a.dt)
		r, ok := result(a.dt, min(a.lo, x), max(a.hi, x), x == math.Trunc(x), a, c)
		if !ok {
			return false
		}
		r.err = a.err
		g.define(fmt.Sprintf("tl.where(%s, %s, %s)", c.name, a.name, s), r)
		return true
	}
	a, b, implicit, ok := g.operands(a, b)
	if !ok {
		return false
	}
	r, ok := result(a.dt, min(a.lo, b.lo), max(a.hi, b.hi), true, a, b, c)
	if !ok {
		return false
	}
	r.err = max(a.err, b.err)
	g.defineAsserted(fmt.Sprintf("tl.where(%s, %s, %s)", c.name, a.name, b.name), r, implicit)
	return true
}

func (g *gen) minMax() bool {
	a, ok1 := g.pickWhere(notBool)
	b, ok2 := g.pickWhere(notBool)
	if !ok1 || !ok2 {
		return false
	}
	a, b, ok := g.unify(a, b)
	if !ok {
		return false
	}
	f, lo, hi := "maximum", max(a.lo, b.lo), max(a.hi, b.hi)
	if g.chance(0.5) {
		f, lo, hi = "minimum", min(a.lo, b.lo), min(a.hi, b.hi)
	}
	d := a.dt
	if d == bf16 {
		d = f32 // Triton compares bf16 in fp32 and returns fp32
	}
	r, ok := result(d, lo, hi, true, a, b)
	if !ok {
		return false
	}
	r.err = max(a.err, b.err)
	g.define(fmt.Sprintf("tl.%s(%s, %s)", f, a.name, b.name), r)
	return true
}

func (g *gen) unary() bool {
	a, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && v.dt != u8 })
	if !ok {
		return false
	}
	if g.chance(0.5) {
		r, ok := result(a.dt, -a.hi, -a.lo, true, a)
		if !ok {
			return false
		}
		r.err = a.err
		g.define("-"+a.name, r)
		return true
	}
	lo := 0.0
	if a.lo > 0 {
		lo = a.lo
	}
	if a.hi < 0 {
		lo = -a.hi
	}
	r, ok := result(a.dt, lo, a.mag(), true, a)
	if !ok {
		return false
	}
	r.err = a.err
	g.define(g.spell("tl.abs(%s)", a.name), r)
	return true
}

// math applies a math function to an fp32 value, casting first.
func (g *gen) math() bool {
	a, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && v.mag() < 1e6 })
	if !ok {
		return false
	}
	if a, ok = g.cast(a, f32); !ok {
		return false
	}
	g.feature("math")
	u := f32.unitRoundoff()
	mk := func(f string, lo, hi, err float64) val {
		return g.define(g.spell(f, a.name), val{dt: f32, m: a.m, n: a.n, one: a.one, lo: lo, hi: hi}.withErr(err))
	}
	switch g.intn(6) {
	case 0:
		if a.hi > 10 {
			a = mk("tl.sin(%s)", -1, 1, a.err+4*u)
		}
		// exp(x) is computed as 2^(x log2 e): the product's rounding is
		// an error in the exponent.
		mk("tl.exp(%s)", math.Exp(a.lo), math.Exp(a.hi), math.Exp(a.hi)*(a.err+16*u*max(1, a.mag())))
	case 1, 2:
		if a.lo <= 0 {
			a = g.define(fmt.Sprintf("tl.abs(%s) + 1.0", a.name), val{dt: f32, m: a.m, n: a.n, one: a.one, lo: 1, hi: a.mag() + 1, exact: a.exact}.withErr(a.err))
		}
		if g.chance(0.5) {
			mk("tl.log(%s)", math.Log(a.lo), math.Log(a.hi), a.err/a.lo+8*u*max(1, math.Log(a.hi), -math.Log(a.lo)))
		} else {
			e := math.Sqrt(a.err)
			if a.lo > 0 {
				e = a.err / (2 * math.Sqrt(a.lo))
			}
			mk("tl.sqrt(%s)", math.Sqrt(a.lo), math.Sqrt(a.hi), e+4*u*math.Sqrt(a.hi))
		}
	case 3:
		mk("tl.sin(%s)", -1, 1, a.err+4*u)
	case 4:
		mk("tl.cos(%s)", -1, 1, a.err+4*u)
	default:
		mk("tl.sigmoid(%s)", 0, 1, a.err/4+8*u)
	}
	return true
}

func (g *gen) randomCast() bool {
	a := g.pick()
	d := tensorDTypes[g.intn(len(tensorDTypes))]
	if a.dt.isInt() && d.isInt() && !d.fits(a.lo, a.hi) {
		// An integer cast that does not fit wraps around (Triton truncates
		// the bits): defined, so generated too.
		g.feature("wrap")
		lo, hi := d.limits()
		r, _ := result(d, lo, hi, true, a)
		g.define(fmt.Sprintf("%s.to(tl.%s)", a.name, d.name()), r)
		return true
	}
	_, ok := g.cast(a, d)
	return ok
}

// floatLit spells x as a Python float literal.
func floatLit(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprint(x)
}

// spell writes the call f ("tl.exp(%s)") on x, sometimes as the tensor
// method Triton also accepts (x.exp()).
func (g *gen) spell(f, x string) string {
	if g.chance(0.3) {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "tl."), "(%s)")
		return x + "." + name + "()"
	}
	return fmt.Sprintf(f, x)
}
