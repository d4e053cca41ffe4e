package kernelgen

// This file generates kernels whose tl.dot stands where tri lowers dots
// specially: outside any loop, in a K loop that is not software-pipelined
// (num_stages=1), in a pipelined K loop (num_stages 2 to 4, from tl.range
// or the launch), and two to four dots in one loop as attention's forward
// and backward passes hold them. Each dot's result is the next one's a
// (converted to the operand dtype); an a may be defined before the loop;
// one load may feed two dots, one of them through tl.trans, and a loaded y
// may be the a of several; the loop may run in two halves of the same
// body, both reading an a defined before them; a b may be a
// [K, N] load, a load through transposed strides, or the transpose of an
// [N, K] load; accumulators are spelled acc = tl.dot(a, b, acc) and
// acc += tl.dot(a, b).
//
// About two kernels in three have shapes and dtypes that reach wgmma on
// sm_90a (fp16 or bf16 into fp32, 4 or 8 warps, m a multiple of 16 rows a
// warp, n and K powers of two from 16); the others must fall back:
// fp32 (tf32, tf32x3, ieee), int8 and fp64 operands, or m below 16 rows a
// warp. Kernel.Wgmma says which.
//
// Operands are small integers, so every product and sum is exact in the
// accumulator, and a result converted to fp16, bf16, tf32 or int8 to feed
// the next dot stays exact: sizes and input ranges are chosen so that
// each intermediate stays below the operand dtype's exact limit.

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// dotElem is the operand type of a kernel's dots.
type dotElem struct {
	name  string  // the tl dtype name of the inputs
	acc   string  // the tl dtype name of the accumulator
	exact float64 // integers up to this magnitude are exact as an operand (tf32 for float32)
	fast  bool    // has a wgmma form on sm_90a
	bytes int     // of an element
	other string  // the masked loads' other
	// ranges are the input magnitudes to try, largest first: the largest
	// whose results stay exact is taken.
	ranges []int
}

var dotElems = []dotElem{
	{name: "float16", acc: "float32", exact: 2048, fast: true, bytes: 2, other: "0.0", ranges: []int{3, 2, 1}},
	{name: "bfloat16", acc: "float32", exact: 256, fast: true, bytes: 2, other: "0.0", ranges: []int{3, 1}},
	{name: "float32", acc: "float32", exact: 2048, bytes: 4, other: "0.0", ranges: []int{3, 1}},
	{name: "int8", acc: "int32", exact: 127, bytes: 1, other: "0", ranges: []int{127, 7, 1}},
	{name: "float64", acc: "float64", exact: 1 << 53, bytes: 8, other: "0.0", ranges: []int{3, 1}},
}

// accLimit is the magnitude up to which an accumulator of e's adds
// integers exactly, also once converted to the pool's dtype (an fp64 result
// goes to the pool as fp32).
func (e dotElem) accLimit() float64 {
	if e.acc == "int32" {
		return math.MaxInt32
	}
	return 1 << 24
}

// maxOperandBytes bounds the operands of one dot, a [m, k] and b [k, n],
// in shared memory, where a dot that does not run on wgmma stages them: tri
// refuses a dot whose operands exceed a program's shared memory (fp64
// blocks of 128 x 128 by 128 x 256), as Triton runs out of resources.
const maxOperandBytes = 128 << 10

// operandBytes is the size of a dot's operands of e, [m, k] and [k, n].
func (e dotElem) operandBytes(m, k, n int) int { return e.bytes * k * (m + n) }

// dotShape is the blocks and runtime sizes of a dot kernel: the output
// block is BM x BN over M x N; BK is the first dot's K block (K long),
// BL the loop's step over L (attention forms).
type dotShape struct {
	warps          int
	bm, bn, bk, bl int
	m, n, k, l     int
	even           bool // sizes are multiples of the blocks and loads are unmasked
}

