package launch

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResourcesReportGPU: --dump=resources reports ptxas's figures every
// time, also when the cubin is in tri's cache or in the CUDA compute cache
// (where NVRTC does not run ptxas again). Without a GPU it skips, unless
// TRI_REQUIRE_GPU=1.
func TestResourcesReportGPU(t *testing.T) {
	needGPU(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	re := regexp.MustCompile(`add_kernel on sm_\w+: (\d+) registers`)
	for i := range 3 {
		if i == 2 {
			t.Setenv("XDG_CACHE_HOME", t.TempDir()) // tri's cache empty, the compute cache not
		}
		var out bytes.Buffer
		require.NoError(t, BuildFile("../samples/add.tri", "", &Options{Dump: []string{"resources"}, Output: os.DevNull, Stderr: &out}))
		m := re.FindStringSubmatch(out.String())
		require.NotNil(t, m, "build %d: %s", i, out.String())
		regs, _ := strconv.Atoi(m[1])
		require.Positive(t, regs, "build %d: %s", i, out.String())
	}
}
