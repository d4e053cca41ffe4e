package sema

// This file implements if, for and while. Constexpr conditions fold and
// tl.static_range unrolls; runtime control flow stays structured, with
// names reassigned under it turned into ir.Vars.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// maxUnroll bounds tl.static_range so a typo cannot hang the compiler.
const maxUnroll = 1 << 14

func copyEnv(env map[string]*val) map[string]*val {
	out := make(map[string]*val, len(env))
	for k, v := range env {
		out[k] = v
	}
	return out
}

// condition evaluates a runtime if/while condition to a Bool scalar.
func (c *compiler) condition(v *val, pos diag.Pos) *ir.Value {
	if v.k == kInvalid {
		return nil
	}
	if v.k != kRuntime && !v.isNum() {
		c.errorf(pos, diag.CodeType, "a condition must be a boolean or a number, got %s", v.describe())
		return nil
	}
	if v.k == kRuntime && !v.rt.Type.IsScalar() {
		if v.rt.Type.Shape.NumElements() == 1 {
			// As Triton: a one-element tensor is unsplatted, with a warning.
			c.warnAt(pos, diag.CodeType, "if conditional called with multidimensional tensor of type %s: its one element is the condition", v.rt.Type)
			x := c.unsplat(v.rt, "the condition", pos)
			if x == nil {
				return nil
			}
			return c.castTo(rtVal(x), ir.TBool, pos)
		}
		c.errorf(pos, diag.CodeType, "the condition is a tensor of type %s; an if or while needs a scalar (use tl.where for elementwise choices)", v.rt.Type)
		return nil
	}
	return c.castTo(v, ir.TBool, pos)
}

func (c *compiler) ifStmt(fr *frame, s *frontend.If) {
	cond := c.expr(fr, s.Cond)
	if cond.k == kInvalid {
		return
	}
	if cond.isConst() {
		if cond.truth() {
			c.stmts(fr, s.Then)
		} else {
			c.stmts(fr, s.Else)
		}
		return
	}
	cv := c.condition(cond, s.Cond.Position())
	if cv == nil {
		return
	}
	node := &ir.If{Cond: cv, Then: &ir.Block{}, Else: &ir.Block{}, Pos: ir.Pos(s.Pos)}
	before := fr.env
	outer := c.blk
	fr.runtime++

	fr.env = copyEnv(before)
	c.blk = node.Then
	c.stmts(fr, s.Then)
	thenEnv, thenTerm := fr.env, fr.terminated
	fr.terminated = false

	fr.env = copyEnv(before)
	c.blk = node.Else
	c.stmts(fr, s.Else)
	elseEnv, elseTerm := fr.env, fr.terminated

	fr.runtime--
	c.blk = outer
	c.blk.Stmts = append(c.blk.Stmts, node)
	fr.env = before
	fr.terminated = thenTerm && elseTerm
	if !fr.isKernel && (thenEnv[returnSlot] != nil || elseEnv[returnSlot] != nil) {
		if c.helperReturns(fr, node, before, thenEnv, elseEnv, s.Pos) {
			return
		}
		// Reported; go on as if the lone return were not there.
		delete(thenEnv, returnSlot)
		delete(elseEnv, returnSlot)
		thenTerm, elseTerm, fr.terminated = false, false, false
	}
	if fr.terminated {
		return
	}
	c.mergeBranches(fr, node, before, thenEnv, elseEnv, thenTerm, elseTerm, s.Pos)
}

// returnSlot is the name under which a helper's return inside a runtime
// if keeps its value until the if's branches merge ("return" cannot be a
// Python variable).
const returnSlot = "return"

