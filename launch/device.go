package launch

import (
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
)

// targetDevice is the GPU that host code's device queries describe (NUM_SMS
// of a persistent kernel): with no --arch, the GPU tri runs on when a
// driver finds one; else the GPU assumed for the target architecture.
func targetDevice(arch string) hosteval.DeviceInfo {
	if arch == "" {
		if d, err := gpu.Device(); err == nil {
			major, minor := d.ComputeCapability()
			return hosteval.DeviceInfo{Name: d.Name(), Multiprocessors: d.Multiprocessors()}.WithCapability(major, minor)
		}
	}
	return hosteval.ArchDevice(gpu.TargetArch(arch))
}
