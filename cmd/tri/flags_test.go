package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadFlagValues: launch options and limits given on the command line
// are validated as num_warps= in a launch line is; nothing is written.
func TestBadFlagValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--num-warps", "3"}, "--num-warps: num_warps must be a power of two from 1 to 32, not 3"},
		{[]string{"--num-warps", "1000"}, "not 1000"},
		{[]string{"--num-warps", "0"}, "not 0"},
		{[]string{"--num-warps", "-1"}, "not -1"},
		{[]string{"--num-stages", "0"}, "--num-stages: num_stages must be an integer from 1 to 64, not 0"},
		{[]string{"--num-stages", "-3"}, "not -3"},
		{[]string{"--config", "-2"}, "--config -2: want the index of an autotune config"},
		{[]string{"--timeout", "0"}, "--timeout: want a positive duration"},
		{[]string{"--timeout", "-5s"}, "--timeout: want a positive duration"},
		{[]string{"--arch", "garbage"}, `--arch "garbage": want a CUDA architecture such as sm_80`},
		{[]string{"--dump", "bogus"}, `unknown --dump "bogus" (want ast, ir, layout, cuda, resources)`},
		{[]string{"--dump=layout,bogus"}, `unknown --dump "bogus"`},
		{[]string{"--arch", "sm_70"}, "--arch sm_70: tri generates code for sm_80 and newer"},
	} {
		for _, cmd := range []string{"build", "run", "bench"} {
			out := filepath.Join(t.TempDir(), "k.cu")
			args := append([]string{cmd, "../../samples/add.tri", "-o", out}, c.args...)
			switch cmd {
			case "run":
				args = append([]string{cmd, "../../samples/add.tri", "--interpret"}, c.args...)
			case "bench":
				args = append([]string{cmd, "../../samples/add.tri"}, c.args...)
			}
			_, stderr, code := tri(t, args...)
			assert.Equal(t, 2, code, "%v", args)
			assert.Contains(t, stderr, c.want, "%v", args)
			_, err := os.Stat(out)
			assert.True(t, os.IsNotExist(err), "%v wrote %s", args, out)
		}
	}
	_, stderr, code := tri(t, "build", "../../samples/add.tri", "--num-warps", "8", "--num-stages", "2", "-o", filepath.Join(t.TempDir(), "k.cu"))
	assert.Equal(t, 0, code, stderr)
}