// helperReturns merges the values a helper returns in both branches of a
// runtime if (Triton allows an if whose branches both return): the merged
// value is the helper's result, or, inside another runtime if, that if's
// branch's. A return in one branch only would need the code after the if
// guarded, which tri does not do: it is reported, and helperReturns
// returns false.
func (c *compiler) helperReturns(fr *frame, node *ir.If, before, thenEnv, elseEnv map[string]*val, pos diag.Pos) bool {
	tv, ev := thenEnv[returnSlot], elseEnv[returnSlot]
	if tv == nil || ev == nil {
		c.errorf(pos, diag.CodeUnsupported, "a return in only one branch of a runtime if is not supported in a @jit helper; return in both branches, or assign the result to a name and return it at the end")
		return false
	}
	c.mergeBranches(fr, node, before, map[string]*val{returnSlot: tv}, map[string]*val{returnSlot: ev}, false, false, pos)
	v := fr.env[returnSlot]
	if v.k == kUndef {
		c.errorf(pos, diag.CodeType, "%s", strings.Replace(v.s, returnSlot, "the returned value", 1))
		v = invalid
	}
	if v.k == kRuntime && v.rt.Op == ir.OpVarRead {
		v.rt.Var.Name = fr.fn.Name + "_result"
		v.rt.Name = v.rt.Var.Name
	}
	fr.terminated = true
	if fr.runtime > 0 {
		fr.env[returnSlot] = v
		return true
	}
	delete(fr.env, returnSlot)
	fr.retVal = v
	return true
}

// mergeBranches binds, after a runtime if, every name a branch changed.
func (c *compiler) mergeBranches(fr *frame, node *ir.If, before, thenEnv, elseEnv map[string]*val, thenTerm, elseTerm bool, pos diag.Pos) {
	names := map[string]bool{}
	for _, env := range []map[string]*val{thenEnv, elseEnv} {
		for n, v := range env {
			if before[n] != v {
				names[n] = true
			}
		}
	}
	for _, n := range sortedKeys(names) {
		tv, ev := thenEnv[n], elseEnv[n]
		switch {
		case thenTerm:
			tv = ev
		case elseTerm:
			ev = tv
		}
		if tv == nil || ev == nil || tv.k == kUndef || ev.k == kUndef {
			fr.env[n] = &val{k: kUndef, s: fmt.Sprintf("%s is assigned in only one branch of the if at line %d; assign it before the if or in both branches", n, pos.Line)}
			continue
		}
		if tv.k == kInvalid || ev.k == kInvalid {
			fr.env[n] = invalid
			continue
		}
		// A value the surviving branch defined, when the other branch
		// returned, is defined inside the if: it is read after the if
		// through a variable, as a value both branches changed is.
		definedInside := (thenTerm || elseTerm) && tv != before[n] && (tv.k == kRuntime || tv.k == kBlockPtr)
		if tv == ev && !definedInside {
			fr.env[n] = tv
			continue
		}
		if tv.k == kBlockPtr && ev.k == kBlockPtr {
			fr.env[n] = c.mergeBlockPtrs(n, node, tv.bp, ev.bp, thenTerm, elseTerm, pos)
			continue
		}
		if tv.isConst() && ev.isConst() && !tv.isNum() && !ev.isNum() {
			if eq, err := pyCompare("==", tv, ev); err == nil && eq {
				fr.env[n] = tv
				continue
			}
			fr.env[n] = &val{k: kUndef, s: fmt.Sprintf("%s has different compile-time values in the branches of the runtime if at line %d", n, pos.Line)}
			continue
		}
		if !c.mergeable(tv) || !c.mergeable(ev) {
			fr.env[n] = &val{k: kUndef, s: fmt.Sprintf("%s cannot be merged after the runtime if at line %d (it holds %s)", n, pos.Line, tv.describe())}
			continue
		}
		outer := c.blk
		c.blk = node.Then
		tx := c.toRuntime(tv, pos)
		c.blk = node.Else
		ex := c.toRuntime(ev, pos)
		c.blk = outer
		if tx == nil || ex == nil {
			fr.env[n] = invalid
			continue
		}
		if !tx.Type.Equal(ex.Type) {
			what := n
			if n == returnSlot {
				what = "the returned value"
			}
			c.errorf(pos, diag.CodeType, "%s has type %s in the then branch and %s in the else branch of this if; convert one with .to()", what, tx.Type, ex.Type)
			fr.env[n] = invalid
			continue
		}
		v := c.newVar(n, tx.Type, pos)
		if !thenTerm {
			node.Then.Stmts = append(node.Then.Stmts, &ir.Assign{Var: v, Value: tx, Pos: ir.Pos(pos)})
		}
		if !elseTerm {
			node.Else.Stmts = append(node.Else.Stmts, &ir.Assign{Var: v, Value: ex, Pos: ir.Pos(pos)})
		}
		fr.env[n] = rtVal(c.readVar(v, pos))
	}
}

