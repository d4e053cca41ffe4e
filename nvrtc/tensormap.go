package nvrtc

// This file implements the tensor maps of the TMA unit (Hopper's
// cp.async.bulk.tensor): CUtensorMap objects made on the host by the
// driver's cuTensorMapEncodeTiled and passed to kernels by value.

import (
	"encoding/binary"
	"fmt"
	"runtime"

	"github.com/ebitengine/purego"
)

// TensorMapBytes is the size of a CUtensorMap; kernels take it as a
// 64-byte aligned parameter.
const TensorMapBytes = 128

// Values of the driver's tensor map enums (cuda.h, CUDA 12 and 13).
const (
	tmapUint8        = 0 // CU_TENSOR_MAP_DATA_TYPE_UINT8
	tmapUint16       = 1
	tmapUint32       = 2
	tmapUint64       = 4
	tmapInterleave0  = 0 // CU_TENSOR_MAP_INTERLEAVE_NONE
	tmapL2Promote128 = 2 // CU_TENSOR_MAP_L2_PROMOTION_L2_128B
	tmapOOBZero      = 0 // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: out-of-bounds elements read as zero
)

// TensorMap describes a tiled tensor map: a row-major tensor of Rank
// dimensions at Base, of ElemBytes-byte elements, copied in boxes of Box
// elements, with the shared-memory rows Swizzle bytes wide XOR-swizzled
// (32, 64 or 128; 0: none). Dims, Strides and Box list the dimensions
// outermost first, as Triton's descriptors do; Strides are in elements,
// the last one 1.
type TensorMap struct {
	Base      DevicePtr
	ElemBytes int
	Dims      []int64
	Strides   []int64
	Box       []int
	Swizzle   int
}

// HasTensorMaps reports whether the driver can encode tensor maps
// (cuTensorMapEncodeTiled, CUDA 12 or newer).
func HasTensorMaps() bool { return driver != nil && driver.cuTensorMapEncodeTiled != 0 }

// EncodeTensorMap writes the CUtensorMap of m, a tensor on device d, into
// out. The driver encodes it with d's context current on the calling
// thread (without one it answers CUDA_ERROR_INVALID_CONTEXT, which a
// goroutine on a thread the context was never made current on would get).
func (d *Device) EncodeTensorMap(m TensorMap, out *[TensorMapBytes]byte) error {
	if err := LoadDriver(); err != nil {
		return err
	}
	if driver.cuTensorMapEncodeTiled == 0 {
		return fmt.Errorf("nvrtc: the NVIDIA driver has no cuTensorMapEncodeTiled (it needs CUDA 12 or newer)")
	}
	rank := len(m.Dims)
	if rank < 1 || rank > 5 || len(m.Strides) != rank || len(m.Box) != rank {
		return fmt.Errorf("nvrtc: a tensor map of rank %d with %d strides and a box of rank %d", rank, len(m.Strides), len(m.Box))
	}
	var dtype uintptr
	switch m.ElemBytes {
	case 1:
		dtype = tmapUint8
	case 2:
		dtype = tmapUint16
	case 4:
		dtype = tmapUint32
	case 8:
		dtype = tmapUint64
	default:
		return fmt.Errorf("nvrtc: a tensor map of %d-byte elements", m.ElemBytes)
	}
	swizzle := map[int]uintptr{0: 0, 32: 1, 64: 2, 128: 3}
	sw, ok := swizzle[m.Swizzle]
	if !ok {
		return fmt.Errorf("nvrtc: a tensor map swizzled in %d-byte rows", m.Swizzle)
	}
	s, err := getSlot()
	if err != nil {
		return err
	}
	defer slots.Put(s)
	// The driver lists dimensions innermost first, and the strides (in
	// bytes) of all but the innermost.
	dims, strides := slotTDims, slotTDims+5*8
	box, elems := strides+4*8, strides+4*8+5*4
	for i := range rank {
		d := rank - 1 - i
		binary.LittleEndian.PutUint64(s.mem[dims+8*i:], uint64(m.Dims[d]))
		binary.LittleEndian.PutUint32(s.mem[box+4*i:], uint32(m.Box[d]))
		binary.LittleEndian.PutUint32(s.mem[elems+4*i:], 1)
		if i > 0 {
			binary.LittleEndian.PutUint64(s.mem[strides+8*(i-1):], uint64(m.Strides[d]*int64(m.ElemBytes)))
		}
	}
	clear(s.mem[slotTMap : slotTMap+TensorMapBytes])
	defer runtime.UnlockOSThread()
	if err := d.enter(s); err != nil {
		return err
	}
	r, _, _ := purego.SyscallN(driver.cuTensorMapEncodeTiled, s.base+slotTMap, dtype, uintptr(rank), uintptr(m.Base),
		s.base+uintptr(dims), s.base+uintptr(strides), s.base+uintptr(box), s.base+uintptr(elems),
		tmapInterleave0, sw, tmapL2Promote128, tmapOOBZero)
	if code := int(int32(r)); code != 0 {
		return fmt.Errorf("encoding the tensor map of a %v tensor (strides %v, %d-byte elements) in boxes of %v: %w",
			m.Dims, m.Strides, m.ElemBytes, m.Box, driver.check("cuTensorMapEncodeTiled", code))
	}
	copy(out[:], s.mem[slotTMap:slotTMap+TensorMapBytes])
	return nil
}
