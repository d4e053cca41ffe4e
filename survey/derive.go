package survey

// This file implements the launch a kernel is built for, derived from its
// parameters alone, as a person reading the kernel would guess one:
//
//   - a pointer is a parameter whose name ends in "ptr" or "pointer", or
//     that reaches the address of a load, a store, an atomic or a block
//     pointer: the leftmost operand of the + and - chain written there,
//     followed through local assignments, both arms of conditionals and
//     tl.where, and through the calls of other
//     @jit functions of the file that take it as a pointer. Pointers are
//     bound to small tensors of one element type (fp32, then fp16, then
//     bf16 where the file's @jit functions name tl.bfloat16, then
//     int32 for kernels of integer data: histograms, bit masks, then the
//     other integer types the file's @jit functions name), but
//     for pointers to indices (whose loaded values are added to an
//     address, as cu_seqlens or a cross entropy's targets), which are
//     int32, and pointers whose own uses name their type (uses.go: a
//     dtype check, bitwise use of their loads), which take it.
//   - a parameter that the kernel indexes with integer literals
//     (stride_q[0], ptrs[1]) is a tuple of as many numbers, or pointers
//     where an element is an address's base (tuples.go).
//   - a parameter whose load or store methods the kernel calls with a
//     list of offsets is a host TensorDescriptor over a tensor of the
//     attempt's type, its block along each dimension what the offsets
//     there step by (uses.go).
//   - a tl.constexpr takes its default, else the first autotune config's
//     value, else a heuristic's, else the first literal that a @jit
//     function of the survey compares a parameter of its name with
//     (act_func == "relu", p_loss == 1), else the integer its file binds
//     to its name at module level (BLOCK_M = 128), else False (then True, if no
//     pointer type builds with False) for flags (names that
//     a condition tests alone, as in if not INTERLEAVED:, and names such
//     as HAS_, IS_, USE_, ...), tl.float32 for dtype names (DTYPE,
//     ACC_TYPE; tl.int32 for one that integers are converted to:
//     intuses.go), "ieee" for
//     precision names, 32 for block sizes (BLOCK*, and B followed by
//     capitals: BT, BK) and 16 for the rest (sizes such as a head
//     dimension, which tl.dot wants at least 16, or a convolution's width,
//     which static_range unrolls), raised to a multiple of what a
//     tl.static_assert(A % B == 0) of the kernel divides it by.
//   - any other parameter takes its default, else 0.5 for scale and eps
//     names (but not strides, nor parameters that an address's offsets
//     are computed from: offsets.go), else the integer 64 (an i32
//     divisible by 16, as Triton specializes such a value).

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
)

// derived is a launch line over --let bindings, ready for hosteval.
type derived struct {
	line string
	lets []string
	// guessed are the parameters the survey gave a value of its own (not
	// a default, an autotune config's or a heuristic's).
	guessed map[string]bool
}

// attempt is one way of deriving a launch: the element type of pointers
// and the value of flags.
type attempt struct {
	elem string // "float32", ...
	flag string // "False" or "True"
}

// attempts are tried in order until one builds: flags False with each
// pointer type (fp32, fp16, int32, then the other integer types that the
// @jit functions of the file name: a bit matrix of tl.uint32 words), then
// flags True (a parameter that a flag makes a pointer or a number: if
// IS_OFFSETS_TENSOR: tl.load(offsets) else: offsets).
func attempts(file *frontend.File) []attempt {
	out := []attempt{{"float32", "False"}, {"float16", "False"}}
	if len(namedTypes(file, []string{"bfloat16"})) > 0 {
		// p.to(tl.bfloat16) dotted with a loaded tile: an fp32 or fp16
		// tile makes the dot's operands differ.
		out = append(out, attempt{"bfloat16", "False"})
	}
	out = append(out, attempt{"int32", "False"})
	for _, e := range namedTypes(file, intTypes) {
		out = append(out, attempt{e, "False"})
	}
	return append(out, attempt{"float32", "True"})
}

