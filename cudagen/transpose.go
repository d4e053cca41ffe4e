package cudagen

// This file implements stores whose lanes first trade elements: a layout
// whose threads hold short runs along a row, side by side in neighboring
// lanes (the accumulators of a dot: 2 elements per thread, 4 lanes along
// a row), would store each run on its own, 4 bytes of fp16 per thread
// and instruction. The few lanes of a group together hold whole rows of
// several repetitions of the layout; transposed among them with warp
// shuffles, each lane holds one repetition's elements of the group, in
// order, and stores them as one 16-byte vector.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// laneTranspose describes a store written after a transpose within groups
// of lanes. Along the tile's contiguous axis Axis, a thread holds Run
// consecutive elements in each repetition of the layout and Lanes lanes,
// the lowest bits of the lane index, hold the next runs. Each group of
// Lanes repetitions is transposed among them, in Words 32-bit words per
// run, so that the lane at position l along the axis holds the Run*Lanes
// elements of repetition l of the group, Bytes bytes, and stores them.
type laneTranspose struct {
	Axis, Run, Lanes int
	Words, Bytes     int
}

// laneTransposeOf reports whether access a, an unmasked store that the
// existing path writes in vectors of w elements, is written after a
// transpose within groups of lanes instead, and how: where its layout
// allows it (laneTransposeFor) and its pointers are contiguous over each
// group of repetitions and aligned, at the start of each repetition, to
// the vectors stored.
func (p *plan) laneTransposeOf(a memAccess, w int) (laneTranspose, bool) {
	if a.V.Op != ir.OpStore || a.V.Args[1].Type.Kind.Bytes() != a.Bytes {
		return laneTranspose{}, false
	}
	l := p.layoutOf(a.Ptr)
	q, ok := laneTransposeFor(l, a.Bytes, w)
	if !ok {
		return q, false
	}
	// The runs of contiguous pointers start at multiples of Contig, and
	// groups at multiples of their length: a multiple of it keeps every
	// group inside a run.
	info := p.axes.dims(a.Ptr)[q.Axis]
	return q, info.Contig%int64(q.Lanes*l.Span[q.Axis]) == 0 && info.Div >= int64(q.vectorBytes())
}

// laneTransposeFor reports whether a store in layout l of elements of b
// bytes, which the existing path writes in vectors of w elements, can be
// written after a transpose within groups of lanes, and how. That needs a
// layout without replication whose thread runs along the contiguous axis
// are the w elements, whole 32-bit words and shorter than 16 bytes, with
// 2 or 4 lanes along it, lowest in the lane index, and a multiple of that
// many repetitions, numbered right after each run. And the lanes of a
// group must cover less than a 32-byte sector of a row (fp16 runs of 2 in
// 4 lanes: 16 bytes), so that the transpose also halves the sectors
// written per instruction; where they cover one already (fp32 runs of 2),
// it would only halve the number of stores, for 8 shuffles per 2 of them.
func laneTransposeFor(l *dist, b, w int) (laneTranspose, bool) {
	ax := l.Order[0]
	v, t := l.Spt[ax], l.Lanes[ax].Count
	q := laneTranspose{Axis: ax, Run: v, Lanes: t, Words: v * b / 4, Bytes: v * t * b}
	switch {
	case l.Repl, b != 2 && b != 4:
		return q, false
	case w != v, l.KStride[ax] != 1, v*b%4 != 0, v*b >= 16:
		return q, false
	case l.Lanes[ax].Div != 1, t != 2 && t != 4:
		return q, false
	case l.Reps[ax]%t != 0, l.RStride[ax] != v, q.Bytes >= 32:
		return q, false
	}
	return q, true
}

// vectorBytes is the size of the vectors stored: 16 bytes, or all of a
// lane's elements where they are fewer.
func (q laneTranspose) vectorBytes() int { return min(16, q.Bytes) }

// wordStart is the index, counted from a group's first element, of the
// first element of word i of the thread's run in repetition j of the group
// (elements of b bytes). Word j*Words + i of a lane is that word, before
// the transpose, and word i of the run of the lane at position j in the
// repetition the lane stores, after it.
func (q laneTranspose) wordStart(j, i, b int) int { return j*q.Run + i*4/b }

// shift times a lane's position p along the axis is how many elements
// past its own first element of a group, in layout l, the lane stores its
// vectors: p repetitions on and p runs back, at the start of the
// repetition it holds after the transpose.
func (q laneTranspose) shift(l *dist) int { return l.Span[q.Axis] - q.Run }

// transposeStep is one exchange of a transpose among lanes: the lanes
// that differ in lane bit Mask trade words Lo and Hi, whose indices differ
// in that bit too.
type transposeStep struct{ Mask, Lo, Hi int }

// transposeSteps are the steps of tri_transpose<n>, a transpose of n
// words among n lanes: for each lane bit, the pairs of words whose indices
// differ in it. Each bit's steps swap that bit of the lane and of the word
// index of every word (a lane whose bit equals the word's keeps it), so
// after all of them lane l holds as word j what lane j held as word l.
func transposeSteps(n int) []transposeStep {
	var s []transposeStep
	for m := 1; m < n; m *= 2 {
		for j := 0; j < n; j++ {
			if j&m == 0 {
				s = append(s, transposeStep{m, j, j | m})
			}
		}
	}
	return s
}