func (c *compiler) mergeable(v *val) bool { return v.k == kRuntime || v.isNum() }

func (c *compiler) readVar(v *ir.Var, pos diag.Pos) *ir.Value {
	r := c.emit(ir.OpVarRead, v.Type, pos)
	r.Var = v
	r.Name = v.Name
	return r
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// assignedNames collects the names a statement list assigns, nested
// statements included.
func assignedNames(list []frontend.Stmt, out map[string]bool) {
	var target func(e frontend.Expr)
	target = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.Name:
			out[e.ID] = true
		case *frontend.Tuple:
			for _, x := range e.Elts {
				target(x)
			}
		case *frontend.List:
			for _, x := range e.Elts {
				target(x)
			}
		}
	}
	for _, s := range list {
		switch s := s.(type) {
		case *frontend.Assign:
			for _, t := range s.Targets {
				target(t)
			}
		case *frontend.AugAssign:
			target(s.Target)
		case *frontend.If:
			assignedNames(s.Then, out)
			assignedNames(s.Else, out)
		case *frontend.For:
			target(s.Target)
			assignedNames(s.Body, out)
		case *frontend.While:
			assignedNames(s.Body, out)
		}
	}
}

// carried are the loop-carried names of a loop: names the body assigns
// that hold a runtime value or a number before the loop.
type carried struct {
	names []string
	vars  []*ir.Var
	fresh []string // names the body assigns that did not exist before
	// others are names the body assigns that hold other compile-time
	// values before the loop (strings, dtypes, tuples), by their value then.
	others map[string]*val
	// blocks are the carried block pointers (blockloop.go).
	blocks []*carriedBlock
}

// enterLoop declares a Var for each carried name, assigning its value
// before the loop.
func (c *compiler) enterLoop(fr *frame, body []frontend.Stmt, exclude string, pos diag.Pos) (*carried, bool) {
	assigned := map[string]bool{}
	assignedNames(body, assigned)
	cr := &carried{others: map[string]*val{}}
	ok := true
	for _, n := range sortedKeys(assigned) {
		v, exists := fr.env[n]
		if n == exclude {
			continue
		}
		if !exists || v.k == kUndef {
			cr.fresh = append(cr.fresh, n)
			continue
		}
		if v.k == kBlockPtr {
			cr.blocks = append(cr.blocks, c.enterBlock(n, v.bp, body, pos))
			continue
		}
		if !c.mergeable(v) {
			cr.others[n] = v
			continue
		}
		x := c.toRuntime(v, pos)
		if x == nil {
			ok = false
			continue
		}
		vr := c.newVar(n, x.Type, pos)
		c.blk.Stmts = append(c.blk.Stmts, &ir.Assign{Var: vr, Value: x, Pos: ir.Pos(pos)})
		cr.names = append(cr.names, n)
		cr.vars = append(cr.vars, vr)
	}
	return cr, ok
}

// readCarried binds every carried name to a fresh read of its Var.
func (c *compiler) readCarried(fr *frame, cr *carried, pos diag.Pos) {
	for i, n := range cr.names {
		fr.env[n] = rtVal(c.readVar(cr.vars[i], pos))
	}
	for _, cb := range cr.blocks {
		c.readBlock(fr, cb, pos)
	}
}

// storeCarried assigns the body's final values to the carried Vars.
func (c *compiler) storeCarried(fr *frame, cr *carried, pos diag.Pos) {
	for i, n := range cr.names {
		v := fr.env[n]
		vr := cr.vars[i]
		if v == nil || v.k == kInvalid {
			continue
		}
		if v.k == kUndef {
			c.errorf(pos, diag.CodeUndefined, "%s", v.s)
			continue
		}
		if !c.mergeable(v) {
			c.errorf(pos, diag.CodeType, "loop-carried name %s changes from %s to %s in the loop body", n, vr.Type, v.describe())
			continue
		}
		x := c.toRuntime(v, pos)
		if x == nil {
			continue
		}
		if !x.Type.Equal(vr.Type) {
			p := pos
			if x.Pos.IsValid() {
				p = diag.Pos(x.Pos)
			}
			c.errorf(p, diag.CodeType, "loop-carried name %s has type %s before the loop but %s at the end of the body; loop-carried values must keep their type (convert with .to(), or initialize it with the right type)", n, vr.Type, x.Type)
			continue
		}
		c.blk.Stmts = append(c.blk.Stmts, &ir.Assign{Var: vr, Value: x, Pos: ir.Pos(pos)})
	}
	for _, cb := range cr.blocks {
		c.storeBlockVars(fr, cb, pos)
	}
}

