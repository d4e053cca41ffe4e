package hosteval

// This file implements what host code learns of the GPU: the device
// properties behind torch.cuda.get_device_properties(...) and
// triton.runtime.driver.active.utils.get_device_properties(...), which
// persistent kernels read for their grid (NUM_SMS).

import (
	"strconv"
	"strings"
)

// DeviceInfo describes the GPU a launch is for.
type DeviceInfo struct {
	Name            string
	Major, Minor    int
	Multiprocessors int
	// MaxSharedMem is the most shared memory one program may use, in bytes
	// (with the opt-in attribute).
	MaxSharedMem int
}

// archDevices are the GPUs assumed for a target given without a GPU to
// ask (tri build --arch, or a run with no driver): the usual data-centre
// part of each architecture, as CUDA's occupancy tables describe it.
var archDevices = []DeviceInfo{
	{"NVIDIA A100-SXM4-80GB", 8, 0, 108, 166912},
	{"NVIDIA GeForce RTX 3090", 8, 6, 82, 101376},
	{"NVIDIA L4", 8, 9, 58, 101376},
	{"NVIDIA H100 80GB HBM3", 9, 0, 132, 232448},
	{"NVIDIA B200", 10, 0, 148, 232448},
	{"NVIDIA GeForce RTX 5090", 12, 0, 170, 101376},
}

// ArchDevice is the GPU assumed for target arch ("sm_90a"): the entry of
// the newest architecture not newer than it, or the oldest for a target
// older than them all.
func ArchDevice(arch string) DeviceInfo {
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(arch, "sm_"), "a"))
	d := archDevices[0]
	if err != nil {
		return d
	}
	for _, a := range archDevices {
		if a.Major*10+a.Minor <= n {
			d = a
		}
	}
	return d
}

// WithCapability is d for compute capability major.minor, the rest from
// the assumed GPU of that architecture where d has no answer.
func (d DeviceInfo) WithCapability(major, minor int) DeviceInfo {
	d.Major, d.Minor = major, minor
	if d.MaxSharedMem == 0 {
		d.MaxSharedMem = ArchDevice("sm_" + strconv.Itoa(major*10+minor)).MaxSharedMem
	}
	return d
}

// torchPropsMarker marks the dict of torch.cuda.get_device_properties, whose
// entries are read as attributes (props.multi_processor_count).
const torchPropsMarker = "_CudaDeviceProperties"

// device is the GPU of e's launches.
func (e *Env) device() DeviceInfo {
	if e.Device != nil {
		return *e.Device
	}
	return ArchDevice("sm_80")
}

// biTorchDeviceProperties is torch.cuda.get_device_properties(device):
// name, major, minor, multi_processor_count, warp_size and
// shared_memory_per_block_optin, read as attributes.
func biTorchDeviceProperties(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(0, 1); err != nil {
		return Value{}, err
	}
	d := e.device()
	return Value{Kind: VDict, Str: torchPropsMarker, Dict: map[string]Value{
		"name": StrValue(d.Name), "major": IntValue(int64(d.Major)), "minor": IntValue(int64(d.Minor)),
		"multi_processor_count": IntValue(int64(d.Multiprocessors)), "warp_size": IntValue(32),
		"shared_memory_per_block_optin": IntValue(int64(d.MaxSharedMem)),
	}}, nil
}

// biTritonDeviceProperties is
// triton.runtime.driver.active.utils.get_device_properties(device): the
// dict Triton's driver returns, with the keys tri can answer.
func biTritonDeviceProperties(e *Env, c *callArgs) (Value, error) {
	if err := c.nargs(0, 1); err != nil {
		return Value{}, err
	}
	d := e.device()
	return Value{Kind: VDict, Dict: map[string]Value{
		"multiprocessor_count": IntValue(int64(d.Multiprocessors)), "max_shared_mem": IntValue(int64(d.MaxSharedMem)),
		"max_num_regs": IntValue(65536), "warpSize": IntValue(32),
	}}, nil
}

// biCurrentDevice is torch.cuda.current_device(): tri runs on GPU 0.
func biCurrentDevice(_ *Env, c *callArgs) (Value, error) {
	if err := c.nargs(0, 0); err != nil {
		return Value{}, err
	}
	return IntValue(0), nil
}
