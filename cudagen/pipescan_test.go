package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFitStages holds the stage fit both pipeline cases share against
// sums worked by hand: as many of the asked stages as the target's shared
// memory holds after the operands stored once, less the mbarriers of TMA
// copies, which also bound the stages to maxTMABuffers; asked is kept
// only where fewer stages fit than were asked for.
func TestFitStages(t *testing.T) {
	cases := []struct {
		name                 string
		wgmma                bool
		arch, size, inv, ask int
		tma                  bool
		stages, asked, most  int
	}{
		{"all fit", true, 90, 32 << 10, 0, 4, false, 4, 0, 232448},
		{"227 KiB hold 3 of 64 KiB", true, 90, 64 << 10, 0, 4, false, 3, 4, 232448},
		{"invariants first: 2 of 64 KiB after 48 KiB", true, 90, 64 << 10, 48 << 10, 4, false, 2, 4, 232448},
		{"TMA: at most 8, 64 bytes of mbarriers", true, 90, 16 << 10, 0, 10, true, 8, 10, 232448 - 64},
		{"sm_86: 99 KiB hold 3 of 32 KiB", false, 86, 32 << 10, 0, 4, false, 3, 4, 99 << 10},
		{"sm_80: 163 KiB hold 4 of 32 KiB", false, 80, 32 << 10, 0, 4, false, 4, 0, 163 << 10},
		{"one stage fits", false, 86, 64 << 10, 0, 3, false, 1, 3, 99 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &plan{wgmma: c.wgmma, arch: c.arch}
			sp := stagePlan{stageSize: c.size, invSize: c.inv}
			most := p.fitStages(&sp, c.ask, c.tma)
			assert.Equal(t, c.most, most, "shared memory")
			assert.Equal(t, c.stages, sp.stages, "stages")
			assert.Equal(t, sp.stages, sp.buffers, "buffers")
			assert.Equal(t, c.asked, sp.asked, "asked")
		})
	}
}
