package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSampleGolden keeps the CUDA of every sample's recorded launch under
// testdata/golden; UPDATE_GOLDEN=1 rewrites it. Review the diffs like code.
func TestSampleGolden(t *testing.T) {
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tri")
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			err := BuildFile(f, "", &Options{Arch: "sm_80", Stdout: &out})
			require.NoError(t, err)
			src := out.String()
			assert.NotContains(t, src, "#include", "the emitted file is self-contained")
			golden := filepath.Join("testdata", "golden", name+".cu")
			if os.Getenv("UPDATE_GOLDEN") != "" {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, []byte(src), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run UPDATE_GOLDEN=1 go test ./launch to create it")
			assert.Equal(t, string(want), src, "generated CUDA changed; review and run UPDATE_GOLDEN=1")
		})
	}
}
