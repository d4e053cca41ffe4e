package nvrtc

// This file implements the scratch memory of driver calls on the hot path.
// Everything the driver reads or writes through a pointer during a launch
// (the extra array, the size it points at, the arguments, the word
// cuCtxGetCurrent fills) lives in memory mapped outside the Go heap, so no
// Go pointer reaches the driver and nothing needs pinning; the argument
// array of the call itself is kept in the slot too, so a launch allocates
// nothing.

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Offsets in a slot's mapped memory.
const (
	slotExtra = 0  // [5]uintptr: the extra array of cuLaunchKernel
	slotSize  = 40 // size_t: the parameter buffer's size
	slotCur   = 48 // CUcontext: written by cuCtxGetCurrent
	slotArgs  = 64 // the parameter buffer
	// A CUlaunchConfig and one CUlaunchAttribute, for cuLaunchKernelEx.
	slotConfig = (slotArgs + maxParamBytes + 7) / 8 * 8
	slotAttr   = slotConfig + launchConfigBytes
	// A CUtensorMap (64-byte aligned) and the arrays that describe it, for
	// cuTensorMapEncodeTiled.
	slotTMap  = (slotAttr + launchAttrBytes + 63) / 64 * 64
	slotTDims = slotTMap + TensorMapBytes // [5]uint64 sizes, then [4]uint64 strides, [5]uint32 box, [5]uint32 element strides
	// The kernelParams array of a launch through LaunchParams: a pointer
	// to each argument in the parameter buffer.
	slotParams = slotTDims + 5*8 + 4*8 + 5*4 + 5*4
	slotBytes  = slotParams + 8*maxKernelParams
)

// maxKernelParams bounds the arguments of a launch through LaunchParams.
const maxKernelParams = 1024

// slot is one caller's scratch memory, taken from slots for one call.
type slot struct {
	mem  []byte // mapped memory, slotBytes long
	base uintptr
	call [11]uintptr // the arguments of the SyscallN in flight
}

var slots = sync.Pool{New: func() any {
	mem, err := mapScratch(slotBytes)
	if err != nil {
		return err
	}
	s := &slot{mem: mem, base: uintptr(unsafe.Pointer(&mem[0]))}
	runtime.AddCleanup(s, unmapScratch, mem)
	return s
}}

// getSlot takes a slot from the pool; put it back with slots.Put.
func getSlot() (*slot, error) {
	v := slots.Get()
	if s, ok := v.(*slot); ok {
		return s, nil
	}
	return nil, fmt.Errorf("nvrtc: mapping launch scratch memory: %v", v)
}

func (s *slot) putWord(off int, v uintptr) {
	binary.LittleEndian.PutUint64(s.mem[off:], uint64(v))
}

func (s *slot) word(off int) uintptr {
	return uintptr(binary.LittleEndian.Uint64(s.mem[off:]))
}