// dotPositions lays out a kernel whose dots take one of the positions of
// this file's comment, and returns its grid.
func (g *gen) dotPositions() string {
	g.feature("dots")
	e := dotElems[0]
	fast := g.chance(0.65)
	if fast {
		if g.chance(0.3) {
			e = dotElems[1]
		}
	} else if g.chance(0.6) {
		e = dotElems[2+g.intn(3)]
	} else if g.chance(0.3) {
		e = dotElems[1]
	}
	g.feature("dot-" + e.name)
	var sh dotShape
	sh.warps = 4
	if g.chance(0.35) {
		sh.warps = 8
	}
	switch {
	case fast || !e.fast && g.chance(0.5):
		// m a multiple of 16 rows a warp, at most 128.
		sh.bm = 16 * sh.warps * g.pow2(1, 128/(16*sh.warps))
	case g.chance(0.3):
		sh.warps = 1 << g.intn(2) // too few warps for a warpgroup
		sh.bm = g.pow2(16, 128)
	default:
		sh.bm = g.pow2(16, 8*sh.warps) // below 16 rows a warp
	}
	g.warps = sh.warps
	sh.even = g.chance(0.3)
	g.wgmma = e.fast && sh.warps%4 == 0 && sh.bm%(16*sh.warps) == 0
	if g.wgmma {
		g.feature("wgmma")
	} else {
		g.feature("fallback")
	}
	// K of an int8 dot is 32 at least, as Triton's int8 dot wants.
	minK := 16
	if e.name == "int8" {
		minK = 32
	}
	switch n := g.intn(20); {
	case n < 5:
		g.feature("alone")
		return g.kLoopDot(e, sh, minK, false)
	case n < 11:
		return g.kLoopDot(e, sh, minK, true)
	default:
		return g.attentionDots(e, sh, minK)
	}
}

// blockN draws the output block's width BN (and K's block) within the
// registers a kernel may hold: accs accumulators of BM x BN over 32 threads
// a warp, 128 elements a thread at most.
func (g *gen) blockN(sh dotShape, accs int) int {
	most := 128 * 32 * sh.warps / (sh.bm * accs)
	return g.pow2(16, max(16, min(256, most)))
}

// loopHeader spells a loop of v over [0, n) in steps of step with the
// number of stages drawn here: from tl.range(num_stages=), from the
// launch's num_stages, or the default 3. It records the feature stages1
// or stagesN.
func (g *gen) loopHeader(v, n, step string) string {
	return g.loopHeaderFrom(v, "0", n, step)
}

// loopHeaderFrom is loopHeader over [lo, n).
func (g *gen) loopHeaderFrom(v, lo, n, step string) string {
	stages := 1 + g.intn(4)
	if g.chance(0.3) {
		stages = 1
	}
	header := fmt.Sprintf("for %s in tl.range(%s, %s, %s, num_stages=%d):", v, lo, n, step, stages)
	switch g.intn(5) {
	case 0:
		header = fmt.Sprintf("for %s in range(%s, %s, %s):", v, lo, n, step)
		if !slices.ContainsFunc(g.launchExtra, func(x string) bool { return strings.HasPrefix(x, "num_stages=") }) {
			g.launchExtra = append(g.launchExtra, fmt.Sprintf("num_stages=%d", stages))
		}
	case 1:
		header = fmt.Sprintf("for %s in range(%s, %s, %s):", v, lo, n, step)
		stages = 3 // Triton's default
	}
	if stages == 1 {
		g.feature("stages1")
	} else {
		g.feature("stagesN")
	}
	return header
}

// masked spells a load of ptr whose rows and columns are in range where
// rowsOK and colsOK hold; an even kernel's loads need no mask.
func (g *gen) masked(even bool, ptr, rowsOK, colsOK, other string) string {
	if even {
		return fmt.Sprintf("tl.load(%s)", ptr)
	}
	return fmt.Sprintf("tl.load(%s, mask=(%s) & (%s), other=%s)", ptr, rowsOK, colsOK, other)
}

