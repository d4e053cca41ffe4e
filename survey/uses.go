package survey

// This file implements what a kernel's own uses of a parameter say about
// its value, beyond its name: a constexpr passed where Triton wants a
// string or an axis, a stride that is a tensor descriptor's last (1, which
// Triton specializes as a constant), a parameter whose load and store
// methods are called (a host TensorDescriptor), and the element type of
// each pointer (one named by a dtype check, integers where loaded values
// are shifted or masked bitwise).

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/frontend"
)

// keywordValues are the values a constexpr takes where a kernel passes it
// as one of these keywords of a Triton function: a valid value of the
// keyword (the launch's 16 is none).
var keywordValues = map[string]string{
	"padding_option": `"zero"`, "cache_modifier": `""`, "eviction_policy": `""`,
	"sem": `"acq_rel"`, "scope": `"gpu"`, "input_precision": `"ieee"`,
	"rounding": `"rtne"`, "axis": "0", "dim": "0",
	"max_num_imprecise_acc": "0", "mask": "True", "other": "0",
	"prefix": `"x: "`,
}

// printNames are the functions whose first argument is the printed
// prefix, which Triton's device_print asserts is a string (print in a
// kernel is tl.device_print).
var printNames = map[string]bool{"print": true, "device_print": true}

// atomicPositions are the keywords of a tl atomic that a call may pass by
// position: tl.atomic_cas(ptr, cmp, val, SEM), tl.atomic_add(ptr, val,
// mask, SEM).
var atomicPositions = map[int]string{3: "sem", 4: "scope"}

// axisAt maps the Triton functions that take an axis to the position of
// their axis argument: the second (tl.sum(x, AXIS); x.sum(AXIS) takes it
// first), the third for tl.gather(src, index, AXIS).
var axisAt = map[string]int{
	"sum": 1, "max": 1, "min": 1, "reduce": 1, "argmax": 1, "argmin": 1,
	"cumsum": 1, "cumprod": 1, "flip": 1, "xor_sum": 1, "associative_scan": 1,
	"sort": 1, "reduce_or": 1, "softmax": 1, "gather": 2,
}

// keywordUses maps each parameter of fn that fn passes, as itself, for a
// keyword of keywordValues (tl.load(p, cache_modifier=CACHE), tl.sum(x,
// axis=AXIS), tl.sum(x, AXIS), tl.atomic_cas(p, c, v, SEM)) to that
// keyword's value.
func keywordUses(fn *frontend.Func) map[string]string {
	out := map[string]string{}
	put := func(x frontend.Expr, kw string) {
		if n, ok := x.(*frontend.Name); ok && isParamOf(fn, n.ID) {
			if _, seen := out[n.ID]; !seen {
				out[n.ID] = keywordValues[kw]
			}
		}
	}
	walkExprs(fn.Body, func(x frontend.Expr) {
		c, ok := x.(*frontend.Call)
		if !ok {
			return
		}
		for _, k := range c.Keywords {
			if _, ok := keywordValues[k.Name]; ok {
				put(k.Value, k.Name)
			}
		}
		if printNames[calleeName(c.Func)] && len(c.Args) > 0 {
			put(c.Args[0], "prefix")
		}
		if strings.HasPrefix(calleeName(c.Func), "atomic_") {
			for i, arg := range c.Args {
				if kw, ok := atomicPositions[i]; ok {
					put(arg, kw)
				}
			}
		}
		a, ok := c.Func.(*frontend.Attribute)
		if !ok || axisAt[a.Name] == 0 {
			return
		}
		// tl.sum(x, AXIS) passes the axis second; x.sum(AXIS), first.
		i := axisAt[a.Name]
		if n, ok := a.X.(*frontend.Name); !ok || n.ID != "tl" && n.ID != "triton" {
			i--
		}
		if i < len(c.Args) {
			put(c.Args[i], "axis")
		}
	})
	return out
}

