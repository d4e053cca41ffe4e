package nvrtc

// This file implements devices, their primary contexts, and the rule that
// makes every call safe from any goroutine: lock the OS thread, make the
// device's context current on it if it is not, call, unlock.

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Device attributes of cuDeviceGetAttribute.
const (
	attrMultiprocessorCount    = 16
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
)

// Device is one GPU with its primary context.
type Device struct {
	ordinal      int
	dev          int32
	ctx          uintptr
	name         string
	major, minor int
	sms          int
}

// OpenDevice initializes the driver and retains the primary context of the
// GPU with the given ordinal (0 is the first).
func OpenDevice(ordinal int) (*Device, error) {
	if err := LoadDriver(); err != nil {
		return nil, err
	}
	d := &Device{ordinal: ordinal}
	var count int32
	if err := driver.check("cuDeviceGetCount", callC(driver.cuDeviceGetCount, uintptr(unsafe.Pointer(&count)))); err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= int(count) {
		return nil, fmt.Errorf("no GPU %d: the driver sees %d", ordinal, count)
	}
	if err := driver.check("cuDeviceGet", callC(driver.cuDeviceGet, uintptr(unsafe.Pointer(&d.dev)), uintptr(ordinal))); err != nil {
		return nil, err
	}
	name := make([]byte, 256)
	if err := driver.check("cuDeviceGetName", callC(driver.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)), uintptr(d.dev))); err != nil {
		return nil, err
	}
	d.name, _, _ = strings.Cut(string(name), "\x00")
	var err error
	if d.major, err = d.attribute(attrComputeCapabilityMajor); err != nil {
		return nil, err
	}
	if d.minor, err = d.attribute(attrComputeCapabilityMinor); err != nil {
		return nil, err
	}
	if d.sms, err = d.attribute(attrMultiprocessorCount); err != nil {
		return nil, err
	}
	if err := driver.check("cuDevicePrimaryCtxRetain", callC(driver.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&d.ctx)), uintptr(d.dev))); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Device) attribute(attr int) (int, error) {
	var v int32
	code := callC(driver.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(attr), uintptr(d.dev))
	if err := driver.check("cuDeviceGetAttribute", code); err != nil {
		return 0, err
	}
	return int(v), nil
}

// Close releases the device's primary context. Memory, modules and events
// of the device must not be used afterwards.
func (d *Device) Close() error {
	if d.ctx == 0 {
		return nil
	}
	d.ctx = 0
	return driver.check("cuDevicePrimaryCtxRelease_v2", callC(driver.cuDevicePrimaryCtxRelease, uintptr(d.dev)))
}

// Ordinal returns the device's number.
func (d *Device) Ordinal() int { return d.ordinal }

// Name returns the device's marketing name, e.g. "NVIDIA H100 80GB HBM3".
func (d *Device) Name() string { return d.name }

// Arch returns the NVRTC target of the device's compute capability, e.g.
// "sm_90".
func (d *Device) Arch() string { return fmt.Sprintf("sm_%d%d", d.major, d.minor) }

// ComputeCapability returns the device's compute capability.
func (d *Device) ComputeCapability() (major, minor int) { return d.major, d.minor }

// Multiprocessors returns the number of SMs.
func (d *Device) Multiprocessors() int { return d.sms }

// enter locks the calling goroutine to its thread and makes the device's
// context current there, using s for the driver's answer. The caller must
// call runtime.UnlockOSThread when done, also when enter fails.
func (d *Device) enter(s *slot) error {
	runtime.LockOSThread()
	if d.ctx == 0 {
		return fmt.Errorf("nvrtc: GPU %d is closed", d.ordinal)
	}
	s.call[0] = s.base + slotCur
	r, _, _ := purego.SyscallN(driver.cuCtxGetCurrent, s.call[:1]...)
	if code := int(int32(r)); code != 0 {
		return driver.check("cuCtxGetCurrent", code)
	}
	if s.word(slotCur) == d.ctx {
		return nil
	}
	return driver.check("cuCtxSetCurrent", callC(driver.cuCtxSetCurrent, d.ctx))
}

// do runs fn with the device's context current.
func (d *Device) do(fn func() error) error {
	s, err := getSlot()
	if err != nil {
		return err
	}
	defer slots.Put(s)
	defer runtime.UnlockOSThread()
	if err := d.enter(s); err != nil {
		return err
	}
	return fn()
}

// Synchronize waits for all work on the device to finish and reports any
// error of an earlier launch.
func (d *Device) Synchronize() error {
	return d.do(func() error {
		return driver.check("cuCtxSynchronize", callC(driver.cuCtxSynchronize))
	})
}

// DriverVersion returns the CUDA version the driver supports, e.g. 13000
// for 13.0.
func DriverVersion() (int, error) {
	if err := LoadDriver(); err != nil {
		return 0, err
	}
	var v int32
	if err := driver.check("cuDriverGetVersion", callC(driver.cuDriverGetVersion, uintptr(unsafe.Pointer(&v)))); err != nil {
		return 0, err
	}
	return int(v), nil
}