// intTypes are the integer element types a pointer may be tried with,
// besides int32, in the order they are tried.
var intTypes = []string{"uint32", "int64", "uint64", "int16", "uint16", "int8", "uint8"}

// namedTypes are the types of types that a @jit function of file names as
// an attribute (tl.uint32, x.dtype == tl.int8), in their order.
func namedTypes(file *frontend.File, types []string) []string {
	named := map[string]bool{}
	for _, fn := range file.Funcs {
		walkExprs(fn.Body, func(x frontend.Expr) {
			if a, ok := x.(*frontend.Attribute); ok {
				named[a.Name] = true
			}
		})
	}
	var out []string
	for _, e := range types {
		if named[e] {
			out = append(out, e)
		}
	}
	return out
}

var (
	flagName   = regexp.MustCompile(`^(HAS|IS|USE|ENABLE|EVEN|RETURN|STORE|SAVE|OUTPUT|WITH)_|^(CAUSAL|TRAINING|REVERSE)$`)
	blockName  = regexp.MustCompile(`^(BLOCK|B[A-Z0-9]*$)`)
	dtypeBound = regexp.MustCompile(`(?i)_(max|min|eps)$`)
	floatName  = regexp.MustCompile(`(?i)(^|_)(eps|scale|sm_scale|softmax_scale)(_|$)`)
)

// A constexpr passed for a keyword of Triton's that wants a string or an
// axis (padding_option, cache_modifier, axis) takes a valid value of it,
// and a parameter that is the last stride of a tl.make_tensor_descriptor
// takes 1 (uses.go).

// derive builds the launch of fn: every pointer bound to a tensor of elem,
// every other parameter by the rules above. tuning may be nil.
func derive(j *job, tuning *autotune.Tuning, try attempt) derived {
	elem := try.elem
	fn := j.fn
	allPtrs := pointerParams(j.sf.File)
	ptrs := allPtrs[fn.Name]
	ints := offsetParams(j.sf.File, fn, allPtrs)
	flags := truthTested(fn)
	kws := keywordUses(fn)
	units := unitStrides(fn)
	descs := descriptorParams(fn)
	elems := pointerElems(fn, ptrs)
	tuples := tupleParams(fn)
	_, intDtypes := intUses(fn, ptrs)
	fromConfig := map[string]bool{}
	if tuning != nil && tuning.Autotune != nil && len(tuning.Autotune.Configs) > 0 {
		for name := range tuning.Autotune.Configs[0].Meta {
			fromConfig[name] = true
		}
	}
	var d derived
	var names []string
	vals := map[string]string{}
	guessed := map[string]bool{}
	for _, p := range fn.Params {
		v := ""
		switch {
		case p.Constexpr && (p.Default != nil || fromConfig[p.Name]):
		case p.Constexpr && kws[p.Name] != "":
			v = kws[p.Name]
		case p.Constexpr && j.lits[p.Name] != "":
			v = j.lits[p.Name]
		case p.Constexpr && moduleInt(j.sf.File, p.Name) != "":
			v = moduleInt(j.sf.File, p.Name)
		case p.Constexpr && flags[p.Name]:
			v = try.flag
		case p.Constexpr:
			v = constexprGuess(p.Name, try.flag)
			if v == "tl.float32" && intDtypes[p.Name] {
				v = "tl.int32" // pid.to(dtype) as an offset: intuses.go
			}
			guessed[p.Name] = true
		case kws[p.Name] == keywordValues["prefix"]:
			// A string argument is a compile-time value in Triton whatever
			// the annotation: print(msg) needs one.
			v = kws[p.Name]
		case tuples[p.Name] > 0:
			var lets []string
			v, lets = tupleArg(p.Name, tuples[p.Name], isPtr(ptrs, p.Name), elem)
			d.lets = append(d.lets, lets...)
		case descs[p.Name] != nil:
			v = p.Name // its let follows, once the block sizes are known
		case isPtr(ptrs, p.Name):
			e := elem
			switch {
			case elems[p.Name] != "":
				e = elems[p.Name]
			case ptrs[p.Name]:
				e = "int32"
			}
			d.lets = append(d.lets, fmt.Sprintf("%s=empty(16, dtype='%s')", p.Name, e))
			v = p.Name
		case p.Default != nil:
		case units[p.Name]:
			v = "1"
		case floatName.MatchString(p.Name) && !ints[p.Name] && !strideName.MatchString(p.Name):
			v = "0.5"
		default:
			v = "64"
		}
		if v != "" {
			names = append(names, p.Name)
			vals[p.Name] = v
		}
	}
	fixed := map[string]string{} // values tri gives, not guessed: defaults, the first config's
	for _, p := range fn.Params {
		if c, ok := p.Default.(*frontend.Const); ok && c.Kind == frontend.ConstInt {
			fixed[p.Name] = c.Int.String()
		}
	}
	if tuning != nil && tuning.Autotune != nil && len(tuning.Autotune.Configs) > 0 {
		for name, v := range tuning.Autotune.Configs[0].Meta {
			fixed[name] = v.String()
		}
	}
	roundToMultiples(fn, vals, fixed, guessed)
	known := map[string]string{}
	for n, v := range fixed {
		known[n] = v
	}
	for n, v := range vals {
		known[n] = v
	}
	for _, p := range fn.Params {
		if offs := descs[p.Name]; offs != nil && vals[p.Name] == p.Name {
			d.lets = append(d.lets, descriptorLet(fn, p.Name, offs, elem, known))
		}
	}
	d.guessed = map[string]bool{}
	for _, n := range names {
		d.guessed[n] = true
	}
	args := make([]string, len(names))
	for i, n := range names {
		args[i] = n + "=" + vals[n]
	}
	d.line = fmt.Sprintf("%s[(1,)](%s)", fn.Name, strings.Join(args, ", "))
	return d
}

