package cudagen

import (
	"testing"

	"github.com/tri-lang/tri/ir"
)

var allKinds = []ir.Kind{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64,
	ir.Float16, ir.BFloat16, ir.Float32, ir.Float64}

// allOpsKernel loads a tile of dtype k, applies every op that applies
// to it, casts it to every dtype and stores the results: a kernel for the
// compile test only.
func allOpsKernel(t *testing.T, k ir.Kind) *ir.Kernel {
	b := newBuilder(t, "all_ops_"+k.String(), "misc.tri", 4)
	n := b.param("n", ir.TInt32, false)
	offs := b.at(15).named("offs", b.op(ir.OpAdd, b.op(ir.OpMul, b.pid(0), b.i32(512)), b.arange(512)))
	mask := b.named("mask", b.op(ir.OpLt, offs, n))
	{
		for _, aligned := range []bool{true, false} {
			in := b.param("in_"+k.String(), ir.PtrTo(k), aligned)
			out := b.param("out_"+k.String(), ir.PtrTo(k), aligned)
			x := b.named("x_"+k.String(), b.load(b.ptrAdd(in, offs), mask, nil))
			xs := b.load(in, nil, nil)
			b.store(b.ptrAdd(out, offs), x, nil)
			b.store(out, xs, nil)
			for _, op := range elementwiseOps(k) {
				args := []*ir.Value{x, x, x}[:op.Info().MinArgs]
				r := b.op(op, args...)
				if op == ir.OpMax {
					r.Flags = ir.FlagPropagateNaN
				}
				b.store(b.ptrAdd(out, offs), r, mask)
				sargs := make([]*ir.Value, len(args))
				for i := range sargs {
					sargs[i] = xs
				}
				b.store(out, b.op(op, sargs...), nil)
			}
			for _, cmp := range []ir.Op{ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe} {
				b.store(b.ptrAdd(out, offs), b.op(ir.OpWhere, b.op(cmp, x, x), x, x), mask)
			}
			for _, to := range allKinds {
				c := b.cast(x, ir.Scalar(to))
				if to.IsFloat() && k.IsFloat() && to.Bits() < k.Bits() {
					c.Flags = ir.FlagRoundTZ
				}
				b.store(b.ptrAdd(out, offs), b.cast(c, ir.Scalar(k)), mask)
				if to.Bits() == k.Bits() && to != ir.Bool {
					bc := b.emit(&ir.Value{Op: ir.OpBitcast, Type: ir.TileType(ir.Scalar(to), 512), Args: []*ir.Value{x}})
					b.store(b.ptrAdd(out, offs), b.emit(&ir.Value{Op: ir.OpBitcast, Type: x.Type, Args: []*ir.Value{bc}}), mask)
				}
			}
		}
	}
	return b.k
}

// elementwiseOps are the elementwise and math ops of ir's op table that
// take kind k (on Bool, only the bitwise ones, which sema emits there).
func elementwiseOps(k ir.Kind) []ir.Op {
	var ops []ir.Op
	for op := ir.OpInvalid + 1; op < ir.NumOps; op++ {
		info := op.Info()
		if info.Class != ir.ClassElementwise && info.Class != ir.ClassMath || !info.Accepts.Has(k) {
			continue
		}
		if k == ir.Bool && info.Accepts.Has(ir.Float32) {
			continue
		}
		ops = append(ops, op)
	}
	return ops
}