// exitLoop binds the carried names after the loop and marks names first
// assigned inside it as unusable.
func (c *compiler) exitLoop(fr *frame, cr *carried, extra string, pos diag.Pos) {
	c.readCarried(fr, cr, pos)
	fresh := cr.fresh
	if extra != "" {
		if _, ok := fr.env[extra]; ok {
			fresh = append(fresh, extra)
		}
	}
	for n, old := range cr.others {
		v := fr.env[n]
		if v == old || v.k == kInvalid {
			continue
		}
		if eq, err := pyCompare("==", v, old); err == nil && eq && v.isConst() {
			fr.env[n] = old
			continue
		}
		fr.env[n] = &val{k: kUndef, s: fmt.Sprintf("%s changes from %s to %s in the loop at line %d; only numbers and tensors can be carried through a loop", n, old.describe(), v.describe(), pos.Line)}
	}
	for _, n := range fresh {
		fr.env[n] = &val{k: kUndef, s: fmt.Sprintf("%s is assigned only inside the loop at line %d and cannot be used after it; assign it before the loop", n, pos.Line)}
	}
}

func (c *compiler) forStmt(fr *frame, s *frontend.For) {
	if len(s.Else) > 0 {
		c.errorf(s.Pos, diag.CodeUnsupported, "for ... else is not supported in Triton")
		return
	}
	target, ok := s.Target.(*frontend.Name)
	if !ok {
		c.errorf(s.Target.Position(), diag.CodeUnsupported, "the target of a for loop must be a single name")
		return
	}
	call, ok := s.Iter.(*frontend.Call)
	var callee *val
	if ok {
		callee = c.expr(fr, call.Func)
	}
	if callee != nil && callee.k == kInvalid {
		return
	}
	if callee == nil || callee.k != kBuiltin || (callee.s != "range" && callee.s != "triton.language.range" && callee.s != "triton.language.static_range") {
		c.errorf(s.Iter.Position(), diag.CodeUnsupported, "for loops in Triton iterate over range(...), tl.range(...) or tl.static_range(...)")
		return
	}
	params := builtins[callee.s].params
	bound := call
	if callee.s == "range" {
		// Triton's code generator reads only the positional bounds of
		// Python's range; it evaluates the keywords and ignores them,
		// whatever their names (flatten=, loop_unroll_factor=, foo=).
		bare := *call
		bare.Keywords = nil
		bound = &bare
		for _, kw := range call.Keywords {
			if c.expr(fr, kw.Value).k == kInvalid {
				return
			}
		}
	}
	a := c.bindArgs(fr, callee.s, bound, params, 1)
	if a == nil {
		return
	}
	lo, hi, step := intVal(0), a.vals[0], intVal(1)
	if a.vals[1] != nil {
		lo, hi = a.vals[0], a.vals[1]
	}
	if a.vals[2] != nil {
		step = a.vals[2]
	}
	if callee.s == "triton.language.static_range" {
		c.staticFor(fr, s, target.ID, lo, hi, step)
		return
	}
	node := &ir.For{Pos: ir.Pos(s.Pos), Body: &ir.Block{}}
	if callee.s == "triton.language.range" {
		c.rangeKeywords(call, params, a, node)
	}
	c.runtimeFor(fr, s, target.ID, node, lo, hi, step)
}