// roundToMultiples makes the guessed integer constexprs of vals meet the
// divisibility that fn's static asserts state (tl.static_assert(N_PAD %
// BLOCK_N == 0)): a guess A is raised to the next multiple of B, a literal
// or a value of vals or fixed (the first autotune config's). A guess B of
// tl.static_assert(A <= B) (BLOCK_N <= HEAD_DIM, BLOCK_N from a config),
// or A of B >= A, is raised to A. The asserts are applied in order, twice,
// so that a guess raised by one assert can feed the next.
func roundToMultiples(fn *frontend.Func, vals, fixed map[string]string, guessed map[string]bool) {
	type rule struct {
		a, b     frontend.Expr
		multiple bool // a % b == 0; else a <= b
	}
	var rules []rule
	walkExprs(fn.Body, func(x frontend.Expr) {
		c, ok := x.(*frontend.Call)
		if !ok || calleeName(c.Func) != "static_assert" || len(c.Args) == 0 {
			return
		}
		cmp, ok := c.Args[0].(*frontend.Compare)
		if !ok || len(cmp.Ops) != 1 {
			return
		}
		switch cmp.Ops[0] {
		case "==":
			if b, ok := cmp.Left.(*frontend.Binary); ok && b.Op == "%" && isZero(cmp.Rights[0]) {
				rules = append(rules, rule{b.X, b.Y, true})
			}
		case "<=":
			rules = append(rules, rule{cmp.Left, cmp.Rights[0], false})
		case ">=":
			rules = append(rules, rule{cmp.Rights[0], cmp.Left, false})
		}
	})
	intOf := func(x frontend.Expr) (int64, bool) {
		switch x := x.(type) {
		case *frontend.Const:
			if x.Kind == frontend.ConstInt && x.Int.IsInt64() {
				return x.Int.Int64(), true
			}
		case *frontend.Name:
			v, ok := vals[x.ID]
			if !ok {
				v = fixed[x.ID]
			}
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
		return 0, false
	}
	for range 2 {
		for _, r := range rules {
			guess := r.a // the name raised
			if !r.multiple {
				guess = r.b
			}
			g, ok := guess.(*frontend.Name)
			if !ok || !guessed[g.ID] {
				continue
			}
			av, ok1 := intOf(r.a)
			bv, ok2 := intOf(r.b)
			switch {
			case !ok1 || !ok2:
			case r.multiple && bv > 0 && av%bv != 0:
				vals[g.ID] = strconv.FormatInt((av/bv+1)*bv, 10)
			case !r.multiple && av > bv:
				vals[g.ID] = strconv.FormatInt(av, 10)
			}
		}
	}
}

// descriptorLet is the --let binding of a host tensor descriptor
// parameter: TensorDescriptor.from_tensor over a tensor of elem whose
// block along each dimension is what the kernel's offsets there step by
// (blockOf), and whose shape is at least 16 along each, so that its
// strides are 16-byte aligned.
func descriptorLet(fn *frontend.Func, name string, offs []frontend.Expr, elem string, vals map[string]string) string {
	shape := make([]string, len(offs))
	block := make([]string, len(offs))
	for i, off := range offs {
		b := blockOf(fn, off, vals)
		if i == len(offs)-1 {
			b = max(b, 16) // TMA wants 16 bytes along the last dimension
		}
		block[i] = strconv.FormatInt(b, 10)
		shape[i] = strconv.FormatInt(max(b, 16), 10)
	}
	return fmt.Sprintf("%s=TensorDescriptor.from_tensor(empty((%s,), dtype='%s'), [%s])",
		name, strings.Join(shape, ", "), elem, strings.Join(block, ", "))
}

// moduleInt is the integer literal that file binds at module level to
// name (BLOCK_M = 128 beside a kernel whose BLOCK_M the launch passes as
// BLOCK_M=BLOCK_M), else "".
func moduleInt(file *frontend.File, name string) string {
	for _, g := range file.Globals {
		if c, ok := g.Value.(*frontend.Const); ok && g.Name == name && c.Kind == frontend.ConstInt && g.Stale == "" {
			return c.Int.String()
		}
	}
	return ""
}

// isZero reports whether x is the literal 0.
func isZero(x frontend.Expr) bool {
	c, ok := x.(*frontend.Const)
	return ok && c.Kind == frontend.ConstInt && c.Int.Sign() == 0
}

func isPtr(ptrs map[string]bool, name string) bool {
	_, ok := ptrs[name]
	return ok
}

// constexprGuess is the value of a tl.constexpr that nothing else gives;
// flag is that of flags.
func constexprGuess(name, flag string) string {
	switch {
	case flagName.MatchString(name):
		return flag
	case dtypeBound.MatchString(name): // fp8_dtype_max: a number
	case strings.Contains(strings.ToLower(name), "dtype") || strings.HasSuffix(strings.ToLower(name), "_type"):
		return "tl.float32"
	case strings.Contains(strings.ToLower(name), "precision"):
		return `"ieee"`
	case blockName.MatchString(name):
		return "32"
	}
	return "16"
}

// truthTested finds the names that fn's conditions test for truth alone
// (if FLAG:, if not FLAG:, A and FLAG, x if FLAG else y): flags, which a
// constexpr that nothing else gives a value takes as False.
func truthTested(fn *frontend.Func) map[string]bool {
	out := map[string]bool{}
	var cond func(frontend.Expr)
	cond = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Name:
			out[x.ID] = true
		case *frontend.Unary:
			if x.Op == "not" {
				cond(x.X)
			}
		case *frontend.BoolOp:
			for _, v := range x.Values {
				cond(v)
			}
		}
	}
	walkStmts(fn.Body, func(st frontend.Stmt) {
		switch st := st.(type) {
		case *frontend.If:
			cond(st.Cond)
		case *frontend.While:
			cond(st.Cond)
		}
	})
	walkExprs(fn.Body, func(x frontend.Expr) {
		if e, ok := x.(*frontend.IfExp); ok {
			cond(e.Cond)
		}
	})
	return out
}

