package nvrtc

// This file implements modules (loaded cubins) and their functions.

import (
	"fmt"
	"unsafe"
)

// Function attributes of cuFuncGetAttribute and cuFuncSetAttribute.
const (
	funcAttrMaxThreadsPerBlock  = 0
	funcAttrSharedSizeBytes     = 1
	funcAttrLocalSizeBytes      = 3
	funcAttrNumRegs             = 4
	funcAttrMaxDynamicSharedMem = 8
)

// Module is a cubin loaded on a device.
type Module struct {
	dev *Device
	mod uintptr
}

// Function is a kernel of a module.
type Function struct {
	dev  *Device
	fn   uintptr
	name string
}

// LoadModule loads a cubin (from Compile or the cache) on the device.
func (d *Device) LoadModule(cubin []byte) (*Module, error) {
	if len(cubin) == 0 {
		return nil, fmt.Errorf("nvrtc: loading an empty cubin")
	}
	m := &Module{dev: d}
	err := d.do(func() error {
		return driver.check("cuModuleLoadData", callC(driver.cuModuleLoadData, uintptr(unsafe.Pointer(&m.mod)), uintptr(unsafe.Pointer(&cubin[0]))))
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unload unloads the module; its functions must not be launched
// afterwards.
func (m *Module) Unload() error {
	return m.dev.do(func() error {
		return driver.check("cuModuleUnload", callC(driver.cuModuleUnload, m.mod))
	})
}

// Function returns the kernel with the given (extern "C") name.
func (m *Module) Function(name string) (*Function, error) {
	f := &Function{dev: m.dev, name: name}
	cname := cString(name)
	err := m.dev.do(func() error {
		code := callC(driver.cuModuleGetFunction, uintptr(unsafe.Pointer(&f.fn)), m.mod, uintptr(unsafe.Pointer(&cname[0])))
		if err := driver.check("cuModuleGetFunction", code); err != nil {
			return fmt.Errorf("kernel %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Name returns the kernel's name.
func (f *Function) Name() string { return f.name }

// Attributes returns the kernel's registers per thread, local memory per
// thread (spills and stack), static shared memory and the largest block it
// can be launched with.
func (f *Function) Attributes() (regs, localBytes, sharedBytes, maxThreads int, err error) {
	err = f.dev.do(func() error {
		for _, a := range []struct {
			attr int
			dst  *int
		}{
			{funcAttrNumRegs, &regs},
			{funcAttrLocalSizeBytes, &localBytes},
			{funcAttrSharedSizeBytes, &sharedBytes},
			{funcAttrMaxThreadsPerBlock, &maxThreads},
		} {
			var v int32
			if err := driver.check("cuFuncGetAttribute", callC(driver.cuFuncGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a.attr), f.fn)); err != nil {
				return err
			}
			*a.dst = int(v)
		}
		return nil
	})
	return regs, localBytes, sharedBytes, maxThreads, err
}

// SetMaxDynamicSharedMemory allows launches with up to bytes of dynamic
// shared memory; above 48 KiB the driver requires it.
func (f *Function) SetMaxDynamicSharedMemory(bytes int) error {
	return f.dev.do(func() error {
		return driver.check("cuFuncSetAttribute", callC(driver.cuFuncSetAttribute, f.fn, funcAttrMaxDynamicSharedMem, uintptr(bytes)))
	})
}
