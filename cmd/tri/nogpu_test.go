package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/gpu"
)

// TestNoGPUSuggestsInterpret: where there is no GPU, the commands that
// need one say how to run the kernel without it; a run already under
// --interpret (whose --dump=resources needs NVRTC) does not.
func TestNoGPUSuggestsInterpret(t *testing.T) {
	if _, err := gpu.Device(); err == nil {
		t.Skip("a GPU is present")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "../../samples/add.tri"}, "hint: --interpret runs the kernel on the CPU interpreter, which needs no GPU"},
		{[]string{"run", "../../samples/add.tri", "--check"}, "hint: --interpret instead of --check runs the kernel on the CPU interpreter alone"},
		{[]string{"bench", "../../samples/add.tri"}, "hint: tri bench times the GPU; tri run --interpret runs the kernel on the CPU interpreter"},
	} {
		_, stderr, code := tri(t, c.args...)
		assert.Equal(t, 1, code, "%v", c.args)
		assert.Contains(t, stderr, "no GPU", "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
	_, stderr, _ := tri(t, "run", "--interpret", "../../samples/add.tri", "--dump=resources")
	assert.NotContains(t, stderr, "hint:")
}
