package interp

// This file implements one program instance: its state and the execution
// of statements (blocks, loops, ifs, returns, assignments).

import (
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// errAborted ends a program whose result no longer matters because a
// lower-numbered program failed; it is never reported.
var errAborted = errors.New("aborted")

// program is the state of one worker, reused for each program it runs.
type program struct {
	m      *machine
	index  int64  // linear program index
	pid    [3]int // program id along x, y, z
	vals   []*tile
	vars   []*tile
	held   map[any]int         // the slots holding each large tile's elements (budget.go)
	ops    [ir.NumOps]evalFunc // by op, from evaluators
	helper atomic.Bool         // a helper started by spinning is running
	out    bytes.Buffer        // the lines printed by the program running
}

func (m *machine) newProgram() *program {
	return &program{m: m, vals: make([]*tile, m.k.NumValues), vars: make([]*tile, m.k.NumVars), ops: evaluators()}
}

// run executes program i (x fastest).
func (p *program) run(i int) (err error) {
	g := p.m.grid
	p.index = int64(i)
	p.pid = [3]int{i % g[0], i / g[0] % g[1], i / (g[0] * g[1])}
	p.clearVars()
	defer func() {
		if r := recover(); r != nil {
			err = p.errorf(ir.Pos{File: p.m.k.File}, diag.CodeInternal, "internal error: %v", r)
		}
	}()
	if err := p.check(nil); err != nil {
		return err
	}
	_, err = p.block(p.m.k.Body)
	if err == errAborted {
		return nil
	}
	return err
}

// errorf makes an error diagnostic at pos naming the kernel and program.
func (p *program) errorf(pos ir.Pos, code diag.Code, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(diag.Pos(pos), code, "interpreting %s: %s (program (%d, %d, %d))",
		p.m.k.Name, fmt.Sprintf(format, args...), p.pid[0], p.pid[1], p.pid[2])
}

// check is called before a program and at every loop iteration (loop is
// the loop's statement, or nil): it stops the program on timeout,
// cancellation, or the failure of a lower-numbered program.
func (p *program) check(loop ir.Stmt) error {
	var why string
	switch p.m.stop.Load() {
	case running:
		if p.index > p.m.failed.Load() {
			return errAborted
		}
		return nil
	case stopTimeout:
		why = "timed out after " + durationString(p.m.timeout)
	default:
		why = "canceled"
	}
	if loop == nil {
		return p.errorf(ir.Pos{File: p.m.k.File}, diag.CodeTimeout, "%s", why)
	}
	pos := loop.Position()
	return p.errorf(pos, diag.CodeTimeout, "%s in the loop at line %d", why, pos.Line)
}

// block runs the statements of b; returned reports an executed Return.
func (p *program) block(b *ir.Block) (returned bool, err error) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ir.Value:
			t, err := p.eval(s)
			if err != nil {
				return false, err
			}
			p.setVal(s.ID, t)
			if err := p.overBudget(s); err != nil {
				return false, err
			}
		case *ir.Assign:
			p.setVar(s.Var.ID, p.vals[s.Value.ID])
		case *ir.For:
			returned, err = p.forLoop(s)
		case *ir.While:
			returned, err = p.whileLoop(s)
		case *ir.If:
			c := p.vals[s.Cond.ID]
			if err := p.checkControl(s.Pos, "if", c); err != nil {
				return false, err
			}
			if c.truth() {
				returned, err = p.block(s.Then)
			} else {
				returned, err = p.block(s.Else)
			}
		case *ir.Return:
			return true, nil
		default:
			return false, p.errorf(s.Position(), diag.CodeInternal, "internal error: unknown statement %T", s)
		}
		if returned || err != nil {
			return returned, err
		}
	}
	return false, nil
}

// forLoop runs a counted loop. The trip count is computed once from the
// bounds, so no iteration variable can overflow.
func (p *program) forLoop(s *ir.For) (bool, error) {
	k := s.Var.Type.Kind
	if err := p.checkControl(s.Pos, "for loop", p.vals[s.Lo.ID], p.vals[s.Hi.ID], p.vals[s.Step.ID]); err != nil {
		return false, err
	}
	lo, hi, step := p.vals[s.Lo.ID].ints[0], p.vals[s.Hi.ID].ints[0], p.vals[s.Step.ID].ints[0]
	if step == 0 {
		return false, p.errorf(s.Pos, diag.CodeRuntime, "range() step is zero")
	}
	var n uint64
	switch {
	case k == ir.Uint64:
		if ulo, uhi := uint64(lo), uint64(hi); ulo < uhi {
			n = (uhi-ulo-1)/uint64(step) + 1
		}
	case step > 0 && lo < hi:
		n = (uint64(hi-lo)-1)/uint64(step) + 1
	case step < 0 && lo > hi:
		n = (uint64(lo-hi)-1)/uint64(-step) + 1
	}
	for j := uint64(0); j < n; j++ {
		if err := p.check(s); err != nil {
			return false, err
		}
		p.setVar(s.Var.ID, intScalar(k, lo+int64(j)*step))
		if returned, err := p.block(s.Body); returned || err != nil {
			return returned, err
		}
	}
	return false, nil
}

// whileLoop runs Cond, then Body while CondValue holds. Every spinCheck
// iterations it calls spinning, as the loop may wait for another program.
func (p *program) whileLoop(s *ir.While) (bool, error) {
	for iter := 1; ; iter++ {
		if err := p.check(s); err != nil {
			return false, err
		}
		if iter%spinCheck == 0 {
			p.spinning()
		}
		if returned, err := p.block(s.Cond); returned || err != nil {
			return returned, err
		}
		c := p.vals[s.CondValue.ID]
		if err := p.checkControl(s.Pos, "while loop", c); err != nil {
			return false, err
		}
		if !c.truth() {
			return false, nil
		}
		if returned, err := p.block(s.Body); returned || err != nil {
			return returned, err
		}
	}
}
