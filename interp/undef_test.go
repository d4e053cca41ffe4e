package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// undefKernel builds a kernel over x (int32, 8 elements) and out: line 3
// divides 100 by x (q), and body stores or tests what it derives from q.
func undefKernel(t *testing.T, body func(b *builder, x, q, outPtrs *ir.Value)) *ir.Kernel {
	b := newBuilder("guarded")
	xp := b.param("x_ptr", ir.PtrTo(ir.Int32))
	op := b.param("out_ptr", ir.PtrTo(ir.Int32))
	offs := b.arange(0, 8)
	x := b.load(b.ptrAdd(b.splat(xp, 8), offs), nil, nil)
	b.at(3)
	q := b.bin(ir.OpDiv, b.splat(b.i32(100), 8), x)
	b.at(7)
	body(b, x, q, b.ptrAdd(b.splat(op, 8), offs))
	return b.done(t)
}

// TestUndefinedLanes: a division by zero is an error only where its lane is
// used (stored, an address, a mask, control flow), never where it is
// discarded.
func TestUndefinedLanes(t *testing.T) {
	zero8 := func(b *builder) *ir.Value { return b.splat(b.i32(0), 8) }
	tests := []struct {
		name    string
		body    func(b *builder, x, q, out *ir.Value)
		want    []int64 // the output, when the kernel is valid
		wantErr string
	}{
		{"where drops the lane", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.value(ir.OpWhere, q.Type, b.cmp(ir.OpNe, x, zero8(b)), q, b.splat(b.i32(-1), 8)), nil)
		}, []int64{-100, -1, 100, 50, 33, 25, 20, 16}, ""},
		{"masked-off lane of a store", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.bin(ir.OpAdd, q, x), b.cmp(ir.OpNe, x, zero8(b)))
		}, []int64{-101, 0, 101, 52, 36, 29, 25, 22}, ""},
		{"discarded through shape ops", func(b *builder, x, q, out *ir.Value) {
			t2 := b.trans(b.reshape(q, 2, 4), 1, 0)
			back := b.reshape(b.trans(t2, 1, 0), 8)
			b.store(out, back, b.cmp(ir.OpNe, x, zero8(b)))
		}, []int64{-100, 0, 100, 50, 33, 25, 20, 16}, ""},
		{"undefined lane never read", func(b *builder, x, q, out *ir.Value) {
			b.store(out, x, nil)
		}, []int64{-1, 0, 1, 2, 3, 4, 5, 6}, ""},
		{"stored", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.bin(ir.OpMul, q, x), nil)
		}, nil, "k.tri:3:5: interpreting guarded: integer division by zero at lane [1], whose result is used by the store at line 7 at lane [1] (program (0, 0, 0))"},
		{"selected by where and stored", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.value(ir.OpWhere, q.Type, b.cmp(ir.OpGe, x, zero8(b)), q, x), nil)
		}, nil, "integer division by zero at lane [1], whose result is used by the store at line 7 at lane [1]"},
		{"where condition", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.value(ir.OpWhere, q.Type, b.cmp(ir.OpGt, q, zero8(b)), x, x), nil)
		}, nil, "used by the store at line 7"},
		{"mask", func(b *builder, x, q, out *ir.Value) {
			b.store(out, x, b.cmp(ir.OpGt, q, zero8(b)))
		}, nil, "used by the store at line 7"},
		{"address", func(b *builder, x, q, out *ir.Value) {
			b.load(b.ptrAdd(out, b.bin(ir.OpRem, q, b.splat(b.i32(8), 8))), nil, nil)
		}, nil, "used by the load at line 7"},
		{"reduction", func(b *builder, x, q, out *ir.Value) {
			b.store(out, b.splat(b.reduce(ir.CombineSum, q, 0, 0), 8), nil)
		}, nil, "used by the store at line 7"},
		{"if", func(b *builder, x, q, out *ir.Value) {
			s := b.reduce(ir.CombineMax, q, 0, 0)
			b.ifElse(b.cmp(ir.OpGt, s, b.i32(0)), func() { b.store(out, x, nil) }, nil)
		}, nil, "used by the if at line 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := undefKernel(t, tc.body)
			x := iotaTensor(ir.Int32, -1, 8) // x[1] is 0
			out := tensor.New(ir.Int32, 8)
			err := Run(k, [3]int{1, 1, 1}, []Arg{{Tensor: x}, {Tensor: out}}, Options{})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := make([]int64, 8)
			for i := range got {
				got[i] = out.Int(i)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
