package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// tri runs the command line in-process and returns its output and exit code.
func tri(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	c, err := root.ExecuteC()
	code = report(&errb, c, args, err)
	return out.String(), errb.String(), code
}

const addLaunch = "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)"

func TestVersion(t *testing.T) {
	out, _, code := tri(t, "version")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "tri 0.")
}

// TestVersionFlag: tri --version prints what tri version prints; tri with
// a word that names no command is bad input that suggests the command.
func TestVersionFlag(t *testing.T) {
	want, _, code := tri(t, "version")
	require.Equal(t, 0, code)
	out, stderr, code := tri(t, "--version")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, want, out)

	_, stderr, code = tri(t, "buidl", "../../samples/add.tri")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown command "buidl" for "tri"; did you mean build?`)
}

func TestCheck(t *testing.T) {
	out, _, code := tri(t, "check", "../../samples/helpers.tri", "--dump=ast")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "act_kernel")
	assert.Contains(t, out, "no errors")
}

func TestInterpretAndSave(t *testing.T) {
	dir := t.TempDir()
	outPath, xPath := filepath.Join(dir, "out.npy"), filepath.Join(dir, "x.npy")
	_, stderr, code := tri(t, "run", "--interpret", "../../samples/add.tri", addLaunch,
		"--let", "n=5000", "--let", "x=rand(n)", "--let", "y=ones(n)", "--let", "output=empty(n)",
		"--save", "output="+outPath, "--save", "x="+xPath)
	require.Equal(t, 0, code, stderr)
	got, err := tensor.LoadNPY(outPath)
	require.NoError(t, err)
	x, err := tensor.LoadNPY(xPath)
	require.NoError(t, err)
	require.Equal(t, 5000, got.NumElements())
	for i := 0; i < 5000; i++ {
		require.Equal(t, float32(x.Float(i))+1, float32(got.Float(i)), "element %d", i)
	}
}

func TestRecordedLaunch(t *testing.T) {
	_, stderr, code := tri(t, "run", "--interpret", "../../samples/row_chunks.tri", "--let", "M=3")
	assert.Equal(t, 0, code, stderr)
}

func TestBuild(t *testing.T) {
	out, stderr, code := tri(t, "build", "../../samples/add.tri", "-k", "add_kernel",
		"--signature", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", "--arch", "sm_90")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `extern "C" __global__`)
	assert.Contains(t, out, "add_kernel(")
	assert.NotContains(t, out, "#include")

	f := filepath.Join(t.TempDir(), "k.cu")
	_, stderr, code = tri(t, "build", "../../samples/fused_fp16.tri", "-o", f, "--line-info", "--num-warps", "8")
	require.Equal(t, 0, code, stderr)
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	assert.Contains(t, string(src), "#line")
	assert.Contains(t, string(src), "__launch_bounds__(256)")

	out, stderr, code = tri(t, "build", "../../samples/add.tri", "--dump=layout", "-o", filepath.Join(t.TempDir(), "a.cu"))
	require.Equal(t, 0, code)
	assert.Contains(t, stderr, "Blocked")
	assert.Empty(t, out)
}

// TestDumpsLeaveCUDAWhole: every dump goes to stderr, so the CUDA that
// tri build writes to stdout is the same with or without them.
func TestDumpsLeaveCUDAWhole(t *testing.T) {
	plain, _, code := tri(t, "build", "../../samples/softmax.tri")
	require.Equal(t, 0, code)
	require.Contains(t, plain, "__global__")
	for _, d := range []string{"ast", "ir", "layout", "ast,ir,layout,cuda"} {
		out, stderr, code := tri(t, "build", "../../samples/softmax.tri", "--dump="+d)
		require.Equal(t, 0, code, d)
		assert.Equal(t, plain, out, d)
		assert.NotEmpty(t, stderr, d)
	}
	f := filepath.Join(t.TempDir(), "s.cu")
	out, stderr, code := tri(t, "build", "../../samples/softmax.tri", "--dump=cuda", "-o", f)
	require.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Equal(t, plain, stderr)
}

// TestResourcesWithoutGPUWritesCUDA: --dump=resources where no GPU (or
// NVRTC) is found still writes the CUDA, then says why there is no report.
func TestResourcesWithoutGPUWritesCUDA(t *testing.T) {
	if _, err := gpu.Device(); err == nil {
		t.Skip("a GPU is present: the report is made")
	}
	f := filepath.Join(t.TempDir(), "a.cu")
	_, stderr, code := tri(t, "build", "../../samples/add.tri", "--dump=resources", "-o", f)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "the CUDA is written, but there is no resource report")
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	assert.Contains(t, string(src), "__global__")
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.npy")
	require.NoError(t, os.WriteFile(bad, []byte("not an npy file"), 0o644))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"missing file", []string{"check", "nope.tri"}, 2, []string{"nope.tri: no such file"}},
		{"bad source", []string{"check", "testdata/bad_syntax.tri"}, 2, []string{"testdata/bad_syntax.tri:", "^"}},
		{"bad launch line", []string{"run", "--interpret", "../../samples/add.tri", "add_kernel[(1,)](x, y"}, 2, []string{"launch:1:"}},
		{"bad let", []string{"run", "--interpret", "../../samples/add.tri", addLaunch, "--let", "n=1 +"}, 2, []string{"--let n:1:"}},
		{"unknown name in let", []string{"run", "--interpret", "../../samples/add.tri", addLaunch, "--let", "x=randn(m)"}, 2, []string{"--let x:1:", "m"}},
		{"unknown kernel", []string{"run", "--interpret", "../../samples/add.tri", "nope[(1,)](x)"}, 2, []string{"add_kernel"}},
		{"too many arguments", []string{"run", "--interpret", "../../samples/add.tri", "add_kernel[(1,)](1, 2, 3, 4, 5, 6)"}, 2, []string{"launch:1:", "argument"}},
		{"missing argument", []string{"run", "--interpret", "../../samples/copy.tri", "copy_k[(1,)](x, z, bs=16)", "--let", "x=zeros(4)", "--let", "z=zeros(4)"}, 2, []string{"launch:1:", "n"}},
		{"missing npy", []string{"run", "--interpret", "../../samples/add.tri", addLaunch, "--let", `x=load("gone.npy")`}, 2, []string{"gone.npy"}},
		{"malformed npy", []string{"run", "--interpret", "../../samples/add.tri", addLaunch, "--let", `x=load("` + bad + `")`}, 2, []string{"bad.npy"}},
		{"unknown flag", []string{"run", "--bogus"}, 2, []string{"bogus"}},
		{"unknown dump", []string{"run", "--interpret", "--dump=bogus", "../../samples/add.tri"}, 2, []string{"bogus"}},
		{"interpret and check", []string{"run", "--interpret", "--check", "../../samples/add.tri"}, 2, []string{"exclude"}},
		{"bad signature", []string{"build", "../../samples/add.tri", "-k", "add_kernel", "--signature", "*fp32"}, 2, []string{"--signature:1:1:"}},
		{"out of bounds", []string{"run", "--interpret", "testdata/oob.tri", "copy_wrong[(2,)](x, z, n, bs=16)", "--let", "n=10", "--let", "x=zeros(n)", "--let", "z=zeros(n)"}, 1, []string{"oob.tri:11:", "out of bounds"}},
		{"timeout", []string{"run", "--interpret", "--timeout", "200ms", "testdata/spin.tri", "spin[(1,)](x, 5)", "--let", "x=zeros(1, dtype='int32')"}, 1, []string{"spin.tri:8:", "timed out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := tri(t, tc.args...)
			assert.Equal(t, tc.code, code, stderr)
			for _, w := range tc.want {
				assert.Contains(t, stderr, w)
			}
		})
	}
}

func TestNoGPU(t *testing.T) {
	if _, err := gpu.Device(); err == nil {
		t.Skip("a GPU is present")
	}
	_, stderr, code := tri(t, "run", "../../samples/add.tri")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no GPU")
}

func TestLetOverridesRecordedLaunch(t *testing.T) {
	f := filepath.Join(t.TempDir(), "out.npy")
	_, stderr, code := tri(t, "run", "--interpret", "../../samples/add.tri", "--let", "n=3000", "--save", "output="+f)
	require.Equal(t, 0, code, stderr)
	out, err := tensor.LoadNPY(f)
	require.NoError(t, err)
	assert.Equal(t, []int{3000}, out.Shape, "x, y and output are re-evaluated with the new n")
}

// TestModernSyntaxRuns runs a kernel file written with Python syntax newer
// than 3.4 (f-strings, trailing commas after *, the walrus operator, @,
// numbers with underscores) in the interpreter, and checks that an
// f-string static_assert message shows its evaluated fields.
func TestModernSyntaxRuns(t *testing.T) {
	dir := t.TempDir()
	outPath, xPath := filepath.Join(dir, "out.npy"), filepath.Join(dir, "x.npy")
	lets := []string{"--let", "n=300", "--let", "x=rand(n)", "--let", "out=empty(n)"}
	args := append([]string{"run", "--interpret", "testdata/modern.tri", "modern_kernel[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)",
		"--save", "out=" + outPath, "--save", "x=" + xPath}, lets...)
	_, stderr, code := tri(t, args...)
	require.Equal(t, 0, code, stderr)
	got, err := tensor.LoadNPY(outPath)
	require.NoError(t, err)
	x, err := tensor.LoadNPY(xPath)
	require.NoError(t, err)
	require.Equal(t, 300, got.NumElements())
	for i := 0; i < 300; i++ {
		require.Equal(t, float32(x.Float(i))*3, float32(got.Float(i)), "element %d", i)
	}

	args = append([]string{"run", "--interpret", "testdata/modern.tri", "modern_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)"}, lets...)
	_, stderr, code = tri(t, args...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "modern.tri:12:5: static_assert failed: BLOCK=64 must be a multiple of 128")
}

// TestHeaderHelpEverywhere: every command that reads a kernel file's
// header, and check, explains the header convention in the same words.
func TestHeaderHelpEverywhere(t *testing.T) {
	for _, cmd := range []string{"check", "build", "run", "bench"} {
		out, _, code := tri(t, cmd, "--help")
		require.Equal(t, 0, code, cmd)
		assert.Contains(t, out, launch.HeaderHelp, cmd)
	}
}

// TestRunPrintsCheckedOutputs: a run of a file's recorded launch prints a
// line on each output its header checks (here add.tri's output, x + y for
// x = 0..7 and y = ones), on stdout beside the timing on stderr.
func TestRunPrintsCheckedOutputs(t *testing.T) {
	out, stderr, code := tri(t, "run", "--interpret", "../../samples/add.tri",
		"--let", "n=8", "--let", "x=arange(n, dtype='float32')", "--let", "y=ones(n)")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "output: float32 (8,) [1, 2, 3, 4, 5, 6, ...] min 1 max 8\n", out)
	assert.Contains(t, stderr, "ran in the interpreter")
}
