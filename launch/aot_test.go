package launch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/nvrtc"
)

// The exports of tutorial 01's and 03's kernels that bench/aot_check.sh
// runs on the GPU.
const (
	aotAddSig    = "*fp32:16, *fp32:16, *fp32:16, i32, 1024"
	aotAddGrid   = "cdiv(n_elements, BLOCK_SIZE), 1, 1"
	aotMatmulSig = "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 128, 128, 32, 8, 'leaky_relu'"
	aotMatmulGrd = "cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N), 1, 1"
)

// embeddedCUDA is the string literal of the CUDA in a source-form C file,
// which changes with every change to cudagen and is elided from goldens
// (package aot's tests check its escaping byte for byte).
var embeddedCUDA = regexp.MustCompile(`(?s)static const char tri_cuda\[\] =\n.*?";\n`)

// TestAOTGolden exports the two kernels with the source embedded and
// compares the files with testdata/aot (UPDATE_GOLDEN=1 rewrites them),
// the CUDA literal elided; the C compiles with warnings as errors against
// a stand-in cuda.h.
func TestAOTGolden(t *testing.T) {
	for _, tc := range []struct{ file, kernel, sig, grid, arch string }{
		{"../samples/add.tri", "add_kernel", aotAddSig, aotAddGrid, "sm_80"},
		{"../samples/matmul_tutorial03.tri", "matmul_kernel", aotMatmulSig, aotMatmulGrd, "sm_90a"},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			dir := t.TempDir()
			var stdout bytes.Buffer
			o := &Options{Kernel: tc.kernel, Signature: tc.sig, Grid: tc.grid, AOT: dir, Embed: EmbedSource, Arch: tc.arch, NumStages: 4, Stdout: &stdout}
			require.NoError(t, BuildFile(tc.file, "", o))
			assert.Equal(t, "wrote "+filepath.Join(dir, tc.kernel+".h")+" and "+filepath.Join(dir, tc.kernel+".c")+" ("+tc.kernel+", embedding the CUDA source, compiled by NVRTC when it loads)\n", stdout.String())
			for _, ext := range []string{".h", ".c"} {
				got, err := os.ReadFile(filepath.Join(dir, tc.kernel+ext))
				require.NoError(t, err)
				text := strings.ReplaceAll(string(got), "../samples/", "samples/")
				if ext == ".c" {
					require.Regexp(t, embeddedCUDA, text)
					text = embeddedCUDA.ReplaceAllString(text, "static const char tri_cuda[] =\n    \"(the CUDA of tri build, elided)\";\n")
				}
				golden := filepath.Join("testdata", "aot", tc.kernel+ext)
				if os.Getenv("UPDATE_GOLDEN") != "" {
					require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
					require.NoError(t, os.WriteFile(golden, []byte(text), 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "UPDATE_GOLDEN=1 go test ./launch -run TestAOTGolden")
				assert.Equal(t, string(want), text, "%s: UPDATE_GOLDEN=1 go test ./launch -run TestAOTGolden, and review the diff", golden)
			}
			compileC(t, dir, tc.kernel)
		})
	}
}

// compileC compiles dir/NAME.c and a call of its launcher with the
// system C compiler, warnings as errors, against package aot's stand-in
// cuda.h: a C signature that does not match the header fails here.
func compileC(t *testing.T, dir, name string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) on this machine")
	}
	stub, err := filepath.Abs("../aot/testdata/stub")
	require.NoError(t, err)
	for _, args := range [][]string{
		{"-std=c99", "-Wall", "-Wextra", "-Werror", "-I", stub, "-I", dir, "-c", "-o", filepath.Join(dir, name+".o"), filepath.Join(dir, name+".c")},
		{"-x", "c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I", stub, filepath.Join(dir, name+".h")},
	} {
		if args[0] == "-x" {
			if _, err := exec.LookPath("c++"); err != nil {
				continue
			}
			cc = "c++"
		}
		out, err := exec.Command(cc, args...).CombinedOutput()
		require.NoError(t, err, "%s %s:\n%s", cc, strings.Join(args, " "), out)
	}
}