// pointerSinks are the tl functions whose first argument (or the keyword
// named in the value) is an address.
var pointerSinks = map[string]string{
	"load": "pointer", "store": "pointer", "make_block_ptr": "base",
	"make_tensor_descriptor": "base", "_experimental_make_tensor_descriptor": "base",
	"atomic_add": "pointer", "atomic_max": "pointer", "atomic_min": "pointer", "atomic_and": "pointer",
	"atomic_or": "pointer", "atomic_xor": "pointer", "atomic_xchg": "pointer", "atomic_cas": "pointer",
}

// pointerParams finds the pointer parameters of every @jit function of
// file, by function and parameter name: true for a pointer to integers
// (one whose loaded values are added to an address: an index, as
// cu_seqlens or a target class), false for other pointers. Uses as
// pointers flow from callees to callers, so the functions are scanned until
// nothing changes.
func pointerParams(file *frontend.File) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	byName := map[string]*frontend.Func{}
	for _, fn := range file.Funcs {
		byName[fn.Name] = fn
		out[fn.Name] = map[string]bool{}
		for _, p := range fn.Params {
			if n := strings.ToLower(p.Name); !p.Constexpr && (strings.HasSuffix(n, "ptr") || strings.HasSuffix(n, "pointer")) {
				out[fn.Name][p.Name] = false
			}
		}
	}
	// returned holds, by function, the parameters its return value is
	// computed from (g in return g + off): a call's result used as an
	// address makes those arguments addresses too.
	returned := map[string]map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, fn := range file.Funcs {
			s := newPtrScan(fn)
			s.through = func(c *frontend.Call) []frontend.Expr { return returnedArgs(c, byName, returned) }
			walkStmts(fn.Body, func(st frontend.Stmt) {
				r, ok := st.(*frontend.Return)
				if !ok || r.Value == nil {
					return
				}
				for _, name := range s.roots(r.Value) {
					if s.isParam(name) && !returned[fn.Name][name] {
						if returned[fn.Name] == nil {
							returned[fn.Name] = map[string]bool{}
						}
						returned[fn.Name][name] = true
						changed = true
					}
				}
			})
			var addrs, indices []frontend.Expr
			walkExprs(fn.Body, func(x frontend.Expr) {
				if c, ok := x.(*frontend.Call); ok {
					addrs = append(addrs, addressArgs(c, byName, out)...)
					indices = append(indices, indexArgs(c, byName, out)...)
				}
			})
			mark := func(name string, index bool) {
				if was, ok := out[fn.Name][name]; s.isParam(name) && (!ok || index && !was) {
					out[fn.Name][name] = index
					changed = true
				}
			}
			for _, a := range addrs {
				for _, name := range s.roots(a) {
					mark(name, false)
				}
				for _, name := range s.indexRoots(a) {
					mark(name, true)
				}
			}
			// A pointer passed for a helper's pointer to indices points to
			// indices too (gdpa's Q_offsets, loaded by its compute helper).
			for _, a := range indices {
				for _, name := range s.roots(a) {
					mark(name, true)
				}
			}
			// A loop's bounds loaded through a pointer are integers too
			// (NS = tl.load(block_counts + i); for i in range(NS)).
			walkStmts(fn.Body, func(st frontend.Stmt) {
				f, ok := st.(*frontend.For)
				if !ok {
					return
				}
				if c, ok := f.Iter.(*frontend.Call); ok && rangeNames[calleeName(c.Func)] {
					for _, arg := range c.Args {
						for _, name := range s.boundLoads(arg) {
							mark(name, true)
						}
					}
				}
			})
		}
	}
	return out
}

