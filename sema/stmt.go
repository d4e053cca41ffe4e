package sema

// This file implements statements other than loops and ifs: assignments,
// expression statements, returns and the unsupported ones.

import (
	"context"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// maxWork bounds the statements compiled for one kernel, counting each
// unrolled iteration and inlined call, so that nested static_range loops
// or helpers that call each other twice per level cannot hang sema.
const maxWork = 1 << 16

// stmts compiles a statement list, stopping after a return.
func (c *compiler) stmts(fr *frame, list []frontend.Stmt) {
	for _, s := range list {
		if fr.terminated || c.tooBig {
			return
		}
		if c.work++; c.work > maxWork {
			c.tooBig = true
			c.errorf(s.Position(), diag.CodeValue, "the kernel is too large after unrolling and inlining (more than %d statements); use a runtime loop instead of tl.static_range", maxWork)
			return
		}
		if c.ctx.Err() != nil {
			c.tooBig = true
			c.errorf(s.Position(), diag.CodeTimeout, "%v while compiling kernel %s (%d statements unrolled and inlined so far)", context.Cause(c.ctx), c.kernel.Name, c.work-1)
			return
		}
		c.stmt(fr, s)
	}
}

func (c *compiler) stmt(fr *frame, s frontend.Stmt) {
	switch s := s.(type) {
	case *frontend.Assign:
		c.assign(fr, s)
	case *frontend.AugAssign:
		c.augAssign(fr, s)
	case *frontend.ExprStmt:
		if k, ok := s.X.(*frontend.Const); ok && k.Kind == frontend.ConstStr {
			return // docstring
		}
		c.expr(fr, s.X)
	case *frontend.If:
		c.ifStmt(fr, s)
	case *frontend.For:
		c.forStmt(fr, s)
	case *frontend.While:
		c.whileStmt(fr, s)
	case *frontend.Return:
		c.returnStmt(fr, s)
	case *frontend.Pass:
	case *frontend.Break:
		c.errorf(s.Pos, diag.CodeUnsupported, "break is not supported in Triton; use a while loop with a condition, or tl.where on the values")
	case *frontend.Continue:
		c.errorf(s.Pos, diag.CodeUnsupported, "continue is not supported in Triton; guard the rest of the loop body with an if")
	case *frontend.Assert:
		c.assertStmt(fr, s)
	case *frontend.Unsupported:
		c.errorf(s.Pos, diag.CodeUnsupported, "%s is not supported in Triton kernels; kernels use assignments, if, for, while, return and calls", s.What)
	default:
		c.errorf(s.Position(), diag.CodeUnsupported, "unsupported statement")
	}
}

func (c *compiler) assign(fr *frame, s *frontend.Assign) {
	v := c.expr(fr, s.Value)
	if s.Constexpr && v.k != kInvalid && !v.isConst() {
		c.errorf(s.Value.Position(), diag.CodeValue, "the value of a tl.constexpr name must be known at compile time, got %s", v.describe())
		v = invalid
	}
	if !s.Constexpr && v.isNum() && !v.assigned {
		v = assignedNumber(v)
	}
	for _, t := range s.Targets {
		c.bindTarget(fr, t, v)
	}
}

// bindTarget binds an assignment target (a name or a tuple of targets).
func (c *compiler) bindTarget(fr *frame, t frontend.Expr, v *val) {
	switch t := t.(type) {
	case *frontend.Name:
		if v.k == kRuntime && v.rt.Name == "" && v.rt.Op != ir.OpConst {
			v.rt.Name = t.ID
		}
		if v.k == kBlockPtr {
			nameBlockPtr(v.bp, t.ID)
		}
		fr.env[t.ID] = v
	case *frontend.Tuple, *frontend.List:
		var elts []frontend.Expr
		if tt, ok := t.(*frontend.Tuple); ok {
			elts = tt.Elts
		} else {
			elts = t.(*frontend.List).Elts
		}
		if v.k == kInvalid {
			for _, e := range elts {
				c.bindTarget(fr, e, invalid)
			}
			return
		}
		if v.k != kTuple {
			c.errorf(t.Position(), diag.CodeType, "cannot unpack %s into %d names", v.describe(), len(elts))
			for _, e := range elts {
				c.bindTarget(fr, e, invalid)
			}
			return
		}
		if len(v.elts) != len(elts) {
			c.errorf(t.Position(), diag.CodeType, "cannot unpack a tuple of %d values into %d names", len(v.elts), len(elts))
			for _, e := range elts {
				c.bindTarget(fr, e, invalid)
			}
			return
		}
		for i, e := range elts {
			c.bindTarget(fr, e, v.elts[i])
		}
	default:
		c.errorf(t.Position(), diag.CodeUnsupported, "only names and tuples of names can be assigned in Triton kernels (no item or attribute assignment)")
	}
}

func (c *compiler) augAssign(fr *frame, s *frontend.AugAssign) {
	n, ok := s.Target.(*frontend.Name)
	if !ok {
		c.errorf(s.Target.Position(), diag.CodeUnsupported, "only names can be targets of %s= in Triton kernels", s.Op)
		return
	}
	old := c.lookup(fr, n)
	rhs := c.expr(fr, s.Value)
	c.bindTarget(fr, n, c.binary(s.Op, old, rhs, s.Pos))
}

func (c *compiler) returnStmt(fr *frame, s *frontend.Return) {
	if fr.loops > 0 {
		c.errorf(s.Pos, diag.CodeUnsupported, "return inside a loop is not supported in Triton; return after the loop")
		return
	}
	var v *val
	if s.Value != nil {
		v = c.expr(fr, s.Value)
	}
	if fr.isKernel {
		if v != nil && v.k != kNone && v.k != kInvalid {
			c.errorf(s.Pos, diag.CodeType, "a kernel cannot return a value; store results through a pointer")
		}
		c.blk.Stmts = append(c.blk.Stmts, &ir.Return{Pos: ir.Pos(s.Pos)})
		fr.terminated = true
		return
	}
	if v == nil {
		v = noneVal
	}
	if fr.runtime > 0 {
		// Inside a runtime if: the value is merged with the other
		// branch's return after the if (see helperReturns).
		fr.env[returnSlot] = v
		fr.terminated = true
		return
	}
	fr.retVal = v
	fr.terminated = true
}
