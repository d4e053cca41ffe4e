package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInterpArch: --arch reaches the interpreter as a compute capability,
// none as 0 (sm_89's conversions and later).
func TestInterpArch(t *testing.T) {
	for arch, want := range map[string]int{"": 0, "sm_80": 80, "sm_86": 86, "sm_89": 89, "sm_90a": 90, "sm_100f": 100, "compute_80": 0} {
		assert.Equal(t, want, interpArch(arch), arch)
	}
}
