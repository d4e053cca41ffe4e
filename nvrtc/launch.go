package nvrtc

// This file implements kernel launches, the hot path of the package: no
// allocation, one thread lock, one context check and the launch itself.

import (
	"encoding/binary"
	"fmt"
	"runtime"

	"github.com/ebitengine/purego"
)

// Values of the extra array of cuLaunchKernel.
const (
	launchParamEnd           = 0
	launchParamBufferPointer = 1
	launchParamBufferSize    = 2
)

// maxParamBytes is the largest parameter buffer the driver accepts
// (Volta and later with CUDA 12.1 or newer).
const maxParamBytes = 32764

// Launch starts the kernel on the default stream with a grid of blocks, a
// block of threads, sharedMem bytes of dynamic shared memory and the
// arguments packed by an ArgPacker. It returns when the launch is queued;
// errors of the kernel itself show at the next Synchronize.
func (f *Function) Launch(grid, block [3]int, sharedMem int, args []byte) error {
	return f.LaunchOn(nil, grid, block, sharedMem, args)
}

// LaunchOn is Launch on stream (nil: the default stream). Launches on
// different streams may run at the same time.
func (f *Function) LaunchOn(stream *Stream, grid, block [3]int, sharedMem int, args []byte) error {
	return f.LaunchEx(stream, grid, block, sharedMem, args, false)
}

// Sizes and values of the driver's launch configuration (cuda.h, CUDA 12
// and 13): CUlaunchConfig is seven unsigned ints, a stream, a pointer to
// the attributes and their count (56 bytes with padding); a
// CUlaunchAttribute is its id, padded to 8 bytes, and a 64-byte union.
const (
	launchConfigBytes = 56
	launchAttrBytes   = 72
	// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: the launch may
	// start before the previous kernel in the stream has finished, once
	// that kernel's programs have all run griddepcontrol.launch_dependents
	// or exited; the launched kernel's griddepcontrol.wait waits for the
	// rest.
	launchAttrProgrammaticSerialization = 6
)

// launchConfig writes, at off in s, the CUlaunchConfig of a launch whose
// attribute array is at attr (attrs of them).
func (s *slot) launchConfig(off int, grid, block [3]int, sharedMem int, stream uintptr, attr uintptr, attrs int) {
	for i := range 3 {
		binary.LittleEndian.PutUint32(s.mem[off+4*i:], uint32(grid[i]))
		binary.LittleEndian.PutUint32(s.mem[off+12+4*i:], uint32(block[i]))
	}
	binary.LittleEndian.PutUint32(s.mem[off+24:], uint32(sharedMem))
	s.putWord(off+32, stream)
	s.putWord(off+40, attr)
	binary.LittleEndian.PutUint32(s.mem[off+48:], uint32(attrs))
}

// LaunchEx is LaunchOn, and with pdl a programmatic dependent launch
// (Triton's launch_pdl=True): through cuLaunchKernelEx with the
// programmatic stream serialization attribute, so the kernel may start
// while the one before it in the stream is still running, and must order
// itself with griddepcontrol.wait (tl.extra.cuda.gdc_wait).
func (f *Function) LaunchEx(stream *Stream, grid, block [3]int, sharedMem int, args []byte, pdl bool) error {
	return f.launch(stream, grid, block, sharedMem, args, nil, pdl)
}

// LaunchParams is LaunchEx with the arguments passed as the driver's
// kernelParams array (a pointer to each, at offsets in args) rather than
// as one buffer: the driver takes __grid_constant__ parameters aligned to
// more than 8 bytes, such as a CUtensorMap, only so (it answers
// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES to the same bytes in a buffer).
func (f *Function) LaunchParams(stream *Stream, grid, block [3]int, sharedMem int, args []byte, offsets []int, pdl bool) error {
	if len(offsets) > maxKernelParams {
		return fmt.Errorf("nvrtc: launching %s: %d arguments, the most is %d", f.name, len(offsets), maxKernelParams)
	}
	if offsets == nil {
		offsets = []int{}
	}
	return f.launch(stream, grid, block, sharedMem, args, offsets, pdl)
}

// launch is LaunchEx, and LaunchParams where offsets is not nil.
func (f *Function) launch(stream *Stream, grid, block [3]int, sharedMem int, args []byte, offsets []int, pdl bool) error {
	if pdl && driver.cuLaunchKernelEx == 0 {
		return fmt.Errorf("nvrtc: launching %s with launch_pdl=True: the NVIDIA driver has no cuLaunchKernelEx (it needs CUDA 12 or newer)", f.name)
	}
	for i := range 3 {
		if grid[i] < 1 || block[i] < 1 {
			return fmt.Errorf("nvrtc: launching %s with grid %v and block %v: every dimension must be at least 1", f.name, grid, block)
		}
	}
	if len(args) > maxParamBytes {
		return fmt.Errorf("nvrtc: launching %s: %d bytes of arguments, the most is %d", f.name, len(args), maxParamBytes)
	}
	s, err := getSlot()
	if err != nil {
		return err
	}
	defer slots.Put(s)
	var extra, params uintptr
	switch {
	case offsets != nil:
		copy(s.mem[slotArgs:], args)
		for i, off := range offsets {
			s.putWord(slotParams+8*i, s.base+slotArgs+uintptr(off))
		}
		params = s.base + slotParams
	case len(args) > 0:
		copy(s.mem[slotArgs:], args)
		s.putWord(slotSize, uintptr(len(args)))
		s.putWord(slotExtra, launchParamBufferPointer)
		s.putWord(slotExtra+8, s.base+slotArgs)
		s.putWord(slotExtra+16, launchParamBufferSize)
		s.putWord(slotExtra+24, s.base+slotSize)
		s.putWord(slotExtra+32, launchParamEnd)
		extra = s.base + slotExtra
	}
	defer runtime.UnlockOSThread()
	if err := f.dev.enter(s); err != nil {
		return err
	}
	if pdl {
		clear(s.mem[slotAttr : slotAttr+launchAttrBytes])
		binary.LittleEndian.PutUint32(s.mem[slotAttr:], launchAttrProgrammaticSerialization)
		binary.LittleEndian.PutUint32(s.mem[slotAttr+8:], 1)
		s.launchConfig(slotConfig, grid, block, sharedMem, stream.handle(), s.base+slotAttr, 1)
		r, _, _ := purego.SyscallN(driver.cuLaunchKernelEx, s.base+slotConfig, f.fn, params, extra)
		if code := int(int32(r)); code != 0 {
			return fmt.Errorf("kernel %s: %w", f.name, driver.check("cuLaunchKernelEx", code))
		}
		return nil
	}
	s.call = [11]uintptr{f.fn,
		uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		uintptr(sharedMem), stream.handle(), params, extra}
	r, _, _ := purego.SyscallN(driver.cuLaunchKernel, s.call[:]...)
	if code := int(int32(r)); code != 0 {
		return fmt.Errorf("kernel %s: %w", f.name, driver.check("cuLaunchKernel", code))
	}
	return nil
}
