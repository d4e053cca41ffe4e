package survey

// This file implements the integer demand of a kernel: the places where
// Triton wants an integer (a loop's bounds, an address's offsets, the
// operands of a shift or a bitwise operator, tl.gather's index, a value
// cast to a pointer), followed back through locals and integer arithmetic
// to the loads that produced the values and to the dtype constexprs they
// were converted to. A pointer whose loads reach such a place points to
// integers (int64 where the loaded value becomes a pointer: a table of
// addresses), and a dtype constexpr that a value there was converted to
// (tl.program_id(0).to(dtype) + tl.arange(0, BLOCK) as an offset) is an
// integer type; a person choosing a launch for the kernel would pick
// those, where the survey's first guesses (fp32 data, tl.float32) make
// tri reject the kernel for the launch rather than for what it does.
//
// A local is followed to the values assigned to it on earlier lines than
// the use (all of them where none is earlier: a value carried round a
// loop), so that w = tl.load(p); w = (w >> 4) & 0xF; w = w * scale does
// not make scale's pointer an integer one.

import "github.com/tri-lang/tri/frontend"

// intUses maps the pointer parameters of fn (ptrs) whose loaded values
// reach an integer place to the element type they need ("int32", or
// "int64" for values cast to pointers), and reports the constexpr
// parameters that such values are converted to with .to(D).
func intUses(fn *frontend.Func, ptrs map[string]bool) (elems map[string]string, dtypes map[string]bool) {
	u := &intScan{fn: fn, ptrs: ptrs, s: newPtrScan(fn), defs: map[string][]frontend.Expr{},
		elems: map[string]string{}, dtypes: map[string]bool{}}
	walkStmts(fn.Body, func(st frontend.Stmt) {
		if a, ok := st.(*frontend.Assign); ok {
			for _, t := range a.Targets {
				u.def(t, a.Value)
			}
		}
	})
	walkStmts(fn.Body, func(st frontend.Stmt) {
		switch st := st.(type) {
		case *frontend.For:
			if c, ok := st.Iter.(*frontend.Call); ok && rangeNames[calleeName(c.Func)] {
				for _, a := range c.Args {
					u.demand(a, "int32")
				}
			}
		case *frontend.AugAssign:
			// p += off steps a pointer by an integer offset.
			if st.Op == "+" || st.Op == "-" {
				if u.isAddress(st.Target) {
					u.demand(st.Value, "int32")
				}
			}
		}
	})
	walkExprs(fn.Body, func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Binary:
			if bitOps[x.Op] {
				u.demand(x.X, "int32")
				u.demand(x.Y, "int32")
			}
		case *frontend.Call:
			u.call(x)
		}
	})
	return u.elems, u.dtypes
}

// intScan is the state of intUses.
type intScan struct {
	fn     *frontend.Func
	ptrs   map[string]bool
	s      *ptrScan
	defs   map[string][]frontend.Expr // local name: the values assigned to it, in source order
	elems  map[string]string
	dtypes map[string]bool
}

// def records that target takes value, element by element for tuples.
func (u *intScan) def(target, value frontend.Expr) {
	switch t := target.(type) {
	case *frontend.Name:
		u.defs[t.ID] = append(u.defs[t.ID], value)
	case *frontend.Tuple:
		if v, ok := value.(*frontend.Tuple); ok && len(v.Elts) == len(t.Elts) {
			for i := range t.Elts {
				u.def(t.Elts[i], v.Elts[i])
			}
		}
	}
}

// call finds the integer places among a call's arguments: the offsets of
// an address, tl.gather's index, and a value cast to a pointer type.
func (u *intScan) call(c *frontend.Call) {
	name := calleeName(c.Func)
	if kw, ok := pointerSinks[name]; ok {
		for _, a := range c.Args[:min(1, len(c.Args))] {
			u.offsets(a)
		}
		for _, k := range c.Keywords {
			if k.Name == kw {
				u.offsets(k.Value)
			}
		}
	}
	if a, ok := c.Func.(*frontend.Attribute); ok {
		switch {
		case name == "gather" && isTL(a.X):
			if len(c.Args) > 1 {
				u.demand(c.Args[1], "int32")
			}
			for _, k := range c.Keywords {
				if k.Name == "index" {
					u.demand(k.Value, "int32")
				}
			}
		case name == "to" && len(c.Args) > 0 && isPointerType(c.Args[0]):
			u.demand(a.X, "int64")
		}
	}
}

