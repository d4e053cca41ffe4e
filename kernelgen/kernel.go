package kernelgen

// This file assembles whole kernels: the block layout (1-D with a tail mask,
// 2-D with broadcast row and column vectors, or a tl.dot over a K loop),
// inputs, the optional loop, branch, reduction and scan, and the stores.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/tri-lang/tri/tensor"
)

// Kernel is one generated kernel: a .tri file whose header records its
// launch, so that `tri run --check` runs it as it stands.
type Kernel struct {
	Seed     uint64
	Name     string
	Source   string
	Features []string // what it exercises: "1d", "2d", "dot", "dots", "loop", "if", "reduce", "scan", "math", ...
	Outputs  []Output
	// Wgmma says that each of the kernel's dots has a form that tri lowers
	// to wgmma on sm_90a (see DotPositions); other kernels' dots fall back
	// to mma.sync or FMAs there.
	Wgmma bool
}

// Options choose what GenerateWith makes.
type Options struct {
	// DotPositions is the share of kernels, from 0 to 1, whose dots stand
	// where tri lowers them specially (dots.go): outside any loop, in
	// loops at num_stages=1 and pipelined, two to four in one loop, with
	// transposes. The other kernels are drawn as before: the same seed
	// gives the same kernel whatever the share, unless the seed is drawn
	// for the dot positions.
	DotPositions float64
}

// DefaultDotPositions is the share of dot-position kernels of Generate.
const DefaultDotPositions = 0.15

// Output is an output tensor and the interval that holds each of its
// elements (every element is written). A value outside it means that the
// generator or the interpreter is wrong; floats may stray from it by their
// rounding, Err or a relative 1e-2.
type Output struct {
	Name   string
	Lo, Hi float64
	Err    float64 // the bound on rounding errors
	Float  bool
}

// Generate returns the kernel of seed with the default options: the same
// seed gives the same text.
func Generate(seed uint64) *Kernel {
	return GenerateWith(seed, Options{DotPositions: DefaultDotPositions})
}

// GenerateWith returns the kernel of seed under o.
func GenerateWith(seed uint64, o Options) *Kernel {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x7269))}
	name := fmt.Sprintf("k%d", seed)
	// The choice of a dot-position kernel has a stream of its own, so that
	// the other kernels stay what they were before dots.go.
	pick := rand.New(rand.NewPCG(seed, 0x646f7473))
	var grid string
	if pick.Float64() < o.DotPositions {
		grid = g.dotPositions()
	} else {
		switch n := g.intn(10); {
		case n < 2:
			grid = g.dotLayout()
		case n < 6:
			grid = g.layout2D()
		default:
			grid = g.layout1D()
		}
	}
	g.alpha()
	for range 2 + g.intn(6) {
		g.step()
	}
	if g.chance(0.3) {
		g.loop()
	}
	if g.chance(0.25) {
		g.branch()
	}
	if g.chance(0.35) {
		g.reduce()
	}
	if g.chance(0.2) {
		g.scan()
	}
	for range g.intn(5) {
		g.step()
	}
	g.stores()

	params := make([]string, 0, len(g.tensors)+len(g.scalarParams))
	args := make([]string, 0, len(g.tensors)+len(g.scalarArgs)+1)
	for _, t := range g.tensors {
		params = append(params, t+"_ptr")
		args = append(args, t)
	}
	params = append(append(params, g.scalarParams...), g.constParams...)
	args = append(append(args, g.scalarArgs...), g.constArgs...)
	if g.warps == 0 {
		g.warps = 1 << g.intn(4)
	}
	args = append(args, fmt.Sprintf("num_warps=%d", g.warps))
	args = append(args, g.launchExtra...)

	var b strings.Builder
	fmt.Fprintf(&b, "# A random kernel: kernelgen seed %d (%s).\n#\n", seed, strings.Join(g.features, ", "))
	fmt.Fprintf(&b, "# launch: %s[%s](%s)\n", name, grid, strings.Join(args, ", "))
	for _, l := range g.lets {
		fmt.Fprintf(&b, "# let: %s\n", l)
	}
	fmt.Fprintf(&b, "# check: %s\n", strings.Join(g.checks, " "))
	b.WriteString("import triton\nimport triton.language as tl\n\n\n@triton.jit\n")
	fmt.Fprintf(&b, "def %s(%s):\n", name, strings.Join(params, ", "))
	for _, l := range g.body {
		b.WriteString(l + "\n")
	}
	return &Kernel{Seed: seed, Name: name, Source: b.String(), Features: g.features, Outputs: g.outputs, Wgmma: g.wgmma}
}

