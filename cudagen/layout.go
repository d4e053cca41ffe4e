package cudagen

// This file defines layouts: which thread of a program holds which
// elements of a tile.

import (
	"fmt"
	"strings"
)

// Layout maps the elements of a tile to the threads of a program:
// Blocked, or Slice of a parent layout.
type Layout interface {
	// String prints the layout as Triton's TritonGPU dialect does.
	String() string
	isLayout()
}

// Blocked is Triton's blocked layout. Along axis d a thread holds
// SizePerThread[d] contiguous elements, ThreadsPerWarp[d] lanes and
// WarpsPerCTA[d] warps cover the next elements, and the resulting layout
// tile repeats (or, for a small shape, replicates) to cover the shape.
// Order lists the axes fastest first; lanes and warps are numbered along
// it.
type Blocked struct {
	SizePerThread  []int
	ThreadsPerWarp []int
	WarpsPerCTA    []int
	Order          []int
}

func (Blocked) isLayout() {}

// String prints Blocked(sizePerThread=[4], threadsPerWarp=[32], ...).
func (b Blocked) String() string {
	return fmt.Sprintf("Blocked(sizePerThread=%s, threadsPerWarp=%s, warpsPerCTA=%s, order=%s)",
		ints(b.SizePerThread), ints(b.ThreadsPerWarp), ints(b.WarpsPerCTA), ints(b.Order))
}

// TileSize is the number of elements along each axis that one repetition
// of the layout covers.
func (b Blocked) TileSize() []int {
	t := make([]int, len(b.SizePerThread))
	for d := range t {
		t[d] = b.SizePerThread[d] * b.ThreadsPerWarp[d] * b.WarpsPerCTA[d]
	}
	return t
}

// ElemsPerThread is how many elements of a tile of the given shape each
// thread holds.
func (b Blocked) ElemsPerThread(shape []int) int {
	n := 1
	for d, t := range b.TileSize() {
		n *= min(b.SizePerThread[d], shape[d]) * max(1, shape[d]/t)
	}
	return n
}

// Replicated reports whether some elements of a tile of the given shape
// are held by several threads.
func (b Blocked) Replicated(shape []int) bool {
	for d, t := range b.TileSize() {
		if shape[d] < t {
			return true
		}
	}
	return false
}

// Slice is the layout of a tile that lost (or has yet to gain) axis Dim
// of a tile in layout Parent: each thread holds the elements of its share
// of the parent with that coordinate dropped, so the threads spread along
// Dim hold the same elements.
type Slice struct {
	Dim    int
	Parent Layout
}

func (Slice) isLayout() {}

// String prints Slice(dim=1, parent=Blocked(...)).
func (s Slice) String() string { return fmt.Sprintf("Slice(dim=%d, parent=%s)", s.Dim, s.Parent) }

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// spread is how the lanes or warps of a program map to one axis: the
// thread's position along the axis is (id / Div) % Count.
type spread struct{ Div, Count int }

// pos is the C expression of the position of thread id along the axis.
func (s spread) pos(id string) string {
	switch {
	case s.Count == 1:
		return "0"
	case s.Div == 1:
		return fmt.Sprintf("%s %% %d", id, s.Count)
	}
	return fmt.Sprintf("%s / %d %% %d", id, s.Div, s.Count)
}

// dist is a layout applied to one tile shape: what the emitter needs to
// name, index and move the elements a thread holds. A thread's elements
// are numbered with the elements along the fastest axis innermost, then
// the repetitions: along axis d, element e has the coordinate
// base[d] + rep_d(e)*tile[d] + k_d(e).
type dist struct {
	Tag     string // "L0", "L1": the name in comments and in C locals
	Layout  Layout
	Shape   []int
	Spt     []int // elements per thread along each axis, at most the shape
	SptFull []int // the layout's sizePerThread (differs where the shape is smaller)
	Lanes   []spread
	Warps   []spread
	Reps    []int // repetitions of the layout's tile along each axis
	Span    []int // elements one repetition spans along each axis
	Order   []int
	// Dropped are the lanes and warps of sliced-away axes: threads that
	// differ only there hold the same elements.
	DroppedLanes, DroppedWarps []spread
	KStride, RStride           []int
	Threads                    int
	Elems                      int
	Repl                       bool
}

// newDist applies Blocked b to shape.
func newDist(b Blocked, shape []int, numWarps int) *dist {
	r := len(shape)
	d := &dist{Layout: b, Shape: append([]int{}, shape...), SptFull: b.SizePerThread, Order: b.Order, Threads: 32 * numWarps,
		Lanes: make([]spread, r), Warps: make([]spread, r)}
	ld, wd := 1, 1
	for _, a := range b.Order {
		d.Lanes[a] = spread{ld, b.ThreadsPerWarp[a]}
		d.Warps[a] = spread{wd, b.WarpsPerCTA[a]}
		ld *= b.ThreadsPerWarp[a]
		wd *= b.WarpsPerCTA[a]
	}
	d.finish()
	return d
}

