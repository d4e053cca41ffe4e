package nvrtc

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestArgPacker(t *testing.T) {
	for _, tc := range []struct {
		name string
		pack func(p *ArgPacker)
		want []byte
	}{
		{"empty", func(p *ArgPacker) {}, nil},
		{"i32", func(p *ArgPacker) { p.I32(-2) }, []byte{0xfe, 0xff, 0xff, 0xff}},
		{"ptr after i32 aligns to 8", func(p *ArgPacker) { p.I32(1); p.Ptr(0x1122334455667788) },
			[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}},
		{"i8 then f32", func(p *ArgPacker) { p.I8(-1); p.F32(1) },
			[]byte{0xff, 0, 0, 0, 0, 0, 0x80, 0x3f}},
		{"i8 then u16", func(p *ArgPacker) { p.I8(7); p.U16(0x3c00) }, []byte{7, 0, 0x00, 0x3c}},
		{"i16 then i64", func(p *ArgPacker) { p.I16(-1); p.I64(2) },
			[]byte{0xff, 0xff, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}},
		{"f64 after f32", func(p *ArgPacker) { p.F32(0); p.F64(1) },
			[]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
		{"u32 after ptr needs no pad", func(p *ArgPacker) { p.Ptr(1); p.U32(2) },
			[]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
		{"u64", func(p *ArgPacker) { p.U64(1<<63 | 1) }, []byte{1, 0, 0, 0, 0, 0, 0, 0x80}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p ArgPacker
			tc.pack(&p)
			assert.Equal(t, tc.want, []byte(p.Bytes()))
			assert.Equal(t, len(tc.want), p.Len())
			p.Reset()
			assert.Equal(t, 0, p.Len())
		})
	}
}

// TestArgPackerBlobOffsets: a by-value struct such as a CUtensorMap goes
// at its alignment, and Offsets gives where each argument starts, as the
// kernelParams array of LaunchParams points at them.
func TestArgPackerBlobOffsets(t *testing.T) {
	var p ArgPacker
	p.Ptr(1)
	p.I32(2)
	blob := make([]byte, TensorMapBytes)
	blob[0], blob[127] = 0xaa, 0xbb
	p.Blob(blob, 64)
	p.I32(3)
	assert.Equal(t, []int{0, 8, 64, 192}, p.Offsets())
	assert.Equal(t, 196, p.Len())
	assert.Equal(t, byte(0xaa), p.Bytes()[64])
	assert.Equal(t, byte(0xbb), p.Bytes()[191])
	p.Reset()
	assert.Empty(t, p.Offsets())
}

func TestArgPackerReuseDoesNotAllocate(t *testing.T) {
	var p ArgPacker
	fill := func() { p.Reset(); p.Ptr(1); p.Ptr(2); p.I32(3); p.F32(4) }
	fill()
	assert.Zero(t, testing.AllocsPerRun(100, fill))
}

// TestLaunchConfigLayout: the CUlaunchConfig written for cuLaunchKernelEx
// puts each field where cuda.h's struct has it (x86-64 and aarch64).
func TestLaunchConfigLayout(t *testing.T) {
	s := &slot{mem: make([]byte, slotBytes), base: 0x1000}
	s.launchConfig(slotConfig, [3]int{7, 8, 9}, [3]int{256, 1, 2}, 4096, 0xabc, 0xdef0, 1)
	u32 := func(off int) uint32 { return binary.LittleEndian.Uint32(s.mem[slotConfig+off:]) }
	assert.Equal(t, []uint32{7, 8, 9, 256, 1, 2, 4096}, []uint32{u32(0), u32(4), u32(8), u32(12), u32(16), u32(20), u32(24)})
	assert.Equal(t, uintptr(0xabc), s.word(slotConfig+32), "hStream")
	assert.Equal(t, uintptr(0xdef0), s.word(slotConfig+40), "attrs")
	assert.Equal(t, uint32(1), u32(48), "numAttrs")
	assert.Zero(t, slotConfig%8)
	assert.Zero(t, slotAttr%8)
}
