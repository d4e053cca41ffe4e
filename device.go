package tri

// This file implements the GPU side of the API: streams, device buffers,
// and the run of a compiled kernel on them.

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// Stream is a queue of GPU work: kernels run on one stream in order,
// and kernels on different streams may overlap. A nil *Stream is the
// default stream, which every function taking a *Stream accepts.
type Stream struct {
	s *nvrtc.Stream
}

// NewStream creates a stream on the GPU (the first GPU of the machine);
// without one the error wraps ErrNoGPU.
func NewStream() (*Stream, error) {
	dev, err := gpu.Device()
	if err != nil {
		return nil, wrap(err)
	}
	s, err := dev.NewStream()
	if err != nil {
		return nil, wrap(err)
	}
	return &Stream{s: s}, nil
}

// Synchronize waits for the work queued on s (for nil, on the whole
// device) and returns the first error of it, such as a failed device
// assertion.
func (s *Stream) Synchronize() error {
	if s == nil {
		return wrap(gpu.Synchronize())
	}
	if s.s == nil {
		return badInput("Stream.Synchronize: a Stream not made by NewStream, or closed")
	}
	return wrap(s.s.Synchronize())
}

// Close destroys s once its work is done. Closing a closed stream does
// nothing.
func (s *Stream) Close() error {
	if s == nil || s.s == nil {
		return nil
	}
	err := s.s.Close()
	s.s = nil
	return wrap(err)
}

// nv is the runtime's stream: nil for the default stream.
func (s *Stream) nv() (*nvrtc.Stream, error) {
	if s == nil {
		return nil, nil
	}
	if s.s == nil {
		return nil, badInput("a Stream not made by NewStream, or closed")
	}
	return s.s, nil
}

// Buffer is an array in GPU memory, of one dtype. A kernel reads and
// writes it in place: a run with only buffers and numbers is queued on
// its stream without waiting, so that several runs follow one another on
// the device.
type Buffer struct {
	mu   sync.Mutex
	kind ir.Kind
	n    int
	ptr  nvrtc.DevicePtr
	dev  *nvrtc.Device
}

// NewBuffer allocates a buffer of the dtype and length of data, a slice
// of a type that Args lists, and copies data into it. Without a GPU the
// error wraps ErrNoGPU.
func NewBuffer(data any) (*Buffer, error) {
	d, ok := sliceData(data)
	if !ok {
		return nil, badInput("NewBuffer: want a slice of a type that Args lists, not %T", data)
	}
	dev, err := gpu.Device()
	if err != nil {
		return nil, wrap(err)
	}
	ptr, err := dev.Alloc(len(d.bytes))
	if err != nil {
		return nil, wrap(err)
	}
	if err := dev.CopyHtoD(ptr, d.bytes); err != nil {
		_ = dev.Free(ptr)
		return nil, wrap(err)
	}
	return &Buffer{kind: d.kind, n: d.shape[0], ptr: ptr, dev: dev}, nil
}

// Len is the number of elements.
func (b *Buffer) Len() int { return b.n }

// DType is the elements' dtype, as Triton names it ("fp32", "i32").
func (b *Buffer) DType() string {
	if b.dev == nil {
		return ""
	}
	return b.kind.String()
}

// Ptr is the device address, for CUDA code outside tri (0 once freed).
func (b *Buffer) Ptr() uintptr {
	b.mu.Lock()
	defer b.mu.Unlock()
	return uintptr(b.ptr)
}

// CopyFrom copies src, a slice of the buffer's dtype and length, into the
// buffer, after the work queued on every stream has finished.
func (b *Buffer) CopyFrom(src any) error {
	d, err := b.match("CopyFrom", src)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.dev.Synchronize(); err != nil {
		return wrap(err)
	}
	return wrap(b.dev.CopyHtoD(b.ptr, d.bytes))
}

// CopyTo copies the buffer into dst, a slice of its dtype and length,
// after the work queued on every stream has finished (the kernels that
// write the buffer).
func (b *Buffer) CopyTo(dst any) error {
	d, err := b.match("CopyTo", dst)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.dev.Synchronize(); err != nil {
		return wrap(err)
	}
	return wrap(b.dev.CopyDtoH(d.bytes, b.ptr))
}

