package kernelgen

// This file holds the generator's state and the statements it writes.

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// val is a value of the kernel being generated: a variable name, its dtype,
// its shape and an interval holding every lane's value (masked-off lanes
// included: loads put 0 there, and 0 lies in every input's interval).
type val struct {
	name   string
	dt     dtype
	m, n   bool // spans the first (m) and second (n) block axis; neither: a scalar
	one    bool // neither m nor n, but a block of one element (a 1-D reduction with keep_dims)
	lo, hi float64
	// exact says the value is an integer the dtype holds exactly, computed
	// without rounding: compares, float-to-int casts and argmax take only
	// exact floats, so rounding differences never flip a result.
	exact bool
	// err bounds the distance of either implementation's value (the GPU's,
	// with its approximate math and fused multiply-adds, and the
	// interpreter's) from the exact result on the same inputs: only values
	// whose err fits the tolerance of --check are stored.
	err float64
}

// full reports whether v has the shape of the whole block.
func (v val) full(twoD bool) bool { return v.m && (v.n || !twoD) }

func (v val) mag() float64 { return max(-v.lo, v.hi) }

// gen is one kernel being generated.
type gen struct {
	r      *rand.Rand
	twoD   bool
	body   []string
	indent int
	pool   []val
	nvar   int

	// The kernel's parameters: tensors (NAME_ptr, launched with NAME),
	// then runtime scalars, then constexprs; args are the launch's
	// arguments for the scalars and constexprs.
	tensors      []string
	scalarParams []string
	scalarArgs   []string
	constParams  []string // NAME: tl.constexpr, launched by keyword
	constArgs    []string
	lets         []string // NAME=EXPR bindings
	checks       []string
	outputs      []Output
	features     []string
	// size is the lane count of the block axes (1-D: m only).
	bm, bn int
	mask   string // the block's mask expression name
	// warps, where not 0, is the launch's num_warps (dots.go needs 4 or
	// 8 for wgmma); otherwise it is drawn as the kernel ends.
	warps int
	// launchExtra are launch keywords after num_warps (num_stages=).
	launchExtra []string
	// wgmma says every dot of the kernel has a wgmma form on sm_90a.
	wgmma bool
	// keep are values stored each to an output of its own, before the
	// stores drawn at random: the dots' results, so that none is lost to
	// the epilogue.
	keep []val
}

func (g *gen) emit(format string, a ...any) {
	g.body = append(g.body, strings.Repeat("    ", g.indent+1)+fmt.Sprintf(format, a...))
}

// define assigns expr to a fresh variable and adds the value to the pool.
func (g *gen) define(expr string, v val) val {
	v.name = fmt.Sprintf("v%d", g.nvar)
	g.nvar++
	g.emit("%s = %s", v.name, expr)
	g.pool = append(g.pool, v)
	return v
}

func (g *gen) feature(f string) {
	for _, x := range g.features {
		if x == f {
			return
		}
	}
	g.features = append(g.features, f)
}