// isTL reports whether x is the name tl.
func isTL(x frontend.Expr) bool {
	n, ok := x.(*frontend.Name)
	return ok && n.ID == "tl"
}

// isPointerType reports whether x is tl.pointer_type(...).
func isPointerType(x frontend.Expr) bool {
	c, ok := x.(*frontend.Call)
	return ok && calleeName(c.Func) == "pointer_type"
}

// isAddress reports whether x is computed from a pointer parameter.
func (u *intScan) isAddress(x frontend.Expr) bool {
	for _, n := range u.s.roots(x) {
		if isPtr(u.ptrs, n) {
			return true
		}
	}
	return false
}

// offsets demands integers of the offsets of an address: every operand of
// its + and - chain but the leftmost, the base, also where locals hold
// the address.
func (u *intScan) offsets(x frontend.Expr) {
	seen := map[string]bool{}
	var address func(frontend.Expr)
	address = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Binary:
			if x.Op == "+" || x.Op == "-" {
				address(x.X)
				u.demand(x.Y, "int32")
			}
		case *frontend.IfExp:
			address(x.Then)
			address(x.Else)
		case *frontend.Name:
			if !seen[x.ID] {
				seen[x.ID] = true
				for _, v := range u.defs[x.ID] {
					address(v)
				}
			}
		}
	}
	address(x)
}

// intOps are the operators whose result is an integer where it is used as
// one only if the operands are integers too.
var intOps = map[string]bool{"+": true, "-": true, "*": true, "//": true, "%": true,
	">>": true, "<<": true, "&": true, "|": true, "^": true}

// passThrough are the tl functions whose result is one of their arguments
// (after the first, for tl.where), or the argument's value rounded or
// annotated.
var passThrough = map[string]int{
	"minimum": 0, "maximum": 0, "where": 1, "multiple_of": 0, "max_contiguous": 0,
	"max_constancy": 0, "abs": 0, "cdiv": 0,
}

// demand follows a value used where an integer of elem is wanted back to
// the loads and conversions that produced it.
func (u *intScan) demand(x frontend.Expr, elem string) {
	seen := map[*frontend.Name]bool{}
	var value func(frontend.Expr)
	value = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Binary:
			if intOps[x.Op] {
				value(x.X)
				value(x.Y)
			}
		case *frontend.Unary:
			if x.Op == "-" || x.Op == "~" || x.Op == "+" {
				value(x.X)
			}
		case *frontend.IfExp:
			value(x.Then)
			value(x.Else)
		case *frontend.Subscript:
			value(x.X)
		case *frontend.Name:
			if seen[x] {
				return
			}
			seen[x] = true
			for _, v := range u.before(x) {
				value(v)
			}
		case *frontend.Call:
			name := calleeName(x.Func)
			if a, ok := x.Func.(*frontend.Attribute); ok && name == "to" {
				if len(x.Args) > 0 {
					if n, ok := x.Args[0].(*frontend.Name); ok {
						if p := paramOf(u.fn, n.ID); p != nil && p.Constexpr {
							u.dtypes[n.ID] = true
						}
					}
				}
				value(a.X)
				return
			}
			if name == "load" || name == "atomic_add" || name == "atomic_xchg" || name == "atomic_cas" {
				if len(x.Args) > 0 {
					u.mark(x.Args[0], elem)
				}
				return
			}
			if first, ok := passThrough[name]; ok {
				for _, a := range x.Args[min(first, len(x.Args)):] {
					value(a)
				}
			}
		}
	}
	value(x)
}

// mark records that the pointers address is computed from hold integers
// of elem (int64 over int32).
func (u *intScan) mark(address frontend.Expr, elem string) {
	for _, n := range u.s.roots(address) {
		if isPtr(u.ptrs, n) && u.elems[n] != "int64" {
			u.elems[n] = elem
		}
	}
}

// before are the values assigned to the local n on lines before its use,
// or all of them if none is (a value carried round a loop).
func (u *intScan) before(n *frontend.Name) []frontend.Expr {
	var out []frontend.Expr
	for _, v := range u.defs[n.ID] {
		if v.Position().Line < n.Pos.Line {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return u.defs[n.ID]
	}
	return out
}
