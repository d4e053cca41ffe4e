package sema

// This file implements block pointers as loop-carried values and as names
// merged after a runtime if.
//
// A block pointer is not one runtime value but several (base, shape,
// strides, offsets), so each part that may change gets its own ir.Var.
// The usual loop, p = tl.advance(p, (0, BK)), changes only the offsets:
// when every assignment to the name in the body is such an advance (see
// advancesOnly), only the offsets are carried and the generated code has
// one variable per dimension (p_off0, p_off1); otherwise every part is.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// carriedBlock is a block pointer carried through a loop.
type carriedBlock struct {
	name string
	init *blockPtr
	// vars holds, for each part of init (in the order of parts), its Var,
	// or nil for a part the loop does not change.
	vars []*ir.Var
}

// enterBlock declares the Vars of a block pointer carried through a loop
// whose body is body, and assigns them their values before the loop.
func (c *compiler) enterBlock(name string, p *blockPtr, body []frontend.Stmt, pos diag.Pos) *carriedBlock {
	vals, suffixes := p.parts()
	first := 0
	if !p.desc && advancesOnly(body, name) {
		first = len(vals) - p.rank()
	}
	cb := &carriedBlock{name: name, init: p, vars: make([]*ir.Var, len(vals))}
	for i := first; i < len(vals); i++ {
		vr := c.newVar(name+"_"+suffixes[i], vals[i].Type, pos)
		c.blk.Stmts = append(c.blk.Stmts, &ir.Assign{Var: vr, Value: vals[i], Pos: ir.Pos(pos)})
		cb.vars[i] = vr
	}
	return cb
}

// readBlock binds the name to the block pointer read from its Vars.
func (c *compiler) readBlock(fr *frame, cb *carriedBlock, pos diag.Pos) {
	vals, _ := cb.init.parts()
	for i, vr := range cb.vars {
		if vr != nil {
			vals[i] = c.readVar(vr, pos)
		}
	}
	p := cb.init.withParts(vals)
	p.name = cb.name
	fr.env[cb.name] = blockPtrVal(p)
}

// storeBlockVars assigns the block pointer the body leaves in the name to its
// Vars.
func (c *compiler) storeBlockVars(fr *frame, cb *carriedBlock, pos diag.Pos) {
	v := fr.env[cb.name]
	if v == nil || v.k == kInvalid {
		return
	}
	if v.k == kUndef {
		c.errorf(pos, diag.CodeUndefined, "%s", v.s)
		return
	}
	if v.k != kBlockPtr || !v.bp.sameLayout(cb.init) {
		c.errorf(pos, diag.CodeType, "loop-carried name %s changes from %s to %s in the loop body", cb.name, blockPtrVal(cb.init).describe(), v.describe())
		return
	}
	vals, _ := v.bp.parts()
	initVals, _ := cb.init.parts()
	for i, vr := range cb.vars {
		x := vals[i]
		if vr == nil {
			if x != initVals[i] {
				c.errorf(pos, diag.CodeUnsupported, "the block pointer %s gets a new base, shape or strides in this loop, which tri cannot carry here; assign it with tl.make_block_ptr in the loop only", cb.name)
				return
			}
			continue
		}
		if x.Op == ir.OpVarRead && x.Var == vr {
			continue
		}
		c.blk.Stmts = append(c.blk.Stmts, &ir.Assign{Var: vr, Value: x, Pos: ir.Pos(pos)})
	}
}

// mergeBlockPtrs merges two block pointers after the branches of a runtime
// if: the parts that differ become Vars assigned in each branch.
func (c *compiler) mergeBlockPtrs(name string, node *ir.If, tp, ep *blockPtr, thenTerm, elseTerm bool, pos diag.Pos) *val {
	if !tp.sameLayout(ep) {
		return &val{k: kUndef, s: fmt.Sprintf("%s holds block pointers of different types (%s and %s) in the branches of the runtime if at line %d", name, tp.typeString(), ep.typeString(), pos.Line)}
	}
	if name == returnSlot {
		name = "result"
	}
	tvals, suffixes := tp.parts()
	evals, _ := ep.parts()
	out := make([]*ir.Value, len(tvals))
	for i := range tvals {
		// Where a branch returned, the parts come from the other branch
		// and may be defined inside it: a variable carries them out.
		if tvals[i] == evals[i] && !thenTerm && !elseTerm {
			out[i] = tvals[i]
			continue
		}
		vr := c.newVar(name+"_"+suffixes[i], tvals[i].Type, pos)
		if !thenTerm {
			node.Then.Stmts = append(node.Then.Stmts, &ir.Assign{Var: vr, Value: tvals[i], Pos: ir.Pos(pos)})
		}
		if !elseTerm {
			node.Else.Stmts = append(node.Else.Stmts, &ir.Assign{Var: vr, Value: evals[i], Pos: ir.Pos(pos)})
		}
		out[i] = c.readVar(vr, pos)
	}
	p := tp.withParts(out)
	p.name = name
	return blockPtrVal(p)
}
