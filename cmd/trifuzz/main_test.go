package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/launch"
)

func TestRunPasses(t *testing.T) {
	c := &config{n: 20, seed: 1, jobs: 1, batch: 10, out: filepath.Join(t.TempDir(), "failures"), timeout: 10 * time.Second}
	var out, errb bytes.Buffer
	failed, err := run(c, &out, &errb)
	require.NoError(t, err)
	assert.False(t, failed, out.String())
	assert.Contains(t, out.String(), "interpret        20        0")
	assert.Contains(t, out.String(), "cuda             20        0")
	assert.Contains(t, errb.String(), "20 of 20 kernels, 0 failures")
	assert.NoDirExists(t, c.out)
}

// TestRunWritesReproducers makes every clang call fail (the "compiler" is
// false(1)) and checks that each kernel is reported and written as a file
// that runs as it stands.
func TestRunWritesReproducers(t *testing.T) {
	f, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1)")
	}
	c := &config{n: 3, seed: 5, jobs: 2, batch: 2, clang: true, clangPath: f, out: filepath.Join(t.TempDir(), "failures"), timeout: 10 * time.Second}
	var out, errb bytes.Buffer
	failed, err := run(c, &out, &errb)
	require.NoError(t, err)
	assert.True(t, failed)
	assert.Contains(t, out.String(), "clang             0        3")
	for _, seed := range []string{"5", "6", "7"} {
		assert.Contains(t, out.String(), "FAIL seed "+seed+" at clang")
		msg, err := os.ReadFile(filepath.Join(c.out, "seed-"+seed+".txt"))
		require.NoError(t, err)
		assert.Contains(t, string(msg), "clang: ")
		s, err := launch.ReadSample(filepath.Join(c.out, "seed-"+seed+".tri"))
		require.NoError(t, err)
		_, err = s.Interpret(0)
		assert.NoError(t, err)
	}
}

// TestRunClang compiles a few kernels with clang, in one batch of
// namespaces and one by one; it is skipped where clang is missing.
func TestRunClang(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	c := &config{n: 8, seed: 11, jobs: 2, batch: 4, clang: true, clangPath: clang, out: filepath.Join(t.TempDir(), "failures"), timeout: 10 * time.Second}
	var out, errb bytes.Buffer
	failed, err := run(c, &out, &errb)
	require.NoError(t, err)
	assert.False(t, failed, out.String())
	assert.Contains(t, out.String(), "clang             8        0")
}
