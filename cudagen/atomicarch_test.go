package cudagen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// bf16AtomicAddKernel adds a bf16 tile to acc_ptr with tl.atomic_add.
func bf16AtomicAddKernel(t *testing.T) *ir.Kernel {
	b := newBuilder(t, "bf16_atomic_add", "copy.tri", 4)
	x := b.param("x_ptr", ir.PtrTo(ir.BFloat16), true)
	acc := b.param("acc_ptr", ir.PtrTo(ir.BFloat16), true)
	offs := b.at(16).named("offs", b.arange(64))
	xv := b.at(17).named("x", b.load(b.ptrAdd(x, offs), nil, nil))
	b.at(18).atomic(ir.AtomicAdd, b.ptrAdd(acc, offs), xv, nil)
	return b.k
}

// atom.add.noftz.bf16 exists from sm_90 on; below, a bf16 atomic add is a
// compare-and-swap loop on the 16 bits.
func TestBF16AtomicAddByArch(t *testing.T) {
	for _, tc := range []struct {
		arch string
		cas  bool
	}{
		{"sm_80", true},
		{"sm_86", true},
		{"sm_89", true},
		{"sm_90", false},
		{"sm_90a", false},
		{"sm_100", false},
		{"sm_120", false},
	} {
		t.Run(tc.arch, func(t *testing.T) {
			res, err := Generate(bf16AtomicAddKernel(t), Options{Arch: tc.arch})
			require.NoError(t, err)
			if tc.cas {
				assert.NotContains(t, res.Source, "add.noftz.bf16")
				assert.Contains(t, res.Source, "atom.acq_rel.gpu.global.cas.b16")
			} else {
				assert.Contains(t, res.Source, "atom.acq_rel.gpu.global.add.noftz.bf16")
			}
		})
	}
}

// TestBF16AtomicAddClang compiles the sm_80 form with clang, which
// checks the C around the inline assembly (ptxas, on the GPU, checks the
// instruction itself).
func TestBF16AtomicAddClang(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	res, err := Generate(bf16AtomicAddKernel(t), Options{Arch: "sm_80"})
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "k.cu")
	require.NoError(t, os.WriteFile(file, []byte(res.Source), 0o644))
	out, err := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
		"-Wno-unknown-cuda-version", "-O2", "-S", "-o", "-", file).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "atom.acq_rel.gpu.global.cas.b16")
	assert.NotContains(t, string(out), "add.noftz.bf16")
}

// griddepcontrol exists from sm_90 on; below, gdc_wait and
// gdc_launch_dependents leave only a comment.
func TestGridDepControlByArch(t *testing.T) {
	for _, arch := range []string{"sm_80", "sm_89", "sm_90", "sm_90a", "sm_100"} {
		t.Run(arch, func(t *testing.T) {
			b := newBuilder(t, "gdc", "copy.tri", 4)
			x := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
			b.at(15).emit(&ir.Value{Op: ir.OpGdcWait, Type: ir.ScalarType(ir.TVoid)})
			offs := b.at(16).named("offs", b.arange(64))
			xv := b.at(17).named("x", b.load(b.ptrAdd(x, offs), nil, nil))
			b.at(18).emit(&ir.Value{Op: ir.OpGdcLaunchDependents, Type: ir.ScalarType(ir.TVoid)})
			b.at(19).store(b.ptrAdd(x, offs), xv, nil)
			res, err := Generate(b.k, Options{Arch: arch})
			require.NoError(t, err)
			asm := ArchVersion(arch) >= 90
			for _, instr := range []string{"griddepcontrol.wait;", "griddepcontrol.launch_dependents;"} {
				assert.Equal(t, asm, strings.Contains(res.Source, `asm volatile("`+instr), instr)
			}
		})
	}
}
