package nvrtc

// This file implements loading libcuda and libnvrtc and binding their
// entry points.

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driverAPI holds the driver entry points the package calls.
type driverAPI struct {
	path string

	cuInit, cuDriverGetVersion, cuGetErrorName                                uintptr
	cuDeviceGet, cuDeviceGetCount, cuDeviceGetName, cuDeviceGetAttribute      uintptr
	cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease                       uintptr
	cuCtxGetCurrent, cuCtxSetCurrent, cuCtxSynchronize                        uintptr
	cuMemAlloc, cuMemFree, cuMemcpyHtoD, cuMemcpyDtoH, cuMemsetD8             uintptr
	cuModuleLoadData, cuModuleLoadDataEx, cuModuleUnload, cuModuleGetFunction uintptr
	cuFuncGetAttribute, cuFuncSetAttribute, cuLaunchKernel                    uintptr
	// cuLaunchKernelEx (CUDA 12+) is bound if the driver has it: only
	// programmatic dependent launches need it.
	cuLaunchKernelEx uintptr
	// cuTensorMapEncodeTiled (CUDA 12+) is bound if the driver has it: only
	// kernels that copy with the TMA unit need it.
	cuTensorMapEncodeTiled                                           uintptr
	cuEventCreate, cuEventDestroy, cuEventRecord, cuEventSynchronize uintptr
	cuEventElapsedTime                                               uintptr
	cuStreamCreate, cuStreamDestroy, cuStreamSynchronize             uintptr
}

// nvrtcAPI holds the NVRTC entry points the package calls.
type nvrtcAPI struct {
	path string

	nvrtcVersion, nvrtcGetErrorString                            uintptr
	nvrtcCreateProgram, nvrtcDestroyProgram, nvrtcCompileProgram uintptr
	nvrtcGetProgramLogSize, nvrtcGetProgramLog                   uintptr
	nvrtcGetCUBINSize, nvrtcGetCUBIN                             uintptr
	nvrtcGetPTXSize, nvrtcGetPTX                                 uintptr
}

var (
	driverOnce sync.Once
	driver     *driverAPI
	driverErr  error

	nvrtcOnce sync.Once
	nvrtcLib  *nvrtcAPI
	nvrtcErr  error
)

// Load opens libcuda.so.1 and libnvrtc and binds their entry points. It is
// safe to call many times and from many goroutines; the first call does the
// work and later calls return its result. The error wraps ErrNotFound when
// a library is missing and names what was tried.
func Load() error {
	return errors.Join(LoadDriver(), LoadNVRTC())
}

// LoadDriver opens the driver library (libcuda.so.1) and calls cuInit. It
// is enough for running cubins; compiling needs LoadNVRTC.
func LoadDriver() error {
	computeCacheOff()
	driverOnce.Do(func() { driver, driverErr = loadDriver() })
	return driverErr
}

// LoadNVRTC opens libnvrtc. It is enough for compiling; no GPU is needed.
func LoadNVRTC() error {
	computeCacheOff()
	nvrtcOnce.Do(func() { nvrtcLib, nvrtcErr = loadNVRTC(nvrtcCandidates(osSearchEnv())) })
	return nvrtcErr
}

// cacheOnce guards computeCacheOff.
var cacheOnce sync.Once

// computeCacheOff turns the CUDA compute cache off for this process, unless
// the user set CUDA_CACHE_DISABLE, before either library reads it. NVRTC
// serves a cubin that cache holds without running ptxas, so its log then
// lacks ptxas's resource report (--dump=resources read zeros); tri keeps
// its own cubin cache, with each cubin's log, instead.
func computeCacheOff() {
	cacheOnce.Do(func() {
		if _, set := os.LookupEnv("CUDA_CACHE_DISABLE"); !set {
			_ = os.Setenv("CUDA_CACHE_DISABLE", "1")
		}
	})
}

// Paths returns the files of the loaded driver and NVRTC libraries (empty
// for one that is not loaded), for `tri version` and bug reports.
func Paths() (driverPath, nvrtcPath string) {
	if LoadDriver() == nil {
		driverPath = driver.path
	}
	if LoadNVRTC() == nil {
		nvrtcPath = nvrtcLib.path
	}
	return driverPath, nvrtcPath
}

// openFirst opens the first library of candidates that the loader accepts.
func openFirst(candidates []string) (uintptr, string, []string) {
	var tried []string
	for _, c := range candidates {
		h, err := dlopen(c)
		if err == nil {
			return h, c, nil
		}
		msg := err.Error()
		if !strings.Contains(msg, c) {
			msg = c + ": " + msg
		}
		tried = append(tried, msg)
	}
	return 0, "", tried
}