// TestAOTErrors: what --aot refuses, each placed in its flag's text or
// said in one line, as bad input (exit status 2).
func TestAOTErrors(t *testing.T) {
	dir := t.TempDir()
	scale := filepath.Join(dir, "scale.tri")
	require.NoError(t, os.WriteFile(scale, []byte(`import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x * s, mask=offs < n)
`), 0o644))
	add := "../samples/add.tri"
	for _, tc := range []struct {
		name string
		file string
		o    Options
		line string
		want string
	}{
		{"fp16 scalar", scale, Options{Kernel: "scale_kernel", Signature: "*fp16, fp16, i32, 128", Grid: "cdiv(n, 128)"}, "",
			"--signature:1:8: parameter s: a fp16 scalar cannot be passed from C"},
		{"unknown name", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "cdiv(n, 1024)"}, "",
			"--grid:1:6: unknown name n in the grid; it may use the integer parameters n_elements; the constants BLOCK_SIZE; integers and cdiv, min, max"},
		{"pointer", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "x_ptr"}, "",
			"--grid:1:1: x_ptr in the grid: a pointer; the grid is computed from integer parameters"},
		{"runtime divisor", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "1024 / n_elements"}, "",
			"--grid:1:6: the grid divides by a runtime parameter"},
		{"four dimensions", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "1, 1, 1, 1"}, "",
			"--grid:1:10: a grid has at most three dimensions, this one has 4"},
		{"launch line", add, Options{Grid: "1"}, "add_kernel[(1,)](x, y, output, n, BLOCK_SIZE=1024)",
			"--aot DIR exports one specialization, as Triton's AOT compiler: give -k KERNEL --signature SIG --grid GRID rather than a launch line"},
		{"no grid", add, Options{Kernel: "add_kernel", Signature: aotAddSig}, "", "--aot DIR needs the launch grid"},
		{"bad embed", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "1", Embed: "ptx"}, "", `--embed "ptx": want auto`},
		{"bad name", add, Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "1", OutName: "add-kernel"}, "", `--out-name "add-kernel": the launcher's name must be a C identifier`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.AOT, o.Arch = filepath.Join(dir, "out"), "sm_80"
			if o.Embed == "" {
				o.Embed = EmbedSource // no NVRTC needed, here or on a GPU machine
			}
			err := BuildFile(tc.file, tc.line, &o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, 2, hosteval.ExitCode(err))
		})
	}
	t.Run("grid without aot", func(t *testing.T) {
		err := BuildFile(add, "", &Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: "1"})
		assert.ErrorContains(t, err, "--grid is the launch grid of a C library: it goes with --aot DIR")
		assert.Equal(t, 2, hosteval.ExitCode(err))
	})
}

// TestAOTCubin: where NVRTC is found, --embed cubin (and auto) embeds the
// cubin NVRTC compiles for --arch, an ELF file; where it is not, --embed
// cubin says it needs NVRTC and auto falls back to the source with a note.
func TestAOTCubin(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	build := func(embed string) error {
		stdout.Reset()
		stderr.Reset()
		return BuildFile("../samples/add.tri", "", &Options{Kernel: "add_kernel", Signature: aotAddSig, Grid: aotAddGrid,
			AOT: dir, Embed: embed, Arch: "sm_80", Stdout: &stdout, Stderr: &stderr})
	}
	if nvrtc.LoadNVRTC() != nil {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatal("no NVRTC, and TRI_REQUIRE_GPU=1")
		}
		err := build(EmbedCubin)
		assert.ErrorContains(t, err, "--embed cubin: ")
		assert.ErrorIs(t, err, gpu.ErrNoGPU)
		require.NoError(t, build(EmbedAuto))
		assert.Contains(t, stderr.String(), "no NVRTC here: the library embeds the CUDA source")
		return
	}
	for _, embed := range []string{EmbedCubin, EmbedAuto} {
		require.NoError(t, build(embed))
		assert.Regexp(t, `\(add_kernel, embedding a \d+-byte cubin for sm_80\)`, stdout.String())
		c, err := os.ReadFile(filepath.Join(dir, "add_kernel.c"))
		require.NoError(t, err)
		assert.Regexp(t, `static const unsigned char tri_cubin\[\d+\] = \{\n    0x7f, 0x45, 0x4c, 0x46,`, string(c), "an ELF file")
		assert.NotContains(t, string(c), "tri_cuda")
	}
}