// slice is Slice(dim, d's layout) applied to d's shape without axis dim.
func (d *dist) slice(dim int) *dist {
	cut := func(v []int) []int { return append(append([]int{}, v[:dim]...), v[dim+1:]...) }
	s := &dist{Layout: Slice{dim, d.Layout}, Shape: cut(d.Shape), SptFull: cut(d.SptFull), Threads: d.Threads,
		Lanes:        append(append([]spread{}, d.Lanes[:dim]...), d.Lanes[dim+1:]...),
		Warps:        append(append([]spread{}, d.Warps[:dim]...), d.Warps[dim+1:]...),
		DroppedLanes: append(append([]spread{}, d.DroppedLanes...), d.Lanes[dim]),
		DroppedWarps: append(append([]spread{}, d.DroppedWarps...), d.Warps[dim])}
	for _, a := range d.Order {
		switch {
		case a < dim:
			s.Order = append(s.Order, a)
		case a > dim:
			s.Order = append(s.Order, a-1)
		}
	}
	s.finish()
	return s
}

// withShape is d's layout applied to another shape of the same rank (a
// [BM, 1] tile that broadcasts into a [BM, BN] one).
func (d *dist) withShape(shape []int) *dist {
	s := *d
	s.Shape = append([]int{}, shape...)
	s.finish()
	return &s
}

// finish computes the per-axis counts and strides from the spreads.
func (d *dist) finish() {
	r := len(d.Shape)
	d.Spt, d.Reps, d.Span = make([]int, r), make([]int, r), make([]int, r)
	d.KStride, d.RStride = make([]int, r), make([]int, r)
	d.Repl = false
	for a := 0; a < r; a++ {
		d.Spt[a] = min(d.SptFull[a], d.Shape[a])
		d.Span[a] = d.SptFull[a] * d.Lanes[a].Count * d.Warps[a].Count
		d.Reps[a] = max(1, d.Shape[a]/d.Span[a])
		if d.Shape[a] < d.Span[a] {
			d.Repl = true
		}
	}
	for _, s := range append(append([]spread{}, d.DroppedLanes...), d.DroppedWarps...) {
		if s.Count > 1 {
			d.Repl = true
		}
	}
	n := 1
	for _, a := range d.Order {
		d.KStride[a] = n
		n *= d.Spt[a]
	}
	for _, a := range d.Order {
		d.RStride[a] = n
		n *= d.Reps[a]
	}
	d.Elems = n
}

// key identifies a dist: equal keys index elements the same way.
func (d *dist) key() string { return fmt.Sprintf("%s %v", d.Layout, d.Shape) }

// rank is the number of axes.
func (d *dist) rank() int { return len(d.Shape) }

// simple1D reports whether d is a 1-D Blocked layout over all threads in
// order, whose elements are indexed from tri_thread_id() alone.
func (d *dist) simple1D() bool {
	return d.rank() == 1 && d.Lanes[0] == (spread{1, 32}) && d.Warps[0].Div == 1 &&
		d.Warps[0].Count*32 == d.Threads && len(d.DroppedLanes) == 0
}

// base is the C name of the coordinate of this thread's first element
// along axis a.
func (d *dist) base(a int) string {
	if d.rank() == 1 {
		return d.Tag + "_base"
	}
	return fmt.Sprintf("%s_base%d", d.Tag, a)
}

// baseInit is the C expression initializing base(a).
func (d *dist) baseInit(a int) string {
	spt, n := d.SptFull[a], d.Shape[a]
	var s string
	if d.simple1D() {
		s = "tri_thread_id()"
		if spt > 1 {
			s = fmt.Sprintf("tri_thread_id() * %d", spt)
		}
	} else {
		w, l := d.Warps[a].pos("warp_id"), d.Lanes[a].pos("lane_id")
		switch {
		case w == "0":
			s = l
		case l == "0":
			s = w
		default:
			s = fmt.Sprintf("(%s) * %d + %s", w, d.Lanes[a].Count, l)
		}
		if spt > 1 && s != "0" {
			s = fmt.Sprintf("(%s) * %d", s, spt)
		}
	}
	if n < d.Span[a] && s != "0" {
		if n == 1 {
			return "0"
		}
		if strings.Contains(s, " ") { // "(w) * 16 + l" starts with "(" but needs its own
			s = "(" + s + ")"
		}
		return fmt.Sprintf("%s %% %d", s, n)
	}
	return s
}