// input adds an input tensor named name of the given dims (a --let
// argument list) and returns its value, to be loaded by the caller. Its
// data are small integers (exact in every dtype, so sums and products
// round nowhere) or, for floats, uniform in [0, 1). Every interval holds
// 0, which masked loads put in the tail lanes.
func (g *gen) input(name, dims string) val {
	d := tensorDTypes[g.intn(len(tensorDTypes))]
	g.tensors = append(g.tensors, name)
	if d.isFloat() && g.chance(0.3) {
		g.lets = append(g.lets, fmt.Sprintf("%s=rand(%s, dtype='%s')", name, dims, d.name()))
		return val{name: name, dt: d, lo: 0, hi: 1}
	}
	lo, hi := -8, 9
	switch {
	case d == u8:
		lo, hi = 0, 16
		if g.chance(0.3) {
			hi = 256
		}
	case d == i8 && g.chance(0.3):
		lo, hi = -128, 128
	case d == i32 && g.chance(0.2):
		lo, hi = -100000, 100000
	}
	g.lets = append(g.lets, fmt.Sprintf("%s=randint(%d, %d, %s, dtype='%s')", name, lo, hi, dims, d.name()))
	return val{name: name, dt: d, lo: float64(lo), hi: float64(hi - 1), exact: true}
}

// pow2 is a random power of two in [lo, hi].
func (g *gen) pow2(lo, hi int) int {
	n := lo
	for k := g.intn(log2(hi) - log2(lo) + 1); k > 0; k-- {
		n *= 2
	}
	return n
}

func log2(n int) int {
	b := 0
	for n > 1 {
		n /= 2
		b++
	}
	return b
}

// scalar adds a scalar parameter and its launch argument; constexprs go
// last, launched by keyword.
func (g *gen) scalar(param, arg string) {
	if strings.HasSuffix(param, "tl.constexpr") {
		g.constParams = append(g.constParams, param)
		g.constArgs = append(g.constArgs, arg)
		return
	}
	g.scalarParams = append(g.scalarParams, param)
	g.scalarArgs = append(g.scalarArgs, arg)
}

// alpha adds, sometimes, a runtime fp32 scalar parameter.
func (g *gen) alpha() {
	if g.chance(0.6) {
		return
	}
	x := []float64{1.5, -2.0, 0.5, 3.0}[g.intn(4)]
	g.scalar("alpha", floatLit(x))
	g.pool = append(g.pool, val{name: "alpha", dt: f32, lo: x, hi: x, exact: x == math.Trunc(x)})
}

// layout1D is one program per BLOCK elements, the last block masked.
func (g *gen) layout1D() string {
	g.feature("1d")
	block := g.pow2(16, 1024)
	n := 1 + g.intn(4*block)
	g.bm, g.mask = block, "mask"
	g.lets = append(g.lets, fmt.Sprintf("n=%d", n))
	g.emit("pid = tl.program_id(0)")
	g.emit("offs = pid * BLOCK + tl.arange(0, BLOCK)")
	g.emit("mask = offs < n")
	g.pool = append(g.pool, val{name: "pid", dt: i32, lo: 0, hi: float64((n - 1) / block), exact: true})
	for i := range 1 + g.intn(3) {
		v := g.input(fmt.Sprintf("x%d", i), "n")
		v.m = true
		g.emit("%s = tl.load(%s_ptr + offs, mask=mask, other=0)", v.name, v.name)
		g.pool = append(g.pool, v)
	}
	g.scalar("n", "n")
	g.scalar("BLOCK: tl.constexpr", fmt.Sprintf("BLOCK=%d", block))
	return fmt.Sprintf("(triton.cdiv(n, %d),)", block)
}