func (g *gen) intn(n int) int { return g.r.IntN(n) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// pick returns a value of the pool, favouring the recent ones so that
// chains grow deep.
func (g *gen) pick() val {
	if g.chance(0.5) && len(g.pool) > 3 {
		return g.pool[len(g.pool)-1-g.intn(3)]
	}
	return g.pool[g.intn(len(g.pool))]
}

// pickWhere returns a pool value that ok accepts, or false.
func (g *gen) pickWhere(ok func(val) bool) (val, bool) {
	var c []val
	for _, v := range g.pool {
		if ok(v) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return val{}, false
	}
	return c[g.intn(len(c))], true
}

// shapeTuple is the tl shape of the whole block.
func (g *gen) shapeTuple() string {
	if g.twoD {
		return "(BM, BN)"
	}
	return "(BLOCK,)"
}

// broadcastFull makes v span the whole block.
func (g *gen) broadcastFull(v val) val {
	if v.full(g.twoD) {
		return v
	}
	w := v
	w.m, w.n, w.one = true, g.twoD, false
	return g.define(fmt.Sprintf("tl.broadcast_to(%s, %s)", v.name, g.shapeTuple()), w)
}

// cast converts v to d where the conversion is defined and exact enough
// for the comparison; ok is false where it is not.
func (g *gen) cast(v val, d dtype) (val, bool) {
	if v.dt == d {
		return v, true
	}
	w, ok := converted(v, d)
	if !ok {
		return val{}, false
	}
	return g.define(fmt.Sprintf("%s.to(tl.%s)", v.name, d.name()), w), true
}

// converted is v converted to d, explicitly or by promotion.
func converted(v val, d dtype) (val, bool) {
	if v.dt == d {
		return v, true
	}
	if d == boolean || !d.fits(v.lo, v.hi) {
		return val{}, false
	}
	w := v
	w.dt = d
	switch {
	case d.isInt() && v.dt.isFloat():
		if !v.exact {
			return val{}, false
		}
	case d.isFloat():
		w.exact = v.exact && v.mag() <= d.exactLimit()
		w = w.withErr(v.err)
	}
	return w, true
}

// promoted is the dtype Triton computes a binary operation of a and b in,
// for the pairs whose rule is beyond doubt; false for the others (bools,
// uint8 with int8, fp16 with bf16), which the generator casts explicitly.
func promoted(a, b dtype) (dtype, bool) {
	if a > b {
		a, b = b, a // f32 < f16 < bf16 < i32 < i8 < u8 < i64 < boolean
	}
	switch {
	case a == b && a != boolean:
		return a, true
	case b == boolean || a == f16 && b == bf16:
		return 0, false
	case a == f32:
		return f32, true
	case a == f16:
		return f16, true
	case a == bf16:
		return f32, true
	case b == i64:
		return i64, true
	case a == i32:
		return i32, true
	}
	return 0, false // int8 with uint8
}

// operands readies a and b for a binary operation: half the time, where
// the promotion rule is sure, they stay as they are (implicit is true and
// the caller asserts the result's dtype); otherwise both are cast to their
// common dtype.
func (g *gen) operands(a, b val) (ca, cb val, implicit, ok bool) {
	if p, sure := promoted(a.dt, b.dt); sure && a.dt != b.dt && g.chance(0.5) {
		ca, ok1 := converted(a, p)
		cb, ok2 := converted(b, p)
		if ok1 && ok2 {
			ca.name, cb.name = a.name, b.name
			return ca, cb, true, true
		}
	}
	ca, cb, ok = g.unify(a, b)
	return ca, cb, false, ok
}

// defineAsserted is define followed, for an implicitly promoted result, by
// a tl.static_assert of its dtype: tri and Triton must agree on it.
func (g *gen) defineAsserted(expr string, v val, implicit bool) val {
	v = g.define(expr, v)
	if implicit {
		g.emit("tl.static_assert(%s.dtype == tl.%s)", v.name, v.dt.name())
	}
	return v
}

// common is the dtype two values are cast to before a binary operation:
// the casts are explicit so that no generated kernel leans on a promotion
// rule.
func common(a, b dtype) dtype {
	switch {
	case a == b:
		return a
	case a == boolean:
		return b
	case b == boolean:
		return a
	case a.isFloat() && b.isFloat():
		return f32
	case a.isFloat():
		return a
	case b.isFloat():
		return b
	case a == i64 || b == i64:
		return i64
	}
	return i32
}

// unify casts a and b to their common dtype.
func (g *gen) unify(a, b val) (val, val, bool) {
	d := common(a.dt, b.dt)
	ca, ok1 := g.cast(a, d)
	if !ok1 {
		return a, b, false
	}
	cb, ok2 := g.cast(b, d)
	return ca, cb, ok2
}

// result is the value of an operation on args with interval [lo, hi]
// in dtype d, or false where d cannot hold it.
func result(d dtype, lo, hi float64, exact bool, args ...val) (val, bool) {
	if !d.fits(lo, hi) {
		return val{}, false
	}
	v := val{dt: d, lo: lo, hi: hi, exact: exact}
	for _, a := range args {
		v.m, v.n, v.one = v.m || a.m, v.n || a.n, v.one || a.one
		v.exact = v.exact && a.exact
	}
	if d.isFloat() && max(-lo, hi) > d.exactLimit() {
		v.exact = false
	}
	if d.isInt() || d == boolean {
		v.exact = true
	}
	if v.exact {
		v.err = 0
	}
	return v, true
}

// storable reports whether v's value on the GPU and in the interpreter are
// sure to agree within the tolerance of --check.
func (v val) storable() bool {
	return !v.dt.isFloat() || 2*v.err <= v.dt.tolerance(v.lo, v.hi)
}

// withErr returns v with its error bound set to err plus the rounding of
// its result.
func (v val) withErr(err float64) val {
	v.err = err + rounding(v.dt, v.lo, v.hi, v.exact)
	if v.exact {
		v.err = 0
	}
	return v
}