// dotInput adds an input tensor of integers in [-r, r] of dims and
// element type e.
func (g *gen) dotInput(name, dims string, e dotElem, r int) {
	g.tensors = append(g.tensors, name)
	g.lets = append(g.lets, fmt.Sprintf("%s=randint(%d, %d, %s, dtype='%s')", name, -r, r+1, dims, e.name))
}

// pickRange is the largest of e's input magnitudes for which ok holds,
// starting sometimes below the largest; 0 if none.
func (g *gen) pickRange(e dotElem, ok func(r float64) bool) int {
	for _, r := range e.ranges[g.intn(len(e.ranges)):] {
		if ok(float64(r)) {
			return r
		}
	}
	if r := e.ranges[len(e.ranges)-1]; ok(float64(r)) {
		return r
	}
	return 0
}

// runtimeSize draws the runtime extent of a block axis of size block over
// up to blocks blocks: a multiple of the block in an even kernel, else
// any length, rarely a multiple.
func (g *gen) runtimeSize(even bool, block, blocks int) int {
	if even {
		return block * (1 + g.intn(blocks))
	}
	return 1 + g.intn(blocks*block)
}

// dotCall spells one accumulating dot into acc.
func (g *gen) dotCall(e dotElem, acc, a, b string) string {
	var kw string
	switch e.name {
	case "float32":
		kw = []string{"", "", `, input_precision="ieee"`, `, input_precision="tf32x3"`}[g.intn(4)]
	case "int8", "float64":
		// The accumulator's dtype must be out_dtype's (float32 unless given).
		kw = ", out_dtype=tl." + e.acc
	}
	if g.chance(0.5) {
		g.feature("acc-add")
		if e.name != "float32" {
			kw = ""
		}
		return fmt.Sprintf("%s += tl.dot(%s, %s%s)", acc, a, b, kw)
	}
	g.feature("acc-arg")
	return fmt.Sprintf("%s = tl.dot(%s, %s, %s%s)", acc, a, b, acc, kw)
}

// transposed spells the transpose of x as tl.trans or .T.
func (g *gen) transposed(x string) string {
	if g.chance(0.5) {
		return x + ".T"
	}
	return "tl.trans(" + x + ")"
}

