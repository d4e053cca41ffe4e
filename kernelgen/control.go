package kernelgen

// This file generates the structured parts of a kernel: a loop with a
// loop-carried accumulator, an if on a scalar, reductions and scans.

import (
	"fmt"
	"math"
	"strings"
)

// inner generates n operations in a nested block and returns the last
// value made there; values made inside leave the pool at the block's end.
func (g *gen) inner(n int) val {
	g.indent++
	for range n {
		g.step()
	}
	g.indent--
	return g.pool[len(g.pool)-1]
}

// loop accumulates a value computed in a loop body over R iterations (a
// for over a range of a runtime argument or a constexpr, a
// tl.static_range, or a while loop), sometimes adding and subtracting on
// alternate iterations.
func (g *gen) loop() {
	g.feature("loop")
	trips := 1 + g.intn(6)
	d := []dtype{f32, i32, i64}[g.intn(3)]
	accName := fmt.Sprintf("v%d", g.nvar)
	g.nvar++
	g.emit("%s = tl.zeros(%s, dtype=tl.%s)", accName, g.shapeTuple(), d.name())
	while := false
	switch g.intn(5) {
	case 0:
		g.scalar("R", fmt.Sprint(trips))
		g.emit("for i in range(R):")
	case 1:
		g.scalar("R", fmt.Sprint(trips))
		g.emit("for i in range(1, R + 1):")
	case 2:
		g.scalar("RC: tl.constexpr", fmt.Sprintf("RC=%d", trips))
		g.emit("for i in range(0, RC):")
	case 3:
		g.scalar("R", fmt.Sprint(trips))
		g.emit("i = 0")
		g.emit("while i < R:")
		while = true
	default:
		g.emit("for i in tl.static_range(%d):", trips)
	}
	// end closes the body: a while loop counts its trips.
	end := func() {
		if while {
			g.emit("i += 1")
		}
		g.indent--
	}
	saved := len(g.pool)
	t := g.inner(1 + g.intn(3))
	g.indent++
	t, ok := g.cast(t, d)
	if !ok || t.mag()*float64(trips) > min(d.exactLimit(), 1<<30) {
		// The sum could leave the exact range: keep a running maximum.
		if !ok {
			t = val{name: "0", dt: d, exact: true}
		}
		g.emit("%s = tl.maximum(%s, %s)", accName, accName, t.name)
		end()
		g.pool = g.pool[:saved]
		g.pool = append(g.pool, val{name: accName, dt: d, m: true, n: g.twoD, lo: min(0, t.lo), hi: max(0, t.hi), exact: d.isInt() || t.exact, err: t.err})
		return
	}
	add, sub := accName+" = "+accName+" + "+t.name, accName+" = "+accName+" - "+t.name
	if g.chance(0.5) {
		add, sub = accName+" += "+t.name, accName+" -= "+t.name
	}
	if g.chance(0.5) {
		g.emit("if i %% 2 == 0:")
		g.emit("    %s", add)
		g.emit("else:")
		g.emit("    %s", sub)
	} else {
		g.emit("%s", add)
	}
	end()
	g.pool = g.pool[:saved]
	b := t.mag() * float64(trips)
	acc := val{name: accName, dt: d, m: true, n: g.twoD, lo: -b, hi: b, exact: t.exact}
	g.pool = append(g.pool, acc.withErr(float64(trips)*(t.err+rounding(d, -b, b, t.exact))))
}

// branch assigns a variable in both arms of an if on a runtime scalar.
func (g *gen) branch() {
	g.feature("if")
	cond := "tl.program_id(0) % 2 == 0"
	for _, v := range g.pool {
		if v.name == "alpha" && g.chance(0.7) {
			cond = "alpha > 0"
		}
	}
	// A scalar bool computed in the kernel (a compare of reductions, of
	// the program id or of a scalar argument).
	if c, ok := g.pickWhere(func(v val) bool { return v.dt == boolean && !v.m && !v.n && !v.one }); ok && g.chance(0.6) {
		cond = c.name
	}
	saved := len(g.pool)
	g.emit("if %s:", cond)
	a := g.inner(1 + g.intn(3))
	lenA := len(g.body)
	g.pool = g.pool[:saved]
	g.emit("else:")
	b := g.inner(1 + g.intn(3))
	g.pool = g.pool[:saved]
	// Both arms end by assigning the same name, of the same type and
	// shape: the whole block, in their common dtype.
	d := common(a.dt, b.dt)
	if d == boolean {
		d = i32
	}
	okA, okB := castable(a, d), castable(b, d)
	if !okA || !okB {
		d = f32
		okA, okB = castable(a, d), castable(b, d)
	}
	if !okA || !okB {
		// No common dtype: each arm stores a constant instead.
		a, b = val{name: "0", dt: i32, exact: true}, val{name: "1", dt: i32, lo: 1, hi: 1, exact: true}
		d = i32
	}
	out := fmt.Sprintf("v%d", g.nvar)
	g.nvar++
	armA := g.armResult(a, d, out)
	armB := g.armResult(b, d, out)
	// The first arm's lines go before the else.
	g.body = append(g.body[:lenA], append(armA, g.body[lenA:]...)...)
	g.body = append(g.body, armB...)
	g.pool = append(g.pool, val{name: out, dt: d, m: true, n: g.twoD, lo: min(a.lo, b.lo), hi: max(a.hi, b.hi),
		exact: d.isInt() || (a.exact && b.exact && max(a.mag(), b.mag()) <= d.exactLimit())}.withErr(max(a.err, b.err)))
}

