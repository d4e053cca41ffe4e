package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// liveTiles builds a kernel that binds n tiles of 4096 int32 elements
// (32 KiB each in the interpreter), all alive at once, the i-th at line
// 10+i, and stores their sum.
func liveTiles(t *testing.T, n int) *ir.Kernel {
	b := newBuilder("hoard")
	op := b.param("out_ptr", ir.PtrTo(ir.Int32))
	var sum *ir.Value
	var tiles []*ir.Value
	for i := range n {
		b.at(10 + i)
		tiles = append(tiles, b.bin(ir.OpAdd, b.arange(0, 4096), b.splat(b.i32(int64(i)), 4096)))
	}
	b.at(100)
	for _, x := range tiles {
		if sum == nil {
			sum = x
		} else {
			sum = b.bin(ir.OpAdd, sum, x)
		}
	}
	b.store(b.ptrAdd(b.splat(op, 4096), b.arange(0, 4096)), sum, nil)
	return b.done(t)
}

// TestMemoryBudget: a kernel that keeps many large tiles alive stops with
// an error placed at the statement whose result passes the budget, not
// with the Go runtime's fatal out-of-memory; the kernel's tensors count.
func TestMemoryBudget(t *testing.T) {
	out := tensor.New(ir.Int32, 4096) // 16 KiB
	k := liveTiles(t, 40)
	err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: out}}, Options{Workers: 1, MaxMemory: 512 << 10})
	require.Error(t, err)
	// 16 KiB of tensor, then 96 KiB a line (its arange, splat and add stay
	// in their slots): the sixth line's arange passes 512 KiB.
	assert.Contains(t, err.Error(), "k.tri:15:5: interpreting hoard: this arange's result (32 KiB) takes the run past its memory budget of 512 KiB: the kernel's tensors take 16 KiB and the tiles the programs hold 512 KiB")
	assert.Contains(t, err.Error(), "(program (0, 0, 0))")

	require.NoError(t, Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: out}}, Options{Workers: 1, MaxMemory: 8 << 20}), "within a larger budget")
	assert.Equal(t, int64(40*39/2), out.Int(0))

	err = Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: out}}, Options{MaxMemory: 8 << 10})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "interpreting hoard: the kernel's tensors take 16 KiB, more than the run's memory budget of 8 KiB")
}

// TestMemoryBudgetReleases: a tile's slot written again in a later
// iteration or program releases the tile it held, so a loop that makes a
// large tile per iteration (and a grid of many programs) runs within a
// budget that a few such tiles fill.
func TestMemoryBudgetReleases(t *testing.T) {
	b := newBuilder("loop")
	op := b.param("out_ptr", ir.PtrTo(ir.Int32))
	acc := b.newVar("acc", ir.TileType(ir.TInt32, 4096))
	b.assign(acc, b.splat(b.i32(0), 4096))
	i := b.newVar("i", ir.ScalarType(ir.TInt32))
	b.forRange(i, b.i32(0), b.i32(100), b.i32(1), func() {
		x := b.bin(ir.OpAdd, b.arange(0, 4096), b.splat(b.read(i), 4096))
		b.assign(acc, b.bin(ir.OpAdd, b.read(acc), x))
	})
	offs := b.bin(ir.OpAdd, b.splat(b.bin(ir.OpMul, b.pid(0), b.i32(4096)), 4096), b.arange(0, 4096))
	b.store(b.ptrAdd(b.splat(op, 4096), offs), b.read(acc), nil)
	k := b.done(t)
	out := tensor.New(ir.Int32, 64*4096) // 1 MiB
	require.NoError(t, Run(k, [3]int{64, 1, 1}, []Arg{{Tensor: out}}, Options{Workers: 2, MaxMemory: 2 << 20}))
	for _, i := range []int{0, 7, 63*4096 + 5} {
		assert.Equal(t, int64(99*100/2+100*(i%4096)), out.Int(i), "element %d", i)
	}
}

func TestParseFormatBytes(t *testing.T) {
	for s, want := range map[string]int64{"8GiB": 8 << 30, "512 MiB": 512 << 20, "2.5GB": 2.5e9, "1000": 1000, "64KiB": 64 << 10, "1TiB": 1 << 40} {
		got, err := ParseBytes(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "0", "-1GiB", "lots", "1e30GiB", "NaN"} {
		_, err := ParseBytes(s)
		assert.Error(t, err, s)
	}
	assert.Equal(t, "8 GiB", FormatBytes(8<<30))
	assert.Equal(t, "1.5 MiB", FormatBytes(3<<19))
	assert.Equal(t, "100 B", FormatBytes(100))
	assert.Positive(t, DefaultMaxMemory())
}
