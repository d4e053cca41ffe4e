package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builder makes small kernels for tests.
type builder struct{ k *Kernel }

func newBuilder() *builder {
	return &builder{k: &Kernel{Name: "k", File: "k.tri", Body: &Block{}, NumWarps: 4, NumStages: 3}}
}

func (b *builder) val(blk *Block, op Op, t Type, line int, args ...*Value) *Value {
	v := &Value{ID: b.k.NumValues, Op: op, Type: t, Args: args, Pos: Pos{File: "k.tri", Line: line, Col: 1}}
	b.k.NumValues++
	blk.Stmts = append(blk.Stmts, v)
	return v
}

func TestVerifyAndPrint(t *testing.T) {
	b := newBuilder()
	body := b.k.Body
	pid := b.val(body, OpProgramID, ScalarType(TInt32), 2)
	ar := b.val(body, OpArange, TileType(TInt32, 8), 3)
	sp := b.val(body, OpSplat, TileType(TInt32, 8), 3, pid)
	offs := b.val(body, OpAdd, TileType(TInt32, 8), 3, sp, ar)
	offs.Name = "offs"
	v := &Var{ID: 0, Name: "acc", Type: TileType(TInt32, 8)}
	b.k.NumVars = 1
	body.Stmts = append(body.Stmts, &Assign{Var: v, Value: offs})
	cond := b.val(body, OpEq, ScalarType(TBool), 4, pid, pid)
	ifs := &If{Cond: cond, Then: &Block{}, Else: &Block{}}
	body.Stmts = append(body.Stmts, ifs)
	inner := b.val(ifs.Then, OpMul, TileType(TInt32, 8), 5, offs, offs)
	ifs.Then.Stmts = append(ifs.Then.Stmts, &Assign{Var: v, Value: inner}, &Return{})
	r := b.val(body, OpVarRead, v.Type, 6)
	r.Var = v
	require.NoError(t, Verify(b.k))

	var out strings.Builder
	Print(&out, b.k)
	s := out.String()
	assert.Contains(t, s, "%3 offs: i32[8] = add %2, %1   // k.tri:3\n")
	assert.Contains(t, s, "  if %4 {\n    %5: i32[8] = mul %3, %3   // k.tri:5\n")
	assert.Contains(t, s, "%6: i32[8] = read $0 acc")

	// A value of the then-block used after the if is not visible.
	bad := b.val(body, OpAdd, TileType(TInt32, 8), 7, inner, offs)
	assert.ErrorContains(t, Verify(b.k), "not defined")
	body.Stmts = body.Stmts[:len(body.Stmts)-1]
	_ = bad

	// Operand types must match.
	b.val(body, OpAdd, TileType(TInt32, 8), 8, offs, sp2(b, body))
	assert.ErrorContains(t, Verify(b.k), "operand of type")
}

func sp2(b *builder, blk *Block) *Value {
	c := b.val(blk, OpConst, ScalarType(TFloat32), 8)
	return b.val(blk, OpSplat, TileType(TFloat32, 8), 8, c)
}

func TestVerifyAssignType(t *testing.T) {
	b := newBuilder()
	c := b.val(b.k.Body, OpConst, ScalarType(TInt32), 1)
	v := &Var{Name: "x", Type: ScalarType(TInt64)}
	b.k.Body.Stmts = append(b.k.Body.Stmts, &Assign{Var: v, Value: c})
	assert.ErrorContains(t, Verify(b.k), "var x of type i64")
}
