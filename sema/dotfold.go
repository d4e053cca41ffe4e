package sema

// This file folds acc + tl.dot(a, b) into tl.dot(a, b, acc), as Triton's
// combine pass does (AddFOp/AddIOp of a dot with a zero accumulator), so
// that tutorial 08's `accumulator += tl.dot(a, b.T)` is the K loop the
// sm_90a pipeline takes, like `accumulator = tl.dot(a, b, accumulator)`.

import (
	"slices"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// dotAdd returns x + y as one dot when one of them is a dot just made with
// a zero accumulator and used nowhere else (an unnamed temporary of the
// current block) and the other has its type and was computed before it;
// else nil.
func (c *compiler) dotAdd(x, y *val, pos diag.Pos) *val {
	if x.k != kRuntime || y.k != kRuntime {
		return nil
	}
	d, acc := x.rt, y.rt
	if d.Op != ir.OpDot {
		d, acc = acc, d
	}
	if d.Op != ir.OpDot || d.Name != "" || acc.ID >= d.ID || acc.Type.DType != d.Type.DType || !acc.Type.Shape.Equal(d.Type.Shape) {
		return nil
	}
	zero := d.Args[2]
	if zero.Op != ir.OpSplat || !isZeroConst(zero.Args[0]) {
		return nil
	}
	stmts := c.blk.Stmts
	i := slices.Index(stmts, ir.Stmt(d))
	if i < 1 || stmts[i-1] != ir.Stmt(zero) {
		return nil
	}
	// The zero accumulator (and its constant, when made for it) was
	// emitted just before the dot and nothing else reads it.
	drop := 1
	if i >= 2 && stmts[i-2] == ir.Stmt(zero.Args[0]) {
		drop = 2
	}
	c.blk.Stmts = append(stmts[:i-drop], stmts[i:]...)
	d.Args[2] = acc
	return rtVal(d)
}

func isZeroConst(v *ir.Value) bool {
	return v.Op == ir.OpConst && v.Const.Int == 0 && v.Const.Float == 0
}