// TestCheckDumpAndSaveFirst: tri check rejects an unknown --dump; a --save
// that cannot be written is bad input found before anything runs.
func TestCheckDumpAndSaveFirst(t *testing.T) {
	_, stderr, code := tri(t, "check", "../../samples/add.tri", "--dump=bogus")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown --dump "bogus" (want ast)`)

	dir := t.TempDir()
	for _, save := range []string{
		"output=" + filepath.Join(dir, "missing", "out.npy"),
		"output=" + dir,
	} {
		_, stderr, code = tri(t, "run", "--interpret", "../../samples/add.tri", "--save", save)
		assert.Equal(t, 2, code, save)
		assert.Contains(t, stderr, "--save "+save+": ", save)
		assert.NotContains(t, stderr, "ran in the interpreter", "checked before the run")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing left behind")
}

// TestCheckFindsBuildErrors: tri check reports what tri build would reject
// without a launch: random bytes, a syntax error outside every kernel,
// recursion between kernels.
func TestCheckFindsBuildErrors(t *testing.T) {
	dir := t.TempDir()
	noise := make([]byte, 20000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	const kernel = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n"
	for name, c := range map[string]struct{ src, want string }{
		"noise.tri":  {string(noise), "syntax error"},
		"host.tri":   {kernel + "\nx = = 3\n", "host.tri:8:"},
		"cycle.tri":  {kernel + "\n@triton.jit\ndef a(x):\n    return b(x)\n\n@triton.jit\ndef b(x):\n    return a(x)\n", "recursive call to a"},
		"noerr.tri":  {kernel, ""},
		"modern.tri": {kernel + "\nprint(f'{k}', x := 1)\n", ""},
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(c.src), 0o644))
		out, stderr, code := tri(t, "check", path)
		if c.want == "" {
			assert.Equal(t, 0, code, "%s: %s", name, stderr)
			assert.Contains(t, out, "no errors", name)
			continue
		}
		assert.Equal(t, 2, code, name)
		assert.Contains(t, stderr, c.want, name)
		assert.NotContains(t, out, "no errors", name)
	}
}

// TestRootFlagAndTriPath: a module outside the kernel file's tree is found
// through --root or TRI_PATH, and not without them.
func TestRootFlagAndTriPath(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	require.NoError(t, os.MkdirAll(lib, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(lib, "shared.py"), []byte("import triton\n\n@triton.jit\ndef one(x):\n    return x * 0 + 1\n"), 0o644))
	path := filepath.Join(dir, "k.py")
	require.NoError(t, os.WriteFile(path, []byte("import triton\nimport triton.language as tl\nfrom shared import one\n\n@triton.jit\ndef k(p):\n    tl.store(p, one(1.0))\n"), 0o644))
	build := []string{"build", path, "-k", "k", "--signature", "*fp32"}

	_, stderr, code := tri(t, build...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "shared.one is not a Triton name")

	out, stderr, code := tri(t, append(build, "--root", lib)...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "__global__")
	_, stderr, code = tri(t, "check", "--root", lib, path)
	assert.Equal(t, 0, code, stderr)

	t.Setenv("TRI_PATH", filepath.Join(dir, "nowhere")+string(os.PathListSeparator)+lib)
	_, stderr, code = tri(t, build...)
	assert.Equal(t, 0, code, stderr)
}

// TestTritonInterpretEnv: TRITON_INTERPRET=1 makes run interpret, as it
// makes Triton; --interpret=false overrides it; --check and bench, which
// need the GPU, are refused with a message that names the variable.
func TestTritonInterpretEnv(t *testing.T) {
	t.Setenv("TRITON_INTERPRET", "1")
	_, stderr, code := tri(t, "run", "../../samples/add.tri")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "ran in the interpreter")

	_, stderr, code = tri(t, "run", "../../samples/add.tri", "--check")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--check runs the kernel on the GPU too, but TRITON_INTERPRET=1 asks for the interpreter only")

	_, stderr, code = tri(t, "bench", "../../samples/add.tri")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "tri bench times kernels on the GPU, but TRITON_INTERPRET=1 asks for the CPU interpreter")

	help, _, _ := tri(t, "run", "--help")
	assert.Contains(t, help, "TRITON_INTERPRET=1 in the environment means --interpret")

	// Explicit flags win over the environment: no interpreter line.
	_, stderr, _ = tri(t, "run", "../../samples/add.tri", "--interpret=false")
	assert.NotContains(t, stderr, "ran in the interpreter")

	t.Setenv("TRITON_INTERPRET", "0")
	_, stderr, _ = tri(t, "run", "../../samples/add.tri")
	assert.NotContains(t, stderr, "ran in the interpreter")
}

// TestFlagSuggestions: an unknown flag close to one of the command's names
// it; one that belongs to other commands names them; others are left
// alone, and every such error is bad input.
func TestFlagSuggestions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "../../samples/add.tri", "--interpet"}, "unknown flag: --interpet; did you mean --interpret?"},
		{[]string{"run", "../../samples/add.tri", "--num-warp", "4"}, "unknown flag: --num-warp; did you mean --num-warps?"},
		{[]string{"--verison"}, "unknown flag: --verison; did you mean --version?"},
		{[]string{"build", "../../samples/add.tri", "--interpret"}, "unknown flag: --interpret (a flag of tri run, not of tri build)"},
		{[]string{"bench", "../../samples/add.tri", "--save", "x=x.npy"}, "unknown flag: --save (a flag of tri run, not of tri bench)"},
		{[]string{"run", "../../samples/add.tri", "--bogus"}, "unknown flag: --bogus\n"},
		{[]string{"run", "../../samples/add.tri", "-interpret"}, "unknown shorthand flag: 'i' in -interpret; did you mean --interpret?"},
		{[]string{"run", "../../samples/add.tri", "-let=n=4"}, "unknown shorthand flag: 'l' in -let=n=4; did you mean --let?"},
		{[]string{"run", "../../samples/add.tri", "-Zq"}, "unknown shorthand flag: 'Z' in -Zq\n"},
		{[]string{"run", "../../samples/add.tri", "--let"}, "flag needs an argument: --let\n"},
	} {
		_, stderr, code := tri(t, c.args...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}
