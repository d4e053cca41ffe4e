package cudagen

// This file implements the walk of the kernel's tree: a block's
// straight-line runs (fastpath.go's region) and its control statements,
// each loop by the printer its plan chose: a pipeline (pipeprint.go),
// operands hoisted before it (wgdot.go), peeled (peel.go) or a plain for.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// block writes the statements of b, declaring first the Vars that live in
// it.
func (e *emitter) block(b *ir.Block) {
	for _, x := range e.vars {
		if x != nil && e.varBlock[x.ID] == b {
			e.declare(x.Type, e.varDists[x.ID], e.varNames[x.ID], "")
		}
	}
	for i := 0; i < len(b.Stmts); {
		j := i
		for j < len(b.Stmts) && isStraight(b.Stmts[j]) {
			j++
		}
		if j > i {
			e.region(b, i, j)
			i = j
			continue
		}
		e.control(b.Stmts[i])
		i++
	}
}

// control writes a for, while, if or return.
func (e *emitter) control(s ir.Stmt) {
	e.checkedScratch(s, func() { e.controlStmt(s) })
}

// controlStmt writes control statement s.
func (e *emitter) controlStmt(s ir.Stmt) {
	e.source(s.Position())
	e.buildMaps(s)
	switch s := s.(type) {
	case *ir.For:
		if r := e.piped[s]; r != nil {
			e.pipelinedLoop(s, r)
			break
		}
		if h := e.hoists[s]; h != nil {
			e.hoistedFor(s, h)
			break
		}
		if e.peeledFor(s) {
			break
		}
		e.plainFor(s)
	case *ir.While:
		e.w.open("for (;;) {")
		e.block(s.Cond)
		e.w.line("if (!%s) break;", e.expr(s.CondValue, ""))
		e.block(s.Body)
		e.w.close("}")
	case *ir.If:
		e.w.open("if (%s) {", e.expr(s.Cond, ""))
		e.block(s.Then)
		if len(s.Else.Stmts) > 0 {
			e.w.indent--
			e.w.line("} else {")
			e.w.indent++
			e.lastLine = 0
			e.block(s.Else)
		}
		e.w.close("}")
	case *ir.Return:
		e.w.line("return;")
	}
	e.lastLine = 0
}

// plainFor writes loop s as a C for loop.
func (e *emitter) plainFor(s *ir.For) {
	i := e.varNames[s.Var.ID]
	lo, hi, step := e.expr(s.Lo, ""), e.expr(s.Hi, ""), e.expr(s.Step, "")
	cond := fmt.Sprintf("%s < %s", i, hi)
	switch {
	case s.Step.Op == ir.OpConst && s.Step.Const.Int < 0:
		cond = fmt.Sprintf("%s > %s", i, hi)
	case s.Step.Op != ir.OpConst:
		cond = fmt.Sprintf("%s > 0 ? %s < %s : %s > %s", step, i, hi, i, hi)
	}
	e.w.open("for (%s %s = %s; %s; %s += %s) {", e.cType(s.Var.Type.DType), i, lo, cond, i, step)
	e.block(s.Body)
	e.w.close("}")
}
