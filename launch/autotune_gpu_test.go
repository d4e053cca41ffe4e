package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/tensor"
)

// needGPU skips t without a GPU, or fails it under TRI_REQUIRE_GPU=1.
func needGPU(t *testing.T) {
	t.Helper()
	if _, err := gpu.Device(); err != nil {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		t.Skip(first)
	}
}

// TestAutotuneGPU runs every config of the autotuned samples on the GPU
// against the interpreter, then tunes each sample with an empty cache,
// checks the tuned run against the interpreter and that the inputs came
// through tuning unchanged, and tunes again to see the cached choice taken.
// Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestAutotuneGPU(t *testing.T) {
	needGPU(t)
	t.Setenv("TRI_AUTOTUNE_CACHE", t.TempDir())
	for _, name := range []string{"matmul_autotuned", "matmul_tutorial03"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "samples", name+".tri")
			s, err := ReadSample(path)
			require.NoError(t, err)
			prepare := func(config int, stderr *bytes.Buffer) *Prepared {
				p, err := Prepare(path, s.Launch, &Options{Lets: s.Lets, Config: config, Stderr: stderr})
				require.NoError(t, err)
				return p
			}
			// interpret returns the checked outputs of config i in the
			// interpreter.
			interpret := func(i int) map[string]*tensor.Tensor {
				p := prepare(i, nil)
				require.NoError(t, p.Interpret(0))
				out := map[string]*tensor.Tensor{}
				for _, c := range s.Checks {
					v, _ := p.Env.Lookup(c)
					out[c] = v.Tensor
				}
				return out
			}
			compare := func(p *Prepared, want map[string]*tensor.Tensor) {
				for _, c := range s.Checks {
					v, _ := p.Env.Lookup(c)
					assert.NoError(t, CompareTensors(c, v.Tensor, want[c], s.Tolerance), "config %d", p.Config)
				}
			}
			n := len(prepare(0, nil).Tuning.Autotune.Configs)
			for i := range n {
				p := prepare(i, nil)
				_, err := p.RunGPU(false)
				require.NoError(t, err, "config %d", i)
				compare(p, interpret(i))
			}

			var log bytes.Buffer
			p := prepare(-1, &log)
			before := map[string]*tensor.Tensor{}
			for _, tn := range p.tensorNames() {
				v, _ := p.Env.Lookup(tn)
				before[tn] = v.Tensor.Clone()
			}
			q, err := p.Autotune(&Options{Lets: s.Lets, Config: -1, Stderr: &log})
			require.NoError(t, err)
			t.Log(log.String())
			assert.Contains(t, log.String(), "is the fastest")
			for tn, t0 := range before {
				v, _ := q.Env.Lookup(tn)
				assert.Equal(t, t0.Data, v.Tensor.Data, "tuning changed the host tensor %s", tn)
			}
			_, err = q.RunGPU(false)
			require.NoError(t, err)
			compare(q, interpret(q.Config))

			log.Reset()
			q2, err := prepare(-1, &log).Autotune(&Options{Lets: s.Lets, Config: -1, Stderr: &log})
			require.NoError(t, err)
			assert.Equal(t, q.Config, q2.Config)
			assert.Contains(t, log.String(), "autotune: using cached config")
		})
	}
}

// TestScratchClosedGPU launches a kernel that builds its tensor maps in
// scratch memory (descriptors made in the kernel), checks that Close frees
// that memory, and that the kernel launched again after Close allocates
// it anew and still matches the interpreter. Without a GPU it skips.
func TestScratchClosedGPU(t *testing.T) {
	needGPU(t)
	path := filepath.Join("..", "conformance", "constructs", "tensor_desc_persistent.tri")
	s, err := ReadSample(path)
	require.NoError(t, err)
	want, err := Prepare(path, s.Launch, &Options{Lets: s.Lets})
	require.NoError(t, err)
	require.NoError(t, want.Interpret(0))
	p, err := Prepare(path, s.Launch, &Options{Lets: s.Lets})
	require.NoError(t, err)
	c, err := gpu.Compile(p.Kernel, false)
	require.NoError(t, err)
	dev, err := gpu.Device()
	require.NoError(t, err)
	dt := gpu.NewTensors(dev)
	defer dt.Free()
	args, err := p.deviceArgs(dt)
	require.NoError(t, err)
	for round := range 2 {
		require.NoError(t, c.Launch(p.Grid, args...), "round %d", round)
		require.NoError(t, dev.Synchronize())
		assert.Positive(t, c.ScratchBytes(), "round %d: the launch holds its scratch memory", round)
		require.NoError(t, c.Close())
		assert.Zero(t, c.ScratchBytes(), "round %d: Close frees it", round)
	}
	require.NoError(t, dt.Download())
	for _, name := range s.Checks {
		got, _ := p.Env.Lookup(name)
		ref, _ := want.Env.Lookup(name)
		assert.NoError(t, CompareTensors(name, got.Tensor, ref.Tensor, s.Tolerance))
	}
}
