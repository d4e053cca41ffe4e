package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var unrolledBuild = []string{"build", "testdata/static_range.tri", "-k", "unrolled", "--signature", "*fp32, *fp32"}

// TestBuildUnrolled builds a load under tl.static_range(16384): the
// unrolled build is linear in the loop's length (it used to take over two
// minutes, here bounded by --timeout 60s).
func TestBuildUnrolled(t *testing.T) {
	out, stderr, code := tri(t, append(unrolledBuild, "--timeout", "60s")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "acc_16383")
}

// TestBuildTimeout checks that --timeout stops the build itself, not only
// a run: promptly, with a placed message, and leaving no goroutine behind.
func TestBuildTimeout(t *testing.T) {
	before := runtime.NumGoroutine()
	start := time.Now()
	_, stderr, code := tri(t, append(unrolledBuild, "--timeout", "50ms")...)
	took := time.Since(start)
	assert.Equal(t, 1, code, stderr)
	assert.Regexp(t, `static_range\.tri(:\d+:\d+)?: stopped at --timeout 50ms (while compiling kernel unrolled|while generating CUDA for kernel unrolled|after)`, stderr)
	assert.Less(t, took, 10*time.Second, "the stop waited for the build")
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "a goroutine was left running")
}

// TestCheckTimeout checks that tri check takes --timeout too.
func TestCheckTimeout(t *testing.T) {
	_, stderr, code := tri(t, "check", "--timeout", "1ns", "testdata/static_range.tri")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "static_range.tri: stopped at --timeout 1ns after parsing testdata/static_range.tri")
	_, stderr, code = tri(t, "check", "--timeout", "0", "testdata/static_range.tri")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--timeout: want a positive duration")
}
