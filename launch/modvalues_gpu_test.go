package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestModuleValuesGPU runs each value case of testdata/modvalues on the GPU
// and in the interpreter and compares them (tri run --check); with
// TestModuleValues, which holds the interpreter to CPython's value, the GPU
// stores Python's value too. Without a GPU it skips, unless
// TRI_REQUIRE_GPU=1.
func TestModuleValuesGPU(t *testing.T) {
	needGPU(t)
	cases, err := filepath.Glob(filepath.Join("testdata", "modvalues", "*.txtar"))
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			src, err := os.ReadFile(c)
			require.NoError(t, err)
			dir := t.TempDir()
			if comment := writeArchive(t, dir, string(src)); !strings.Contains(comment, "want: ") {
				t.Skip("an error case")
			}
			var out bytes.Buffer
			require.NoError(t, RunFile(filepath.Join(dir, "pkg", "k.py"), "", &Options{Check: true, Stdout: &out, Stderr: &out}), out.String())
		})
	}
}
