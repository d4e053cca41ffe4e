package frontend

// This file keeps the module-level values that depend on an if whose
// condition tri cannot evaluate without running host code (if unknown():
// V = 1 else: V = 32). Python runs one arm; tri, not knowing which, must
// not pick one silently. A name bound in two arms of such an if, or in one
// arm and before the if, is uncertain until the top level binds it again
// outside the if: its binding is marked so that its value comes from the
// module's host code run in order (where that code computes it), or is an
// error placed at the binding that names the if.
//
// The predicates of triton._internal_testing that Triton's own tests branch
// on at module level are known, as they are on the machine tri's GPU code
// targets: a CUDA GPU, Triton compiling (not its interpreter).

import (
	"fmt"
	"sort"
	"strings"
)

// testingPredicate is the value of a call of a predicate of
// triton._internal_testing without arguments, where it does not depend on
// the GPU's model. is_interpreter() reads TRITON_INTERPRET, which Triton
// sets to run its own CPU interpreter; tri's GPU code is what Triton
// compiles, and tri's interpreter (--interpret) computes what that code
// computes, so the module is evaluated as Triton imports it when it
// compiles: False. is_cuda() is true and the other backends' predicates
// false, as tri targets CUDA. The ones that read the GPU's compute
// capability (is_hopper, ...) stay unknown.
func testingPredicate(path string) (constValue, bool) {
	name, ok := strings.CutPrefix(path, "triton._internal_testing.")
	if !ok {
		return constValue{}, false
	}
	switch {
	case name == "is_cuda":
		return constValue{kind: ConstBool, b: true}, true
	case name == "is_interpreter", name == "is_xpu", name == "is_hip", strings.HasPrefix(name, "is_hip_"):
		return constValue{kind: ConstBool}, true
	}
	return constValue{}, false
}

// guessedCond is the outermost if chain around arm that tri could not
// decide, or nil.
func (m *module) guessedCond(arm *Arm) *Cond {
	var out *Cond
	for a := arm; a != nil; a = a.Cond.Arm {
		if _, ok := m.guessed[a.Cond]; ok {
			out = a.Cond
		}
	}
	return out
}

// guesses tracks, while a module's top level runs, the names bound under
// ifs tri could not decide.
type guesses struct {
	uncertain map[string]*Cond
	seen      map[*Cond]bool
}

// enter notes, before the first statement of an undecided if runs, the
// names it makes uncertain: those bound in two of its arms, or in one and
// before it.
func (g *guesses) enter(m *module, cond *Cond) {
	arms := map[string]map[*Arm]bool{}
	for _, b := range m.file.Scope {
		// The arm of cond that holds b, also in an if nested in it.
		a := b.Arm
		for a != nil && a.Cond != cond {
			a = a.Cond.Arm
		}
		if a == nil {
			continue
		}
		if arms[b.Name] == nil {
			arms[b.Name] = map[*Arm]bool{}
		}
		arms[b.Name][a] = true
	}
	for name, in := range arms {
		_, before := m.env[name]
		if len(in) >= 2 || before {
			g.uncertain[name] = cond
		}
	}
}

// snapshot is the binding of each uncertain name before a statement runs.
func (g *guesses) snapshot(m *module) map[string]*Binding {
	out := make(map[string]*Binding, len(g.uncertain))
	for n := range g.uncertain {
		out[n] = m.env[n]
	}
	return out
}

// rebound clears the names a statement outside any undecided if bound
// again: their value no longer depends on the if.
func (g *guesses) rebound(m *module, before map[string]*Binding) {
	for n, b := range before {
		if m.env[n] != b {
			delete(g.uncertain, n)
		}
	}
}

// mark makes the final bindings of the uncertain names say so: a value's
// comes from the host code run in order, or is the error; a def, an
// import, or an assignment of a dotted name that stands for a function or
// module (triton_tanh = libdevice.tanh) keeps the arm the lookup chose (an
// if around those usually picks between implementations that exist, which
// resolves checks).
func (g *guesses) mark(m *module) {
	names := make([]string, 0, len(g.uncertain))
	for n := range g.uncertain {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b := m.env[n]
		if b == nil || b.Global == nil || b.Global.Stale != "" || m.namesObject(b.Global) {
			continue
		}
		cond := g.uncertain[n]
		test := m.guessed[cond]
		gl := *b.Global
		gl.Stale = fmt.Sprintf("tri cannot tell the value of %s: the module binds it under the if at line %d, whose condition %s is host code tri does not evaluate, and Python's value depends on which arm runs", n, cond.Pos.Line, FormatExpr(test))
		gl.HostFinal = true
		nb := *b
		nb.Global = &gl
		m.env[n] = &nb
	}
}

// namesObject reports whether g's value is a dotted name that stands for a
// function, a module or a path outside the project (libdevice.tanh,
// tl.math): the binding is an alias, chosen as an import is, not a number
// whose arm Python's run decides. A dotted name that reaches a value of
// the project (other.BLOCK) or host code is not one.
func (m *module) namesObject(g *Global) bool {
	p := dottedName(g.Value)
	if p == "" {
		return false
	}
	s, d := m.dotted(p)
	if d != nil {
		return false
	}
	switch s.Kind {
	case SymFunc, SymModule, SymPath:
		return true
	}
	return false
}
