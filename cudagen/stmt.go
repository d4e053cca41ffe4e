package cudagen

// This file implements the printing of one straight-line statement, a
// value or an assignment, where it stands: the tensor maps built before
// it, its source comment, its value through its op's printer (ops.go).
// The printers of loops and of the full-tile path print their bodies'
// statements through it, as the emitter's nest (emit.go's nested).

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// statement writes one value or assignment.
func (e *emitter) statement(s ir.Stmt) {
	e.checkStop(s.Position())
	e.buildMaps(s)
	switch s := s.(type) {
	case *ir.Assign:
		name := e.varNames[s.Var.ID]
		if s.Value.Op == ir.OpVarRead && s.Value.Var == s.Var || e.fused[s.Value.ID] {
			return
		}
		e.source(s.Pos)
		if s.Var.Type.IsScalar() {
			e.w.line("%s = %s;", name, e.expr(s.Value, ""))
			return
		}
		e.loop(e.varDists[s.Var.ID].Elems, func(i string) string {
			return fmt.Sprintf("%s[%s] = %s;", name, i, e.expr(s.Value, i))
		})
	case *ir.Value:
		if u := e.reissued[s.ID]; u != nil && !(e.fast && e.skip[u.ID]) {
			// The load is issued where it stands, in its user's layout.
			e.source(s.Pos)
			e.shapeOp(u)
			return
		}
		if e.fast && e.skip[s.ID] || e.dead[s.ID] || s.Op == ir.OpExpandDims && e.reissued[s.Args[0].ID] == s {
			return
		}
		e.checkedScratch(s, func() { e.value(s) })
	}
}
