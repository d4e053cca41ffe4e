package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildHugeLetTensors: tri build of a launch over --let tensors of
// 2^34 elements (64 GiB of float32 each) specializes on their dtypes and
// shapes without making them: it takes well under a second and allocates
// next to nothing, where it refused the binding before (more than 2^31
// elements) and, below that bound, spent seconds filling data it never
// read. tri run of the same binding is still refused before allocating.
func TestBuildHugeLetTensors(t *testing.T) {
	lets := []string{"--let", "n=2**34", "--let", "x=randn(n)", "--let", "y=rand_like(x) * 2", "--let", "output=empty_like(x)"}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	out, stderr, code := tri(t, append([]string{"build", "../../samples/add.tri", addLaunch}, lets...)...)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "add_kernel")
	assert.Contains(t, out, "n_elements: i64:16", "n past int32 is an i64 parameter")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<20), "bytes allocated by the build")
	assert.Less(t, elapsed, 5*time.Second)

	_, stderr, code = tri(t, append([]string{"run", "--interpret", "../../samples/add.tri", addLaunch}, lets...)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "randn(): a tensor of more than 2^31 elements is too large")
}