// layout2D is a 2-D grid of BM x BN blocks over an M x N matrix, with
// inputs of the matrix's shape, row vectors (one value per row, broadcast
// along the columns) and column vectors.
func (g *gen) layout2D() string {
	g.feature("2d")
	bm, bn := g.pow2(2, 64), g.pow2(2, 64)
	for bm*bn > 4096 {
		bn /= 2
	}
	m, n := 1+g.intn(3*bm), 1+g.intn(3*bn)
	g.bm, g.bn, g.twoD, g.mask = bm, bn, true, "mask"
	g.lets = append(g.lets, fmt.Sprintf("M=%d", m), fmt.Sprintf("N=%d", n))
	g.emit("om = tl.program_id(0) * BM + tl.arange(0, BM)")
	g.emit("on = tl.program_id(1) * BN + tl.arange(0, BN)")
	g.emit("mask_m = om < M")
	g.emit("mask_n = on < N")
	g.emit("mask = mask_m[:, None] & mask_n[None, :]")
	g.emit("offs = om[:, None] * N + on[None, :]")
	for i := range 1 + g.intn(3) {
		name := fmt.Sprintf("x%d", i)
		switch g.intn(4) {
		case 0:
			v := g.input(name, "M")
			v.m = true
			g.emit("%s = tl.load(%s_ptr + om, mask=mask_m, other=0)[:, None]", name, name)
			g.pool = append(g.pool, v)
		case 1:
			v := g.input(name, "N")
			v.n = true
			g.emit("%s = tl.load(%s_ptr + on, mask=mask_n, other=0)[None, :]", name, name)
			g.pool = append(g.pool, v)
		default:
			v := g.input(name, "M, N")
			v.m, v.n = true, true
			g.emit("%s = tl.load(%s_ptr + offs, mask=mask, other=0)", name, name)
			g.pool = append(g.pool, v)
		}
	}
	g.scalar("M", "M")
	g.scalar("N", "N")
	g.scalar("BM: tl.constexpr", fmt.Sprintf("BM=%d", bm))
	g.scalar("BN: tl.constexpr", fmt.Sprintf("BN=%d", bn))
	return fmt.Sprintf("(triton.cdiv(M, %d), triton.cdiv(N, %d))", bm, bn)
}

// dotLayout is a tiled matmul: an fp16 or bf16 tl.dot into an fp32
// accumulator over a K loop with masked edges; the kernel's remaining
// operations are its epilogue.
func (g *gen) dotLayout() string {
	g.feature("dot")
	bm, bn, bk := g.pow2(16, 64), g.pow2(16, 64), g.pow2(16, 64)
	m, n, k := 1+g.intn(3*bm), 1+g.intn(3*bn), 1+g.intn(3*bk)
	g.bm, g.bn, g.twoD, g.mask = bm, bn, true, "mask"
	// Small integers make every product and sum exact, in tf32 too.
	d := []dtype{f16, f16, bf16, i8, f32}[g.intn(5)]
	lo, hi, accType, other := -3, 4, f32, "0.0"
	acc := []string{"acc += tl.dot(a, b)", "acc = tl.dot(a, b, acc)"}[g.intn(2)]
	switch d {
	case i8:
		// Triton's int8 dot needs K >= 32.
		bk = max(bk, 32)
		lo, hi, accType, other = -128, 128, i32, "0"
		acc = []string{"acc += tl.dot(a, b)", "acc = tl.dot(a, b, acc, out_dtype=tl.int32)"}[g.intn(2)]
	case f32:
		acc = []string{"acc += tl.dot(a, b)", `acc = tl.dot(a, b, acc, input_precision="ieee")`, `acc += tl.dot(a, b, input_precision="tf32x3")`}[g.intn(3)]
	}
	g.feature("dot-" + d.name())
	g.tensors = append(g.tensors, "a", "b")
	g.lets = append(g.lets, fmt.Sprintf("M=%d", m), fmt.Sprintf("N=%d", n), fmt.Sprintf("K=%d", k),
		fmt.Sprintf("a=randint(%d, %d, M, K, dtype='%s')", lo, hi, d.name()),
		fmt.Sprintf("b=randint(%d, %d, K, N, dtype='%s')", lo, hi, d.name()))
	g.emit("om = tl.program_id(0) * BM + tl.arange(0, BM)")
	g.emit("on = tl.program_id(1) * BN + tl.arange(0, BN)")
	g.emit("ok = tl.arange(0, BK)")
	g.emit("acc = tl.zeros((BM, BN), dtype=tl.%s)", accType.name())
	g.emit("for k in range(0, K, BK):")
	g.emit("    a = tl.load(a_ptr + om[:, None] * K + (k + ok)[None, :], mask=(om[:, None] < M) & ((k + ok)[None, :] < K), other=%s)", other)
	g.emit("    b = tl.load(b_ptr + (k + ok)[:, None] * N + on[None, :], mask=((k + ok)[:, None] < K) & (on[None, :] < N), other=%s)", other)
	g.emit("    %s", acc)
	g.emit("mask = (om[:, None] < M) & (on[None, :] < N)")
	g.emit("offs = om[:, None] * N + on[None, :]")
	p := float64(max(-lo, hi-1) * max(-lo, hi-1) * k)
	g.pool = append(g.pool, val{name: "acc", dt: accType, m: true, n: true, lo: -p, hi: p, exact: true})
	for _, s := range []string{"M", "N", "K"} {
		g.scalar(s, s)
	}
	g.scalar("BM: tl.constexpr", fmt.Sprintf("BM=%d", bm))
	g.scalar("BN: tl.constexpr", fmt.Sprintf("BN=%d", bn))
	g.scalar("BK: tl.constexpr", fmt.Sprintf("BK=%d", bk))
	return fmt.Sprintf("(triton.cdiv(M, %d), triton.cdiv(N, %d))", bm, bn)
}