// addressArgs are the arguments of call c that are addresses: the pointer
// of a tl load, store, atomic or block pointer, or an argument that a @jit
// function of the file takes as a pointer.
func addressArgs(c *frontend.Call, byName map[string]*frontend.Func, ptrs map[string]map[string]bool) []frontend.Expr {
	name := calleeName(c.Func)
	if kw, ok := pointerSinks[name]; ok {
		var out []frontend.Expr
		if len(c.Args) > 0 {
			out = append(out, c.Args[0])
		}
		for _, k := range c.Keywords {
			if k.Name == kw {
				out = append(out, k.Value)
			}
		}
		return out
	}
	callee := byName[name]
	if callee == nil {
		return nil
	}
	var out []frontend.Expr
	for i, a := range c.Args {
		if _, ok := ptrs[callee.Name][paramName(callee, i)]; ok {
			out = append(out, a)
		}
	}
	for _, k := range c.Keywords {
		if _, ok := ptrs[callee.Name][k.Name]; ok {
			out = append(out, k.Value)
		}
	}
	return out
}

// indexArgs are the arguments of call c that a @jit function of the file
// takes as a pointer to indices.
func indexArgs(c *frontend.Call, byName map[string]*frontend.Func, ptrs map[string]map[string]bool) []frontend.Expr {
	callee := byName[calleeName(c.Func)]
	if callee == nil {
		return nil
	}
	var out []frontend.Expr
	for i, a := range c.Args {
		if ptrs[callee.Name][paramName(callee, i)] {
			out = append(out, a)
		}
	}
	for _, k := range c.Keywords {
		if ptrs[callee.Name][k.Name] {
			out = append(out, k.Value)
		}
	}
	return out
}

