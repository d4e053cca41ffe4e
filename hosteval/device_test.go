package hosteval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeviceProperties: the SM count a persistent kernel's grid reads, the
// way tutorials write it, answers for the Env's GPU.
func TestDeviceProperties(t *testing.T) {
	e := NewEnv(0)
	h100 := ArchDevice("sm_90a")
	e.Device = &h100
	for _, s := range []string{
		`a=torch.cuda.get_device_properties("cuda").multi_processor_count`,
		`b=torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count`,
		`c=triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())["multiprocessor_count"]`,
		`smem=triton.runtime.driver.active.utils.get_device_properties(0)["max_shared_mem"]`,
		`major=torch.cuda.get_device_properties(0).major`,
	} {
		require.NoError(t, e.Let(s), s)
	}
	for name, want := range map[string]int64{"a": 132, "b": 132, "c": 132, "smem": 232448, "major": 9} {
		assert.Equal(t, IntValue(want), lookup(t, e, name), name)
	}
	assert.Error(t, e.Let(`x=torch.cuda.get_device_properties(0).no_such_field`))
	assert.Error(t, e.Let(`x=triton.runtime.driver.active.utils.get_device_properties(0).multiprocessor_count`))
}

func TestArchDevice(t *testing.T) {
	for arch, sms := range map[string]int{"sm_80": 108, "sm_86": 82, "sm_87": 82, "sm_89": 58, "sm_90": 132, "sm_90a": 132, "sm_100": 148, "sm_120": 170, "sm_75": 108} {
		assert.Equal(t, sms, ArchDevice(arch).Multiprocessors, arch)
	}
	assert.Equal(t, 101376, DeviceInfo{Multiprocessors: 114}.WithCapability(8, 9).MaxSharedMem)
}
