package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostKernel is a kernel file whose autotune configs come from configs(),
// whose body is given.
func hostKernel(t *testing.T, body string) string {
	t.Helper()
	src := "import triton\nimport triton.language as tl\n\n\ndef configs():\n" + body + "\n\n" +
		"@triton.autotune(configs=configs(), key=['n'])\n@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n" +
		"    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n"
	path := filepath.Join(t.TempDir(), "k.py")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// TestCheckHostBoundary: tri check and build run a file's host code
// without I/O, and within --timeout: a config function that writes a file
// is refused at its line and writes nothing; one that loops ends at the
// timeout, placed, leaving no goroutine.
func TestCheckHostBoundary(t *testing.T) {
	target := filepath.Join(t.TempDir(), "written")
	path := hostKernel(t, "    open('"+target+"', 'w').write('x')\n    return [triton.Config({'BLOCK': 16})]")
	_, stderr, code := tri(t, "check", path)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "k.py:6:5: ")
	assert.Contains(t, stderr, "open() is refused")
	_, err := os.Stat(target)
	assert.True(t, os.IsNotExist(err), "the file was written")

	before := runtime.NumGoroutine()
	start := time.Now()
	_, stderr, code = tri(t, "build", "--timeout", "300ms", hostKernel(t, "    while True:\n        pass"), "k[(1,)](x, 16)", "--let", "x=empty(16)")
	assert.NotEqual(t, 0, code)
	assert.Regexp(t, `k\.py:6:5: .*host code (ran longer than --timeout 300ms|was stopped at --timeout)`, stderr)
	assert.Less(t, time.Since(start), 10*time.Second)
	for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "a goroutine was left running")

	_, stderr, code = tri(t, "check", "--timeout", "300ms", hostKernel(t, "    while True:\n        pass"))
	assert.NotEqual(t, 0, code)
	assert.Regexp(t, `k\.py:6:5: .*host code (ran longer than --timeout 300ms|was stopped at --timeout)`, stderr, "tri check too")
}

// --allow-host-io lets trusted host code do I/O, on check and build alike.
func TestAllowHostIO(t *testing.T) {
	target := filepath.Join(t.TempDir(), "written")
	path := hostKernel(t, "    open('"+target+"', 'w').write('x')\n    return [triton.Config({'BLOCK': 16})]")
	_, stderr, code := tri(t, "check", "--allow-host-io", path)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))
	require.NoError(t, os.Remove(target))
	out, stderr, code := tri(t, "build", "--allow-host-io", path, "k[(1,)](x, 16)", "--let", "x=empty(16)")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.Contains(out, "__global__"), out)
	_, err = os.Stat(target)
	assert.NoError(t, err, "build ran the host code with I/O")
}