// returnedArgs are the arguments of call c to a @jit function of the file
// that its return value is computed from.
func returnedArgs(c *frontend.Call, byName map[string]*frontend.Func, returned map[string]map[string]bool) []frontend.Expr {
	callee := byName[calleeName(c.Func)]
	if callee == nil {
		return nil
	}
	var out []frontend.Expr
	for i, a := range c.Args {
		if returned[callee.Name][paramName(callee, i)] {
			out = append(out, a)
		}
	}
	for _, k := range c.Keywords {
		if returned[callee.Name][k.Name] {
			out = append(out, k.Value)
		}
	}
	return out
}

// paramName is the name of fn's i-th parameter, or "".
func paramName(fn *frontend.Func, i int) string {
	if i < len(fn.Params) {
		return fn.Params[i].Name
	}
	return ""
}

// calleeName is the last name of a call's dotted callee (tl.load: load).
func calleeName(f frontend.Expr) string {
	switch f := f.(type) {
	case *frontend.Name:
		return f.ID
	case *frontend.Attribute:
		return f.Name
	}
	return ""
}

// ptrScan follows addresses back to parameters through one function's
// local assignments.
type ptrScan struct {
	params  []string
	assigns map[string][]frontend.Expr // local name: every value assigned to it
	at      map[string][]diag.Pos      // local name: where each of assigns[name] is assigned
	branch  map[diag.Pos]bool          // the assignments inside an if's branches
	steps   map[string][]frontend.Expr // name: every value added by += or -=
	// through gives the arguments a call's result is computed from (nil:
	// calls are not followed).
	through func(c *frontend.Call) []frontend.Expr
}

func newPtrScan(fn *frontend.Func) *ptrScan {
	s := &ptrScan{assigns: map[string][]frontend.Expr{}, at: map[string][]diag.Pos{}, branch: map[diag.Pos]bool{},
		steps: map[string][]frontend.Expr{}}
	for _, p := range fn.Params {
		s.params = append(s.params, p.Name)
	}
	walkStmts(fn.Body, func(st frontend.Stmt) {
		if st, ok := st.(*frontend.If); ok {
			for _, b := range [][]frontend.Stmt{st.Then, st.Else} {
				walkStmts(b, func(in frontend.Stmt) {
					if a, ok := in.(*frontend.Assign); ok {
						s.branch[a.Pos] = true
					}
				})
			}
		}
	})
	walkStmts(fn.Body, func(st frontend.Stmt) {
		switch st := st.(type) {
		case *frontend.Assign:
			for _, t := range st.Targets {
				s.bindAt(t, st.Value, st.Pos)
			}
		case *frontend.AugAssign:
			// p += off keeps p's base and adds an offset.
			if n, ok := st.Target.(*frontend.Name); ok && (st.Op == "+" || st.Op == "-") {
				s.steps[n.ID] = append(s.steps[n.ID], st.Value)
			}
		}
	})
	return s
}