// isParamOf reports whether name is a parameter of fn.
func isParamOf(fn *frontend.Func, name string) bool {
	for _, p := range fn.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// unitStrides are the parameters of fn that are the last of the strides
// of a tl.make_tensor_descriptor: Triton wants 1 there and gets it
// because it specializes an integer argument equal to 1 as a constant.
func unitStrides(fn *frontend.Func) map[string]bool {
	out := map[string]bool{}
	walkExprs(fn.Body, func(x frontend.Expr) {
		c, ok := x.(*frontend.Call)
		if !ok {
			return
		}
		switch calleeName(c.Func) {
		case "make_tensor_descriptor", "_experimental_make_tensor_descriptor":
		default:
			return
		}
		strides := frontend.Expr(nil)
		if len(c.Args) > 2 {
			strides = c.Args[2]
		}
		for _, k := range c.Keywords {
			if k.Name == "strides" {
				strides = k.Value
			}
		}
		if elts := elements(strides); len(elts) > 0 {
			if n, ok := elts[len(elts)-1].(*frontend.Name); ok && isParamOf(fn, n.ID) {
				out[n.ID] = true
			}
		}
	})
	return out
}

// elements are the items of a list or tuple expression, else nil.
func elements(x frontend.Expr) []frontend.Expr {
	switch x := x.(type) {
	case *frontend.List:
		return x.Elts
	case *frontend.Tuple:
		return x.Elts
	}
	return nil
}

// descMethods are the methods of a tensor descriptor that take offsets
// first.
var descMethods = map[string]bool{
	"load": true, "store": true, "atomic_add": true, "atomic_min": true, "atomic_max": true,
	"atomic_and": true, "atomic_or": true, "atomic_xor": true, "gather": false, "scatter": false,
}

// descriptorParams finds the parameters of fn that are host tensor
// descriptors: those (or locals assigned them) whose load, store or
// atomic methods fn calls with a list of offsets (desc.load([m, k])). Each
// maps to one offset expression per dimension, from the first such call.
func descriptorParams(fn *frontend.Func) map[string][]frontend.Expr {
	s := newPtrScan(fn)
	out := map[string][]frontend.Expr{}
	walkExprs(fn.Body, func(x frontend.Expr) {
		c, ok := x.(*frontend.Call)
		if !ok || len(c.Args) == 0 {
			return
		}
		a, ok := c.Func.(*frontend.Attribute)
		if !ok || !descMethods[a.Name] {
			return
		}
		offs := elements(c.Args[0])
		if len(offs) == 0 {
			return
		}
		for _, name := range s.roots(a.X) {
			if p := paramOf(fn, name); p != nil && !p.Constexpr && out[name] == nil {
				out[name] = offs
			}
		}
	})
	return out
}

// paramOf is fn's parameter of that name, or nil.
func paramOf(fn *frontend.Func, name string) *frontend.Param {
	for _, p := range fn.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// blockOf is the size of a descriptor's block along the dimension that
// offset indexes, read from the constexpr that offset is computed from
// (pid * BLOCK_M, a loop variable stepping by BLOCK_K, offs_k +=
// BLOCK_K), with vals the launch's values: a program id (a batch index)
// takes 1, a constant offset (0, a whole head dimension) the kernel's
// head-size constexpr if it has one, and anything else 16.
func blockOf(fn *frontend.Func, offset frontend.Expr, vals map[string]string) int64 {
	steps := loopSteps(fn)
	s := newPtrScan(fn)
	seen := map[string]bool{}
	var found int64
	var visit func(x frontend.Expr)
	visit = func(x frontend.Expr) {
		walkExpr(x, func(y frontend.Expr) {
			n, ok := y.(*frontend.Name)
			if !ok || found > 0 || seen[n.ID] {
				return
			}
			seen[n.ID] = true
			if p := paramOf(fn, n.ID); p != nil && p.Constexpr {
				if v, err := strconv.ParseInt(vals[n.ID], 10, 64); err == nil && v > 0 {
					found = v
				}
				return
			}
			for _, v := range s.assigns[n.ID] {
				visit(v)
			}
			for _, v := range steps[n.ID] {
				visit(v)
			}
			for _, v := range s.steps[n.ID] { // offs_k += BLOCK_K
				visit(v)
			}
		})
	}
	visit(offset)
	switch {
	case found > 0:
		return found
	case isProgramID(s, offset):
		return 1
	}
	for _, p := range fn.Params {
		if v, err := strconv.ParseInt(vals[p.Name], 10, 64); err == nil && p.Constexpr && headName.MatchString(p.Name) && v > 0 && isConst(offset) {
			return v
		}
	}
	return 16
}

// isProgramID reports whether x is tl.program_id(...), or a local assigned
// only that: one block per program along that dimension (a batch index).
func isProgramID(s *ptrScan, x frontend.Expr) bool {
	switch x := x.(type) {
	case *frontend.Call:
		return calleeName(x.Func) == "program_id"
	case *frontend.Name:
		vs := s.assigns[x.ID]
		return len(vs) == 1 && isProgramID(s, vs[0]) && len(s.steps[x.ID]) == 0
	}
	return false
}

// headName matches the constexprs that size a whole head or feature
// dimension (HEAD_DIM, D, BLOCK_DMODEL), which a descriptor loads whole
// from offset 0.
var headName = regexp.MustCompile(`(?i)head|dim|dmodel|^d$`)

// isConst reports whether x is a literal.
func isConst(x frontend.Expr) bool {
	_, ok := x.(*frontend.Const)
	return ok
}

// loopSteps maps each loop variable of fn to its range's start and step
// (for k in range(0, K, BLOCK_K): k steps by BLOCK_K).
func loopSteps(fn *frontend.Func) map[string][]frontend.Expr {
	out := map[string][]frontend.Expr{}
	walkStmts(fn.Body, func(st frontend.Stmt) {
		f, ok := st.(*frontend.For)
		if !ok {
			return
		}
		n, ok := f.Target.(*frontend.Name)
		c, ok2 := f.Iter.(*frontend.Call)
		if !ok || !ok2 || !rangeNames[calleeName(c.Func)] {
			return
		}
		switch len(c.Args) {
		case 2:
			out[n.ID] = append(out[n.ID], c.Args[0])
		case 3:
			out[n.ID] = append(out[n.ID], c.Args[2], c.Args[0])
		}
	})
	return out
}

// pointerElems finds, for pointer parameters of fn whose uses say which
// element type they point to, that type (Triton's name: "int16"):
// a check of the pointer's element type or of a value loaded through it
// against a tl dtype (tl.static_assert(a.dtype == tl.int16), if
// x_ptr.dtype.element_ty == tl.float16:), else int32 for a pointer whose
// loaded values are shifted or combined bitwise (packed int4 weights: w >>
// 4 & 0xF) or reach another place that wants integers, int64 for one
// whose loaded values are cast to pointers (intuses.go). Other pointers
// take the attempt's type.
func pointerElems(fn *frontend.Func, ptrs map[string]bool) map[string]string {
	s := newPtrScan(fn)
	out := map[string]string{}
	// pointersOf are the pointer parameters that x is, or was loaded
	// through: x_ptr, x_ptr.dtype.element_ty, tl.load(x_ptr + o), a local
	// holding such a load.
	pointersOf := func(x frontend.Expr) []string {
		var names []string
		for {
			a, ok := x.(*frontend.Attribute)
			if !ok {
				break
			}
			x = a.X
		}
		for _, n := range append(s.roots(x), s.loadedFrom(x, map[string]bool{})...) {
			if isPtr(ptrs, n) {
				names = append(names, n)
			}
		}
		return names
	}
	walkExprs(fn.Body, func(x frontend.Expr) {
		c, ok := x.(*frontend.Compare)
		if !ok || len(c.Ops) != 1 || c.Ops[0] != "==" {
			return
		}
		l, r := c.Left, c.Rights[0]
		if dtypeAttr(l) != "" {
			l, r = r, l
		}
		t := dtypeAttr(r)
		if t == "" || !isDtypeOf(l) {
			return
		}
		for _, n := range pointersOf(l) {
			if _, ok := out[n]; !ok {
				out[n] = t
			}
		}
	})
	walkExprs(fn.Body, func(x frontend.Expr) {
		b, ok := x.(*frontend.Binary)
		if !ok || !bitOps[b.Op] {
			return
		}
		for _, operand := range []frontend.Expr{b.X, b.Y} {
			if !loadOrLocal(s, operand) {
				continue
			}
			for _, n := range s.loadedFrom(operand, map[string]bool{}) {
				if _, ok := out[n]; !ok && isPtr(ptrs, n) {
					out[n] = "int32"
				}
			}
		}
	})
	ints, _ := intUses(fn, ptrs)
	for n, e := range ints {
		if _, ok := out[n]; !ok || e == "int64" {
			out[n] = e
		}
	}
	return out
}

// bitOps are the operators that take integers only.
var bitOps = map[string]bool{">>": true, "<<": true, "&": true, "|": true, "^": true}

// loadOrLocal reports whether x is a load, or a local whose values are all
// loads (w = tl.load(p + o)): a bitwise & of two comparisons is not a use
// of loaded integers.
func loadOrLocal(s *ptrScan, x frontend.Expr) bool {
	switch x := x.(type) {
	case *frontend.Call:
		return calleeName(x.Func) == "load"
	case *frontend.Name:
		vs := s.assigns[x.ID]
		for _, v := range vs {
			if c, ok := v.(*frontend.Call); !ok || calleeName(c.Func) != "load" {
				return false
			}
		}
		return len(vs) > 0
	}
	return false
}

// dtypeAttr is "int16" for tl.int16 (any tl dtype name), else "".
func dtypeAttr(x frontend.Expr) string {
	a, ok := x.(*frontend.Attribute)
	if !ok {
		return ""
	}
	if n, ok := a.X.(*frontend.Name); !ok || n.ID != "tl" {
		return ""
	}
	if elemTypes[a.Name] {
		return a.Name
	}
	return ""
}

// elemTypes are the element types a surveyed pointer can have.
var elemTypes = map[string]bool{
	"float32": true, "float16": true, "bfloat16": true, "float64": true,
	"int8": true, "int16": true, "int32": true, "int64": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true,
}

// isDtypeOf reports whether x asks for a dtype: x.dtype, x.dtype.element_ty,
// x.type.element_ty.
func isDtypeOf(x frontend.Expr) bool {
	a, ok := x.(*frontend.Attribute)
	return ok && (a.Name == "dtype" || a.Name == "element_ty")
}
