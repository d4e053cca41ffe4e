package cudagen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

func TestDeterministicAndSelfContained(t *testing.T) {
	for _, tc := range testKernels(t) {
		t.Run(tc.Name, func(t *testing.T) {
			first, err := gen(tc.K, Options{LineInfo: true})
			require.NoError(t, err)
			for i := 0; i < 5; i++ {
				again, err := gen(tc.K, Options{LineInfo: true})
				require.NoError(t, err)
				require.Equal(t, first, again)
			}
			assert.False(t, strings.Contains(first, "#include"), "output includes a header")
			assert.True(t, strings.Contains(first, `extern "C" __global__ void __launch_bounds__(`))
			assert.True(t, strings.Contains(first, "#line "))
		})
	}
}

// TestClang compiles every test kernel to PTX with clang's CUDA mode and
// no CUDA headers, as CI does. It is skipped where clang is missing.
func TestClang(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	kernels := testKernels(t)
	for _, k := range allKinds {
		kernels = append(kernels, struct {
			Name string
			K    *ir.Kernel
		}{"all_ops_" + k.String(), allOpsKernel(t, k)})
	}
	dir := t.TempDir()
	for _, tc := range kernels {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			src, err := gen(tc.K, Options{LineInfo: true})
			require.NoError(t, err)
			file := filepath.Join(dir, tc.Name+".cu")
			require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
			cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
				"-Wno-unknown-cuda-version", "-S", "-o", "-", file)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, stderr.String())
			assert.Contains(t, string(out), ".entry "+tc.K.Name)
		})
	}
}

func TestLayoutChoice(t *testing.T) {
	tests := []struct {
		name   string
		k      *ir.Kernel
		spt    int
		vector string
	}{
		{"aligned f32", addKernel(t, ir.TFloat32, true), 4, "tri_f32x4"},
		{"aligned f16", addKernel(t, ir.TFloat16, true), 8, "tri_u32x4"},
		{"unaligned f32", addKernel(t, ir.TFloat32, false), 1, ""},
		{"fewer elements than threads", copyKernel(t), 1, ""},
		{"aligned f16 in, f32 math", siluKernel(t), 8, "tri_u32x4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := newPlan(tc.k, "", true)
			require.NoError(t, err)
			require.Len(t, p.layouts, 1)
			assert.Equal(t, []int{tc.spt}, p.layouts[0].Spt)
			src, err := gen(tc.k, Options{})
			require.NoError(t, err)
			if tc.vector == "" {
				assert.False(t, strings.Contains(src, "vector loads"), "unexpected vector loads")
				assert.False(t, strings.Contains(src, "Full tile"), "unexpected full-tile path")
			} else {
				assert.True(t, strings.Contains(src, "*reinterpret_cast<const "+tc.vector+"*>"), "no %s loads", tc.vector)
				assert.True(t, strings.Contains(src, "Full tile"), "no full-tile path")
			}
		})
	}
}

func TestDumpLayouts(t *testing.T) {
	var b strings.Builder
	require.NoError(t, DumpLayouts(&b, addKernel(t, ir.TFloat32, true), ""))
	out := b.String()
	assert.Contains(t, out, "#L0 = Blocked(sizePerThread=[4], threadsPerWarp=[32], warpsPerCTA=[4], order=[0]) for [1024] tiles: 8 elements per thread")
	assert.Contains(t, out, "add.tri:25: x = tl.load(x_ptr + offsets, mask=mask)")
	assert.Contains(t, out, "load of 16-byte vectors")
}
