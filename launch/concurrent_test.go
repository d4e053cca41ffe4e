package launch

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/nvrtc"
)

// TestConcurrentErrors: launch lines, --let bindings and kernel files
// handled on many goroutines at once each report their errors with their
// own text (run with -race: nothing is shared between the calls).
func TestConcurrentErrors(t *testing.T) {
	dir := t.TempDir()
	const n = 32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			bad := fmt.Sprintf("k%d[(1,)](x, y, %d +, z)", i, i)
			_, err := hosteval.ParseLaunch(bad)
			var out bytes.Buffer
			hosteval.PrintError(&out, err)
			assert.Contains(t, out.String(), bad, "goroutine %d", i)

			e := hosteval.NewEnv(0)
			spec := fmt.Sprintf("v%d=zeros(%d, dtype='nope%d')", i, i+1, i)
			err = e.Let(spec)
			out.Reset()
			hosteval.PrintError(&out, err)
			assert.Contains(t, out.String(), spec, "goroutine %d", i)

			path := filepath.Join(dir, fmt.Sprintf("k%d.tri", i))
			src := fmt.Sprintf("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr):\n    y%d = tl.load(x_ptr) + undefined_%d\n", i, i)
			if !assert.NoError(t, os.WriteFile(path, []byte(src), 0o644)) {
				return
			}
			err = BuildFile(path, "k[(1,)](x)", &Options{Lets: []string{"x=zeros(4)"}})
			out.Reset()
			hosteval.PrintError(&out, err)
			assert.Contains(t, out.String(), fmt.Sprintf("y%d = tl.load(x_ptr) + undefined_%d", i, i), "goroutine %d", i)
		})
	}
	wg.Wait()
}

// TestConcurrentGPU compiles a kernel for 8 specializations on 8 goroutines
// at once, launches each on its own stream, and checks every result.
func TestConcurrentGPU(t *testing.T) {
	needGPU(t)
	dev, err := gpu.Device()
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			assert.NoError(t, addOnStream(dev, g), "goroutine %d", g)
		})
	}
	wg.Wait()
}

// addOnStream runs samples/add.tri with its own block size and length on a
// stream of its own and checks x + y.
func addOnStream(dev *nvrtc.Device, g int) error {
	n := 100000 + 997*g
	block := 64 << (g % 5)
	line := fmt.Sprintf("add_kernel[(triton.cdiv(n, %d),)](x, y, output, n, BLOCK_SIZE=%d)", block, block)
	p, err := Prepare("../samples/add.tri", line, &Options{Lets: []string{fmt.Sprintf("n=%d", n), "x=rand(n)", "y=rand(n)", "output=empty(n)"}})
	if err != nil {
		return err
	}
	c, err := gpu.Compile(p.Kernel, false)
	if err != nil {
		return err
	}
	stream, err := dev.NewStream()
	if err != nil {
		return err
	}
	defer stream.Close()
	x, y := make([]float32, n), make([]float32, n)
	for i := range n {
		x[i], y[i] = float32(i%1000)/8, float32(g)+float32(i%7)
	}
	var ptrs [3]nvrtc.DevicePtr
	for i := range ptrs {
		if ptrs[i], err = dev.Alloc(4 * n); err != nil {
			return err
		}
		defer dev.Free(ptrs[i])
	}
	if err := dev.CopyHtoD(ptrs[0], f32Bytes(x)); err != nil {
		return err
	}
	if err := dev.CopyHtoD(ptrs[1], f32Bytes(y)); err != nil {
		return err
	}
	for range 20 { // many launches in flight on this stream
		if err := c.LaunchOn(stream, p.Grid, gpu.Arg{Ptr: ptrs[0]}, gpu.Arg{Ptr: ptrs[1]}, gpu.Arg{Ptr: ptrs[2]}, gpu.Arg{Int: int64(n)}); err != nil {
			return err
		}
	}
	if err := stream.Synchronize(); err != nil {
		return err
	}
	out := make([]byte, 4*n)
	if err := dev.CopyDtoH(out, ptrs[2]); err != nil {
		return err
	}
	var bad []string
	for i := range n {
		got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
		if got != x[i]+y[i] && len(bad) < 3 {
			bad = append(bad, fmt.Sprintf("[%d] = %g, want %g", i, got, x[i]+y[i]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("block %d, n %d: %s", block, n, strings.Join(bad, "; "))
	}
	return nil
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
