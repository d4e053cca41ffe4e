package nvrtc

// This file implements loading PTX, which the driver compiles for the
// device as it loads it (its "JIT"): how code for a target older than the
// GPU runs there, sm_80 code on an sm_90 GPU for instance, whose sm_80
// cubin the GPU could not run.

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// The CUjit_option values of cuModuleLoadDataEx that LoadPTX passes.
const (
	jitMaxRegisters        = 0
	jitInfoLogBuffer       = 3
	jitInfoLogBufferBytes  = 4
	jitErrorLogBuffer      = 5
	jitErrorLogBufferBytes = 6
	jitLogVerbose          = 12
	jitGenerateLineInfo    = 13
)

// jitLogBytes is the size of each of the JIT's two log buffers; a longer
// log is cut there, by the driver.
const jitLogBytes = 16 << 10

// cudaErrorUnsupportedPTXVersion is CUDA_ERROR_UNSUPPORTED_PTX_VERSION.
const cudaErrorUnsupportedPTXVersion = 222

// JITOptions are the settings of the driver's compilation of PTX, those
// that NVRTC would pass to ptxas for a cubin.
type JITOptions struct {
	MaxRegisters int  // registers per thread at most (--maxrregcount); 0: no limit
	LineInfo     bool // keep the PTX's line tables in the code (-lineinfo)
}

// args lays out o as cuModuleLoadDataEx's two arrays: the CUjit_option
// keys (C ints) and their values, one pointer-sized word each (a number is
// passed in the word itself). The logs go to the buffers at info and errs,
// of the given sizes; ptxas's verbose report (registers, spills) goes to
// the info log.
func (o JITOptions) args(info uintptr, infoBytes int, errs uintptr, errBytes int) ([]int32, []uintptr) {
	keys := []int32{jitInfoLogBuffer, jitInfoLogBufferBytes, jitErrorLogBuffer, jitErrorLogBufferBytes, jitLogVerbose}
	vals := []uintptr{info, uintptr(infoBytes), errs, uintptr(errBytes), 1}
	if o.MaxRegisters > 0 {
		keys, vals = append(keys, jitMaxRegisters), append(vals, uintptr(o.MaxRegisters))
	}
	if o.LineInfo {
		keys, vals = append(keys, jitGenerateLineInfo), append(vals, 1)
	}
	return keys, vals
}

// JITError is PTX that the driver could not compile for the device; Log
// holds the compiler's error log.
type JITError struct {
	Log  string
	Err  error  // the failing driver call
	Hint string // what to do about it, where known
}

// Error prints the failing call, the hint and the log.
func (e *JITError) Error() string {
	msg := fmt.Sprintf("the driver's PTX JIT could not compile the kernel for this GPU: %v", e.Err)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	if e.Log != "" {
		msg += "\n" + e.Log
	}
	return msg
}

// Unwrap returns the failing driver call's error.
func (e *JITError) Unwrap() error { return e.Err }

// LoadPTX loads PTX (from Compile with CompileOptions.PTX, or the cache) on
// the device: the driver compiles it for the device's own architecture
// first. It returns the JIT's log, which holds ptxas's report of registers
// and spills as a cubin's NVRTC log does under Verbose.
func (d *Device) LoadPTX(ptx []byte, o JITOptions) (*Module, string, error) {
	if len(bytes.TrimRight(ptx, "\x00")) == 0 {
		return nil, "", fmt.Errorf("nvrtc: loading empty PTX")
	}
	img := cString(string(bytes.TrimRight(ptx, "\x00")))
	info, errs := make([]byte, jitLogBytes), make([]byte, jitLogBytes)
	// The arrays hold addresses of Go memory, so everything is pinned.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&img[0])
	pin.Pin(&info[0])
	pin.Pin(&errs[0])
	keys, vals := o.args(uintptr(unsafe.Pointer(&info[0])), len(info), uintptr(unsafe.Pointer(&errs[0])), len(errs))
	pin.Pin(&keys[0])
	pin.Pin(&vals[0])
	m := &Module{dev: d}
	err := d.do(func() error {
		return driver.check("cuModuleLoadDataEx", callC(driver.cuModuleLoadDataEx, uintptr(unsafe.Pointer(&m.mod)),
			uintptr(unsafe.Pointer(&img[0])), uintptr(len(keys)), uintptr(unsafe.Pointer(&keys[0])), uintptr(unsafe.Pointer(&vals[0]))))
	})
	log := cBuffer(info)
	if err != nil {
		return nil, log, &JITError{Log: cBuffer(errs), Err: err, Hint: jitHint(err)}
	}
	return m, log, nil
}

// jitHint says what to do about a failed JIT: PTX of a newer version than
// the driver reads comes from an NVRTC newer than the driver.
func jitHint(err error) string {
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != cudaErrorUnsupportedPTXVersion {
		return ""
	}
	drv, _ := DriverVersion()
	major, minor, _ := Version()
	return fmt.Sprintf("NVRTC %d.%d writes PTX newer than driver %d.%d reads: update the driver, or point TRI_NVRTC at an NVRTC no newer than it",
		major, minor, drv/1000, drv%1000/10)
}

// cBuffer is the NUL-terminated text at the start of b.
func cBuffer(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimRight(b, "\n"))
}
