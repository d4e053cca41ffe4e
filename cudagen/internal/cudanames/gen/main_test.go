package main

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen/internal/cudanames"
)

// TestRenderNamesVersions: the table's comment names the CUDA version of
// the files and every list it took, in lines gofmt keeps.
func TestRenderNamesVersions(t *testing.T) {
	lists := []cudanames.List{{File: "nvrtc-13.0.88.txt", Version: "13.0.88"}, {File: "nvrtc-13.1.5.txt", Version: "13.1.5"}}
	src := render([]string{"atomicAdd", "vprintf"}, "12.4 and 12.5", lists)
	formatted, err := format.Source(src)
	require.NoError(t, err)
	comment := strings.Join(strings.Fields(strings.ReplaceAll(string(formatted), "//", "")), " ")
	assert.Contains(t, comment, "cudaNames are the 2 names")
	assert.Contains(t, comment, "(CUDA 12.4 and 12.5: the implicit headers")
	assert.Contains(t, comment, "NVRTC 13.0.88: its builtins library, listed in internal/cudanames/nvrtc-13.0.88.txt")
	assert.Contains(t, comment, "NVRTC 13.1.5: its builtins library, listed in internal/cudanames/nvrtc-13.1.5.txt")
	for _, line := range strings.Split(string(formatted), "\n") {
		if strings.HasPrefix(line, "//") {
			assert.LessOrEqual(t, len(line), 80, line)
		}
	}
}

// TestWriteListRefusesOther: a file that is not a builtins library gives
// an error and no list.
func TestWriteListRefusesOther(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "libnvrtc-builtins.so.13.0.88")
	require.NoError(t, os.WriteFile(lib, []byte("#define ONE 1\n"), 0o644))
	out := filepath.Join(dir, "nvrtc-13.0.88.txt")
	err := writeList(lib, out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is it NVRTC's builtins library?")
	assert.NoFileExists(t, out)
}
