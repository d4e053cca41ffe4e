package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/tensor"
)

// kernelCopy writes samples/add.tri into a temporary folder.
func kernelCopy(t *testing.T) (dir, path string, src []byte) {
	t.Helper()
	src, err := os.ReadFile("../../samples/add.tri")
	require.NoError(t, err)
	dir = t.TempDir()
	path = filepath.Join(dir, "k.tri")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	return dir, path, src
}

// TestOutputNeverReplacesInput: tri build -o, run --save and --save-inputs,
// bench --csv and --plot, and survey --csv refuse (exit 2) to write over
// the file they read, also through a symbolic link, and leave it as it
// was.
func TestOutputNeverReplacesInput(t *testing.T) {
	dir, path, src := kernelCopy(t)
	link := filepath.Join(dir, "link.tri")
	require.NoError(t, os.Symlink("k.tri", link))
	npyLike := filepath.Join(dir, "output.npy") // a kernel file --save-inputs would write over
	require.NoError(t, os.WriteFile(npyLike, src, 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"build", path, "-o", path}, "-o " + path + ": the output would replace the input " + path + "; write it elsewhere"},
		{[]string{"build", path, "-o", link}, "-o " + link + ": the output would replace the input " + path + " (" + link + " is the same file)"},
		{[]string{"build", link, "-o", path}, "-o " + path + ": the output would replace the input " + link},
		{[]string{"build", path, "-k", "add_kernel", "--signature", "*fp32, *fp32, *fp32, i32, 1024", "-o", link}, "the output would replace the input " + path},
		{[]string{"run", "--interpret", path, "--save", "output=" + link}, "--save output=" + link + ": the output would replace the input " + path},
		{[]string{"run", "--interpret", npyLike, "--save-inputs", dir}, "--save-inputs " + dir + ": the output would replace the input " + npyLike},
		{[]string{"bench", path, "--csv", link}, "--csv " + link + ": the output would replace the input " + path},
		{[]string{"bench", path, "--plot", path}, "--plot " + path + ": the output would replace the input " + path},
	} {
		t.Run(strings.Join(c.args[:2], " "), func(t *testing.T) {
			_, stderr, code := tri(t, c.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, c.want)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(src), string(got), "the kernel file was changed")
			got, err = os.ReadFile(npyLike)
			require.NoError(t, err)
			assert.Equal(t, string(src), string(got), "the kernel file was changed")
		})
	}

	py := filepath.Join(dir, "pkg", "k.py")
	require.NoError(t, os.MkdirAll(filepath.Dir(py), 0o755))
	require.NoError(t, os.WriteFile(py, src, 0o644))
	_, stderr, code := tri(t, "survey", filepath.Dir(py), "--csv", py)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "--csv "+py+": the output would replace the input "+py)
	got, err := os.ReadFile(py)
	require.NoError(t, err)
	assert.Equal(t, string(src), string(got))

	// An output elsewhere is written.
	out := filepath.Join(dir, "k.cu")
	_, stderr, code = tri(t, "build", path, "-o", out)
	require.Equal(t, 0, code, stderr)
	cu, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(cu), "add_kernel")
}

// TestSourceNotARegularFile: a directory, a FIFO (which would block) and a
// device (/dev/zero, which never ends) are refused at once, exit 2.
func TestSourceNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "k.tri")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	cases := map[string]string{dir: "a directory", fifo: "a named pipe"}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["/dev/zero"] = "a device"
	}
	for path, kind := range cases {
		for _, cmd := range []string{"check", "build", "run"} {
			_, stderr, code := tri(t, cmd, path)
			assert.Equal(t, 2, code, stderr)
			assert.Equal(t, "tri: "+path+": not a regular file ("+kind+")\n", stderr, cmd)
		}
	}
	// A file past the size limit is refused before it is read (this one is
	// sparse: no data is written).
	huge := filepath.Join(dir, "huge.tri")
	require.NoError(t, os.WriteFile(huge, nil, 0o644))
	require.NoError(t, os.Truncate(huge, hosteval.MaxSourceBytes+1))
	_, stderr, code := tri(t, "check", huge)
	assert.Equal(t, 2, code, stderr)
	assert.Equal(t, "tri: "+huge+": 67108865 bytes is too large for a source file (at most 64 MiB)\n", stderr)
}