// bindAt records that target takes value in the assignment at pos,
// element by element for tuples.
func (s *ptrScan) bindAt(target, value frontend.Expr, pos diag.Pos) {
	switch t := target.(type) {
	case *frontend.Name:
		s.assigns[t.ID] = append(s.assigns[t.ID], value)
		s.at[t.ID] = append(s.at[t.ID], pos)
	case *frontend.Tuple:
		if v, ok := value.(*frontend.Tuple); ok && len(v.Elts) == len(t.Elts) {
			for i := range t.Elts {
				s.bindAt(t.Elts[i], v.Elts[i], pos)
			}
		}
	}
}

// reaching are the values of local name that its use at use can read:
// the last assignment on an earlier line outside any if's branches, and
// every assignment after it and before the use (in branches); all earlier
// ones where each is in a branch; all of them where none is earlier (a
// value carried round a loop) or positions are unknown. ptr = scales_ptrs + g; s =
// tl.load(ptr); ptr = zeros_ptrs + g; z = tl.load(ptr) loads z through
// zeros_ptrs alone.
func (s *ptrScan) reaching(name string, use diag.Pos) []frontend.Expr {
	vs, at := s.assigns[name], s.at[name]
	if len(vs) == 0 || len(at) != len(vs) || use.Line == 0 || slices.ContainsFunc(at, func(p diag.Pos) bool { return p.Line == 0 }) {
		return vs
	}
	var out []frontend.Expr
	for i := len(at) - 1; i >= 0; i-- {
		if at[i].Line >= use.Line {
			continue
		}
		out = append(out, vs[i])
		if !s.branch[at[i]] {
			return out
		}
	}
	if len(out) == 0 {
		return vs
	}
	return out
}

func (s *ptrScan) isParam(name string) bool { return slices.Contains(s.params, name) }

// roots are the names an address is computed from: the leftmost operand of
// + and - chains (the base; the offsets are added to it), both arms of a
// conditional and of tl.where, the value of tl.multiple_of and friends and of .to(), and,
// for a local, the roots of every value assigned to it.
func (s *ptrScan) roots(x frontend.Expr) []string {
	var out []string
	// A local is followed once per use (p = tl.where(c, q, p) reads the
	// p of the line before), and named once.
	named, followed := map[string]bool{}, map[diag.Pos]bool{}
	var visit func(frontend.Expr)
	visit = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Name:
			if followed[x.Pos] || x.Pos.Line == 0 && named[x.ID] {
				return
			}
			followed[x.Pos] = true
			if !named[x.ID] {
				named[x.ID] = true
				out = append(out, x.ID)
			}
			for _, v := range s.reaching(x.ID, x.Pos) {
				visit(v)
			}
		case *frontend.Binary:
			if x.Op == "+" || x.Op == "-" {
				visit(x.X)
			}
		case *frontend.IfExp:
			visit(x.Then)
			visit(x.Else)
		case *frontend.Subscript:
			// An element of a tuple of pointers (ptrs[0] + offs), or a
			// pointer tile reshaped (p[:, None]), is an address of its
			// base.
			visit(x.X)
		case *frontend.Call:
			switch name := calleeName(x.Func); {
			case name == "multiple_of" || name == "max_contiguous" || name == "max_constancy" || name == "advance":
				if len(x.Args) > 0 {
					visit(x.Args[0])
				}
			case name == "make_block_ptr" && len(x.Args) > 0:
				visit(x.Args[0])
			case name == "where" && len(x.Args) == 3:
				// tl.where(is_q, q_ptr, k_ptr): either pointer.
				visit(x.Args[1])
				visit(x.Args[2])
			case name == "to":
				if a, ok := x.Func.(*frontend.Attribute); ok {
					visit(a.X)
				}
			case s.through != nil:
				for _, a := range s.through(x) {
					visit(a)
				}
			}
		}
	}
	visit(x)
	return out
}

