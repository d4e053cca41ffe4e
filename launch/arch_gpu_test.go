package launch

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/nvrtc"
)

// TestTuneDevice: a tuning of the GPU's own target keeps the name earlier
// tunings were cached under; another target's is a tuning of its own.
func TestTuneDevice(t *testing.T) {
	own := gpu.Target{Arch: "sm_90a", Device: "sm_90"}
	assert.Equal(t, "NVIDIA H100 (sm_90)", tuneDevice("NVIDIA H100", own, "sm_90a"))
	jit := gpu.Target{Arch: "sm_80", Device: "sm_90", JIT: true}
	assert.Equal(t, "NVIDIA H100 (sm_90), sm_80 code through the PTX JIT", tuneDevice("NVIDIA H100", jit, "sm_90a"))
	plain := gpu.Target{Arch: "sm_90", Device: "sm_90"}
	assert.Equal(t, "NVIDIA H100 (sm_90), sm_90 code", tuneDevice("NVIDIA H100", plain, "sm_90a"))
}

// needNewerThanSM80 skips a test that needs a GPU of a newer major
// architecture than sm_80's, where sm_80 code runs through the PTX JIT.
func needNewerThanSM80(t *testing.T) {
	t.Helper()
	needGPU(t)
	dev, _ := gpu.Device()
	if major, _ := dev.ComputeCapability(); major <= 8 {
		t.Skipf("%s runs sm_80 code as a cubin; the PTX route needs a GPU of compute capability 9.0 or newer", dev.Arch())
	}
}

// TestArchSM80GPU compiles the grouped matmul (one tl.dot in a K loop) for
// sm_80 on a newer GPU and checks that the code is sm_80's (mma.sync, no
// wgmma), that it ran through the driver's PTX JIT, and that its results
// match the interpreter's. Without such a GPU it skips, unless
// TRI_REQUIRE_GPU=1 and there is no GPU at all.
func TestArchSM80GPU(t *testing.T) {
	needNewerThanSM80(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	p, err := Prepare("../samples/matmul_grouped.tri", "", &Options{Arch: "sm_80"})
	require.NoError(t, err)
	c, err := p.RunGPU(false)
	require.NoError(t, err)
	assert.Equal(t, "sm_80", c.Target.Arch)
	assert.True(t, c.Target.JIT, "sm_80 code on %s runs through the PTX JIT", c.Target.Device)
	assert.Contains(t, c.CUDA, "Target sm_80.")
	assert.Contains(t, c.CUDA, "mma.sync.aligned.m16n8k16")
	assert.NotContains(t, c.CUDA, "wgmma")
	assert.Contains(t, c.Log, "registers", "the JIT's report is in the log")

	var stdout, stderr bytes.Buffer
	o := &Options{Arch: "sm_80", Check: true, Stdout: &stdout, Stderr: &stderr}
	require.NoError(t, RunFile("../samples/matmul_grouped.tri", "", o), stderr.String())
	assert.Contains(t, stdout.String(), "check c ")
	assert.Contains(t, stdout.String(), "gpu matches the interpreter")
	note := c.Target.Note()
	assert.Equal(t, 1, strings.Count(stderr.String(), note+"\n"), "one note on stderr: %s", stderr.String())

	// The GPU's own target runs as before, without the note.
	stdout.Reset()
	stderr.Reset()
	require.NoError(t, RunFile("../samples/matmul_grouped.tri", "", &Options{Check: true, Stdout: &stdout, Stderr: &stderr}))
	assert.NotContains(t, stderr.String(), "PTX JIT")
	own, err := Prepare("../samples/matmul_grouped.tri", "", &Options{})
	require.NoError(t, err)
	oc, err := own.RunGPU(false)
	require.NoError(t, err)
	assert.False(t, oc.Target.JIT)
	assert.Equal(t, gpu.DeviceTarget(mustDevice(t)), oc.Target.Arch)
}

// TestArchSM80BenchAndTuneGPU: tri bench and the autotuner compile for the
// target asked for too: the note is printed, and the timings run.
func TestArchSM80BenchAndTuneGPU(t *testing.T) {
	needNewerThanSM80(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var stdout, stderr bytes.Buffer
	rs, err := BenchFile("../samples/add.tri", "", &Options{Arch: "sm_80", Config: -1, Stdout: &stdout, Stderr: &stderr},
		&BenchOptions{Warmup: 1, Rep: 1})
	require.NoError(t, err, stderr.String())
	require.Len(t, rs, 1)
	assert.Positive(t, rs[0].Median)
	assert.Contains(t, stderr.String(), "tri: running sm_80 code on an")

	// A tuning at sm_80 is cached apart from one of the GPU's own target.
	tune := func(arch string) string {
		var stdout, stderr bytes.Buffer
		o := &Options{Arch: arch, Config: -1, Stdout: &stdout, Stderr: &stderr}
		require.NoError(t, RunFile("../samples/matmul_autotuned.tri", "", o), stderr.String())
		return stderr.String()
	}
	first := tune("sm_80")
	assert.Contains(t, first, "tri: running sm_80 code on an")
	assert.Contains(t, first, "is the fastest")
	assert.NotContains(t, tune(""), "using cached config", "the GPU's own target is tuned apart")
	assert.Contains(t, tune("sm_80"), "using cached config")
}

// TestArchRefusedGPU: a target newer than the GPU is refused as bad input,
// before anything runs, by run, --check and bench alike.
func TestArchRefusedGPU(t *testing.T) {
	needGPU(t)
	dev := mustDevice(t)
	newer := "sm_120"
	if major, _ := dev.ComputeCapability(); major >= 12 {
		t.Skipf("no target newer than %s that tri knows", dev.Arch())
	}
	for _, check := range []bool{false, true} {
		var stderr bytes.Buffer
		err := RunFile("../samples/add.tri", "", &Options{Arch: newer, Check: check, Stderr: &stderr})
		require.Error(t, err)
		assert.Equal(t, 2, hosteval.ExitCode(err))
		assert.Contains(t, err.Error(), "--arch sm_120: cannot run sm_120 code on "+dev.Name())
		assert.NotContains(t, stderr.String(), "ran on the GPU")
	}
	_, err := BenchFile("../samples/add.tri", "", &Options{Arch: newer}, &BenchOptions{})
	require.Error(t, err)
	assert.Equal(t, 2, hosteval.ExitCode(err))
}

func mustDevice(t *testing.T) *nvrtc.Device {
	t.Helper()
	d, err := gpu.Device()
	require.NoError(t, err)
	return d
}
