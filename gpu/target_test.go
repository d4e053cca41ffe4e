package gpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// TestPlanTarget: on a GPU of a given compute capability, a target is run
// as a cubin where the GPU runs that cubin, through the PTX JIT where it
// is of an older major architecture, and refused otherwise.
func TestPlanTarget(t *testing.T) {
	type cc struct{ major, minor int }
	h100, a100, rtx4090, b200, b300 := cc{9, 0}, cc{8, 0}, cc{8, 9}, cc{10, 0}, cc{10, 3}
	for _, c := range []struct {
		arch string
		dev  cc
		jit  bool
	}{
		{"sm_90a", h100, false}, // the default on Hopper
		{"sm_90", h100, false},  // no wgmma, but sm_90 SASS
		{"sm_80", h100, true},
		{"sm_86", h100, true},
		{"sm_89", h100, true},
		{"sm_80", a100, false},
		{"sm_80", rtx4090, false}, // sm_80 SASS runs on 8.9
		{"sm_86", rtx4090, false},
		{"sm_89", rtx4090, false},
		{"sm_90", b200, true},
		{"sm_80", b200, true},
		{"sm_100", b200, false},
		{"sm_100a", b200, false},
		{"sm_100f", b300, false},
		{"sm_100", b300, false},
		{"sm_103a", b300, false},
	} {
		got, err := planTarget(c.arch, "GPU", c.dev.major, c.dev.minor)
		require.NoError(t, err, "%s on %v", c.arch, c.dev)
		assert.Equal(t, c.arch, got.Arch)
		assert.Equal(t, c.jit, got.JIT, "%s on %v", c.arch, c.dev)
	}
	for _, c := range []struct {
		arch string
		dev  cc
		want string
	}{
		{"sm_100", h100, "^cannot run sm_100 code on NVIDIA H100 (sm_90): sm_100 is newer than the GPU; it runs sm_90a, its own target, and sm_80 to sm_90 (those of older major architectures through the driver's PTX JIT)"},
		{"sm_100a", h100, "sm_100a is newer than the GPU"},
		{"sm_90a", a100, "^cannot run sm_90a code on NVIDIA H100 (sm_80): sm_90a is newer than the GPU; it runs sm_80, its own target"},
		{"sm_90a", b200, "sm_90a code runs only on GPUs of compute capability 9.0"},
		{"sm_90", a100, "sm_90 is newer than the GPU"},
		{"sm_89", cc{8, 6}, "sm_89 is newer than the GPU; it runs sm_86, its own target, and sm_80 to sm_86"},
		{"sm_103a", b200, "sm_103a is newer than the GPU"},
		{"sm_100a", b300, "sm_100a code runs only on GPUs of compute capability 10.0"},
		{"sm_103f", b200, "sm_103f is newer than the GPU"},
		{"sm_100f", cc{12, 0}, "sm_100f code runs only on GPUs of compute capability 10.0 to 10.9"},
		{"sm_120", b300, "sm_120 is newer than the GPU"},
	} {
		_, err := planTarget(c.arch, "NVIDIA H100", c.dev.major, c.dev.minor)
		require.Error(t, err, "%s on %v", c.arch, c.dev)
		assert.True(t, errors.Is(err, ErrTarget), "%v", err)
		if want, ok := strings.CutPrefix(c.want, "^"); ok {
			assert.Equal(t, want, err.Error())
		} else {
			assert.Contains(t, err.Error(), c.want)
		}
	}
	for _, bad := range []string{"sm_75", "compute_80", ""} {
		_, err := planTarget(bad, "GPU", 9, 0)
		require.Error(t, err, bad)
		assert.False(t, errors.Is(err, ErrTarget), "%q is malformed, not unrunnable", bad)
	}
}

// TestTargetNote: only code run through the PTX JIT says so.
func TestTargetNote(t *testing.T) {
	jit, err := planTarget("sm_80", "GPU", 9, 0)
	require.NoError(t, err)
	assert.Equal(t, "tri: running sm_80 code on an sm_90 device through the driver's PTX JIT", jit.Note())
	own, err := planTarget("sm_90a", "GPU", 9, 0)
	require.NoError(t, err)
	assert.Empty(t, own.Note())
}

// TestCompileOptions: NVRTC is asked for a cubin of the target with
// ptxas's report and the kernel's register limit, or for PTX of the target
// with the limit left to the JIT.
func TestCompileOptions(t *testing.T) {
	k := &ir.Kernel{Name: "matmul", File: "samples/mm.tri", MaxNReg: 128}
	for _, c := range []struct {
		t    Target
		want []string
	}{
		{Target{Arch: "sm_90a", Device: "sm_90"},
			[]string{"--gpu-architecture=sm_90a", "--std=c++17", "-default-device", "--ptxas-options=-v", "--maxrregcount=128"}},
		{Target{Arch: "sm_80", Device: "sm_90", JIT: true},
			[]string{"--gpu-architecture=compute_80", "--std=c++17", "-default-device"}},
		{Target{Arch: "sm_80", Device: "sm_86"},
			[]string{"--gpu-architecture=sm_80", "--std=c++17", "-default-device", "--ptxas-options=-v", "--maxrregcount=128"}},
	} {
		opt := compileOptions(k, c.t, false)
		assert.Equal(t, c.want, opt.Options(), "%+v", c.t)
		assert.Equal(t, "mm_matmul.cu", opt.Name)
		assert.Equal(t, c.t.JIT, opt.PTX)
	}
	assert.Equal(t, nvrtc.JITOptions{MaxRegisters: 128, LineInfo: true}, jitOptions(k, true))
	// The cache keys of the three differ (the key hashes the options and
	// the output's kind).
	keys := map[string]bool{}
	for _, tg := range []Target{{Arch: "sm_90a"}, {Arch: "sm_80", JIT: true}, {Arch: "sm_80"}} {
		opt := compileOptions(k, tg, false)
		keys[nvrtc.Key("src", opt, opt.Arch, "13.0", "v")] = true
	}
	assert.Len(t, keys, 3)
}

// TestCompileForRefusesWithoutCompiling: on this machine's GPU, a target
// newer than any GPU is refused before anything is generated. Without a
// GPU the error is ErrNoGPU.
func TestCompileForRefusesWithoutCompiling(t *testing.T) {
	_, err := CompileFor(&ir.Kernel{Name: "k", NumWarps: 4}, "sm_990", false)
	require.Error(t, err)
	if _, derr := Device(); derr != nil {
		assert.True(t, errors.Is(err, ErrNoGPU), "%v", err)
		return
	}
	assert.True(t, errors.Is(err, ErrTarget), "%v", err)
}