// stores writes one to three values of the pool, each to its own output
// tensor of the block's shape.
func (g *gen) stores() {
	dims := "n"
	if g.twoD {
		dims = "M, N"
	}
	for i, v := range g.keep {
		g.store(fmt.Sprintf("out%d", i), dims, v)
	}
	for i := range 1 + g.intn(3) {
		v := g.pool[len(g.pool)-1]
		if i > 0 || g.chance(0.3) || !v.storable() {
			v, _ = g.pickWhere(val.storable) // the inputs always are
		}
		if w, ok := g.pickWhere(func(v val) bool { return (v.m || v.n) && v.storable() }); ok && !v.m && !v.n && g.chance(0.8) {
			v = w // a block-shaped value says more than a broadcast scalar
		}
		if v.dt == boolean {
			v, _ = g.cast(v, []dtype{i8, i32, f32}[g.intn(3)])
		}
		g.store(fmt.Sprintf("out%d", len(g.keep)+i), dims, v)
	}
}

// store writes v, broadcast to the block, to a new output tensor name of
// dims.
func (g *gen) store(name, dims string, v val) {
	v = g.broadcastFull(v)
	g.tensors = append(g.tensors, name)
	g.lets = append(g.lets, fmt.Sprintf("%s=empty(%s, dtype='%s')", name, dims, v.dt.name()))
	g.checks = append(g.checks, name)
	g.outputs = append(g.outputs, Output{Name: name, Lo: v.lo, Hi: v.hi, Err: v.err, Float: v.dt.isFloat()})
	// The output's dtype is the one the generator derived: asserted, so
	// that a store cannot hide a disagreement by converting.
	g.emit("tl.static_assert(%s.dtype == tl.%s)", v.name, v.dt.name())
	g.emit("tl.store(%s_ptr + offs, %s, mask=%s)", name, v.name, g.mask)
}

// Check reports the first element of t outside o's interval.
func (o Output) Check(t *tensor.Tensor) error {
	lo, hi := o.Lo, o.Hi
	if o.Float {
		lo -= 1e-2*max(1, math.Abs(lo)) + o.Err
		hi += 1e-2*max(1, math.Abs(hi)) + o.Err
	}
	for i := range t.NumElements() {
		if x := t.Float(i); !(x >= lo && x <= hi) {
			return fmt.Errorf("%s[%d] = %v lies outside [%v, %v], the interval the generator derived", o.Name, i, x, o.Lo, o.Hi)
		}
	}
	return nil
}
