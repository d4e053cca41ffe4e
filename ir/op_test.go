package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/ir"
)

// TestEveryOp: every op has an entry in the op table, an implementation in
// the interpreter and a lowering in cudagen, so that an op added to the
// table and forgotten elsewhere fails here and not in a user's kernel.
func TestEveryOp(t *testing.T) {
	names := map[string]ir.Op{}
	for op := ir.OpInvalid + 1; op < ir.NumOps; op++ {
		info := op.Info()
		assert.NotEqual(t, ir.ClassInvalid, info.Class, "op %d has no entry in the op table", op)
		assert.NotEmpty(t, info.Name, "op %d has no name", op)
		if prev, ok := names[info.Name]; ok {
			t.Errorf("ops %d and %d are both named %q", prev, op, info.Name)
		}
		names[info.Name] = op
		assert.True(t, info.MaxArgs == ir.Variadic || info.MaxArgs >= info.MinArgs, "%s: arity %d..%d", op, info.MinArgs, info.MaxArgs)
		if info.Class == ir.ClassElementwise || info.Class == ir.ClassCompare || info.Class == ir.ClassMath {
			assert.NotZero(t, info.Accepts, "%s accepts no kind", op)
		}
		assert.True(t, interp.Supports(op), "the interpreter lacks %s", op)
		assert.True(t, cudagen.Lowers(op), "cudagen lacks %s", op)
	}
	assert.False(t, interp.Supports(ir.OpInvalid))
	assert.False(t, cudagen.Lowers(ir.OpInvalid))
}

func TestKinds(t *testing.T) {
	tests := []struct {
		set  ir.Kinds
		kind ir.Kind
		want bool
	}{
		{ir.KindsInt, ir.Int32, true},
		{ir.KindsInt, ir.Uint8, true},
		{ir.KindsInt, ir.Bool, false},
		{ir.KindsBool, ir.Bool, true},
		{ir.KindsFloat, ir.Float16, true},
		{ir.KindsFloat, ir.Int64, false},
		{ir.KindsArith, ir.Ptr, false},
		{ir.KindsAny, ir.Ptr, true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.set.Has(tc.kind), "%v has %s", tc.set, tc.kind)
	}
}
