package aot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/ir"
)

// trickySource is CUDA text with everything a C string literal must
// escape: quotes, backslashes, a trigraph's ??, a tab, UTF-8, and no final
// newline.
const trickySource = "// Generated for a test: \"quotes\", a \\ backslash, ??= and ??/ trigraphs,\n" +
	"//\ta tab, UTF-8 (ü, →) and a percent %d\n" +
	"extern \"C\" __global__ void add_kernel(float* x_ptr, float* y_ptr, float* output_ptr, int n_elements) {}"

// addKernel is a hand-made specialization of tutorial 01's add_kernel
// with its CUDA, as package aot reads them: parameters, spec and result.
func addKernel(shared int) (*ir.Kernel, *cudagen.Result) {
	k := &ir.Kernel{Name: "add_kernel", File: "add.tri", NumWarps: 4, NumStages: 3}
	res := &cudagen.Result{Source: trickySource, Kernel: "add_kernel", Threads: 128, SharedBytes: shared}
	for i, p := range []struct {
		name string
		d    ir.DType
		spec string
	}{{"x_ptr", ir.PtrTo(ir.Float32), "*fp32:16"}, {"y_ptr", ir.PtrTo(ir.Float32), "*fp32:16"},
		{"output_ptr", ir.PtrTo(ir.Float32), "*fp32:16"}, {"n_elements", ir.TInt32, "i32"}} {
		k.Params = append(k.Params, &ir.Param{Name: p.name, Index: i, DType: p.d})
		k.Spec = append(k.Spec, ir.SpecEntry{Name: p.name, Kind: "runtime", Value: p.spec})
		res.Params = append(res.Params, cudagen.Param{Name: p.name, DType: p.d})
	}
	k.Spec = append(k.Spec, ir.SpecEntry{Name: "BLOCK_SIZE", Kind: "constexpr", Value: "1024"})
	return k, res
}

const addGrid = "cdiv(n_elements, BLOCK_SIZE), 2, min(max(n_elements // 40000, 1), 3)"

func TestGenerateHeader(t *testing.T) {
	k, res := addKernel(0)
	lib, err := Generate(k, res, Options{Grid: addGrid, Arch: "sm_80"})
	require.NoError(t, err)
	assert.Equal(t, "add_kernel", lib.Name)
	assert.Contains(t, lib.Header, "CUresult add_kernel(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr output_ptr, int32_t n_elements);\n")
	assert.Contains(t, lib.Header, "CUresult load_add_kernel(void);\n")
	assert.Contains(t, lib.Header, "CUresult unload_add_kernel(void);\n")
	assert.Contains(t, lib.Header, "const char *add_kernel_error(void);\n")
	assert.Contains(t, lib.Header, "#ifndef TRI_ADD_KERNEL_H\n")
	assert.NotContains(t, lib.Header, "stdbool", "no bool parameter")
	assert.Contains(t, lib.Source, "  int64_t grid_x = tri_cdiv((int64_t)n_elements, 1024);\n")
	assert.Contains(t, lib.Source, "  int64_t grid_z = tri_min(tri_max((int64_t)n_elements / 40000, 1), 3);\n")
	assert.Contains(t, lib.Source, "cuLaunchKernel(tri_function, (unsigned int)grid_x, 2, (unsigned int)grid_z, TRI_THREADS, 1, 1, TRI_SHARED_BYTES, stream, args, NULL);")
	assert.NotContains(t, lib.Source, "cuFuncSetAttribute", "no dynamic shared memory to allow")

	named, err := Generate(k, res, Options{Name: "vadd", Grid: "(cdiv(n_elements, 1024),)", Arch: "sm_80"})
	require.NoError(t, err)
	assert.Contains(t, named.Header, "CUresult vadd(CUstream stream,")
	assert.Contains(t, named.Source, `#include "vadd.h"`)
	assert.Contains(t, named.Source, `#define TRI_KERNEL "add_kernel"`, "the module's function keeps the kernel's name")
}

