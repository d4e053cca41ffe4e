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

// TestArchSM80GPU compiles two matmuls (one tl.dot in a K loop; tutorial
// 03's is a wgmma pipeline on sm_90a) for sm_80 on a newer GPU and checks
// that the code is sm_80's (mma.sync, no wgmma), that it ran through the
// driver's PTX JIT, and that its results match the interpreter's; and that
// the GPU's own target still runs a cubin, of its own code. Without such a
// GPU it skips, unless TRI_REQUIRE_GPU=1 and there is no GPU at all.
func TestArchSM80GPU(t *testing.T) {
	needNewerThanSM80(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	own := gpu.DeviceTarget(mustDevice(t))
	for _, path := range []string{"../samples/matmul_grouped.tri", "../samples/matmul_tutorial03.tri"} {
		p, err := Prepare(path, "", &Options{Arch: "sm_80"})
		require.NoError(t, err, path)
		c, err := p.RunGPU(false)
		require.NoError(t, err, path)
		assert.Equal(t, "sm_80", c.Target.Arch, path)
		assert.True(t, c.Target.JIT, "%s: sm_80 code on %s runs through the PTX JIT", path, c.Target.Device)
		assert.Contains(t, c.CUDA, "Target sm_80.", path)
		assert.Contains(t, c.CUDA, "mma.sync.aligned.m16n8k16", path)
		assert.NotContains(t, c.CUDA, "wgmma", path)
		assert.Contains(t, c.Log, "registers", "%s: the JIT's report is in the log", path)

		var stdout, stderr bytes.Buffer
		o := &Options{Arch: "sm_80", Check: true, Stdout: &stdout, Stderr: &stderr}
		require.NoError(t, RunFile(path, "", o), "%s: %s", path, stderr.String())
		assert.Contains(t, stdout.String(), "check c ", path)
		assert.Contains(t, stdout.String(), "gpu matches the interpreter", path)
		assert.Equal(t, 1, strings.Count(stderr.String(), c.Target.Note()+"\n"), "%s: one note on stderr: %s", path, stderr.String())

		// The GPU's own target runs as before: a cubin, no note.
		stdout.Reset()
		stderr.Reset()
		require.NoError(t, RunFile(path, "", &Options{Check: true, Stdout: &stdout, Stderr: &stderr}), path)
		assert.NotContains(t, stderr.String(), "PTX JIT", path)
		q, err := Prepare(path, "", &Options{})
		require.NoError(t, err, path)
		oc, err := q.RunGPU(false)
		require.NoError(t, err, path)
		assert.False(t, oc.Target.JIT, path)
		assert.Equal(t, own, oc.Target.Arch, path)
		if own == "sm_90a" && strings.Contains(path, "tutorial03") {
			assert.Contains(t, oc.CUDA, "wgmma", "sm_90a's own code differs from sm_80's")
		}
	}
}

// TestArchSM80BenchAndTuneGPU: tri bench and the autotuner compile for the
// target asked for too: the note is printed, and the timings run.
func TestArchSM80BenchAndTuneGPU(t *testing.T) {
	needNewerThanSM80(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("TRI_AUTOTUNE_CACHE", t.TempDir())
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

// TestPreparedArch: the target asked for reaches every launch prepared
// under it, the configs the autotuner tries included, so that each is
// compiled for it.
func TestPreparedArch(t *testing.T) {
	p, err := Prepare("../samples/add.tri", "", &Options{Arch: "sm_80"})
	require.NoError(t, err)
	assert.Equal(t, "sm_80", p.Arch)
	o := &Options{Arch: "sm_86", Config: -1}
	p, err = Prepare("../samples/matmul_autotuned.tri", "", o)
	require.NoError(t, err)
	q, err := p.setup.prepare(1, o.quiet())
	require.NoError(t, err)
	assert.Equal(t, "sm_86", q.Arch)
	p, err = Prepare("../samples/add.tri", "", &Options{})
	require.NoError(t, err)
	assert.Empty(t, p.Arch, "no --arch: the GPU's own target")
}

// TestSampleRunGPUForSM80: a sample's launch run with sm_80 code through
// the PTX JIT gives the interpreter's results (the conformance tests'
// entry point).
func TestSampleRunGPUForSM80(t *testing.T) {
	needNewerThanSM80(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s, err := ReadSample("../samples/softmax.tri")
	require.NoError(t, err)
	onGPU, err := s.RunGPUFor("sm_80", 1)
	require.NoError(t, err)
	ref, err := s.Interpret(1)
	require.NoError(t, err)
	for name, want := range ref.After {
		require.NoError(t, closeEnough(name, onGPU.After[name], want, true), name)
	}
}
