package conformance

// This file implements the comparisons of real launches: the interpreter
// against the references, and the GPU against the interpreter.

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/launch"
)

// TestInterpreter runs every file's launch in the interpreter and compares
// each checked output with the reference computed from the same inputs.
func TestInterpreter(t *testing.T) {
	for _, c := range testCases(t) {
		t.Run(c.key, func(t *testing.T) {
			ref, ok := references[c.key]
			require.True(t, ok, "no reference")
			out, err := c.sample.Interpret(seed)
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
			cpu, err := c.sample.Interpret(seed)
			require.NoError(t, err)
			for _, name := range c.sample.Checks {
				require.Contains(t, onGPU.After, name)
				require.Contains(t, cpu.After, name)
				if err := launch.CompareTensors(name, onGPU.After[name], cpu.After[name], c.sample.Tolerance); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
