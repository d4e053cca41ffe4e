package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReservedKernelNameGPU runs kernels whose names the CUDA spells with
// a trailing underscore (printf, tri_add): the launch must find the
// function by its CUDA name, and the results must match the interpreter's.
// Without a GPU it skips, unless TRI_REQUIRE_GPU=1.
func TestReservedKernelNameGPU(t *testing.T) {
	needGPU(t)
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	for _, name := range []string{"printf", "tri_add", "addé_kernel"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "add.tri")
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(src), "add_kernel", name)), 0o644))
			var out bytes.Buffer
			require.NoError(t, RunFile(path, "", &Options{Check: true, Stdout: &out}), out.String())
		})
	}
}
