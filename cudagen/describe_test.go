package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHolders checks TileLayout.Holders against the formulas of
// LOWERING.md worked out by hand: each element's threads and registers.
func TestHolders(t *testing.T) {
	holders := func(b Blocked, shape []int, numWarps int) [][]Holder {
		return TileLayout{d: newDist(b, shape, numWarps)}.Holders()
	}
	t.Run("vector add: r*512 + t*4 + k", func(t *testing.T) {
		h := holders(Blocked{[]int{4}, []int{32}, []int{4}, []int{0}}, []int{1024}, 4)
		require.Len(t, h, 1024)
		for r := range 2 {
			for th := range 128 {
				for k := range 4 {
					assert.Equal(t, []Holder{{th, r*4 + k}}, h[r*512+th*4+k])
				}
			}
		}
	})
	t.Run("replicated: 64 elements over 128 threads", func(t *testing.T) {
		h := holders(Blocked{[]int{1}, []int{32}, []int{4}, []int{0}}, []int{64}, 4)
		for i := range 64 {
			assert.Equal(t, []Holder{{i, 0}, {i + 64, 0}}, h[i], "element %d", i)
		}
	})
	b2 := Blocked{[]int{1, 4}, []int{8, 4}, []int{4, 1}, []int{1, 0}}
	t.Run("2-D: rows by warp then lane/4, columns by lane%4", func(t *testing.T) {
		h := holders(b2, []int{32, 16}, 4)
		for r := range 32 {
			for c := range 16 {
				assert.Equal(t, []Holder{{r/8*32 + r%8*4 + c/4, c % 4}}, h[r*16+c], "element (%d, %d)", r, c)
			}
		}
	})
	t.Run("slice along axis 1: the four lanes of a row", func(t *testing.T) {
		h := TileLayout{d: newDist(b2, []int{32, 16}, 4).slice(1)}.Holders()
		require.Len(t, h, 32)
		for r := range 32 {
			th := r/8*32 + r%8*4
			assert.Equal(t, []Holder{{th, 0}, {th + 1, 0}, {th + 2, 0}, {th + 3, 0}}, h[r], "row %d", r)
		}
	})
	t.Run("zero value", func(t *testing.T) {
		assert.Nil(t, TileLayout{}.Holders())
	})
}