// Free releases the device memory once the queued work has finished.
// Freeing a freed buffer does nothing.
func (b *Buffer) Free() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dev == nil || b.ptr == 0 {
		return nil
	}
	err := b.dev.Synchronize()
	if err == nil {
		err = b.dev.Free(b.ptr)
	}
	b.ptr = 0
	return wrap(err)
}

// live reports a buffer that cannot be used: not made by NewBuffer, or
// freed.
func (b *Buffer) live() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dev == nil {
		return errors.New("a Buffer not made by NewBuffer")
	}
	if b.ptr == 0 {
		return errors.New("a freed Buffer")
	}
	return nil
}

// match checks a slice given to CopyFrom or CopyTo against the buffer.
func (b *Buffer) match(method string, v any) (data, error) {
	if err := b.live(); err != nil {
		return data{}, badInput("Buffer.%s: %v", method, err)
	}
	d, ok := sliceData(v)
	switch {
	case !ok:
		return data{}, badInput("Buffer.%s: want a slice, not %T", method, v)
	case d.kind != b.kind || d.shape[0] != b.n:
		return data{}, badInput("Buffer.%s: the buffer holds %d x %s, the slice %d x %s", method, b.n, b.kind, d.shape[0], d.kind)
	}
	return d, nil
}

// runGPU runs k over grid on stream s with args, compiled once per
// Kernel. Slices are copied to the device and back around the run, which
// then waits for the stream; with only buffers and numbers the launch is
// queued and runGPU returns at once.
func (k *Kernel) runGPU(s *Stream, grid [3]int, pdl bool, args []arg) (err error) {
	stream, err := s.nv()
	if err != nil {
		return err
	}
	c, err := k.compiled()
	if err != nil {
		return err
	}
	dev, err := gpu.Device()
	if err != nil {
		return wrap(err)
	}
	type copied struct {
		ptr   nvrtc.DevicePtr
		bytes []byte
	}
	var copies []copied
	defer func() {
		for _, c := range copies {
			_ = dev.Free(c.ptr)
		}
	}()
	type sliceKey struct {
		base *byte
		n    int
	}
	placed := map[sliceKey]nvrtc.DevicePtr{}
	gargs := make([]gpu.Arg, len(args))
	for i, a := range args {
		switch {
		case a.data == nil:
			gargs[i] = gpu.Arg{Int: a.scalar.Int, Float: a.scalar.Float}
		case a.data.buf != nil:
			if gargs[i].Ptr = nvrtc.DevicePtr(a.data.buf.Ptr()); gargs[i].Ptr == 0 {
				return badInput("%s: parameter %s: a freed Buffer", k.Name(), k.ir.Params[i].Name)
			}
		default:
			// One slice given for two parameters (x in place) is one
			// device copy, as it is one array in Go.
			key := sliceKey{unsafe.SliceData(a.data.bytes), len(a.data.bytes)}
			if ptr, ok := placed[key]; ok {
				gargs[i].Ptr = ptr
				continue
			}
			ptr, err := dev.Alloc(len(a.data.bytes))
			if err != nil {
				return wrap(err)
			}
			copies = append(copies, copied{ptr, a.data.bytes})
			if err := dev.CopyHtoD(ptr, a.data.bytes); err != nil {
				return wrap(err)
			}
			placed[key], gargs[i].Ptr = ptr, ptr
		}
	}
	if len(copies) > 0 {
		// A copy from Go memory may still be in flight on the default
		// stream when it returns, and a stream made by NewStream does not
		// wait for the default stream.
		if err := dev.Synchronize(); err != nil {
			return wrap(err)
		}
	}
	if err := c.LaunchEx(stream, grid, pdl, gargs...); err != nil {
		return wrap(err)
	}
	if len(copies) == 0 {
		return nil
	}
	if stream != nil {
		err = stream.Synchronize()
	} else {
		err = dev.Synchronize()
	}
	gpu.FlushOutput()
	if err != nil {
		return wrap(fmt.Errorf("running %s on the GPU: %w", k.Name(), gpu.AssertionError(k.ir, err)))
	}
	for _, c := range copies {
		if err := dev.CopyDtoH(c.bytes, c.ptr); err != nil {
			return wrap(err)
		}
	}
	return nil
}
