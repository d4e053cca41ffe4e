package cudagen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTransposeSteps runs tri_transpose<n>'s steps on n simulated lanes
// (the word each lane sends, the shuffle, the selects) and checks that
// lane l ends with lane j's word l as its word j.
func TestTransposeSteps(t *testing.T) {
	for _, n := range []int{2, 4} {
		lanes := make([][]string, n)
		for l := range lanes {
			for j := 0; j < n; j++ {
				lanes[l] = append(lanes[l], fmt.Sprintf("lane %d word %d", l, j))
			}
		}
		transposeLanes(lanes, 0, func(j int) int { return j })
		for l := range lanes {
			for j := 0; j < n; j++ {
				assert.Equal(t, fmt.Sprintf("lane %d word %d", j, l), lanes[l][j], "n=%d", n)
			}
		}
	}
}

// transposeLanes applies tri_transpose<n> to the words of a group of n
// lanes (lanes[lane][word], the first lane's index lane0), word(j) being
// the word passed as its j-th argument, as the C helper does: in each step every lane sends lo if the step's lane bit is set in
// its lane index, else hi, receives what the lane differing in that bit
// sent, and puts it in place of the word it sent.
func transposeLanes[T any](lanes [][]T, lane0 int, word func(j int) int) {
	for _, s := range transposeSteps(len(lanes)) {
		sent := make([]T, len(lanes))
		for l := range lanes {
			up := (lane0+l)&s.Mask != 0
			if up {
				sent[l] = lanes[l][word(s.Lo)]
			} else {
				sent[l] = lanes[l][word(s.Hi)]
			}
		}
		for l := range lanes {
			r := sent[l^s.Mask]
			if (lane0+l)&s.Mask != 0 {
				lanes[l][word(s.Lo)] = r
			} else {
				lanes[l][word(s.Hi)] = r
			}
		}
	}
}

// TestTransposedStoreMapping simulates every thread of a program through
// a transposed store of a whole tile in a layout that takes one: the words
// each thread packs from its elements, the transpose within each group of
// lanes, and the address each lane stores its vectors at, in a row-major
// tile whose element at (r, c) is r*cols + c. Every element must land once
// at its own address, each vector aligned to its size.
func TestTransposedStoreMapping(t *testing.T) {
	tests := []struct {
		name   string
		b      Blocked
		shape  []int
		warps  int
		bytes  int
		vector int
	}{
		// A wgmma accumulator (tutorial 09's 128x256 tile, 8 warps) in fp16.
		{"wgmma fp16", Blocked{[]int{1, 2}, []int{8, 4}, []int{8, 1}, []int{1, 0}}, []int{128, 256}, 8, 2, 16},
		// An mma.sync accumulator with warps side by side along the rows.
		{"mma fp16, 2 warps along a row", Blocked{[]int{1, 2}, []int{8, 4}, []int{2, 2}, []int{1, 0}}, []int{64, 64}, 4, 2, 16},
		// 2 lanes along a row: 8-byte vectors of fp16.
		{"fp16, 2 lanes", Blocked{[]int{1, 2}, []int{16, 2}, []int{4, 1}, []int{1, 0}}, []int{64, 16}, 4, 2, 8},
		// fp32 runs of 2 (two words each) in 2 lanes: 16-byte vectors.
		{"fp32, 2 lanes", Blocked{[]int{1, 2}, []int{16, 2}, []int{4, 1}, []int{1, 0}}, []int{64, 16}, 4, 4, 16},
		// fp32 runs of 1 in 4 lanes.
		{"fp32, 4 lanes", Blocked{[]int{1, 1}, []int{8, 4}, []int{4, 1}, []int{1, 0}}, []int{32, 32}, 4, 4, 16},
		// Axis 0 contiguous (order [0, 1]).
		{"column-major fp16", Blocked{[]int{2, 1}, []int{4, 8}, []int{1, 4}, []int{0, 1}}, []int{64, 32}, 4, 2, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newDist(tc.b, tc.shape, tc.warps)
			q, ok := laneTransposeFor(l, tc.bytes, l.Spt[l.Order[0]])
			require.True(t, ok)
			require.Equal(t, tc.vector, q.vectorBytes())
			ax := q.Axis
			// stride is the distance in memory of neighbors along each axis.
			stride := []int{tc.shape[1], 1}
			if ax == 0 {
				stride = []int{1, tc.shape[0]}
			}
			per := 4 / tc.bytes // elements per word
			// addr is the address (and value) of thread tid's element e.
			addr := func(tid, e int) int {
				lane, warp := tid%32, tid/32
				a := 0
				for d := range tc.shape {
					base := (at(l.Warps[d], warp)*l.Lanes[d].Count + at(l.Lanes[d], lane)) * l.SptFull[d]
					c := base + (e/l.RStride[d])%l.Reps[d]*l.Span[d] + (e/l.KStride[d])%l.Spt[d]
					a += c * stride[d]
				}
				return a
			}
			written := map[int]int{}
			group := q.Run * q.Lanes
			for first := 0; first < l.Threads; first += q.Lanes {
				for e := 0; e < l.Elems; e += group {
					// words[lane][word]: the addresses of the word's elements.
					words := make([][][]int, q.Lanes)
					for p := range words {
						for j := 0; j < q.Lanes; j++ {
							for i := 0; i < q.Words; i++ {
								var w []int
								for k := 0; k < per; k++ {
									w = append(w, addr(first+p, e+q.wordStart(j, i, tc.bytes)+k))
								}
								words[p] = append(words[p], w)
							}
						}
					}
					for i := 0; i < q.Words; i++ {
						transposeLanes(words, first%32, func(j int) int { return j*q.Words + i })
					}
					for p := range words {
						at := addr(first+p, e) + p*q.shift(l)
						require.Zero(t, at*tc.bytes%q.vectorBytes(), "thread %d element %d: misaligned", first+p, e)
						for n, w := range words[p] {
							for k, x := range w {
								off := at + n*per + k
								assert.Equal(t, off, x, "thread %d element %d word %d", first+p, e, n)
								written[off]++
							}
						}
					}
				}
			}
			assert.Len(t, written, tc.shape[0]*tc.shape[1])
			for a, n := range written {
				if n != 1 {
					t.Fatalf("address %d written %d times", a, n)
				}
			}
		})
	}
}

