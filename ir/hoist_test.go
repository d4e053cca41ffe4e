package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHoistInvariants: in two nested loops, the row offsets (from the
// program id) leave both loops, the loop index's arithmetic stays, a
// division never moves, and a value invariant only in the inner loop
// (from the outer loop's index) stops before the inner one.
func TestHoistInvariants(t *testing.T) {
	b := newBuilder()
	body := b.k.Body
	i32, tile := ScalarType(TInt32), TileType(TInt32, 8)
	pid := b.val(body, OpProgramID, i32, 1)
	lo := b.val(body, OpConst, i32, 1)
	hi := b.val(body, OpConst, i32, 1)
	outerVar, innerVar := &Var{ID: 0, Name: "i", Type: i32}, &Var{ID: 1, Name: "k", Type: i32}
	b.k.NumVars = 2
	outer := &For{Var: outerVar, Lo: lo, Hi: hi, Step: lo, Body: &Block{}}
	body.Stmts = append(body.Stmts, outer)
	i := b.val(outer.Body, OpVarRead, i32, 2)
	i.Var = outerVar
	inner := &For{Var: innerVar, Lo: lo, Hi: hi, Step: lo, Body: &Block{}}
	outer.Body.Stmts = append(outer.Body.Stmts, inner)
	ib := inner.Body
	ar := b.val(ib, OpArange, tile, 3)
	rows := b.val(ib, OpAdd, tile, 3, b.val(ib, OpSplat, tile, 3, pid), ar)
	div := b.val(ib, OpDiv, tile, 4, rows, ar)
	fromI := b.val(ib, OpMul, i32, 5, i, pid)
	pid2 := b.val(ib, OpMul, i32, 5, pid, pid)
	k := b.val(ib, OpVarRead, i32, 6)
	k.Var = innerVar
	cols := b.val(ib, OpAdd, tile, 6, b.val(ib, OpSplat, tile, 6, k), ar)
	require.NoError(t, Verify(b.k))

	HoistInvariants(b.k)
	require.NoError(t, Verify(b.k))
	in := func(blk *Block, v *Value) bool {
		for _, s := range blk.Stmts {
			if s == Stmt(v) {
				return true
			}
		}
		return false
	}
	// Tiles leave the inner loop only: the outer loop holds a loop, and a
	// tile hoisted out of it would hold its registers through the inner.
	assert.True(t, in(outer.Body, ar), "arange leaves the inner loop, not the outer")
	assert.True(t, in(outer.Body, rows), "pid + arange leaves the inner loop, not the outer")
	assert.True(t, in(body, pid2), "a scalar leaves both loops")
	assert.True(t, in(ib, div), "a division stays")
	assert.True(t, in(outer.Body, fromI), "i * pid stops before the inner loop")
	assert.True(t, in(ib, k) && in(ib, cols), "the inner index's arithmetic stays")
	assert.Equal(t, Stmt(outer), body.Stmts[len(body.Stmts)-1], "hoisted values come before the loop")
}
