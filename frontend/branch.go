package frontend

// This file implements the choice of the arms of module-level if and try
// statements that run, as Python would choose them when importing the
// module on a CUDA machine with a recent Triton.
//
// An if chain takes the first arm whose condition is true. A condition tri
// can evaluate without running host code (constants, the module's literal
// globals, not/and/or, comparisons, hasattr on a Triton module or a module
// of the project, os.environ.get and os.getenv, which see an unset
// variable and give their default, int/float/str/bool of those, __name__,
// which is the module's name as the file is imported, not run, and
// typing.TYPE_CHECKING, which is false) decides; one it cannot (a call into
// torch, a flag computed by host code) is taken if the names its arm binds
// resolve, else the chain goes on. A try takes its body (and its else) when
// every name the body binds resolves, else the first except arm whose names
// do; a finally always runs. Arms are decided on first need, once.

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
)

// runs reports whether arm (nil: the top level) runs when m is imported.
func (m *module) runs(arm *Arm) bool {
	if arm == nil {
		return true
	}
	if !m.runs(arm.Cond.Arm) {
		return false
	}
	switch m.arms[arm] {
	case armRuns:
		return true
	case armSkipped, armDeciding:
		return false
	}
	m.decide(arm.Cond)
	return m.arms[arm] == armRuns
}

// decide settles every arm of cond.
func (m *module) decide(cond *Cond) {
	m.loader.deciding++
	defer func() { m.loader.deciding-- }()
	for _, a := range cond.Arms {
		m.arms[a] = armDeciding
	}
	set := func(a *Arm, runs bool) {
		if runs {
			m.arms[a] = armRuns
		} else {
			m.arms[a] = armSkipped
		}
	}
	if cond.Try {
		body := m.resolves(cond.Arms[0])
		handled := body
		for _, a := range cond.Arms {
			switch a.Kind {
			case ArmTry, ArmTryElse:
				set(a, body)
			case ArmExcept:
				runs := !handled && m.resolves(a)
				handled = handled || runs
				set(a, runs)
			case ArmFinally:
				set(a, true)
			}
		}
		return
	}
	taken := false
	for _, a := range cond.Arms {
		if taken {
			set(a, false)
			continue
		}
		if a.Kind == ArmElse {
			set(a, true)
			taken = true
			continue
		}
		v, known := m.eval(a.Test, 0)
		switch {
		case (&fileParser{file: m.file}).isTritonGuard(a.Test):
			// if has_triton(): (and torch_version_at_least(...) and
			// has_triton()) runs where Triton does: its kernels are the
			// ones tri reads (hastriton.go).
			taken = true
		case known:
			taken = v.truth()
		default:
			taken = m.resolves(a)
			if m.guessed == nil {
				m.guessed = map[*Cond]Expr{}
			}
			if _, ok := m.guessed[cond]; !ok {
				m.guessed[cond] = a.Test
			}
		}
		set(a, taken)
	}
}

// resolves reports whether every name arm binds by import, or by an
// assignment of a dotted name, resolves. A dotted name that starts with a
// name the arm bound before (configs_dual = configs) resolves if that
// binding does, which is checked in its turn: the arm has not run, so a
// lookup would not find it.
func (m *module) resolves(arm *Arm) bool {
	bound := map[string]bool{}
	for _, b := range arm.Binds {
		if b.Global != nil && bound[splitDots(dottedName(b.Global.Value))[0]] {
			bound[b.Name] = true
			continue
		}
		bound[b.Name] = true
		switch {
		case b.Import != nil:
			s, d := m.resolveImport(b.Import)
			if d != nil || !m.loader.exists(s) {
				return false
			}
		case b.Global != nil:
			if p := dottedName(b.Global.Value); p != "" {
				s, d := m.dotted(p)
				if d != nil || !m.loader.exists(s) {
					return false
				}
			}
		}
	}
	return true
}

// exists reports whether a symbol names something that exists: a Triton
// path sema knows (or any path outside Triton, which tri cannot check).
func (l *Loader) exists(s Symbol) bool {
	if s.Kind != SymPath {
		return s.Kind != SymNone
	}
	if l.known == nil || !isTritonPath(s.Path) {
		return true
	}
	return l.known(s.Path)
}

func isTritonPath(p string) bool { return p == "triton" || strings.HasPrefix(p, "triton.") }