// at is the position of thread (lane or warp) id along a spread's axis.
func at(s spread, id int) int { return id / s.Div % s.Count }

// TestLaneTransposeRejects lists layouts whose stores keep their vector
// stores: the transpose needs 2 or 4 lanes along the contiguous axis, at
// least as many repetitions, no replication, runs of whole 32-bit words
// shorter than 16 bytes, the repetitions numbered right after the runs,
// and groups shorter than a sector.
func TestLaneTransposeRejects(t *testing.T) {
	acc := Blocked{[]int{1, 2}, []int{8, 4}, []int{4, 1}, []int{1, 0}}
	tests := []struct {
		name  string
		b     Blocked
		shape []int
		bytes int
	}{
		{"one lane along a row", Blocked{[]int{1, 2}, []int{32, 1}, []int{4, 1}, []int{1, 0}}, []int{128, 64}, 2},
		{"8 lanes along a row", Blocked{[]int{1, 2}, []int{4, 8}, []int{4, 1}, []int{1, 0}}, []int{64, 64}, 2},
		{"2 repetitions for 4 lanes", acc, []int{64, 16}, 2},
		{"replicated", acc, []int{16, 64}, 2},
		{"fp32 runs of 2: 32 bytes a quad", acc, []int{64, 64}, 4},
		{"1-byte elements", Blocked{[]int{1, 4}, []int{8, 4}, []int{4, 1}, []int{1, 0}}, []int{64, 64}, 1},
		{"16-byte runs", Blocked{[]int{1, 8}, []int{8, 4}, []int{4, 1}, []int{1, 0}}, []int{64, 128}, 2},
		{"2 elements per thread along each axis", Blocked{[]int{2, 2}, []int{8, 4}, []int{4, 1}, []int{1, 0}}, []int{64, 64}, 2},
	}
	for _, tc := range tests {
		l := newDist(tc.b, tc.shape, 4)
		_, ok := laneTransposeFor(l, tc.bytes, l.Spt[l.Order[0]])
		assert.False(t, ok, tc.name)
	}
	l := newDist(acc, []int{64, 64}, 4)
	_, ok := laneTransposeFor(l, 2, 1)
	assert.False(t, ok, "vectors narrower than the run")
	_, ok = laneTransposeFor(l, 2, 2)
	assert.True(t, ok, "the accumulator in fp16")
}
