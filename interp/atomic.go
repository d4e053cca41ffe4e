package interp

// This file implements OpAtomicRMW and OpAtomicCAS. Each lane's
// read-modify-write holds the mutex of the lane's buffer, so atomics are
// atomic across the goroutines running programs; the lanes of one atomic
// apply in index order. Memory semantics and scopes are not modelled: the
// mutex gives every atomic acquire-release order (Triton's default).

import (
	"github.com/tri-lang/tri/ir"
)

// atomicRMW applies v.Atomic with val to each active lane of ptr and
// returns the old values (zero on masked-off lanes, which are untouched).
func (p *program) atomicRMW(v *ir.Value, ptr, val, mask *tile) (*tile, error) {
	k := v.Type.Kind
	size := k.Bytes()
	t := newTile(k, v.Type.Shape)
	var w window
	for i, a := range ptr.ints {
		if mask != nil && mask.ints[i] == 0 {
			continue
		}
		b, off, msg := w.access(p.m.mem, uint64(a), size)
		if b == nil {
			return nil, p.memError(v.Pos, "atomic_"+v.Atomic.String(), msg, ptr.shape, i)
		}
		x := bitsOf(val, i)
		b.mu.Lock()
		old := readBits(b.t.Data, off, size)
		writeBits(b.t.Data, off, size, rmw(v.Atomic, k, old, x))
		b.mu.Unlock()
		setBits(t, i, old)
	}
	return t, nil
}

// atomicCAS writes val's element to each lane of ptr whose memory holds
// the bits of cmp's element, and returns the old values. Floats compare by
// bits, as the GPU's atom.cas does.
func (p *program) atomicCAS(v *ir.Value, ptr, cmp, val *tile) (*tile, error) {
	k := v.Type.Kind
	size := k.Bytes()
	t := newTile(k, v.Type.Shape)
	var w window
	for i, a := range ptr.ints {
		b, off, msg := w.access(p.m.mem, uint64(a), size)
		if b == nil {
			return nil, p.memError(v.Pos, "atomic_cas", msg, ptr.shape, i)
		}
		want, x := bitsOf(cmp, i), bitsOf(val, i)
		b.mu.Lock()
		old := readBits(b.t.Data, off, size)
		if old == want {
			writeBits(b.t.Data, off, size, x)
		}
		b.mu.Unlock()
		setBits(t, i, old)
	}
	return t, nil
}

// rmw computes the new bits of an atomic op on kind k from the old bits
// in memory and the operand's bits.
func rmw(op ir.AtomicOp, k ir.Kind, old, x uint64) uint64 {
	if op == ir.AtomicXchg {
		return x
	}
	if k.IsFloat() {
		return floatRMW(op, k, old, x)
	}
	a, b := wrapInt(k, int64(old)), wrapInt(k, int64(x))
	var r int64
	switch op {
	case ir.AtomicAdd:
		r = a + b
	case ir.AtomicMax:
		r = a
		if less(k, a, b) {
			r = b
		}
	case ir.AtomicMin:
		r = a
		if less(k, b, a) {
			r = b
		}
	case ir.AtomicAnd:
		r = a & b
	case ir.AtomicOr:
		r = a | b
	case ir.AtomicXor:
		r = a ^ b
	}
	return uint64(r)
}

// floatRMW is rmw on floats. Add rounds the sum to k. Max and min follow
// Triton's lowering on the bits: for an operand with the sign bit clear,
// max is a signed-integer max (min a signed min); with the sign bit set,
// max is an unsigned min (min an unsigned max). This orders non-NaN
// values as floats (and -0 below +0); a NaN operand or NaN in memory wins
// or loses according to its bits, as on the GPU.
func floatRMW(op ir.AtomicOp, k ir.Kind, old, x uint64) uint64 {
	switch op {
	case ir.AtomicAdd:
		return floatBits(k, roundFloat(k, floatFromBits(k, old)+floatFromBits(k, x), false))
	case ir.AtomicMax, ir.AtomicMin:
		bits := uint(k.Bits())
		neg := x>>(bits-1)&1 != 0
		var take bool
		if !neg {
			so, sx := signExtend(old, bits), signExtend(x, bits)
			take = sx > so
			if op == ir.AtomicMin {
				take = sx < so
			}
		} else {
			take = x < old
			if op == ir.AtomicMin {
				take = x > old
			}
		}
		if take {
			return x
		}
		return old
	}
	return old
}

// signExtend reads the low bits of b as a signed integer.
func signExtend(b uint64, bits uint) int64 {
	return int64(b<<(64-bits)) >> (64 - bits)
}