// kLoopDot is a tiled matmul block: C[BM, BN] = A[BM, K] @ B[K, N] over a
// K loop (loop) or, where K fits one block, with no loop at all; a may be
// read through transposed strides, b in any of its three forms.
func (g *gen) kLoopDot(e dotElem, sh dotShape, minK int, loop bool) string {
	sh.bn = g.blockN(sh, 1)
	sh.bk = g.pow2(minK, 128)
	for sh.bm*sh.bn*sh.bk > 1<<20 {
		sh.bk /= 2
	}
	sh.bk = max(sh.bk, minK)
	for e.operandBytes(sh.bm, sh.bk, sh.bn) > maxOperandBytes && sh.bk > minK {
		sh.bk /= 2
	}
	sh.m, sh.n = g.runtimeSize(sh.even, sh.bm, 2), g.runtimeSize(sh.even, sh.bn, 2)
	blocks := 1
	if loop {
		blocks = 4
	}
	sh.k = g.runtimeSize(sh.even, sh.bk, blocks)
	r := g.pickRange(e, func(r float64) bool { return r*r*float64(sh.k) <= e.accLimit()/8 })
	g.lets = append(g.lets, fmt.Sprintf("M=%d", sh.m), fmt.Sprintf("N=%d", sh.n), fmt.Sprintf("K=%d", sh.k))
	g.setBlock(sh)

	kx := "ok"
	if loop {
		kx = "(k + ok)"
	}
	// a: [M, K], or stored [K, M] and read through transposed strides.
	aLoad := g.masked(sh.even, fmt.Sprintf("a_ptr + om[:, None] * K + %s[None, :]", kx), "om[:, None] < M", kx+"[None, :] < K", e.other)
	aDims := "M, K"
	if g.chance(0.15) {
		g.feature("a-strided")
		aDims = "K, M"
		aLoad = g.masked(sh.even, fmt.Sprintf("a_ptr + om[:, None] + %s[None, :] * M", kx), "om[:, None] < M", kx+"[None, :] < K", e.other)
	}
	g.dotInput("a", aDims, e, r)
	bLoad, bUse, bDims := g.bOperand(sh.even, e, kx, "K", "on", "N")
	g.dotInput("b", bDims, e, r)

	g.emit("om = tl.program_id(0) * BM + tl.arange(0, BM)")
	g.emit("on = tl.program_id(1) * BN + tl.arange(0, BN)")
	g.emit("ok = tl.arange(0, BK)")
	bound := float64(r * r * sh.k)
	// The accumulator starts from an input block, from zeros, or (no
	// loop) from the dot's own zero.
	start := g.intn(4)
	switch {
	case start == 0:
		g.tensors = append(g.tensors, "c")
		g.lets = append(g.lets, fmt.Sprintf("c=randint(-8, 9, M, N, dtype='%s')", e.acc))
		g.emit("acc = %s", g.masked(sh.even, "c_ptr + om[:, None] * N + on[None, :]", "om[:, None] < M", "on[None, :] < N", e.other))
		bound += 8
	case start == 1 && !loop:
	default:
		g.emit("acc = tl.zeros((BM, BN), dtype=tl.%s)", e.acc)
	}
	if loop {
		g.emit("%s", g.loopHeader("k", "K", "BK"))
		g.indent++
	}
	g.emit("a = %s", aLoad)
	g.emit("b = %s", bLoad)
	if start == 1 && !loop {
		g.emit("acc = tl.dot(a, %s)", bUse)
	} else {
		g.emit("%s", g.dotCall(e, "acc", "a", bUse))
	}
	if loop {
		g.indent--
	}
	g.finishDots(e, []string{"acc"}, bound)
	return fmt.Sprintf("(triton.cdiv(M, %d), triton.cdiv(N, %d))", sh.bm, sh.bn)
}

// bOperand spells the load of a b operand of [BK-or-BL rows along kx, the
// block's columns along nx] over sizes kn x nn: a [K, N] load, a load of
// an [N, K] tensor through transposed strides, or the transpose of an
// [N, K] load. It returns the load, how the dot reads it and the tensor's
// dims.
func (g *gen) bOperand(even bool, e dotElem, kx, kn, nx, nn string) (load, use, dims string) {
	rowsOK, colsOK := kx+"[:, None] < "+kn, nx+"[None, :] < "+nn
	switch g.intn(3) {
	case 0:
		return g.masked(even, fmt.Sprintf("b_ptr + %s[:, None] * %s + %s[None, :]", kx, nn, nx), rowsOK, colsOK, e.other), "b", kn + ", " + nn
	case 1:
		g.feature("b-strided")
		return g.masked(even, fmt.Sprintf("b_ptr + %s[:, None] + %s[None, :] * %s", kx, nx, kn), rowsOK, colsOK, e.other), "b", nn + ", " + kn
	}
	g.feature("b-trans")
	load = g.masked(even, fmt.Sprintf("b_ptr + %s[:, None] * %s + %s[None, :]", nx, kn, kx), nx+"[:, None] < "+nn, kx+"[None, :] < "+kn, e.other)
	return load, g.transposed("b"), nn + ", " + kn
}

// setBlock records the output block of a dot kernel for the epilogue and
// the stores, and its size parameters.
func (g *gen) setBlock(sh dotShape) {
	g.bm, g.bn, g.twoD, g.mask = sh.bm, sh.bn, true, "mask"
	for _, s := range []string{"M", "N", "K"} {
		g.scalar(s, s)
	}
	g.scalar("BM: tl.constexpr", fmt.Sprintf("BM=%d", sh.bm))
	g.scalar("BN: tl.constexpr", fmt.Sprintf("BN=%d", sh.bn))
	g.scalar("BK: tl.constexpr", fmt.Sprintf("BK=%d", sh.bk))
}