// rangeNames are the loops whose bounds loadedFrom follows.
var rangeNames = map[string]bool{"range": true, "static_range": true}

// loadedFrom are the pointers that the values in x were loaded through (by
// a load, or an atomic's old value), also through locals; seen holds the
// locals already followed.
func (s *ptrScan) loadedFrom(x frontend.Expr, seen map[string]bool) []string {
	var out []string
	walkExpr(x, func(y frontend.Expr) {
		switch y := y.(type) {
		case *frontend.Call:
			if name := calleeName(y.Func); (name == "load" || strings.HasPrefix(name, "atomic_")) && len(y.Args) > 0 {
				out = append(out, s.roots(y.Args[0])...)
			}
		case *frontend.Name:
			if !seen[y.ID] {
				seen[y.ID] = true
				for _, v := range s.assigns[y.ID] {
					out = append(out, s.loadedFrom(v, seen)...)
				}
			}
		}
	})
	return out
}

// boundLoads are the pointers that a loop bound is loaded through: a load
// in the bound itself, or one that a local of the bound is assigned
// (NS = tl.load(counts + i), also with .to(...)), also through integer
// arithmetic of locals (blocks = (M + BLOCK - 1) // BLOCK with M =
// tl.load(n_tokens)); values computed from loads of data by other calls
// (tl.sum) are not followed.
func (s *ptrScan) boundLoads(x frontend.Expr) []string {
	var out []string
	seen := map[string]bool{}
	var value func(v frontend.Expr)
	value = func(v frontend.Expr) {
		switch v := v.(type) {
		case *frontend.Call:
			if a, ok := v.Func.(*frontend.Attribute); ok && a.Name == "to" {
				value(a.X)
			} else if calleeName(v.Func) == "load" && len(v.Args) > 0 {
				out = append(out, s.roots(v.Args[0])...)
			}
		case *frontend.Binary:
			if v.Op == "+" || v.Op == "-" || v.Op == "*" || v.Op == "//" || v.Op == "%" {
				value(v.X)
				value(v.Y)
			}
		case *frontend.Name:
			if !seen[v.ID] {
				seen[v.ID] = true
				for _, a := range s.assigns[v.ID] {
					value(a)
				}
			}
		}
	}
	walkExpr(x, func(y frontend.Expr) {
		switch y.(type) {
		case *frontend.Call, *frontend.Name:
			value(y)
		}
	})
	return out
}

// indexRoots are the pointers that an address's offsets were loaded
// through (by a load, or an atomic's old value): idx in
// p + tl.load(idx + i) * stride, also where locals hold the load or the
// base with the offset added, and in p += tl.load(idx + i).
func (s *ptrScan) indexRoots(x frontend.Expr) []string {
	var out []string
	seen := map[string]bool{}
	offsets := func(x frontend.Expr) { out = append(out, s.loadedFrom(x, seen)...) }
	var address func(frontend.Expr)
	address = func(x frontend.Expr) {
		switch x := x.(type) {
		case *frontend.Binary:
			// The base is the leftmost operand of + and -; the rest are
			// offsets.
			if x.Op == "+" || x.Op == "-" {
				address(x.X)
				offsets(x.Y)
			}
		case *frontend.IfExp:
			address(x.Then)
			address(x.Else)
		case *frontend.Name:
			if !seen[x.ID] {
				seen[x.ID] = true
				for _, v := range s.assigns[x.ID] {
					address(v)
				}
				for _, v := range s.steps[x.ID] {
					offsets(v)
				}
			}
		}
	}
	address(x)
	return out
}