// rangeKeywords checks the keywords of tl.range as Triton's code generator
// reads them and records in node those tri acts on:
//
//   - num_stages and loop_unroll_factor become i32 attributes of the loop,
//     so each must be a compile-time int (or bool) that fits in 32 bits, or
//     None (the default: not set). num_stages is the depth of the loop's
//     software pipeline on sm_90a; below 2 the loop is not pipelined, as in
//     Triton. loop_unroll_factor is recorded (--dump=ir) and not acted on:
//     the loop is emitted as written.
//   - disallow_acc_multi_buffer, flatten, warp_specialize and disable_licm
//     are tested for truth; a runtime value (a tensor) is true, as it is
//     to Python in Triton's code generator, with a warning. All four are
//     recorded or ignored without changing the loop: Triton reads
//     disallow_acc_multi_buffer only for Blackwell's accumulators, tri has
//     no warp specialization and does not flatten loop nests, and its
//     hoisting never moves loads.
//
// num_stages and loop_unroll_factor must be compile-time constants.
func (c *compiler) rangeKeywords(call *frontend.Call, params []string, a *args, node *ir.For) {
	for i, p := range params[3:] {
		v := a.vals[3+i]
		if v == nil || v.k == kNone {
			continue
		}
		pos := call.Pos
		for _, kw := range call.Keywords {
			if kw.Name == p {
				pos = kw.Pos
			}
		}
		if !v.isConst() {
			if p == "num_stages" || p == "loop_unroll_factor" {
				c.errorf(pos, diag.CodeValue, "%s of tl.range must be a compile-time constant, got %s", p, v.describe())
				continue
			}
			// Triton tests these for Python truth, and a tensor is a
			// true object: the keyword is on.
			c.warnAt(pos, diag.CodeValue, "%s of tl.range is %s, not a compile-time constant: Triton takes any tensor as true, and so does tri", p, v.describe())
			if p == "disallow_acc_multi_buffer" {
				node.DisallowAccMMA = true
			}
			continue
		}
		switch p {
		case "num_stages", "loop_unroll_factor":
			n, ok := v.asInt()
			if !ok || !n.IsInt64() || n.Int64() < math.MinInt32 || n.Int64() > math.MaxInt32 {
				c.errorf(pos, diag.CodeType, "%s of tl.range must be an int that fits in 32 bits (Triton makes it an i32 attribute of the loop), got %s", p, v.describe())
				continue
			}
			if p == "num_stages" {
				// 0 in ir.For means "not given" (the kernel's num_stages);
				// Triton does not pipeline a loop of fewer than 2 stages.
				node.NumStages = max(int(n.Int64()), 1)
			} else {
				node.LoopUnroll = int(n.Int64())
			}
		case "disallow_acc_multi_buffer":
			node.DisallowAccMMA = v.truth()
		}
	}
}

func (c *compiler) staticFor(fr *frame, s *frontend.For, name string, lo, hi, step *val) {
	l, ok1 := lo.asInt()
	h, ok2 := hi.asInt()
	st, ok3 := step.asInt()
	if !ok1 || !ok2 || !ok3 {
		c.errorf(s.Iter.Position(), diag.CodeValue, "tl.static_range needs compile-time integer bounds")
		return
	}
	if st.Sign() == 0 {
		c.errorf(s.Iter.Position(), diag.CodeValue, "tl.static_range step must not be zero")
		return
	}
	if !l.IsInt64() || !h.IsInt64() || !st.IsInt64() {
		c.errorf(s.Iter.Position(), diag.CodeValue, "tl.static_range bounds are too large")
		return
	}
	n := 0
	for i := l.Int64(); (st.Sign() > 0 && i < h.Int64()) || (st.Sign() < 0 && i > h.Int64()); i += st.Int64() {
		if n++; n > maxUnroll {
			c.errorf(s.Iter.Position(), diag.CodeValue, "tl.static_range unrolls more than %d iterations", maxUnroll)
			return
		}
		fr.env[name] = intVal(i)
		errs := c.diags.ErrorCount() + c.diags.Dropped()
		c.stmts(fr, s.Body)
		if fr.terminated || c.diags.ErrorCount()+c.diags.Dropped() > errs {
			// Later iterations would repeat the same errors.
			return
		}
	}
}

