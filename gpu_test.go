package tri

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needGPU skips a test without a GPU, or fails it under
// TRI_REQUIRE_GPU=1, as the repository's other GPU tests do.
func needGPU(t *testing.T) {
	t.Helper()
	s, err := NewStream()
	if err == nil {
		_ = s.Close()
		return
	}
	if os.Getenv("TRI_REQUIRE_GPU") == "1" {
		t.Fatalf("TRI_REQUIRE_GPU=1 but: %v", err)
	}
	if !errors.Is(err, ErrNoGPU) {
		t.Fatalf("no stream, and not for want of a GPU: %v", err)
	}
	t.Skip(err)
}

// addData is n inputs whose sums are exact in float32, and the sums.
func addData(n int) (x, y, want []float32) {
	x, y, want = make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i%1000), float32(3*(i%777))
		want[i] = x[i] + y[i]
	}
	return x, y, want
}

// samples/add.tri's kernel on the GPU through the API: with Go slices on
// the default stream and on a stream of its own (copied there and back),
// and with device buffers on a stream, where Run only queues the launch
// and CopyTo waits for it; the last block is masked (n is no multiple of
// BLOCK_SIZE), and the sums are checked against Go's.
func TestGPURunAdd(t *testing.T) {
	needGPU(t)
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	const n = 98432 + 5
	line := "add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)"
	x, y, want := addData(n)

	t.Run("slices/default stream", func(t *testing.T) {
		out := make([]float32, n)
		require.NoError(t, f.Run(nil, line, Args{"x": x, "y": y, "out": out, "n": n}))
		assert.Equal(t, want, out)
	})

	stream, err := NewStream()
	require.NoError(t, err)
	defer stream.Close()

	t.Run("slices/stream", func(t *testing.T) {
		out := make([]float32, n)
		require.NoError(t, f.Run(stream, line, Args{"x": x, "y": y, "out": out, "n": n}))
		assert.Equal(t, want, out)
	})

	t.Run("buffers/stream", func(t *testing.T) {
		bx, err := NewBuffer(x)
		require.NoError(t, err)
		defer bx.Free()
		by, err := NewBuffer(y)
		require.NoError(t, err)
		defer by.Free()
		bout, err := NewBuffer(make([]float32, n))
		require.NoError(t, err)
		defer bout.Free()
		assert.Equal(t, n, bout.Len())
		assert.Equal(t, "fp32", bout.DType())
		assert.True(t, bout.Ptr() != 0 && bout.Ptr()%16 == 0, "a device address, 16-byte aligned")

		l, err := f.Prepare(line, Args{"x": bx, "y": by, "out": bout, "n": n})
		require.NoError(t, err)
		require.NoError(t, l.Run(stream))
		require.NoError(t, l.Run(stream)) // twice on one stream: same sums
		out := make([]float32, n)
		require.NoError(t, bout.CopyTo(out))
		assert.Equal(t, want, out)
		assert.ErrorIs(t, l.Interpret(), ErrBadInput, "the interpreter takes slices, not buffers")

		// New inputs into the same buffers, the launch run again.
		x2 := make([]float32, n)
		for i := range x2 {
			x2[i] = x[i] + 1
		}
		require.NoError(t, bx.CopyFrom(x2))
		require.NoError(t, l.Run(stream))
		require.NoError(t, stream.Synchronize())
		require.NoError(t, bout.CopyTo(out))
		for i := range out {
			want[i]++
		}
		assert.Equal(t, want, out)
		for i := range want {
			want[i]--
		}
	})

	t.Run("signature/buffers and slices", func(t *testing.T) {
		k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024")
		require.NoError(t, err)
		bx, err := NewBuffer(x)
		require.NoError(t, err)
		defer bx.Free()
		out := make([]float32, n)
		grid := [3]int{CDiv(n, 1024), 1, 1}
		require.NoError(t, k.Run(stream, grid, bx, y, out, n))
		assert.Equal(t, want, out)
		// The interpreter agrees with the GPU on the same kernel.
		ref := make([]float32, n)
		require.NoError(t, k.Interpret(grid, x, y, ref, n))
		assert.Equal(t, out, ref)
	})
}
