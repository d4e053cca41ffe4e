package nvrtc

// This file implements packing kernel arguments into the buffer that
// cuLaunchKernel reads through CU_LAUNCH_PARAM_BUFFER_POINTER.

import (
	"encoding/binary"
	"math"
)

// ArgPacker lays out kernel arguments as the kernel's parameter list: each
// argument at its natural alignment, little-endian. Reuse one packer (Reset)
// to keep launches free of allocation.
type ArgPacker struct {
	buf  []byte
	offs []int // where each argument starts
}

// Reset empties the packer, keeping its memory.
func (p *ArgPacker) Reset() { p.buf, p.offs = p.buf[:0], p.offs[:0] }

// Offsets returns where each argument starts in Bytes, in order (for
// Function.LaunchParams); valid until the next change to the packer.
func (p *ArgPacker) Offsets() []int { return p.offs }

// Bytes returns the packed arguments; they are valid until the next change
// to the packer.
func (p *ArgPacker) Bytes() []byte { return p.buf }

// Len returns the number of bytes packed so far.
func (p *ArgPacker) Len() int { return len(p.buf) }

// align pads the buffer to a multiple of n and grows it by size bytes,
// returning the new argument's bytes.
func (p *ArgPacker) align(n, size int) []byte {
	for len(p.buf)%n != 0 {
		p.buf = append(p.buf, 0)
	}
	start := len(p.buf)
	p.offs = append(p.offs, start)
	for range size {
		p.buf = append(p.buf, 0)
	}
	return p.buf[start:]
}

// I8 appends a signed char (also bool) argument.
func (p *ArgPacker) I8(v int8) { p.align(1, 1)[0] = byte(v) }

// I16 appends a short argument.
func (p *ArgPacker) I16(v int16) { binary.LittleEndian.PutUint16(p.align(2, 2), uint16(v)) }

// U16 appends an unsigned short argument, also the bits of a half or
// bfloat16 scalar.
func (p *ArgPacker) U16(v uint16) { binary.LittleEndian.PutUint16(p.align(2, 2), v) }

// I32 appends an int argument.
func (p *ArgPacker) I32(v int32) { binary.LittleEndian.PutUint32(p.align(4, 4), uint32(v)) }

// U32 appends an unsigned int argument.
func (p *ArgPacker) U32(v uint32) { binary.LittleEndian.PutUint32(p.align(4, 4), v) }

// I64 appends a long long argument.
func (p *ArgPacker) I64(v int64) { binary.LittleEndian.PutUint64(p.align(8, 8), uint64(v)) }

// U64 appends an unsigned long long argument.
func (p *ArgPacker) U64(v uint64) { binary.LittleEndian.PutUint64(p.align(8, 8), v) }

// F32 appends a float argument.
func (p *ArgPacker) F32(v float32) { p.U32(math.Float32bits(v)) }

// F64 appends a double argument.
func (p *ArgPacker) F64(v float64) { p.U64(math.Float64bits(v)) }

// Ptr appends a pointer argument.
func (p *ArgPacker) Ptr(v DevicePtr) { p.U64(uint64(v)) }

// Blob appends b at alignment n: a by-value struct parameter, such as a
// CUtensorMap (64-byte aligned).
func (p *ArgPacker) Blob(b []byte, n int) { copy(p.align(n, len(b)), b) }
