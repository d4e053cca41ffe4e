package cudagen

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen/internal/cudanames"
	"github.com/tri-lang/tri/ir"
)

// namedKernel is samples/add.tri whose kernel, first parameter and loaded
// local are all called name.
func namedKernel(t *testing.T, name string) *ir.Kernel {
	b := newBuilder(t, name, "add.tri", 4)
	x := b.param(name, ir.PtrTo(ir.Float32), true)
	y := b.param("y_ptr", ir.PtrTo(ir.Float32), true)
	out := b.param("output_ptr", ir.PtrTo(ir.Float32), true)
	n := b.param("n_elements", ir.TInt32, false)
	b.constexpr("BLOCK_SIZE", "1024")
	pid := b.at(21).named("pid", b.pid(0))
	offs := b.at(23).named("offsets", b.op(ir.OpAdd, b.op(ir.OpMul, pid, b.i32(1024)), b.arange(1024)))
	mask := b.at(24).named("mask", b.op(ir.OpLt, offs, n))
	xv := b.at(25).named(name, b.load(b.ptrAdd(x, offs), mask, nil))
	yv := b.at(26).named("y", b.load(b.ptrAdd(y, offs), mask, nil))
	b.at(28).store(b.ptrAdd(out, offs), b.op(ir.OpAdd, xv, yv), mask)
	return b.k
}

// TestEveryCUDANameRenamed builds a kernel named after each name CUDA
// under NVRTC declares (atomicAdd, vprintf, __nv_sinf, threadIdx,
// make_float4, ...) and every keyword, its first parameter and a local
// named so too: the CUDA must rename all three, so that nothing the kernel
// declares clashes with a builtin. TestCUDANamesCompileGPU compiles such
// kernels with NVRTC.
func TestEveryCUDANameRenamed(t *testing.T) {
	names := ReservedNames()
	require.Greater(t, len(names), 3000, "the table of CUDA names is missing")
	for _, must := range []string{"vprintf", "atomicAdd", "__nv_sinf", "threadIdx", "warpSize", "__shfl_xor_sync", "__ldg",
		"__float2half", "make_float4", "printf", "malloc", "__syncthreads", "cudaRoundZero", "dim3", "compl"} {
		require.Contains(t, reserved, must)
	}
	// The same kernel named zq_probe shows what the CUDA has of any name
	// without the kernel's own (float, __launch_bounds__, __syncthreads):
	// named after a reserved name, its CUDA may have no more of it.
	control, err := Generate(namedKernel(t, "zq_probe"), Options{Arch: "sm_80"})
	require.NoError(t, err)
	for _, name := range names {
		res, err := Generate(namedKernel(t, name), Options{Arch: "sm_80"})
		require.NoError(t, err, name)
		require.NotEqual(t, name, res.Kernel)
		require.False(t, reserved[res.Kernel], "%s renamed to %s, also reserved", name, res.Kernel)
		word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
		got, want := len(word.FindAllStringIndex(kernelPart(res.Source), -1)), len(word.FindAllStringIndex(kernelPart(control.Source), -1))
		if got != want {
			t.Fatalf("%s: the kernel declares or reads %s (%d uses, %d without it):\n%s", name, name, got, want, kernelPart(res.Source))
		}
	}
}

// TestListedCUDANamesRenamed: every name of the committed lists (those a
// newer NVRTC's builtins declare, such as NVRTC 13.0's h2tanh) is in the
// table, so cudanames.go was regenerated after the list was added, and
// the namer renames it.
func TestListedCUDANamesRenamed(t *testing.T) {
	lists, err := cudanames.Lists()
	require.NoError(t, err)
	require.NotEmpty(t, lists)
	for _, l := range lists {
		for _, name := range l.Names {
			require.True(t, reserved[name], "%s lists %s, which cudanames.go lacks: regenerate it (see internal/cudanames/gen)", l.File, name)
			require.NotEqual(t, name, newNamer().name(name), "%s: not renamed", name)
		}
	}
}

// kernelPart is the CUDA from the kernel's signature on.
func kernelPart(src string) string {
	_, k, _ := strings.Cut(src, `extern "C" __global__`)
	return k
}
