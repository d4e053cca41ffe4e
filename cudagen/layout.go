package cudagen

// This file defines layouts: which thread of a program holds which
// elements of a tile.

import (
	"fmt"
	"strings"
)

// Layout maps the elements of a tile to the threads of a program.
// Blocked is the only layout so far; Slice, Mma and DotOperand will join it.
type Layout interface {
	// String prints the layout as Triton's TritonGPU dialect does.
	String() string
	isLayout()
}

// Blocked is Triton's blocked layout. Along axis d a thread holds
// SizePerThread[d] contiguous elements, ThreadsPerWarp[d] lanes and
// WarpsPerCTA[d] warps cover the next elements, and the resulting layout
// tile repeats (or, for a small shape, replicates) to cover the shape.
// Order lists the axes fastest first.
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
		n *= b.SizePerThread[d] * max(1, shape[d]/t)
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

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// blocked1D is the 1-D Blocked layout of numWarps warps with spt elements
// per thread.
func blocked1D(spt, numWarps int) Blocked {
	return Blocked{SizePerThread: []int{spt}, ThreadsPerWarp: []int{32}, WarpsPerCTA: []int{numWarps}, Order: []int{0}}
}

// tileLayout is the layout of the 1-D tiles of one length in a kernel,
// with what the emitter needs to index them.
type tileLayout struct {
	Tag     string // "L0", "L1": the name in comments and in C locals
	N       int    // tile length
	Layout  Blocked
	Spt     int
	Threads int
	Elems   int  // per-thread array length
	Repl    bool // N < tile: elements replicated over threads
}

func newTileLayout(tag string, n, spt, numWarps int) *tileLayout {
	b := blocked1D(spt, numWarps)
	return &tileLayout{Tag: tag, N: n, Layout: b, Spt: spt, Threads: 32 * numWarps,
		Elems: b.ElemsPerThread([]int{n}), Repl: b.Replicated([]int{n})}
}

// base is the C name of the index of this thread's first element.
func (l *tileLayout) base() string { return l.Tag + "_base" }

// baseInit is the C expression initializing base().
func (l *tileLayout) baseInit() string {
	s := "tri_thread_id()"
	if l.Spt > 1 {
		s = fmt.Sprintf("tri_thread_id() * %d", l.Spt)
	}
	if l.Repl && l.Spt > 1 {
		return fmt.Sprintf("(%s) %% %d", s, l.N)
	}
	if l.Repl {
		return fmt.Sprintf("%s %% %d", s, l.N)
	}
	return s
}

// owner is the C name of the flag that says this thread is the one that
// writes its elements of a replicated tile.
func (l *tileLayout) owner() string { return l.Tag + "_owner" }

// ownerInit is the C expression initializing owner().
func (l *tileLayout) ownerInit() string {
	if l.Spt == 1 {
		return fmt.Sprintf("tri_thread_id() < %d", l.N)
	}
	return fmt.Sprintf("tri_thread_id() * %d < %d", l.Spt, l.N)
}

// index is the C expression of the tile index of the thread's element e.
func (l *tileLayout) index(e string) string {
	switch {
	case l.Elems == l.Spt && l.Spt == 1:
		return l.base()
	case l.Elems == l.Spt:
		return fmt.Sprintf("%s + %s", l.base(), e)
	case l.Spt == 1:
		return fmt.Sprintf("%s + %s * %d", l.base(), e, l.Threads)
	}
	return fmt.Sprintf("%s + (%s / %d) * %d + %s %% %d", l.base(), e, l.Spt, l.Spt*l.Threads, e, l.Spt)
}
