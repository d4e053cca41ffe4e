package interp

// This file implements the interpreter's fake address space and the
// element-wise reading and writing of tensors through it.

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// bufferShift places buffers 1 TiB apart.
const bufferShift = 40

// Base is the address the interpreter gives buffer i (0-based): the tensor
// arguments and Options.Buffers are numbered as Options.Buffers describes.
// Addresses are 1 TiB apart and 256-byte aligned; address 0 is null.
func Base(i int) uint64 { return uint64(i+1) << bufferShift }

// buffer is one tensor mapped into the address space. Atomics and
// volatile loads hold mu while they touch its bytes.
type buffer struct {
	t    *tensor.Tensor
	name string // the parameter it was passed as, or "buffer N"
	base uint64
	mu   sync.Mutex
}

// memory maps addresses to buffers.
type memory struct {
	bufs []*buffer
}

// add maps t (once, however often it is passed) and returns its buffer.
func (m *memory) add(t *tensor.Tensor, name string) *buffer {
	for _, b := range m.bufs {
		if b.t == t {
			return b
		}
	}
	b := &buffer{t: t, name: name, base: Base(len(m.bufs))}
	m.bufs = append(m.bufs, b)
	return b
}

// resolve finds the buffer nearest to addr and the byte offset of addr in
// it (negative below its start), or nil if addr is in no buffer's 1 TiB
// window.
func (m *memory) resolve(addr uint64) (*buffer, int64) {
	i := int((addr+1<<(bufferShift-1))>>bufferShift) - 1
	if i < 0 || i >= len(m.bufs) {
		return nil, 0
	}
	b := m.bufs[i]
	return b, int64(addr - b.base)
}

// access checks an access of size bytes at addr and returns the buffer and
// the byte offset, or a message saying what is wrong.
func (m *memory) access(addr uint64, size int) (*buffer, int, string) {
	b, off := m.resolve(addr)
	if b == nil {
		if addr == 0 {
			return nil, 0, "null pointer"
		}
		return nil, 0, fmt.Sprintf("address %#x points into no tensor", addr)
	}
	n := int64(len(b.t.Data))
	if off < 0 || off+int64(size) > n || off%int64(size) != 0 {
		elems := n / int64(size)
		what := "out of bounds"
		if off%int64(size) != 0 {
			what = fmt.Sprintf("misaligned (byte offset %d is not a multiple of %d)", off, size)
		}
		return nil, 0, fmt.Sprintf("%s: element %d of %s (%s of %s, valid indices 0..%d)",
			what, floorDiv(off, int64(size)), b.name, ir.Scalar(b.t.Kind).PyName(), diag.Count(elems, "element"), elems-1)
	}
	return b, int(off), ""
}

// window caches the last buffer an access resolved to, so that the lanes
// of a tile, which mostly fall in one buffer, skip the lookup.
type window struct {
	b      *buffer
	lo, hi uint64 // element addresses in [lo, hi] are in bounds
}

// access is memory.access through the cache.
func (w *window) access(m *memory, addr uint64, size int) (*buffer, int, string) {
	if w.b != nil && addr >= w.lo && addr <= w.hi && (addr-w.lo)&uint64(size-1) == 0 {
		return w.b, int(addr - w.lo), ""
	}
	b, off, msg := m.access(addr, size)
	if b != nil {
		w.b, w.lo, w.hi = b, b.base, b.base+uint64(len(b.t.Data)-size)
	}
	return b, off, msg
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// readBits reads the size-byte little-endian element at data[off:].
func readBits(data []byte, off, size int) uint64 {
	switch size {
	case 1:
		return uint64(data[off])
	case 2:
		return uint64(binary.LittleEndian.Uint16(data[off:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(data[off:]))
	}
	return binary.LittleEndian.Uint64(data[off:])
}

// writeBits writes the low size bytes of b at data[off:], little-endian.
func writeBits(data []byte, off, size int, b uint64) {
	switch size {
	case 1:
		data[off] = byte(b)
	case 2:
		binary.LittleEndian.PutUint16(data[off:], uint16(b))
	case 4:
		binary.LittleEndian.PutUint32(data[off:], uint32(b))
	default:
		binary.LittleEndian.PutUint64(data[off:], b)
	}
}
