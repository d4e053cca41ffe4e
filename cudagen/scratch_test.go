package cudagen_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/launch"
)

// TestScratchPlanned holds the planned scratch shared memory of every
// statement (scratch.go) against what its printers reserved, for every
// sample's and construct's recorded launch at sm_90a and sm_80, and the
// kernel's (the size tri_smem is declared with, and whether its start is
// 1024-byte aligned, alignedScratch, which kernel prints before the
// printers that need it run): a loop's pipeline stages
// or hoisted operands start after its planned figure, so a statement that
// reserved more than planned would overlap them. A planned figure that is
// wrong at any site fails here.
func TestScratchPlanned(t *testing.T) {
	var files []string
	for _, pat := range []string{"../samples/*.tri", "../conformance/constructs/*.tri"} {
		f, err := filepath.Glob(pat)
		require.NoError(t, err)
		files = append(files, f...)
	}
	kinds := map[string]bool{} // the statement kinds that used scratch
	built, aligned := 0, 0
	for _, arch := range []string{"sm_90a", "sm_80"} {
		for _, f := range files {
			p, err := launch.Prepare(f, "", &launch.Options{Arch: arch})
			if err != nil {
				continue // a kernel for another target (fp8 needs sm_89), or no recorded launch
			}
			uses, err := cudagen.GenerateScratch(p.Kernel, cudagen.Options{Arch: arch})
			if err != nil {
				// Too much shared memory for this target: an error of the
				// kernel's blocks. A printer that needs an alignment the
				// plan did not give stops generate with an internal error.
				assert.NotContains(t, err.Error(), "internal error", "%s %s", arch, f)
				continue
			}
			built++
			for _, u := range uses {
				assert.Equal(t, u.Planned, u.Printed, "%s %s at %s: planned scratch against the printers'", arch, u.What, u.Pos)
				if u.Printed > 0 {
					kinds[u.What] = true
				}
				if u.What == "kernel" {
					assert.Equal(t, u.PlannedAligned, u.PrintedAligned, "%s %s: planned 1024-byte alignment of the scratch against the printers'", arch, f)
					if u.PrintedAligned {
						aligned++
					}
				}
			}
		}
	}
	t.Logf("%d builds (%d with aligned scratch); statements that used scratch: %v", built, aligned, kinds)
	assert.Positive(t, aligned, "some kernel lays out swizzled tiles in its scratch")
	assert.Greater(t, built, len(files), "most kernels build at both targets")
	// The check above compares something at each kind of site.
	for _, k := range []string{"kernel", "for", "reduce", "dot", "scan"} {
		assert.True(t, kinds[k], "no %s statement used scratch: %v", k, fmt.Sprint(kinds))
	}
}
