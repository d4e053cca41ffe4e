package conformance

// This file implements the comparisons of real launches: the interpreter
// against the references, and the GPU against the interpreter.

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// interpretable returns nil when the interpreter can run the file's
// kernel, else the error it stops with (inline PTX).
func interpretable(t *testing.T, c testCase) error {
	t.Helper()
	p, err := launch.Prepare(c.sample.Path, c.sample.Launch, &launch.Options{Lets: c.sample.Lets, Seed: seed})
	require.NoError(t, err)
	return interp.CanRun(p.Kernel)
}

// TestInterpreter runs every file's launch in the interpreter and compares
// each checked output with the reference computed from the same inputs.
func TestInterpreter(t *testing.T) {
	for _, c := range testCases(t) {
		t.Run(c.key, func(t *testing.T) {
			ref, ok := references[c.key]
			require.True(t, ok, "no reference")
			out, err := c.sample.Interpret(seed)
			if gpuOnly := interpretable(t, c); gpuOnly != nil {
				// The interpreter refuses the kernel, placing the reason;
				// TestGPU compares the GPU with the reference instead.
				require.Error(t, err)
				assert.Equal(t, gpuOnly.Error(), err.Error())
				return
			}
			require.NoError(t, err)
			want := ref(cloneAll(out.Before), out.Numbers)
			for _, name := range c.sample.Checks {
				got, ok := out.After[name]
				require.True(t, ok, "launch has no binding %q", name)
				require.Contains(t, want, name, "reference returns no %q", name)
				if err := launch.CompareTensors(name, got, want[name], c.sample.Tolerance); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestGPU runs every file's launch on the GPU and in the interpreter on the
// same inputs and compares the checked outputs. Without a GPU it skips,
// unless TRI_REQUIRE_GPU=1.
func TestGPU(t *testing.T) {
	for _, c := range testCases(t) {
		onGPU, err := c.sample.RunGPU(seed)
		if errors.Is(err, gpu.ErrNoGPU) {
			if os.Getenv("TRI_REQUIRE_GPU") == "1" {
				t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
			}
			t.Skipf("%s", strings.SplitN(err.Error(), "\n", 2)[0])
		}
		t.Run(c.key, func(t *testing.T) {
			require.NoError(t, err)
			var want map[string]*tensor.Tensor
			if interpretable(t, c) != nil {
				// Inline PTX: the reference stands in for the interpreter.
				want = references[c.key](cloneAll(onGPU.Before), onGPU.Numbers)
			} else {
				cpu, err := c.sample.Interpret(seed)
				require.NoError(t, err)
				want = cpu.After
			}
			for _, name := range c.sample.Checks {
				require.Contains(t, onGPU.After, name)
				require.Contains(t, want, name)
				if err := launch.CompareTensors(name, onGPU.After[name], want[name], c.sample.Tolerance); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