// TestParamNames: parameters named as the launcher's locals or the
// driver's names are renamed; bool parameters bring stdbool.h; the scalars
// C cannot pass are refused.
func TestParamNames(t *testing.T) {
	k := &ir.Kernel{Name: "k", File: "k.tri", NumWarps: 1}
	res := &cudagen.Result{Kernel: "k", Threads: 32}
	for i, p := range []struct {
		name string
		d    ir.DType
	}{{"stream", ir.PtrTo(ir.Float32)}, {"grid_x", ir.TInt64}, {"cuLaunchKernel", ir.TUint8}, {"flag", ir.TBool}, {"scale", ir.TFloat64}} {
		k.Params = append(k.Params, &ir.Param{Name: p.name, Index: i, DType: p.d})
		k.Spec = append(k.Spec, ir.SpecEntry{Name: p.name, Kind: "runtime", Value: p.d.String()})
		res.Params = append(res.Params, cudagen.Param{Name: p.name, DType: p.d})
	}
	lib, err := Generate(k, res, Options{Grid: "grid_x", Arch: "sm_90a"})
	require.NoError(t, err)
	assert.Contains(t, lib.Header, "CUresult k(CUstream stream, CUdeviceptr stream_, int64_t grid_x_, uint8_t arg_cuLaunchKernel, bool flag, double scale);")
	assert.Contains(t, lib.Header, "#include <stdbool.h>")
	assert.Contains(t, lib.Source, "  int64_t grid_x = grid_x_;\n", "an int64_t parameter needs no cast")

	k.Params[4].DType, res.Params[4].DType = ir.TFloat16, ir.TFloat16
	_, err = Generate(k, res, Options{Grid: "1", Arch: "sm_90a"})
	assert.ErrorContains(t, err, "parameter scale: a fp16 scalar cannot be passed from C")
}

func TestGenerateRefuses(t *testing.T) {
	k, res := addKernel(0)
	for _, tc := range []struct {
		name string
		opt  Options
		edit func(*cudagen.Result)
		want string
	}{
		{"no grid", Options{Arch: "sm_80"}, nil, "needs the launch grid (--grid)"},
		{"bad name", Options{Name: "2add", Grid: "1", Arch: "sm_80"}, nil, `--out-name "2add": the launcher's name must be a C identifier`},
		{"keyword", Options{Name: "static", Grid: "1", Arch: "sm_80"}, nil, "is a C keyword"},
		{"driver name", Options{Name: "cuAdd", Grid: "1", Arch: "sm_80"}, nil, "the CUDA driver's"},
		{"bad arch", Options{Grid: "1", Arch: "gfx90a"}, nil, `architecture "gfx90a" is not of the form sm_XY`},
		{"tensor maps", Options{Grid: "1", Arch: "sm_90a"}, func(r *cudagen.Result) { r.TensorMaps = make([]cudagen.TensorMap, 1) }, "CUtensorMap parameters"},
		{"scratch", Options{Grid: "1", Arch: "sm_90a"}, func(r *cudagen.Result) { r.ScratchBytes = 128 }, "scratch memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := *res
			if tc.edit != nil {
				tc.edit(&r)
			}
			_, err := Generate(k, &r, tc.opt)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	lib, err := Generate(nil, nil, Options{})
	assert.Error(t, err)
	assert.Nil(t, lib.Files())
}

// cc is the system C compiler, or skips the test.
func cc(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) on this machine")
	}
	return path
}

// cFlags are the warnings the generated C must compile clean under.
var cFlags = []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-overlength-strings", "-Wshadow", "-Wconversion", "-Wmissing-prototypes", "-Wstrict-prototypes"}

// buildStubbed writes lib into a folder, compiles it with main.c and the
// stand-in driver, and returns the program's path and the folder.
func buildStubbed(t *testing.T, lib *Library) (string, string) {
	t.Helper()
	compiler := cc(t)
	dir := t.TempDir()
	for _, f := range lib.Files() {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f[0]), []byte(f[1]), 0o644))
	}
	stub, err := filepath.Abs("testdata/stub")
	require.NoError(t, err)
	prog := filepath.Join(dir, "main")
	args := append(append([]string{}, cFlags...), "-I", stub, "-I", dir, "-o", prog,
		filepath.Join(dir, lib.Name+".c"), filepath.Join(stub, "stub_cuda.c"), filepath.Join(stub, "main.c"), "-ldl")
	out, err := exec.Command(compiler, args...).CombinedOutput()
	require.NoError(t, err, "cc %s:\n%s", strings.Join(args, " "), out)
	return prog, dir
}

