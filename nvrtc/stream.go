package nvrtc

// This file implements CUDA streams: queues of work that run independently
// of each other, so that several goroutines can each keep the GPU busy.

import (
	"fmt"
	"unsafe"
)

// cuStreamNonBlocking makes a stream that does not wait for the default
// stream (CU_STREAM_NON_BLOCKING).
const cuStreamNonBlocking = 1

// Stream is a queue of launches on one device.
type Stream struct {
	dev *Device
	h   uintptr
}

// NewStream creates a stream that does not synchronize with the default
// stream.
func (d *Device) NewStream() (*Stream, error) {
	s := &Stream{dev: d}
	err := d.do(func() error {
		return driver.check("cuStreamCreate", callC(driver.cuStreamCreate, uintptr(unsafe.Pointer(&s.h)), cuStreamNonBlocking))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// handle is the driver's handle of s; 0 (the default stream) for nil.
func (s *Stream) handle() uintptr {
	if s == nil {
		return 0
	}
	return s.h
}

// Synchronize waits for the work queued on s and reports any error of it.
func (s *Stream) Synchronize() error {
	if s.h == 0 {
		return fmt.Errorf("nvrtc: stream is closed")
	}
	return s.dev.do(func() error {
		return driver.check("cuStreamSynchronize", callC(driver.cuStreamSynchronize, s.h))
	})
}

// Close destroys the stream once its work is done.
func (s *Stream) Close() error {
	if s.h == 0 {
		return nil
	}
	h := s.h
	s.h = 0
	return s.dev.do(func() error {
		return driver.check("cuStreamDestroy_v2", callC(driver.cuStreamDestroy, h))
	})
}