// finishDots puts the accumulators, each in [-bound, bound], in the pool
// (an fp64 one converted to fp32), has each stored as it is, and defines
// the stores' mask and offsets.
func (g *gen) finishDots(e dotElem, accs []string, bound float64) {
	d := f32
	if e.acc == "int32" {
		d = i32
	}
	for _, acc := range accs {
		name := acc
		if e.acc == "float64" {
			name = acc + "_f32"
			g.emit("%s = %s.to(tl.float32)", name, acc)
		}
		v := val{name: name, dt: d, m: true, n: true, lo: -bound, hi: bound, exact: true}
		g.pool = append(g.pool, v)
		g.keep = append(g.keep, v)
	}
	g.emit("mask = (om[:, None] < M) & (on[None, :] < N)")
	g.emit("offs = om[:, None] * N + on[None, :]")
}

// attentionDots is a loop over L in steps of BL (or, a third of the time,
// a single block of L and no loop) holding two to four dots:
//
//	s = tl.dot(q, kt)        # q [BM, BK]: before the loop or loaded in it
//	p = s.to(tl.float16)     # the a of the next dots
//	s2 = tl.dot(p, u)        # sometimes: a second link of the chain
//	acc0 = tl.dot(p, w0, acc0)
//	acc1 += tl.dot(p, w1)    # one to three accumulating dots
//	acc2 = tl.dot(y, w2, acc2)  # sometimes: a loaded y, the a of all but the first
//
// kt is [BK, BL] in any b form, or the transpose of a [BL, BN] load x that
// an accumulating dot reads as its b too (then q is [BM, BN]); a v may be
// loaded before the loop.
func (g *gen) attentionDots(e dotElem, sh dotShape, minK int) string {
	loop := g.chance(0.7)
	accs := 1 + g.intn(3)
	shared := g.chance(0.4)
	chain := g.chance(0.25)
	sh.bn = g.blockN(sh, accs)
	sh.bl = g.pow2(minK, 128)
	sh.bk = g.pow2(minK, 128)
	if shared {
		sh.bn = max(sh.bn, minK)
		sh.bk = sh.bn
	}
	// The interpreter's work a program and iteration stays below 2^20
	// products.
	links := accs
	if chain {
		links++
	}
	for sh.bm*sh.bl*(sh.bk+sh.bn*links) > 1<<20 && sh.bl > minK {
		sh.bl /= 2
	}
	for sh.bm*sh.bl*(sh.bk+sh.bn*links) > 1<<20 && sh.bk > minK && !shared {
		sh.bk /= 2
	}
	// q @ kt, p @ u and p @ w within maxOperandBytes.
	for max(e.operandBytes(sh.bm, sh.bk, sh.bl), e.operandBytes(sh.bm, sh.bl, max(sh.bl, sh.bn))) > maxOperandBytes && sh.bl > minK {
		sh.bl /= 2
	}
	for e.operandBytes(sh.bm, sh.bk, sh.bl) > maxOperandBytes && sh.bk > minK {
		// Beside a shared x, q is as wide as the output.
		sh.bk /= 2
		if shared {
			sh.bn = sh.bk
		}
	}
	sh.m, sh.n = g.runtimeSize(sh.even, sh.bm, 2), g.runtimeSize(sh.even, sh.bn, 2)
	blocks := 1
	if loop {
		blocks = 3
	}
	sh.l = g.runtimeSize(sh.even, sh.bl, blocks)
	sh.k = g.runtimeSize(sh.even, sh.bk, 1)
	if shared {
		sh.k = sh.bk // q is as wide as the output: K is unused
	}
	// Bounds: s sums kc products (over K, or the output's columns beside a
	// shared x), a chain's s2 up to BL products of p, and the accumulators
	// BL products of the last p an iteration.
	var r int
	var bound float64
	for {
		kc := float64(min(sh.k, sh.bk))
		if shared {
			kc = float64(min(sh.n, sh.bn))
		}
		terms := float64((sh.l + sh.bl - 1) / sh.bl * sh.bl)
		link := float64(min(sh.l, sh.bl))
		r = g.pickRange(e, func(r float64) bool {
			p := r * r * kc
			last := p
			if chain {
				last = p * r * link
			}
			return p <= e.exact && last <= e.exact && last*r*terms <= e.accLimit()/8
		})
		if r > 0 {
			rf := float64(r)
			last := rf * rf * kc
			if chain {
				last *= rf * link
			}
			bound = last * rf * terms
			break
		}
		// Too long to stay exact: drop the chain, then shorten the sums
		// (their lengths need no longer be multiples of the blocks).
		switch {
		case chain:
			chain = false
		case sh.even:
			sh.even = false
		case sh.l > 1:
			sh.l /= 2
		case shared:
			sh.n = max(1, sh.n/2)
		default:
			sh.k = max(1, sh.k/2)
		}
	}
	g.lets = append(g.lets, fmt.Sprintf("M=%d", sh.m), fmt.Sprintf("N=%d", sh.n), fmt.Sprintf("K=%d", sh.k), fmt.Sprintf("L=%d", sh.l))
	g.setBlock(sh)
	g.scalar("L", "L")
	g.scalar("BL: tl.constexpr", fmt.Sprintf("BL=%d", sh.bl))
	g.feature(fmt.Sprintf("dots%d", 1+accs+map[bool]int{true: 1}[chain]))

	g.emit("om = tl.program_id(0) * BM + tl.arange(0, BM)")
	g.emit("on = tl.program_id(1) * BN + tl.arange(0, BN)")
	g.emit("ok = tl.arange(0, BK)")
	g.emit("ol = tl.arange(0, BL)")
	lx := "ol"
	if loop {
		lx = "(l + ol)"
	}
	// q: [M, K] (or [M, N] beside a shared x), before the loop or in it.
	qLoad := g.masked(sh.even, "q_ptr + om[:, None] * K + ok[None, :]", "om[:, None] < M", "ok[None, :] < K", e.other)
	if shared {
		qLoad = g.masked(sh.even, "q_ptr + om[:, None] * N + on[None, :]", "om[:, None] < M", "on[None, :] < N", e.other)
		g.dotInput("q", "M, N", e, r)
	} else {
		g.dotInput("q", "M, K", e, r)
	}
	qInLoop := loop && g.chance(0.3)
	if !qInLoop {
		g.feature("invariant-a")
		g.emit("q = %s", qLoad)
	}
	// The accumulators' b operands: a load in the loop in any b form, the
	// shared x, or a load before the loop.
	type vOp struct{ load, use string }
	vs := make([]vOp, accs)
	var before []string
	for i := range vs {
		name := fmt.Sprintf("w%d", i)
		switch {
		case shared && i == 0:
			vs[i].use = "x"
		case loop && g.chance(0.15):
			g.feature("invariant-b")
			load, use, dims := g.bOperand(sh.even, e, "ol", "L", "on", "N")
			g.dotInput(name, dims, e, r)
			before = append(before, fmt.Sprintf("%s = %s", name, rename(load, name)))
			vs[i].use = rename(use, name)
		default:
			load, use, dims := g.bOperand(sh.even, e, lx, "L", "on", "N")
			g.dotInput(name, dims, e, r)
			vs[i].load, vs[i].use = rename(load, name), rename(use, name)
		}
	}
	for _, l := range before {
		g.emit("%s", l)
	}
	accNames := make([]string, accs)
	for i := range accNames {
		accNames[i] = fmt.Sprintf("acc%d", i)
		g.emit("%s = tl.zeros((BM, BN), dtype=tl.%s)", accNames[i], e.acc)
	}
	// Sometimes the loop runs in two halves of the same body, as tutorial
	// 06's backward runs two loops over k and v: an invariant q is then
	// read by the pipelines of both (cudagen's kept invariants).
	split := loop && g.chance(0.3)
	if split {
		g.feature("split-loop")
		g.emit("LH = L // (2 * BL) * BL")
		g.emit("%s", g.loopHeaderFrom("l", "0", "LH", "BL"))
	} else if loop {
		g.emit("%s", g.loopHeader("l", "L", "BL"))
	}
	if loop {
		g.indent++
	}
	bodyStart := len(g.body)
	// Sometimes the accumulating dots after the first read a loaded y as
	// their a rather than p: one streamed a that several dots read.
	sharedA := loop && accs >= 2 && g.chance(0.3)
	if qInLoop {
		g.emit("q = %s", qLoad)
	}
	// The first dot: q @ kt.
	if shared {
		g.feature("shared-load")
		g.dotInput("x", "L, N", e, r)
		g.emit("x = %s", g.masked(sh.even, fmt.Sprintf("x_ptr + %s[:, None] * N + on[None, :]", lx), lx+"[:, None] < L", "on[None, :] < N", e.other))
		g.emit("s = tl.dot(q, %s)", g.transposed("x"))
	} else {
		load, use, dims := g.bOperand(sh.even, e, "ok", "K", lx, "L")
		g.dotInput("kt", dims, e, r)
		g.emit("kt = %s", rename(load, "kt"))
		g.emit("s = tl.dot(q, %s)", rename(use, "kt"))
	}
	p := "s"
	if g.chance(0.3) {
		// The next a is computed from the result, as attention's softmax
		// is: the dot reads it from registers of another layout.
		g.feature("a-computed")
		zero := "0.0"
		if e.acc == "int32" {
			zero = "0"
		}
		p = "p"
		g.emit("p = tl.maximum(s, %s)%s", zero, e.operand())
	} else if conv := e.operand(); conv != "" {
		p = "p"
		g.emit("p = s%s", conv)
	}
	if chain {
		g.feature("chain")
		g.dotInput("u", fmt.Sprintf("L, %d", sh.bl), e, r)
		g.emit("u = %s", g.masked(sh.even, fmt.Sprintf("u_ptr + %s[:, None] * BL + ol[None, :]", lx), lx+"[:, None] < L", "ol[None, :] < BL", e.other))
		g.emit("s2 = tl.dot(%s, u)", p)
		p = "s2"
		if conv := e.operand(); conv != "" {
			p = "p2"
			g.emit("p2 = s2%s", conv)
		}
	}
	if sharedA {
		g.feature("shared-a")
		g.dotInput("y", "M, L", e, r)
		g.emit("y = %s", g.masked(sh.even, fmt.Sprintf("y_ptr + om[:, None] * L + %s[None, :]", lx), "om[:, None] < M", lx+"[None, :] < L", e.other))
	}
	for i, v := range vs {
		if v.load != "" {
			g.emit("w%d = %s", i, v.load)
		}
		a := p
		if sharedA && i > 0 {
			a = "y"
		}
		g.emit("%s", g.dotCall(e, accNames[i], a, v.use))
	}
	if split {
		body := slices.Clone(g.body[bodyStart:])
		g.indent--
		g.emit("%s", g.loopHeaderFrom("l", "LH", "L", "BL"))
		g.body = append(g.body, body...)
		g.indent++
	}
	if loop {
		g.indent--
	} else {
		g.feature("alone")
	}
	g.finishDots(e, accNames, bound)
	return fmt.Sprintf("(triton.cdiv(M, %d), triton.cdiv(N, %d))", sh.bm, sh.bn)
}

// operand is the conversion of a dot result to e's operand type, "" where
// the result is one already (fp32 into a tf32 dot, fp64).
func (e dotElem) operand() string {
	if e.name == e.acc || e.name == "float32" {
		return ""
	}
	return ".to(tl." + e.name + ")"
}

// rename makes a b operand's spelling (of tensor b) that of tensor name.
func rename(s, name string) string {
	s = strings.ReplaceAll(s, "b_ptr", name+"_ptr")
	switch {
	case s == "b":
		return name
	case s == "b.T":
		return name + ".T"
	case s == "tl.trans(b)":
		return "tl.trans(" + name + ")"
	}
	return s
}
