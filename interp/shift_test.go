package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// shiftKernel builds, for elements of kind k:
//
//	x = tl.load(x_ptr + offs)                       # line 2
//	s = tl.load(s_ptr + offs)  (or s, a scalar)     # line 2
//	r = x << s  (or x >> s)                         # line 3
//	tl.store(out_ptr + offs, r, mask=offs < 7)      # line 7 (mask if masked)
//
// over 8 lanes; a scalar amount is splatted to the tile, as sema does.
func shiftKernel(t *testing.T, k ir.Kind, op ir.Op, scalarAmount, masked bool) *ir.Kernel {
	b := newBuilder("shift")
	d := ir.DType{Kind: k}
	xp := b.param("x_ptr", ir.PtrTo(k))
	var s *ir.Value
	if scalarAmount {
		s = b.param("s", d)
	} else {
		s = b.param("s_ptr", ir.PtrTo(k))
	}
	op2 := b.param("out_ptr", ir.PtrTo(k))
	b.at(2)
	offs := b.arange(0, 8)
	x := b.load(b.ptrAdd(b.splat(xp, 8), offs), nil, nil)
	if scalarAmount {
		s = b.splat(s, 8)
	} else {
		s = b.load(b.ptrAdd(b.splat(s, 8), offs), nil, nil)
	}
	b.at(3)
	r := b.bin(op, x, s)
	b.at(7)
	var mask *ir.Value
	if masked {
		mask = b.cmp(ir.OpLt, offs, b.splat(b.i32(7), 8))
	}
	b.store(b.ptrAdd(b.splat(op2, 8), offs), r, mask)
	return b.done(t)
}

// TestShiftOutOfRange: a shift by a negative amount or by the bit width or
// more leaves its lane undefined, as a division by zero does: an error
// where the lane is used (here stored), placed at the shift, for every
// integer width, both directions, scalar and tile amounts.
func TestShiftOutOfRange(t *testing.T) {
	tests := []struct {
		name   string
		kind   ir.Kind
		op     ir.Op
		amount int64 // in lane 5 (every lane for a scalar amount)
		scalar bool
		want   string
	}{
		{"i32 << 33", ir.Int32, ir.OpShl, 33, true, "i32 shift << 33 (an amount outside 0 to 31) at lane [0]"},
		{"i32 << 32", ir.Int32, ir.OpShl, 32, false, "i32 shift << 32 (an amount outside 0 to 31) at lane [5]"},
		{"i32 >> -1", ir.Int32, ir.OpShr, -1, false, "i32 shift >> -1 (an amount outside 0 to 31) at lane [5]"},
		{"i32 >> 40 scalar", ir.Int32, ir.OpShr, 40, true, "i32 shift >> 40"},
		{"i8 << 8", ir.Int8, ir.OpShl, 8, false, "i8 shift << 8 (an amount outside 0 to 7)"},
		{"i16 >> 16", ir.Int16, ir.OpShr, 16, true, "i16 shift >> 16 (an amount outside 0 to 15)"},
		{"i64 << 64", ir.Int64, ir.OpShl, 64, false, "i64 shift << 64 (an amount outside 0 to 63)"},
		{"i64 >> -64", ir.Int64, ir.OpShr, -64, true, "i64 shift >> -64"},
		{"u8 >> 8", ir.Uint8, ir.OpShr, 8, false, "u8 shift >> 8 (an amount outside 0 to 7)"},
		{"u16 << 200", ir.Uint16, ir.OpShl, 200, true, "u16 shift << 200"},
		{"u32 << 32", ir.Uint32, ir.OpShl, 32, false, "u32 shift << 32 (an amount outside 0 to 31)"},
		{"u64 >> 2^64-1", ir.Uint64, ir.OpShr, -1, false, "u64 shift >> 18446744073709551615 (an amount outside 0 to 63)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := shiftKernel(t, tc.kind, tc.op, tc.scalar, false)
			x, s, out := iotaTensor(tc.kind, 1, 8), iotaTensor(tc.kind, 0, 8), tensor.New(tc.kind, 8)
			amount := Arg{Tensor: s}
			if tc.scalar {
				amount = Arg{Scalar: ir.IntConst(tc.amount)}
			} else {
				s.SetInt(5, tc.amount)
			}
			err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: x}, amount, {Tensor: out}}, Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "k.tri:3:5: interpreting shift: "+tc.want)
			assert.Contains(t, err.Error(), "whose result is used by the store at line 7")
		})
	}
}

// TestShiftInRange: amounts from 0 to the width minus 1 shift as C does
// (arithmetic right shifts for signed kinds), and an out-of-range lane that
// is masked off is never used, so the kernel is valid.
func TestShiftInRange(t *testing.T) {
	for _, k := range []ir.Kind{ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64} {
		w := int64(k.Bits())
		for _, op := range []ir.Op{ir.OpShl, ir.OpShr} {
			t.Run(k.String()+" "+op.String(), func(t *testing.T) {
				kern := shiftKernel(t, k, op, false, true)
				x, s, out := tensor.New(k, 8), tensor.New(k, 8), tensor.New(k, 8)
				amounts := []int64{0, 1, 2, w / 2, w - 2, w - 1, 3, w} // lane 7, masked off, is out of range
				for i, n := range amounts {
					x.SetInt(i, -5)
					s.SetInt(i, n)
				}
				require.NoError(t, Run(kern, [3]int{1, 1, 1}, []Arg{{Tensor: x}, {Tensor: s}, {Tensor: out}}, Options{}))
				for i, n := range amounts[:7] {
					in := x.Int(i)
					var want int64
					switch {
					case op == ir.OpShl:
						want = in << n
					case k.IsSigned():
						want = in >> n
					default:
						want = int64(uint64(in) >> n)
					}
					probe := tensor.New(k, 1)
					probe.SetInt(0, want) // wraps to the kind's width
					assert.Equal(t, probe.Int(0), out.Int(i), "lane %d: %d %s %d", i, in, op, n)
				}
			})
		}
	}
}