func (c *compiler) runtimeFor(fr *frame, s *frontend.For, name string, node *ir.For, lo, hi, step *val) {
	pos := s.Iter.Position()
	var types [3]ir.DType
	for i, v := range []*val{lo, hi, step} {
		if v.k == kInvalid {
			return
		}
		d, ok := c.operandType(v, pos)
		if !ok {
			return
		}
		if !d.Kind.IsInt() || v.k == kRuntime && !v.rt.Type.IsScalar() {
			c.errorf(pos, diag.CodeType, "range bounds must be integer scalars, got %s", v.describe())
			return
		}
		types[i] = d
	}
	if step.isConst() && !step.truth() {
		c.errorf(pos, diag.CodeValue, "range() step must not be zero")
		return
	}
	iv := integerPromote(integerPromote(types[0], types[1]), types[2])
	node.Lo, node.Hi, node.Step = c.materialize(lo, iv, pos), c.materialize(hi, iv, pos), c.materialize(step, iv, pos)
	cr, ok := c.enterLoop(fr, s.Body, name, s.Pos)
	if !ok {
		return
	}
	node.Var = c.newVar(name, ir.ScalarType(iv), s.Pos)
	outer := c.blk
	c.blk = node.Body
	fr.runtime++
	fr.loops++
	c.readCarried(fr, cr, s.Pos)
	fr.env[name] = rtVal(c.readVar(node.Var, s.Pos))
	c.stmts(fr, s.Body)
	c.storeCarried(fr, cr, s.Pos)
	fr.runtime--
	fr.loops--
	c.blk = outer
	c.blk.Stmts = append(c.blk.Stmts, node)
	c.exitLoop(fr, cr, name, s.Pos)
}

// whileCondition evaluates the condition of a while loop. Triton 3.6 lets
// it be wrapped as tl.condition(cond, disable_licm=False) to pass the loop
// an attribute; disable_licm is ignored (a runtime value, true to Triton,
// draws a warning), as tri's hoisting leaves loads in their loops (see README).
func (c *compiler) whileCondition(fr *frame, e frontend.Expr) *val {
	call, ok := e.(*frontend.Call)
	if !ok {
		return c.expr(fr, e)
	}
	switch call.Func.(type) {
	case *frontend.Name, *frontend.Attribute:
	default:
		return c.expr(fr, e)
	}
	callee := c.expr(fr, call.Func)
	if callee.k == kInvalid {
		return invalid
	}
	const name = "triton.language.condition"
	if callee.k != kBuiltin || callee.s != name {
		return c.expr(fr, e)
	}
	a := c.bindArgs(fr, name, call, builtins[name].params, 1)
	if a == nil {
		return invalid
	}
	if v := a.vals[1]; v != nil && !v.isConst() {
		// Triton tests it for Python truth, where a tensor is true.
		c.warnAt(call.Pos, diag.CodeValue, "disable_licm of tl.condition is %s, not a compile-time constant: Triton takes any tensor as true, and so does tri", v.describe())
	}
	return a.vals[0]
}

func (c *compiler) whileStmt(fr *frame, s *frontend.While) {
	if len(s.Else) > 0 {
		c.errorf(s.Pos, diag.CodeUnsupported, "while ... else is not supported in Triton")
		return
	}
	cr, ok := c.enterLoop(fr, s.Body, "", s.Pos)
	if !ok {
		return
	}
	node := &ir.While{Cond: &ir.Block{}, Body: &ir.Block{}, Pos: ir.Pos(s.Pos)}
	outer := c.blk
	c.blk = node.Cond
	c.readCarried(fr, cr, s.Pos)
	cond := c.whileCondition(fr, s.Cond)
	if cond.k != kInvalid && cond.k != kRuntime && !cond.isNum() {
		c.errorf(s.Cond.Position(), diag.CodeType, "a while condition must be a boolean, got %s", cond.describe())
		cond = invalid
	}
	node.CondValue = c.condition(cond, s.Cond.Position())
	c.blk = node.Body
	fr.runtime++
	fr.loops++
	c.readCarried(fr, cr, s.Pos)
	c.stmts(fr, s.Body)
	c.storeCarried(fr, cr, s.Pos)
	fr.runtime--
	fr.loops--
	c.blk = outer
	if node.CondValue == nil {
		return
	}
	c.blk.Stmts = append(c.blk.Stmts, node)
	c.exitLoop(fr, cr, "", s.Pos)
}