func run(t *testing.T, prog string, env ...string) string {
	t.Helper()
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// TestCubinLibraryRuns compiles the cubin form with warnings as errors and
// runs it against a stand-in driver: the embedded bytes are what the
// module loads, the dynamic shared memory is allowed at load and passed
// at launch, the grid is computed from n (an empty grid launches nothing,
// a negative one is refused), and the arguments arrive as passed.
func TestCubinLibraryRuns(t *testing.T) {
	k, res := addKernel(81920)
	lib, err := Generate(k, res, Options{Grid: addGrid, Arch: "sm_90a", Cubin: []byte("a stand-in cubin\x00")})
	require.NoError(t, err)
	assert.Contains(t, lib.Source, "static const unsigned char tri_cubin[17] = {\n    0x61, 0x20, 0x73,")
	prog, _ := buildStubbed(t, lib)
	assert.Equal(t, `load: err=0 error=""
image: a stand-in cubin
function: add_kernel shared_limit=81920
n=98432: err=0 launches=1 grid=97,2,2 block=128,1,1 shared=81920 args=0x1000,0x2000,0x3000,98432
n=1: err=0 launches=1 grid=1,2,1 block=128,1,1 shared=81920 args=0x1000,0x2000,0x3000,1
n=0: err=0 launches=0
n=-3000: err=1 launches=0
loads=1
unload: err=0 unloads=1
n=5: err=0 launches=1 grid=1,2,1 block=128,1,1 shared=81920 args=0x1000,0x2000,0x3000,5
loads=2
`, run(t, prog))
}

// TestSourceLibraryRuns runs the source form against a stand-in driver and
// a stand-in libnvrtc (opened through TRI_NVRTC): NVRTC gets the embedded
// CUDA byte for byte and tri's options for the GPU's architecture, and its
// cubin is what the module loads; an architecture-specific target refuses
// another GPU; a missing libnvrtc or a failed compile says why.
func TestSourceLibraryRuns(t *testing.T) {
	k, res := addKernel(0)
	lib, err := Generate(k, res, Options{Grid: addGrid, Arch: "sm_80", NVRTCOptions: []string{"--std=c++17", "-default-device"}})
	require.NoError(t, err)
	prog, dir := buildStubbed(t, lib)
	nvrtc := filepath.Join(dir, "libnvrtc_stub.so")
	out, err := exec.Command(cc(t), "-Wall", "-Werror", "-shared", "-fPIC", "-o", nvrtc, "testdata/stub/stub_nvrtc.c").CombinedOutput()
	require.NoError(t, err, "%s", out)
	source := filepath.Join(dir, "source.cu")

	got := run(t, prog, "TRI_NVRTC="+nvrtc, "STUB_CC=86", "STUB_NVRTC_SOURCE="+source)
	assert.Contains(t, got, "load: err=0 error=\"\"\nimage: cubin for --gpu-architecture=sm_86 --std=c++17 -default-device\nfunction: add_kernel shared_limit=0\n")
	assert.Contains(t, got, "n=98432: err=0 launches=1 grid=97,2,2 block=128,1,1 shared=0 args=0x1000,0x2000,0x3000,98432\n")
	embedded, err := os.ReadFile(source)
	require.NoError(t, err)
	assert.Equal(t, trickySource, string(embedded), "the C string literal holds the CUDA byte for byte")

	got = run(t, prog, "TRI_NVRTC="+nvrtc, "STUB_CC=75")
	assert.Contains(t, got, "load: err=209 error=\"add_kernel: CUDA_ERROR_STUB: the kernel's CUDA was generated for sm_80; this GPU, of compute capability 7.5, is older\"")

	got = run(t, prog, "TRI_NVRTC="+filepath.Join(dir, "missing.so"))
	assert.Contains(t, got, "load: err=221 error=\"add_kernel: CUDA_ERROR_STUB: cannot find libnvrtc to compile the kernel (looked at $TRI_NVRTC, $CUDA_HOME/lib64, /usr/local/cuda/lib64 and the loader's path; set TRI_NVRTC to its path); the last try: ")

	got = run(t, prog, "TRI_NVRTC="+nvrtc, "STUB_NVRTC_FAIL=1")
	assert.Contains(t, got, "load: err=300 error=\"add_kernel: CUDA_ERROR_STUB: NVRTC rejected the kernel's CUDA (--gpu-architecture=sm_80), an internal error of tri:\nadd_kernel.cu(3): error: the stub refuses\"")

	exact, err := Generate(k, res, Options{Grid: addGrid, Arch: "sm_90a"})
	require.NoError(t, err)
	prog, _ = buildStubbed(t, exact)
	got = run(t, prog, "TRI_NVRTC="+nvrtc, "STUB_CC=90")
	assert.Contains(t, got, "image: cubin for --gpu-architecture=sm_90a\n", "no options besides the architecture: none were given")
	got = run(t, prog, "TRI_NVRTC="+nvrtc, "STUB_CC=100")
	assert.Contains(t, got, "load: err=209 error=\"add_kernel: CUDA_ERROR_STUB: the kernel's CUDA was generated for sm_90a, which runs on compute capability 9.0 only; this GPU is 10.0")
}
