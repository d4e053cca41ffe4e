package interp

// This file implements OpLoad and OpStore.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// load reads one element per active lane of ptr; masked-off lanes take
// other's value, or zero. A volatile load holds the buffer's mutex, so
// that polling a flag written by atomics of other programs is race-free.
func (p *program) load(v *ir.Value, ptr, mask, other *tile) (*tile, error) {
	k := v.Type.Kind
	size := k.Bytes()
	t := newTile(k, v.Type.Shape)
	var w window
	for i, a := range ptr.ints {
		if mask != nil && mask.ints[i] == 0 {
			if other != nil {
				copyElem(t, other, i)
			}
			continue
		}
		b, off, msg := w.access(p.m.mem, uint64(a), size)
		if b == nil {
			return nil, p.memError(v.Pos, "load", msg, ptr.shape, i)
		}
		var bits uint64
		if v.Flags&ir.FlagVolatile != 0 {
			b.mu.Lock()
			bits = readBits(b.t.Data, off, size)
			b.mu.Unlock()
		} else {
			bits = readBits(b.t.Data, off, size)
		}
		if k == ir.Bool && bits != 0 {
			bits = 1
		}
		setBits(t, i, bits)
	}
	return t, nil
}

// store writes val's element to each active lane of ptr.
func (p *program) store(v *ir.Value, ptr, val, mask *tile) error {
	size := val.kind.Bytes()
	var w window
	for i, a := range ptr.ints {
		if mask != nil && mask.ints[i] == 0 {
			continue
		}
		b, off, msg := w.access(p.m.mem, uint64(a), size)
		if b == nil {
			return p.memError(v.Pos, "store", msg, ptr.shape, i)
		}
		writeBits(b.t.Data, off, size, bitsOf(val, i))
	}
	return nil
}

func (p *program) memError(pos ir.Pos, what, msg string, shape ir.Shape, lane int) *diag.Diagnostic {
	return p.errorf(pos, diag.CodeRuntime, "%s %s%s", what, msg, atLane(shape, lane))
}

// copyElem copies element i of src into dst (same kind).
func copyElem(dst, src *tile, i int) {
	if dst.flts != nil {
		dst.flts[i] = src.flts[i]
	} else {
		dst.ints[i] = src.ints[i]
	}
}