// castable reports whether cast would convert v to d.
func castable(v val, d dtype) bool {
	if v.dt == d {
		return true
	}
	if d == boolean || !d.fits(v.lo, v.hi) {
		return false
	}
	return !(d.isInt() && v.dt.isFloat() && !v.exact)
}

// armResult is the last line of an if arm: out = v, as d, over the whole
// block.
func (g *gen) armResult(v val, d dtype, out string) []string {
	expr := v.name
	if v.dt != d {
		expr = fmt.Sprintf("%s.to(tl.%s)", expr, d.name())
	}
	if !v.full(g.twoD) {
		expr = fmt.Sprintf("tl.broadcast_to(%s, %s)", expr, g.shapeTuple())
	}
	return []string{fmt.Sprintf("%s%s = %s", indentOf(g.indent+2), out, expr)}
}

func indentOf(n int) string {
	s := ""
	for range n {
		s += "    "
	}
	return s
}

// reduce reduces a block-shaped value along an axis, with the masked
// lanes set to the reduction's neutral value, and puts the result (kept
// as a broadcastable row, column or scalar) in the pool.
func (g *gen) reduce() {
	v, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && v.mag() < 1e6 })
	if !ok {
		return
	}
	kinds := []string{"sum", "max", "min", "argmax", "argmin"}
	kind := kinds[g.intn(len(kinds))]
	switch {
	case kind == "sum" && v.dt != f32 && v.dt != i32 && v.dt != i64:
		if v, ok = g.cast(v, map[bool]dtype{true: f32, false: i32}[v.dt.isFloat()]); !ok {
			return
		}
	case (kind == "argmax" || kind == "argmin") && !v.exact:
		return
	}
	g.feature("reduce")
	v = g.broadcastFull(v)
	axis, size := 0, g.bm
	if g.twoD && g.chance(0.5) {
		axis, size = 1, g.bn
	}
	neutral := "0"
	lo, hi := v.lo, v.hi
	switch kind {
	case "sum":
		lo, hi = min(0, v.lo)*float64(size), max(0, v.hi)*float64(size)
	case "max", "argmax":
		neutral = numLit(math.Floor(v.lo), v.dt)
	case "min", "argmin":
		neutral = numLit(math.Ceil(v.hi), v.dt)
	}
	if kind == "argmax" || kind == "argmin" {
		lo, hi = 0, float64(size-1)
	}
	d := v.dt
	if (kind == "max" || kind == "min") && d != f32 && d != i32 && d != i64 {
		// Triton takes the max and min of types narrower than 32 bits in
		// fp32 or int32, and returns that type.
		d = map[bool]dtype{true: f32, false: i32}[d.isFloat()]
	}
	if kind == "argmax" || kind == "argmin" {
		d = i32
	}
	r, ok := result(d, lo, hi, true, v)
	if !ok {
		return
	}
	r.err = v.err
	if kind == "sum" {
		r = r.withErr(float64(size) * (v.err + rounding(d, lo, hi, r.exact)))
	}
	m := g.define(fmt.Sprintf("tl.where(%s, %s, tl.full(%s, %s, tl.%s))", g.mask, v.name, g.shapeTuple(), neutral, v.dt.name()), v)
	keep := g.chance(0.4)
	call := g.axisCall(kind, m.name, axis)
	if keep {
		call = strings.TrimSuffix(call, ")") + ", keep_dims=True)"
	}
	// The result spans the axis not reduced; a 1-D block reduces to a
	// scalar (a one-element block with keep_dims), which broadcasts alike.
	r.m, r.n, r.one = g.twoD && axis == 1, g.twoD && axis == 0, !g.twoD && keep
	if keep || !g.twoD {
		g.define(call, r)
		return
	}
	idx := "[:, None]"
	if axis == 0 {
		idx = "[None, :]"
	}
	g.define(call+idx, r)
}

// numLit spells x as a literal of d's kind.
func numLit(x float64, d dtype) string {
	if d.isFloat() {
		return floatLit(x)
	}
	return fmt.Sprint(int64(x))
}

// scan takes the cumulative sum of a block-shaped value along an axis.
func (g *gen) scan() {
	v, ok := g.pickWhere(func(v val) bool { return v.dt != boolean && v.mag() < 1e6 })
	if !ok {
		return
	}
	if v.dt != f32 && v.dt != i32 && v.dt != i64 {
		if v, ok = g.cast(v, map[bool]dtype{true: f32, false: i32}[v.dt.isFloat()]); !ok {
			return
		}
	}
	axis, size := 0, g.bm
	if g.twoD && g.chance(0.5) {
		axis, size = 1, g.bn
	}
	r, ok := result(v.dt, min(0, v.lo)*float64(size), max(0, v.hi)*float64(size), true, v)
	if !ok {
		return
	}
	r = r.withErr(float64(size) * (v.err + rounding(v.dt, r.lo, r.hi, r.exact)))
	g.feature("scan")
	v = g.broadcastFull(v)
	r.m, r.n = true, g.twoD
	g.define(g.axisCall("cumsum", v.name, axis), r)
}

// axisCall spells tl.f(x, axis=axis) in one of the ways Triton accepts:
// axis by keyword or by position, or as the tensor's method.
func (g *gen) axisCall(f, x string, axis int) string {
	switch g.intn(4) {
	case 0:
		return fmt.Sprintf("tl.%s(%s, %d)", f, x, axis)
	case 1:
		return fmt.Sprintf("%s.%s(axis=%d)", x, f, axis)
	}
	return fmt.Sprintf("tl.%s(%s, axis=%d)", f, x, axis)
}