// pos is sp.pos(id), recorded: the code names id where the position is
// not always 0.
func (s nameSet) pos(sp spread, id string) string {
	if sp.Count > 1 {
		s.use(id)
	}
	return sp.pos(id)
}

// baseInit is the C expression initializing base(a), recorded.
func (s nameSet) baseInit(d *dist, a int) string {
	switch {
	case d.Shape[a] == 1: // 0: the one coordinate there is
	case d.simple1D():
		s.use("tri_thread_id")
	default:
		s.pos(d.Warps[a], "warp_id")
		s.pos(d.Lanes[a], "lane_id")
	}
	return d.baseInit(a)
}

// ownerInit is the C expression initializing owner(), recorded.
func (s nameSet) ownerInit(d *dist) string {
	if d.simple1D() {
		s.use("tri_thread_id")
		return d.ownerInit()
	}
	for a := range d.Shape {
		if d.Shape[a] < d.Span[a] {
			s.pos(d.Warps[a], "warp_id")
			s.pos(d.Lanes[a], "lane_id")
		}
	}
	for _, sp := range d.DroppedLanes {
		s.pos(sp, "lane_id")
	}
	for _, sp := range d.DroppedWarps {
		s.pos(sp, "warp_id")
	}
	return d.ownerInit()
}

// coord is d.coord(a, e), recorded: the code names the base it starts from.
func (s nameSet) coord(d *dist, a int, e string) string {
	if d.rank() == 1 {
		s.use(d.base(0))
	} else {
		s.use(d.base(a))
	}
	return d.coord(a, e)
}

// linear is d.linear(e), recorded.
func (s nameSet) linear(d *dist, e string) string {
	for a := range d.Shape {
		if d.Shape[a] > 1 {
			s.coord(d, a, e)
		}
	}
	return d.linear(e)
}

// usesLaneWarp reports whether d's bases read lane_id and warp_id.
func (d *dist) usesLaneWarp() bool { return !d.simple1D() }

// owner is the C name of the flag that says this thread is the one that
// writes its elements of a replicated tile.
func (d *dist) owner() string { return d.Tag + "_owner" }

// ownerInit is the C expression initializing owner().
func (d *dist) ownerInit() string {
	if d.simple1D() {
		if d.SptFull[0] == 1 {
			return fmt.Sprintf("tri_thread_id() < %d", d.Shape[0])
		}
		return fmt.Sprintf("tri_thread_id() * %d < %d", d.SptFull[0], d.Shape[0])
	}
	var conds []string
	for a := range d.Shape {
		if d.Shape[a] < d.Span[a] {
			w, l := d.Warps[a].pos("warp_id"), d.Lanes[a].pos("lane_id")
			conds = append(conds, fmt.Sprintf("((%s) * %d + %s) * %d < %d", w, d.Lanes[a].Count, l, d.SptFull[a], d.Shape[a]))
		}
	}
	for _, s := range d.DroppedLanes {
		if s.Count > 1 {
			conds = append(conds, fmt.Sprintf("%s == 0", s.pos("lane_id")))
		}
	}
	for _, s := range d.DroppedWarps {
		if s.Count > 1 {
			conds = append(conds, fmt.Sprintf("%s == 0", s.pos("warp_id")))
		}
	}
	if len(conds) == 0 {
		return "true"
	}
	return strings.Join(conds, " && ")
}

// part is the C expression of (e / div) % n, simplified.
func part(e string, div, n int) string {
	if div == 1 && strings.HasSuffix(e, fmt.Sprintf(" %% %d", n)) && !strings.ContainsAny(e, "+-/(") {
		return e // already reduced: (e % n) % n
	}
	if strings.Contains(e, " ") {
		e = "(" + e + ")"
	}
	switch {
	case n == 1:
		return ""
	case div == 1:
		return fmt.Sprintf("%s %% %d", e, n)
	}
	return fmt.Sprintf("%s / %d %% %d", e, div, n)
}

// coord is the C expression of the coordinate along axis a of the
// thread's element e.
func (d *dist) coord(a int, e string) string {
	if d.rank() == 1 {
		return d.index1D(e)
	}
	s := d.base(a)
	if r := part(e, d.RStride[a], d.Reps[a]); r != "" {
		if d.RStride[a]*d.Reps[a] == d.Elems {
			r = fmt.Sprintf("%s / %d", e, d.RStride[a])
		}
		s += fmt.Sprintf(" + (%s) * %d", r, d.Span[a])
	}
	if k := part(e, d.KStride[a], d.Spt[a]); k != "" {
		s += " + " + k
	}
	return s
}

