package nvrtc

// This file implements CUDA events, used to time kernels on the GPU.

import (
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Event is a CUDA event on the default stream.
type Event struct {
	dev *Device
	ev  uintptr
}

// NewEvent creates an event that records timing.
func (d *Device) NewEvent() (*Event, error) {
	e := &Event{dev: d}
	err := d.do(func() error {
		return driver.check("cuEventCreate", callC(driver.cuEventCreate, uintptr(unsafe.Pointer(&e.ev)), 0))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record queues the event on the default stream. It allocates nothing, so
// it may sit in timing loops.
func (e *Event) Record() error {
	s, err := getSlot()
	if err != nil {
		return err
	}
	defer slots.Put(s)
	defer runtime.UnlockOSThread()
	if err := e.dev.enter(s); err != nil {
		return err
	}
	s.call = [11]uintptr{e.ev, 0}
	r, _, _ := purego.SyscallN(driver.cuEventRecord, s.call[:2]...)
	return driver.check("cuEventRecord", int(int32(r)))
}

// Synchronize waits until the event has happened.
func (e *Event) Synchronize() error {
	return e.dev.do(func() error {
		return driver.check("cuEventSynchronize", callC(driver.cuEventSynchronize, e.ev))
	})
}

// ElapsedMs returns the milliseconds between start and e, both recorded
// and finished (call e.Synchronize first).
func (e *Event) ElapsedMs(start *Event) (float64, error) {
	var ms float32
	err := e.dev.do(func() error {
		return driver.check("cuEventElapsedTime", callC(driver.cuEventElapsedTime, uintptr(unsafe.Pointer(&ms)), start.ev, e.ev))
	})
	return float64(ms), err
}

// Destroy frees the event.
func (e *Event) Destroy() error {
	return e.dev.do(func() error {
		return driver.check("cuEventDestroy_v2", callC(driver.cuEventDestroy, e.ev))
	})
}