// TestCRLineEnds: a file whose lines end in CR alone, or in CRLF, is read
// as Python reads it: the launch header is found and errors are placed at
// the file's own lines and columns, with the line shown.
func TestCRLineEnds(t *testing.T) {
	_, _, src := kernelCopy(t)
	text := strings.Replace(string(src), "# let: x=rand(n)", "# let: x=rand(n, dtype='nope')", 1)
	for name, eol := range map[string]string{"cr": "\r", "crlf": "\r\n"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.tri")
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(text, "\n", eol)), 0o644))
			_, stderr, code := tri(t, "run", "--interpret", path)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, path+":6:24: unknown dtype \"nope\"")
			assert.Contains(t, stderr, "# let: x=rand(n, dtype='nope')\n")
			assert.NotContains(t, stderr, "launch:")

			// An error in the kernel's body is placed in the file too.
			body := strings.Replace(text, "# let: x=rand(n, dtype='nope')", "# let: x=rand(n)", 1)
			body = strings.Replace(body, "    x = tl.load(", "    x = tl.lod(", 1)
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(body, "\n", eol)), 0o644))
			_, stderr, code = tri(t, "check", path)
			assert.Equal(t, 2, code, stderr)
			line := 1 + strings.Count(body[:strings.Index(body, "tl.lod(")], "\n")
			assert.Contains(t, stderr, path+":"+strconv.Itoa(line)+":")
			assert.Contains(t, stderr, "x = tl.lod(")
		})
	}
}

// TestRootMustBeAFolder: --root that names a file or nothing is refused at
// the flag (exit 2), by every command that takes it.
func TestRootMustBeAFolder(t *testing.T) {
	dir, path, _ := kernelCopy(t)
	missing := filepath.Join(dir, "nonexistent")
	for _, cmd := range []string{"check", "build", "run", "bench"} {
		for root, want := range map[string]string{
			path:    `invalid argument "` + path + `" for "--root" flag: ` + path + " is not a folder (it is a file)",
			missing: `invalid argument "` + missing + `" for "--root" flag: no folder ` + missing,
		} {
			_, stderr, code := tri(t, cmd, path, "--root", root)
			assert.Equal(t, 2, code, stderr)
			assert.Equal(t, "tri: "+want+"\n", stderr, cmd)
		}
	}
	out, stderr, code := tri(t, "check", path, "--root", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "no errors")
}

// TestLaunchIntegersAsPython: a launch argument or --let whose integer
// expression passes through values beyond 64 bits, as Python's ints may,
// is taken when its final value fits: 2**63-1 and -(2**63) reach the
// kernel whole, and 2**64-2 as a uint64.
func TestLaunchIntegersAsPython(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.tri")
	require.NoError(t, os.WriteFile(path, []byte("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(out_ptr, v):\n    tl.store(out_ptr, v)\n"), 0o644))
	for line, want := range map[string]int64{"k[(1,)](o, 2**63-1)": math.MaxInt64, "k[(1,)](o, n)": math.MinInt64, "k[(1,)](o, n + 2**64 - 1)": math.MaxInt64} {
		out := filepath.Join(dir, "o.npy")
		_, stderr, code := tri(t, "run", "--interpret", path, line, "--let", "n=-(2**63)", "--let", "o=zeros(1, dtype='int64')", "--save", "o="+out)
		require.Equal(t, 0, code, stderr)
		o, err := tensor.LoadNPY(out)
		require.NoError(t, err)
		assert.Equal(t, want, o.Int(0), line)
	}
	// From 2**63 to 2**64-1 Triton passes a uint64; past that, nothing.
	out := filepath.Join(dir, "u.npy")
	_, stderr, code := tri(t, "run", "--interpret", path, "k[(1,)](o, 2**64 - 2)", "--let", "o=zeros(1, dtype='uint64')", "--save", "o="+out)
	require.Equal(t, 0, code, stderr)
	o, err := tensor.LoadNPY(out)
	require.NoError(t, err)
	assert.Equal(t, int64(-2), o.Int(0), "the bits of 2**64-2")
	_, stderr, code = tri(t, "run", "--interpret", path, "k[(1,)](o, 2**64)", "--let", "o=zeros(1, dtype='int64')")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "launch:1:12: integer 18446744073709551616 does not fit in 64 bits")
}
