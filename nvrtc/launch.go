package nvrtc

// This file implements kernel launches, the hot path of the package: no
// allocation, one thread lock, one context check and the launch itself.

import (
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
	var extra uintptr
	if len(args) > 0 {
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
	s.call = [11]uintptr{f.fn,
		uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		uintptr(sharedMem), stream.handle(), 0, extra}
	r, _, _ := purego.SyscallN(driver.cuLaunchKernel, s.call[:]...)
	if code := int(int32(r)); code != 0 {
		return fmt.Errorf("kernel %s: %w", f.name, driver.check("cuLaunchKernel", code))
	}
	return nil
}
