package nvrtc

// This file implements compiling CUDA C to a cubin with NVRTC.

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// CompileOptions are the NVRTC settings of one compilation.
type CompileOptions struct {
	Arch     string   // target, e.g. "sm_90"; required
	LineInfo bool     // -lineinfo: line tables for profilers and debuggers
	Verbose  bool     // --ptxas-options=-v: registers and spills in the log
	Name     string   // the program's file name, shown in the log; default "kernel.cu"
	Extra    []string // more NVRTC options, passed as given
}

// Program is a compiled cubin and NVRTC's log (with ptxas's report under
// Verbose).
type Program struct {
	Cubin []byte
	Log   string
}

// Version returns NVRTC's version.
func Version() (major, minor int, err error) {
	if err := LoadNVRTC(); err != nil {
		return 0, 0, err
	}
	var ma, mi int32
	code := callC(nvrtcLib.nvrtcVersion, uintptr(unsafe.Pointer(&ma)), uintptr(unsafe.Pointer(&mi)))
	if err := nvrtcLib.check("nvrtcVersion", code); err != nil {
		return 0, 0, err
	}
	return int(ma), int(mi), nil
}

// Options returns the NVRTC command line for opt, in a stable order (it is
// part of the cache key).
func (opt CompileOptions) Options() []string {
	out := []string{
		"--gpu-architecture=" + opt.Arch,
		"--std=c++17",
		"-default-device",
	}
	if opt.LineInfo {
		out = append(out, "-lineinfo")
	}
	if opt.Verbose {
		out = append(out, "--ptxas-options=-v")
	}
	return append(out, opt.Extra...)
}

func (opt CompileOptions) name() string {
	if opt.Name == "" {
		return "kernel.cu"
	}
	return opt.Name
}

// Compile compiles src to a cubin for opt.Arch. A source that NVRTC rejects
// gives a *CompileError holding the log.
func Compile(src string, opt CompileOptions) (*Program, error) {
	if err := LoadNVRTC(); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(opt.Arch, "sm_") {
		return nil, fmt.Errorf("nvrtc: architecture %q is not of the form sm_XY", opt.Arch)
	}
	n := nvrtcLib
	csrc, cname := cString(src), cString(opt.name())
	var prog uintptr
	code := callC(n.nvrtcCreateProgram, uintptr(unsafe.Pointer(&prog)),
		uintptr(unsafe.Pointer(&csrc[0])), uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0)
	if err := n.check("nvrtcCreateProgram", code); err != nil {
		return nil, err
	}
	defer func() { callC(n.nvrtcDestroyProgram, uintptr(unsafe.Pointer(&prog))) }()

	// The option array holds pointers to Go memory, so both are pinned.
	opts := opt.Options()
	cargs := make([][]byte, len(opts))
	ptrs := make([]uintptr, len(opts))
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, o := range opts {
		cargs[i] = cString(o)
		pin.Pin(&cargs[i][0])
		ptrs[i] = uintptr(unsafe.Pointer(&cargs[i][0]))
	}
	var ptrArg uintptr
	if len(ptrs) > 0 {
		pin.Pin(&ptrs[0])
		ptrArg = uintptr(unsafe.Pointer(&ptrs[0]))
	}
	compileErr := n.check("nvrtcCompileProgram", callC(n.nvrtcCompileProgram, prog, uintptr(len(ptrs)), ptrArg))
	log, err := programLog(n, prog)
	if err != nil {
		return nil, err
	}
	if compileErr != nil {
		return nil, &CompileError{Name: opt.name(), Log: log, Err: compileErr}
	}
	var size uintptr
	if err := n.check("nvrtcGetCUBINSize", callC(n.nvrtcGetCUBINSize, prog, uintptr(unsafe.Pointer(&size)))); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, fmt.Errorf("nvrtc: %s produced no cubin", opt.name())
	}
	cubin := make([]byte, size)
	if err := n.check("nvrtcGetCUBIN", callC(n.nvrtcGetCUBIN, prog, uintptr(unsafe.Pointer(&cubin[0])))); err != nil {
		return nil, err
	}
	return &Program{Cubin: cubin, Log: log}, nil
}

// programLog reads NVRTC's log of prog without the trailing NUL.
func programLog(n *nvrtcAPI, prog uintptr) (string, error) {
	var size uintptr
	if err := n.check("nvrtcGetProgramLogSize", callC(n.nvrtcGetProgramLogSize, prog, uintptr(unsafe.Pointer(&size)))); err != nil {
		return "", err
	}
	if size <= 1 {
		return "", nil
	}
	buf := make([]byte, size)
	if err := n.check("nvrtcGetProgramLog", callC(n.nvrtcGetProgramLog, prog, uintptr(unsafe.Pointer(&buf[0])))); err != nil {
		return "", err
	}
	return strings.TrimRight(string(buf), "\x00"), nil
}
