//go:build linux

package conformance

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/launch"
)

// TestGPUPrints runs the printing construct on the GPU and in the
// interpreter and checks that both print the same lines: the GPU's come in
// its own order, so both are sorted. The driver writes the GPU's lines to
// the process's standard output, which the test points at a file for the
// launch. Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestGPUPrints(t *testing.T) {
	const file = "constructs/device_print.tri"
	var interp bytes.Buffer
	p, err := launch.Prepare(file, "", &launch.Options{Seed: seed, Stdout: &interp})
	require.NoError(t, err)
	require.NoError(t, p.Interpret(0))

	p, err = launch.Prepare(file, "", &launch.Options{Seed: seed})
	require.NoError(t, err)
	out, err := os.CreateTemp(t.TempDir(), "stdout")
	require.NoError(t, err)
	saved, err := syscall.Dup(1)
	require.NoError(t, err)
	require.NoError(t, syscall.Dup3(int(out.Fd()), 1, 0))
	_, err = p.RunGPU(false)
	gpu.FlushOutput()
	require.NoError(t, syscall.Dup3(saved, 1, 0))
	if errors.Is(err, gpu.ErrNoGPU) {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
		}
		t.Skipf("%s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	require.NoError(t, err)
	got, err := os.ReadFile(out.Name())
	require.NoError(t, err)

	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "pid (") {
				out = append(out, l)
			}
		}
		slices.Sort(out)
		return out
	}
	want := lines(interp.String())
	require.NotEmpty(t, want)
	require.Equal(t, want, lines(string(got)))
}
