package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
)

// TestHelperTri is not a test: run by triProcess in a child process, it
// runs the command line given in TRI_HELPER_ARGS (arguments separated by
// the unit separator, as an environment variable cannot hold NUL) and exits
// as tri does.
func TestHelperTri(t *testing.T) {
	if os.Getenv("TRI_HELPER") != "1" {
		t.Skip("runs only as the child of triProcess")
	}
	root := newRoot()
	root.SetArgs(strings.Split(os.Getenv("TRI_HELPER_ARGS"), "\x1f"))
	if err := root.Execute(); err != nil {
		hosteval.PrintError(os.Stderr, err)
		os.Exit(hosteval.ExitCode(err))
	}
	os.Exit(0)
}

// triProcess runs tri in a child process, its stdout a pipe: the GPU's
// printf output must reach it, and a failed device assertion, which
// leaves the GPU context unusable, ends only the child.
func triProcess(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperTri$")
	cmd.Env = append(os.Environ(), "TRI_HELPER=1", "TRI_HELPER_ARGS="+strings.Join(args, "\x1f"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errb.String(), 0
}

func needGPU(t *testing.T) {
	if _, err := gpu.Device(); errors.Is(err, gpu.ErrNoGPU) {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
		}
		t.Skipf("%s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
}

// TestGPUPrintsToPipe: `tri run` on the GPU writes the kernel's lines to
// its stdout even when that is a pipe, the same lines as the interpreter
// (sorted: the GPU's order is its own).
func TestGPUPrintsToPipe(t *testing.T) {
	needGPU(t)
	file := filepath.Join("..", "..", "conformance", "constructs", "device_print.tri")
	want, stderr, code := triProcess(t, "run", "--interpret", file)
	require.Equal(t, 0, code, stderr)
	got, stderr, code := triProcess(t, "run", file)
	require.Equal(t, 0, code, stderr)
	sorted := func(s string) []string {
		var l []string
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "pid (") {
				l = append(l, line)
			}
		}
		slices.Sort(l)
		return l
	}
	require.NotEmpty(t, sorted(want))
	assert.Equal(t, sorted(want), sorted(got))
}

// TestGPUAssertion: without --debug the GPU skips device assertions, as
// Triton does; with it, a failing one ends the run with exit 1 and an
// error naming the kernel's assertions, and the driver prints the failing
// one.
func TestGPUAssertion(t *testing.T) {
	needGPU(t)
	file := filepath.Join("testdata", "debug", "assert_fail.tri")
	_, stderr, code := triProcess(t, "run", file)
	assert.Equal(t, 0, code, stderr)
	stdout, stderr, code := triProcess(t, "run", "--debug", file)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `a device assertion failed (one of assert_fail.tri:15: "x must be non-negative", assert_fail.tri:16: "x must not be 6")`)
	assert.Contains(t, stderr, "CUDA_ERROR_ASSERT (710)")
	assert.Contains(t, stdout+stderr, "x must not be 6")
}