// dotted resolves a dotted name (a.b.c) in m.
func (m *module) dotted(p string) (Symbol, *diag.Diagnostic) {
	parts := splitDots(p)
	s, d := m.lookup(parts[0])
	for _, part := range parts[1:] {
		if d != nil {
			return s, d
		}
		switch s.Kind {
		case SymPath:
			s = Symbol{Kind: SymPath, Path: normalize(s.Path + "." + part), Pos: s.Pos}
		case SymModule:
			s, d = s.File.module().attr(part, s.Pos)
		default:
			return Symbol{}, nil
		}
	}
	return s, d
}

// constValue is a value a module-level condition computes.
type constValue struct {
	kind ConstKind
	i    *big.Int
	f    float64
	s    string
	b    bool
}

func (v constValue) truth() bool {
	switch v.kind {
	case ConstInt:
		return v.i != nil && v.i.Sign() != 0
	case ConstFloat:
		return v.f != 0
	case ConstStr:
		return v.s != ""
	case ConstBool:
		return v.b
	}
	return false
}

// maxEvalDepth bounds the globals a condition may follow.
const maxEvalDepth = 16

// eval evaluates a module-level condition without running host code.
func (m *module) eval(e Expr, depth int) (constValue, bool) {
	if depth > maxEvalDepth {
		return constValue{}, false
	}
	switch e := e.(type) {
	case *Const:
		return constValue{kind: e.Kind, i: e.Int, f: e.Float, s: e.Str, b: e.Bool}, true
	case *Name:
		if fr := m.locals; fr != nil && !fr.globals[e.ID] {
			if b, ok := fr.locals[e.ID]; ok {
				if b.Global == nil || b.Err != nil {
					return constValue{}, false
				}
				return m.eval(b.Global.Value, depth+1)
			}
		}
		s, d := m.lookup(e.ID)
		if d == nil && s.Kind == SymNone && e.ID == "__name__" {
			// Imported, never run as a script: if __name__ == "__main__"
			// is false.
			return constValue{kind: ConstStr, s: moduleOrFile(m)}, true
		}
		if d == nil && s.Kind == SymPath {
			return pathValue(s.Path)
		}
		if d != nil || s.Kind != SymGlobal {
			return constValue{}, false
		}
		return s.File.module().eval(s.Global.Value, depth+1)
	case *Attribute:
		p := dottedName(e)
		if p == "" {
			return constValue{}, false
		}
		s, d := m.dotted(p)
		if d != nil || s.Kind != SymPath {
			return constValue{}, false
		}
		return pathValue(s.Path)
	case *Unary:
		v, ok := m.eval(e.X, depth+1)
		if !ok {
			return v, false
		}
		switch e.Op {
		case "not":
			return constValue{kind: ConstBool, b: !v.truth()}, true
		case "-":
			if v.kind == ConstInt && v.i != nil {
				return constValue{kind: ConstInt, i: new(big.Int).Neg(v.i)}, true
			}
		}
		return v, false
	case *BoolOp:
		for i, x := range e.Values {
			v, ok := m.eval(x, depth+1)
			if !ok {
				return v, false
			}
			if i == len(e.Values)-1 || v.truth() == (e.Op == "or") {
				return v, true
			}
		}
	case *Compare:
		return m.compare(e, depth)
	case *Binary:
		x, ok := m.eval(e.X, depth+1)
		if !ok {
			return x, false
		}
		y, ok := m.eval(e.Y, depth+1)
		if !ok {
			return y, false
		}
		return binary(e.Op, x, y)
	case *Call:
		return m.evalCall(e, depth)
	case *BadExpr:
		return m.walrus(e, depth)
	}
	return constValue{}, false
}

// compare evaluates a chain of comparisons of numbers or strings.
func (m *module) compare(e *Compare, depth int) (constValue, bool) {
	left, ok := m.eval(e.Left, depth+1)
	if !ok {
		return left, false
	}
	for i, op := range e.Ops {
		right, ok := m.eval(e.Rights[i], depth+1)
		if !ok {
			return right, false
		}
		c, ok := order(left, right)
		if !ok {
			if left.kind != right.kind && (op == "==" || op == "!=") {
				c = 1
			} else {
				return constValue{}, false
			}
		}
		var r bool
		switch op {
		case "==":
			r = c == 0
		case "!=":
			r = c != 0
		case "<":
			r = c < 0
		case "<=":
			r = c <= 0
		case ">":
			r = c > 0
		case ">=":
			r = c >= 0
		default:
			return constValue{}, false
		}
		if !r {
			return constValue{kind: ConstBool}, true
		}
		left = right
	}
	return constValue{kind: ConstBool, b: true}, true
}

