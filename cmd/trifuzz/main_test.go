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
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/kernelgen"
	"github.com/tri-lang/tri/launch"
)

func TestRunPasses(t *testing.T) {
	c := &config{n: 20, seed: 1, jobs: 1, batch: 10, arch: "sm_80", dots: kernelgen.DefaultDotPositions, out: filepath.Join(t.TempDir(), "failures"), timeout: 10 * time.Second}
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

// fakeClang writes a clang that passes a kernel only where it is compiled
// for arch and its CUDA holds the wgmma instruction (wgmma) or does not.
func fakeClang(t *testing.T, arch string, wgmma bool) string {
	t.Helper()
	want := "grep -q wgmma.mma_async.sync \"$last\""
	if !wgmma {
		want = "! " + want
	}
	path := filepath.Join(t.TempDir(), "clang")
	script := "#!/bin/sh\nfor a; do last=$a; [ \"$a\" = --cuda-gpu-arch=" + arch + " ] && ok=1; done\n[ -n \"$ok\" ] && " + want + "\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

// TestRunArch checks that -arch reaches the CUDA generation and clang: a
// dot-position kernel with a wgmma form has wgmma in its CUDA at sm_90a
// (which clang compiles for sm_86) and none at sm_80.
func TestRunArch(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	seed := uint64(1)
	for !kernelgen.GenerateWith(seed, kernelgen.Options{DotPositions: 1}).Wgmma {
		seed++
	}
	for _, c := range []struct {
		arch, clangArch string
		wgmma           bool
	}{{"sm_90a", "sm_86", true}, {"sm_80", "sm_80", false}} {
		t.Run(c.arch, func(t *testing.T) {
			cfg := &config{n: 1, seed: seed, jobs: 1, batch: 1, clang: true, clangPath: fakeClang(t, c.clangArch, c.wgmma),
				arch: c.arch, dots: 1, out: filepath.Join(t.TempDir(), "failures"), timeout: 10 * time.Second}
			var out, errb bytes.Buffer
			failed, err := run(cfg, &out, &errb)
			require.NoError(t, err)
			assert.False(t, failed, out.String())
			assert.Contains(t, out.String(), "clang             1        0")
			assert.Contains(t, out.String(), "target "+c.arch+", dot-position share 1")
		})
	}
}

func TestClangArch(t *testing.T) {
	for arch, want := range map[string]string{"sm_80": "sm_80", "sm_86": "sm_86", "sm_89": "sm_86", "sm_90a": "sm_86", "sm_100f": "sm_86", "sm_75": "sm_75"} {
		assert.Equal(t, want, clangArch(arch), arch)
	}
}

// TestRunGPUArch runs a few dot-position kernels on the GPU at sm_80,
// through the driver's PTX JIT on a later GPU; it is skipped without one.
//
//	go test ./cmd/trifuzz -run GPUArch -v
func TestRunGPUArch(t *testing.T) {
	if _, err := gpu.Device(); err != nil {
		t.Skip(err)
	}
	for _, arch := range []string{"sm_80", gpu.TargetArch("")} {
		c := &config{n: 6, seed: 1, jobs: 1, batch: 6, gpu: true, arch: arch, dots: 1, out: filepath.Join(t.TempDir(), "failures"), timeout: 60 * time.Second}
		var out, errb bytes.Buffer
		failed, err := run(c, &out, &errb)
		require.NoError(t, err)
		assert.False(t, failed, out.String())
		assert.Contains(t, out.String(), "gpu                6        0", arch)
	}
}