// index1D is the coordinate of element e of a 1-D tile, printed as the
// first version of the emitter did.
func (d *dist) index1D(e string) string {
	spt, reps := d.Spt[0], d.Reps[0]
	if strings.ContainsAny(e, " +-*/%") && !wrapped(e) {
		e = "(" + e + ")" // a remapped index: e.g. e % 2 + (e / 2 % 16) * 2
	}
	switch {
	case d.Elems == 1:
		return d.base(0)
	case reps == 1:
		return fmt.Sprintf("%s + %s", d.base(0), e)
	case spt == 1:
		return fmt.Sprintf("%s + %s * %d", d.base(0), e, d.Span[0])
	}
	return fmt.Sprintf("%s + (%s / %d) * %d + %s %% %d", d.base(0), e, spt, d.Span[0], e, spt)
}

// linear is the C expression of the row-major index of element e in the
// tile.
func (d *dist) linear(e string) string {
	var terms []string
	stride := 1
	for a := d.rank() - 1; a >= 0; a-- {
		if d.Shape[a] > 1 {
			c := d.coord(a, e)
			if stride > 1 {
				c = fmt.Sprintf("(%s) * %d", c, stride)
			}
			terms = append([]string{c}, terms...)
		}
		stride *= d.Shape[a]
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// describe says in words how the layout spreads a tile.
func (d *dist) describe() string {
	if d.Repl && d.simple1D() {
		return fmt.Sprintf("1 element per thread, each held by %d threads", d.Threads*d.SptFull[0]/d.Shape[0])
	}
	if d.Repl {
		return fmt.Sprintf("%d elements per thread, replicated", d.Elems)
	}
	return fmt.Sprintf("%d elements per thread", d.Elems)
}

// remap is the C expression of the index, among the thread's elements of
// src, of the element whose coordinates are those of element e of d,
// where axes[i] is the axis of d that src's axis i is (the other axes of
// d are dropped or broadcast). Both must spread lanes and warps alike
// along the shared axes; the caller checks with sameThreads.
func (d *dist) remap(src *dist, axes []int, e string) string {
	if src.Elems == 1 {
		return "0"
	}
	var terms []string
	for i, a := range axes {
		if src.Spt[i] > 1 {
			k := part(e, d.KStride[a], d.Spt[a])
			if d.Spt[a] > src.Spt[i] {
				k = fmt.Sprintf("(%s) %% %d", k, src.Spt[i])
			}
			terms = append(terms, scaled(k, src.KStride[i]))
		}
		if src.Reps[i] > 1 {
			r := part(e, d.RStride[a], d.Reps[a])
			if d.Reps[a] > src.Reps[i] {
				r = fmt.Sprintf("(%s) %% %d", r, src.Reps[i])
			}
			terms = append(terms, scaled(r, src.RStride[i]))
		}
	}
	if len(terms) == 0 {
		return "0"
	}
	s := strings.Join(terms, " + ")
	if s == e+" % "+fmt.Sprint(d.Elems) {
		return e
	}
	return s
}

func scaled(x string, m int) string {
	if m == 1 {
		return x
	}
	return fmt.Sprintf("(%s) * %d", x, m)
}

// sameThreads reports whether the elements of src sit, in every thread,
// where remap finds them: each of src's axes i is spread over lanes and
// warps as d's axis axes[i], and src holds the whole of its shape along
// it the way d does.
func (d *dist) sameThreads(src *dist, axes []int) bool {
	for i, a := range axes {
		if src.Lanes[i] != d.Lanes[a] || src.Warps[i] != d.Warps[a] || src.SptFull[i] != d.SptFull[a] {
			return false
		}
		if src.Shape[i] != d.Shape[a] && src.Shape[i] != 1 {
			return false
		}
	}
	return true
}

// wrapped reports whether the C expression e is one parenthesized whole.
func wrapped(e string) bool {
	if !strings.HasPrefix(e, "(") {
		return false
	}
	depth := 0
	for i, c := range e {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(e)-1
			}
		}
	}
	return false
}

// linearOf is the row-major index, in shape, of the coordinates coords.
func linearOf(shape []int, coords []string) string {
	var terms []string
	stride := 1
	for a := len(shape) - 1; a >= 0; a-- {
		if shape[a] > 1 && coords[a] != "0" {
			terms = append([]string{scaled(coords[a], stride)}, terms...)
		}
		stride *= shape[a]
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// coords are the coordinates of element i of a tile in layout d.
func (s nameSet) coords(d *dist, i string) []string {
	c := make([]string, d.rank())
	for a := range c {
		c[a] = "0"
		if d.Shape[a] != 1 {
			c[a] = s.coord(d, a, i)
		}
	}
	return c
}