func loadDriver() (*driverAPI, error) {
	h, path, tried := openFirst(driverCandidates())
	if h == 0 {
		return nil, notFound(fmt.Sprintf("no NVIDIA driver found (libcuda.so.1); tried:\n  %s", strings.Join(tried, "\n  ")))
	}
	d := &driverAPI{path: path}
	b := binder{h: h, lib: path}
	b.bind(&d.cuInit, "cuInit")
	b.bind(&d.cuDriverGetVersion, "cuDriverGetVersion")
	b.bind(&d.cuGetErrorName, "cuGetErrorName")
	b.bind(&d.cuDeviceGet, "cuDeviceGet")
	b.bind(&d.cuDeviceGetCount, "cuDeviceGetCount")
	b.bind(&d.cuDeviceGetName, "cuDeviceGetName")
	b.bind(&d.cuDeviceGetAttribute, "cuDeviceGetAttribute")
	b.bind(&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
	b.bind(&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
	b.bind(&d.cuCtxGetCurrent, "cuCtxGetCurrent")
	b.bind(&d.cuCtxSetCurrent, "cuCtxSetCurrent")
	b.bind(&d.cuCtxSynchronize, "cuCtxSynchronize")
	b.bind(&d.cuMemAlloc, "cuMemAlloc_v2")
	b.bind(&d.cuMemFree, "cuMemFree_v2")
	b.bind(&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2")
	b.bind(&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2")
	b.bind(&d.cuMemsetD8, "cuMemsetD8_v2")
	b.bind(&d.cuModuleLoadData, "cuModuleLoadData")
	b.bind(&d.cuModuleLoadDataEx, "cuModuleLoadDataEx")
	b.bind(&d.cuModuleUnload, "cuModuleUnload")
	b.bind(&d.cuModuleGetFunction, "cuModuleGetFunction")
	b.bind(&d.cuFuncGetAttribute, "cuFuncGetAttribute")
	b.bind(&d.cuFuncSetAttribute, "cuFuncSetAttribute")
	b.bind(&d.cuLaunchKernel, "cuLaunchKernel")
	if p, err := dlsym(h, "cuLaunchKernelEx"); err == nil {
		d.cuLaunchKernelEx = p
	}
	if p, err := dlsym(h, "cuTensorMapEncodeTiled"); err == nil {
		d.cuTensorMapEncodeTiled = p
	}
	b.bind(&d.cuStreamCreate, "cuStreamCreate")
	b.bind(&d.cuStreamDestroy, "cuStreamDestroy_v2")
	b.bind(&d.cuStreamSynchronize, "cuStreamSynchronize")
	b.bind(&d.cuEventCreate, "cuEventCreate")
	b.bind(&d.cuEventDestroy, "cuEventDestroy_v2")
	b.bind(&d.cuEventRecord, "cuEventRecord")
	b.bind(&d.cuEventSynchronize, "cuEventSynchronize")
	// CUDA 12.8 added a _v2 whose contract is the same for timing events.
	b.bind(&d.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")
	if b.err != nil {
		return nil, b.err
	}
	if err := d.check("cuInit", callC(d.cuInit, 0)); err != nil {
		if code := err.(*Error).Code; code == cudaErrorNoDevice {
			return nil, notFound(fmt.Sprintf("NVIDIA driver %s found but no GPU: %v", path, err))
		}
		return nil, fmt.Errorf("NVIDIA driver %s found but not usable: %w", path, err)
	}
	return d, nil
}

func loadNVRTC(candidates []string) (*nvrtcAPI, error) {
	h, path, tried := openFirst(candidates)
	if h == 0 {
		return nil, notFound(fmt.Sprintf("no NVRTC found (libnvrtc.so): set TRI_NVRTC to the library's path or CUDA_HOME to the toolkit; tried:\n  %s", strings.Join(tried, "\n  ")))
	}
	n := &nvrtcAPI{path: path}
	b := binder{h: h, lib: path}
	b.bind(&n.nvrtcVersion, "nvrtcVersion")
	b.bind(&n.nvrtcGetErrorString, "nvrtcGetErrorString")
	b.bind(&n.nvrtcCreateProgram, "nvrtcCreateProgram")
	b.bind(&n.nvrtcDestroyProgram, "nvrtcDestroyProgram")
	b.bind(&n.nvrtcCompileProgram, "nvrtcCompileProgram")
	b.bind(&n.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize")
	b.bind(&n.nvrtcGetProgramLog, "nvrtcGetProgramLog")
	b.bind(&n.nvrtcGetCUBINSize, "nvrtcGetCUBINSize")
	b.bind(&n.nvrtcGetCUBIN, "nvrtcGetCUBIN")
	b.bind(&n.nvrtcGetPTXSize, "nvrtcGetPTXSize")
	b.bind(&n.nvrtcGetPTX, "nvrtcGetPTX")
	if b.err != nil {
		return nil, b.err
	}
	return n, nil
}

// binder looks up symbols and keeps the first failure.
type binder struct {
	h   uintptr
	lib string
	err error
}

// bind stores the address of the first of names that the library exports.
func (b *binder) bind(dst *uintptr, names ...string) {
	for _, n := range names {
		if p, err := dlsym(b.h, n); err == nil && p != 0 {
			*dst = p
			return
		}
	}
	if b.err == nil {
		b.err = fmt.Errorf("%s has no symbol %s: too old a version?", b.lib, names[0])
	}
}

// callC calls a C function returning an int-sized result code. Arguments
// that are Go pointers converted to uintptr in the call expression stay
// alive and in place for the call.
//
//go:uintptrescapes
func callC(fn uintptr, args ...uintptr) int {
	r, _, _ := purego.SyscallN(fn, args...)
	return int(int32(r))
}

// check turns a CUresult into an error, named by the driver when it can.
func (d *driverAPI) check(fn string, code int) error {
	if code == 0 {
		return nil
	}
	name := cuResultName(code)
	if _, ok := cuResultNames[code]; !ok && d.cuGetErrorName != 0 {
		var p uintptr
		if callC(d.cuGetErrorName, uintptr(code), uintptr(unsafe.Pointer(&p))) == 0 && p != 0 {
			name = goString(p)
		}
	}
	return &Error{Func: fn, Code: code, Name: name}
}

// check turns an nvrtcResult into an error, named by NVRTC when it can.
func (n *nvrtcAPI) check(fn string, code int) error {
	if code == 0 {
		return nil
	}
	name := nvrtcResultName(code)
	if code >= len(nvrtcResultNames) {
		if r, _, _ := purego.SyscallN(n.nvrtcGetErrorString, uintptr(code)); r != 0 {
			name = goString(r)
		}
	}
	return &Error{Func: fn, Code: code, Name: name}
}
