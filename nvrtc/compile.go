package nvrtc

// This file implements compiling CUDA C with NVRTC, to a cubin for one
// architecture or to PTX that the driver compiles for the device it runs on.

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
	// PTX compiles to PTX for Arch's virtual architecture (compute_80 for
	// sm_80) instead of to a cubin: code for a target older than the GPU
	// it runs on, which the driver compiles for the GPU when it loads it
	// (Device.LoadPTX). ptxas does not run, so Verbose has no effect.
	PTX bool
}

// Program is a compiled cubin, or PTX under CompileOptions.PTX, and NVRTC's
// log (with ptxas's report under Verbose, for a cubin).
type Program struct {
	Cubin []byte
	PTX   []byte // the PTX text, without a trailing NUL
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
		"--gpu-architecture=" + opt.gpuArchitecture(),
		"--std=c++17",
		"-default-device",
	}
	if opt.LineInfo {
		out = append(out, "-lineinfo")
	}
	if opt.Verbose && !opt.PTX {
		out = append(out, "--ptxas-options=-v")
	}
	return append(out, opt.Extra...)
}

// gpuArchitecture is NVRTC's --gpu-architecture: the real architecture
// (sm_80), which makes NVRTC run ptxas and produce a cubin, or under PTX
// its virtual one (compute_80), which stops at PTX.
func (opt CompileOptions) gpuArchitecture() string {
	if opt.PTX {
		return "compute_" + strings.TrimPrefix(opt.Arch, "sm_")
	}
	return opt.Arch
}

// output names what the compilation produces: "ptx" or "cubin".
func (opt CompileOptions) output() string {
	if opt.PTX {
		return "ptx"
	}
	return "cubin"
}

func (opt CompileOptions) name() string {
	if opt.Name == "" {
		return "kernel.cu"
	}
	return opt.Name
}

// Compile compiles src to a cubin for opt.Arch, or under opt.PTX to PTX for
// it. A source that NVRTC rejects gives a *CompileError holding the log.
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
	if opt.PTX {
		ptx, err := programOutput(n, prog, "PTX", n.nvrtcGetPTXSize, n.nvrtcGetPTX, opt.name())
		if err != nil {
			return nil, err
		}
		return &Program{PTX: []byte(strings.TrimRight(string(ptx), "\x00")), Log: log}, nil
	}
	cubin, err := programOutput(n, prog, "CUBIN", n.nvrtcGetCUBINSize, n.nvrtcGetCUBIN, opt.name())
	if err != nil {
		return nil, err
	}
	return &Program{Cubin: cubin, Log: log}, nil
}

// programOutput reads what prog compiled to through NVRTC's pair of
// functions nvrtcGet<what>Size and nvrtcGet<what>.
func programOutput(n *nvrtcAPI, prog uintptr, what string, getSize, get uintptr, name string) ([]byte, error) {
	var size uintptr
	if err := n.check("nvrtcGet"+what+"Size", callC(getSize, prog, uintptr(unsafe.Pointer(&size)))); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, fmt.Errorf("nvrtc: %s produced no %s", name, strings.ToLower(what))
	}
	out := make([]byte, size)
	if err := n.check("nvrtcGet"+what, callC(get, prog, uintptr(unsafe.Pointer(&out[0])))); err != nil {
		return nil, err
	}
	return out, nil
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