// transposeHelpers are tri_transpose2 and tri_transpose4, built from
// transposeSteps.
var transposeHelpers = func() cgroup {
	g := cgroup{`// Transposes of 32-bit words among the lanes of a group of 2 or 4 (lane % 2 or % 4): afterwards
// lane l's word j is what lane j's word l was. A step trades, between the lanes that differ in lane
// bit m, the words whose indices differ in that bit: each lane sends the one the other lane keeps
// in its place, and selects (not a register index chosen at run time) put what it receives there.`, []cdef{
		{"tri_transpose_step", []string{"tri_shfl_xor_b32"}, `TRI_DEV void tri_transpose_step(unsigned int& lo, unsigned int& hi, bool up, int m) {
  const unsigned int r = tri_shfl_xor_b32(up ? lo : hi, m);
  lo = up ? r : lo;
  hi = up ? hi : r;
}`},
	}}
	for _, n := range []int{2, 4} {
		var params, calls []string
		for j := 0; j < n; j++ {
			params = append(params, fmt.Sprintf("unsigned int& w%d", j))
		}
		for _, s := range transposeSteps(n) {
			calls = append(calls, fmt.Sprintf("tri_transpose_step(w%d, w%d, (lane & %d) != 0, %d);", s.Lo, s.Hi, s.Mask, s.Mask))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "TRI_DEV void tri_transpose%d(%s, int lane) {\n", n, strings.Join(params, ", "))
		for i := 0; i < len(calls); i += 2 {
			fmt.Fprintf(&b, "  %s\n", strings.Join(calls[i:min(i+2, len(calls))], " "))
		}
		b.WriteString("}")
		g.defs = append(g.defs, cdef{fmt.Sprintf("tri_transpose%d", n), []string{"tri_transpose_step"}, b.String()})
	}
	return g
}()

// transposedStore writes store v, unmasked, as q says: for each group of
// q.Lanes repetitions along q.Axis, the thread's runs as 32-bit words,
// transposed among the group's lanes, then stored from the address of the
// repetition the lane now holds. That address is the lane's own element at
// the start of the group (position l*Run in repetition 0) moved by l
// repetitions and back by l runs, l*(tile - Run) elements: the analysis
// found the pointers contiguous over the whole group.
func (e *emitter) transposedStore(v *ir.Value, a memAccess, q laneTranspose) {
	val := v.Args[1]
	l := e.layoutOf(v.Args[0])
	e.helpers.add("shfl", shuffleHelpers)
	e.helpers.add("transpose", transposeHelpers)
	e.usesShuffles = true
	group := map[int]string{2: "pair", 4: "quad"}[q.Lanes]
	lane := e.pos(l.Lanes[q.Axis], "lane_id")
	e.use("lane_id", fmt.Sprintf("tri_transpose%d", q.Lanes))
	vecBytes := q.vectorBytes()
	e.w.line("// %d-byte vector stores: in %d consecutive repetitions along axis %d, the %d lanes of a %s (%s) hold a %d-byte run each;",
		vecBytes, q.Lanes, q.Axis, q.Lanes, group, lane, q.Run*a.Bytes)
	e.w.line("// tri_transpose%d trades the runs through shuffles so that each lane holds one repetition's %d consecutive elements.",
		q.Lanes, q.Run*q.Lanes)
	e.w.line("#pragma unroll")
	e.w.open("for (int e = 0; e < %d; e += %d) {", l.Elems, q.Run*q.Lanes)
	// Word j*Words + i is word i of the run of repetition j of the group.
	var words []string
	for j := 0; j < q.Lanes; j++ {
		for i := 0; i < q.Words; i++ {
			words = append(words, fmt.Sprintf("w%d = %s", len(words), e.wordOf(val, q.wordStart(j, i, a.Bytes))))
		}
	}
	for _, w := range words {
		e.w.line("unsigned int %s;", w)
	}
	for i := 0; i < q.Words; i++ {
		var ws []string
		for j := 0; j < q.Lanes; j++ {
			ws = append(ws, fmt.Sprintf("w%d", j*q.Words+i))
		}
		e.w.line("tri_transpose%d(%s, lane_id);", q.Lanes, strings.Join(ws, ", "))
	}
	ptr := e.expr(a.Ptr, "e")
	if strings.Contains(ptr, " ") && !wrapped(ptr) {
		ptr = "(" + ptr + ")"
	}
	ptr = fmt.Sprintf("%s + (%s) * %d", ptr, lane, q.shift(l))
	per := vecBytes / 4 // words per store
	vs := e.vectorShape(ir.Uint32, per)
	for s := 0; s < len(words); s += per {
		at := ptr
		if s > 0 {
			at = fmt.Sprintf("%s + %d", ptr, s*4/a.Bytes)
		}
		var ws []string
		for j := s; j < s+per; j++ {
			ws = append(ws, fmt.Sprintf("w%d", j))
		}
		e.w.line("*reinterpret_cast<%s*>(%s) = %s{%s};", vs.Type, at, vs.Type, strings.Join(ws, ", "))
	}
	e.w.close("}")
}

// wordOf is the C expression of the 32-bit word of val (of 2- or 4-byte
// elements) that starts at element e + j.
func (e *emitter) wordOf(val *ir.Value, j int) string {
	k := val.Type.Kind
	if k.Bytes() == 4 {
		x := e.expr(val, fmt.Sprintf("e + %d", j))
		if k == ir.Float32 {
			e.use("tri_bits_f32")
			return fmt.Sprintf("tri_bits_f32(%s)", x)
		}
		return e.toBits(k, x, 0, 1)
	}
	return e.toBits(k, e.expr(val, fmt.Sprintf("e + %d", j)), 0, 2) + " | " + e.toBits(k, e.expr(val, fmt.Sprintf("e + %d", j+1)), 1, 2)
}