// order compares two numbers (bools count as ints) or two strings.
func order(a, b constValue) (int, bool) {
	if x, ok := intOf(a); ok {
		if y, ok := intOf(b); ok {
			return x.Cmp(y), true
		}
	}
	if x, ok := floatOf(a); ok {
		if y, ok := floatOf(b); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			case x == y:
				return 0, true
			}
			return 0, false // NaN
		}
	}
	switch {
	case a.kind == ConstStr && b.kind == ConstStr:
		switch {
		case a.s < b.s:
			return -1, true
		case a.s > b.s:
			return 1, true
		}
		return 0, true
	case a.kind == ConstNone && b.kind == ConstNone:
		return 0, true
	}
	return 0, false
}

// evalCall evaluates the calls a condition may make without running host
// code: hasattr(module, "name"), os.environ.get(k, default),
// os.getenv(k, default).
func (m *module) evalCall(e *Call, depth int) (constValue, bool) {
	callee := dottedName(e.Func)
	if callee == "" || len(e.Keywords) > 0 {
		return constValue{}, false
	}
	switch callee {
	case "hasattr":
		if len(e.Args) != 2 {
			return constValue{}, false
		}
		name, ok := m.eval(e.Args[1], depth+1)
		p := dottedName(e.Args[0])
		if !ok || name.kind != ConstStr || p == "" {
			return constValue{}, false
		}
		s, d := m.dotted(p + "." + name.s)
		if d != nil {
			return constValue{}, false
		}
		if s.Kind == SymPath && !isTritonPath(s.Path) {
			return constValue{}, false
		}
		return constValue{kind: ConstBool, b: m.loader.exists(s)}, true
	case "int", "float", "str", "bool":
		if s, _ := m.lookup(callee); s.Kind != SymNone || len(e.Args) != 1 {
			return constValue{}, false // rebound by the module, or not a conversion
		}
		v, ok := m.eval(e.Args[0], depth+1)
		if !ok {
			return v, false
		}
		return convert(callee, v)
	}
	s, d := m.dotted(callee)
	if d != nil || s.Kind != SymPath {
		return constValue{}, false
	}
	if v, ok := testingPredicate(s.Path); ok && len(e.Args) == 0 {
		return v, true
	}
	switch s.Path {
	case "triton.language.constexpr": // the value it wraps
		if len(e.Args) == 1 {
			return m.eval(e.Args[0], depth+1)
		}
	case "os.environ.get", "os.getenv":
		if len(e.Args) == 2 {
			return m.eval(e.Args[1], depth+1)
		}
		if len(e.Args) == 1 {
			return constValue{kind: ConstNone}, true
		}
	}
	return constValue{}, false
}

// pathValue is the value of a name from a module tri does not read, where
// it is known: typing.TYPE_CHECKING is false when a program runs.
func pathValue(p string) (constValue, bool) {
	if p == "typing.TYPE_CHECKING" {
		return constValue{kind: ConstBool}, true
	}
	return constValue{}, false
}

// convert applies int, float, str or bool to a value, as Python does for
// the values a setting read from the environment has.
func convert(to string, v constValue) (constValue, bool) {
	switch to {
	case "bool":
		return constValue{kind: ConstBool, b: v.truth()}, true
	case "int":
		switch v.kind {
		case ConstInt:
			return v, v.i != nil
		case ConstBool:
			return constValue{kind: ConstInt, i: big.NewInt(int64(boolInt(v.b)))}, true
		case ConstStr:
			i, ok := new(big.Int).SetString(strings.ReplaceAll(strings.TrimSpace(v.s), "_", ""), 10)
			return constValue{kind: ConstInt, i: i}, ok
		}
	case "float":
		switch v.kind {
		case ConstFloat:
			return v, true
		case ConstInt:
			if v.i == nil {
				return constValue{}, false
			}
			f, _ := new(big.Float).SetInt(v.i).Float64()
			return constValue{kind: ConstFloat, f: f}, true
		case ConstStr:
			f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64)
			return constValue{kind: ConstFloat, f: f}, err == nil
		}
	case "str":
		if v.kind == ConstStr {
			return v, true
		}
	}
	return constValue{}, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitDots splits a dotted name.
func splitDots(p string) []string { return strings.Split(p, ".") }
