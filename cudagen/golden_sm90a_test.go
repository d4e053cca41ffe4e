package cudagen_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameBut reports whether CUDA built for arch and for sm_90a are the same
// but for the target the header names.
func sameBut(own, sm90a, arch string) bool {
	return strings.Replace(own, "// Target "+arch+".", "// Target sm_90a.", 1) == sm90a
}

// goldenSM90a is the folder of TestGoldenSM90a's files.
var goldenSM90a = filepath.Join("testdata", "golden_sm90a")

// TestGoldenSM90a keeps, under testdata/golden_sm90a/{samples,constructs},
// the CUDA built for sm_90a of every sample and construct whose sm_90a
// CUDA differs from the CUDA TestGolden keeps for it (built for sm_80 or
// its "# arch:") by more than the target its header names: the wgmma dots,
// the TMA copies and stores and the Hopper pipelines, which TestGolden's
// builds never reach. Files whose "# arch:" is sm_90a are TestGolden's
// already. The folder holds exactly these files, so a file whose sm_90a
// CUDA stops differing leaves a stale golden that fails here.
// UPDATE_GOLDEN=1 rewrites the folder.
func TestGoldenSM90a(t *testing.T) {
	update := os.Getenv("UPDATE_GOLDEN") != ""
	for dir, files := range kernelFiles(t) {
		var kept []string
		for _, f := range files {
			arch := fileArch(t, f)
			if arch == "sm_90a" {
				continue
			}
			name := strings.TrimSuffix(filepath.Base(f), ".tri")
			src, err := build(t, f, "sm_90a")
			require.NoError(t, err, "%s at sm_90a", f)
			own, err := build(t, f, arch)
			require.NoError(t, err, "%s at %s", f, arch)
			if sameBut(own, src, arch) {
				continue
			}
			kept = append(kept, name+".cu")
			t.Run(dir+"/"+name, func(t *testing.T) {
				golden := filepath.Join(goldenSM90a, dir, name+".cu")
				if update {
					require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
					require.NoError(t, os.WriteFile(golden, []byte(src), 0o644))
					return
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "run UPDATE_GOLDEN=1 go test ./cudagen -run TestGoldenSM90a to create it")
				assert.Equal(t, string(want), src, "generated sm_90a CUDA changed; review and run UPDATE_GOLDEN=1")
			})
		}
		require.NotEmpty(t, kept, dir)
		// Every file in the folder is one of kept: a stale one fails (or, when
		// updating, goes).
		entries, err := os.ReadDir(filepath.Join(goldenSM90a, dir))
		if update && os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		for _, e := range entries {
			if slices.Contains(kept, e.Name()) {
				continue
			}
			stale := filepath.Join(goldenSM90a, dir, e.Name())
			if update {
				require.NoError(t, os.Remove(stale))
				continue
			}
			t.Errorf("%s: no sample or construct with sm_90a CUDA of its own has this name; run UPDATE_GOLDEN=1 to remove it", stale)
		}
	}
}
