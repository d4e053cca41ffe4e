package nvrtc

// This file implements device memory: allocation and copies.

import (
	"fmt"
	"unsafe"
)

// DevicePtr is an address in device memory.
type DevicePtr uint64

// Alloc allocates bytes of device memory (at least one byte).
func (d *Device) Alloc(bytes int) (DevicePtr, error) {
	if bytes < 0 {
		return 0, fmt.Errorf("nvrtc: allocating %d bytes", bytes)
	}
	bytes = max(bytes, 1)
	var p DevicePtr
	err := d.do(func() error {
		return driver.check("cuMemAlloc_v2", callC(driver.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(bytes)))
	})
	return p, err
}

// Free releases memory from Alloc.
func (d *Device) Free(p DevicePtr) error {
	return d.do(func() error {
		return driver.check("cuMemFree_v2", callC(driver.cuMemFree, uintptr(p)))
	})
}

// CopyHtoD copies src to device memory at dst.
func (d *Device) CopyHtoD(dst DevicePtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return d.do(func() error {
		return driver.check("cuMemcpyHtoD_v2", callC(driver.cuMemcpyHtoD, uintptr(dst), uintptr(unsafe.Pointer(&src[0])), uintptr(len(src))))
	})
}

// CopyDtoH copies len(dst) bytes of device memory at src into dst.
func (d *Device) CopyDtoH(dst []byte, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return d.do(func() error {
		return driver.check("cuMemcpyDtoH_v2", callC(driver.cuMemcpyDtoH, uintptr(unsafe.Pointer(&dst[0])), uintptr(src), uintptr(len(dst))))
	})
}

// Memset sets bytes of device memory at dst to value.
func (d *Device) Memset(dst DevicePtr, value byte, bytes int) error {
	return d.do(func() error {
		return driver.check("cuMemsetD8_v2", callC(driver.cuMemsetD8, uintptr(dst), uintptr(value), uintptr(bytes)))
	})
}
