package cudagen

// This file implements the records of what a kernel's code names beyond
// its own locals: the prelude's and the helpers' definitions, and the
// locals the kernel's preamble declares only where they are read (the
// per-thread coordinates of a layout, its owner flag, lane_id and
// warp_id). Whatever prints a name records it in the emitter's nameSet as
// it builds the text; the prelude and the preamble are then written from
// those records alone. Nothing here reads printed code: a definition says
// which names its own text uses (its deps), and the names a kernel needs
// are the closure of what its code recorded over those deps.

import "sort"

// cdef is one definition the code of a kernel may name: a typedef, a
// struct or a function (a name's overloads are several cdefs of one name).
type cdef struct {
	name string
	deps []string // the names of other definitions its text uses
	text string   // its lines, with the comment lines above it, without the last newline
}

// cgroup is a group of definitions printed under one head: comment lines
// (and preprocessor lines they need), printed above the first of its
// definitions that a kernel uses; "" for none.
type cgroup struct {
	head string
	defs []cdef
}

// nameSet is a set of C names: those a kernel's code was recorded naming,
// or those a helper's text names (its deps).
type nameSet map[string]bool

// use records that the code being built names each of names.
func (s nameSet) use(names ...string) {
	for _, n := range names {
		s[n] = true
	}
}

// sorted lists the names of s in order, as a definition's deps.
func (s nameSet) sorted() []string {
	out := make([]string, 0, len(s))
	for n := range s {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// closure is used with the deps of every definition of groups that it
// reaches added.
func closure(used nameSet, groups []cgroup) nameSet {
	byName := map[string][]*cdef{}
	for g := range groups {
		for i := range groups[g].defs {
			d := &groups[g].defs[i]
			byName[d.name] = append(byName[d.name], d)
		}
	}
	out := nameSet{}
	var mark func(n string)
	mark = func(n string) {
		if out[n] {
			return
		}
		out[n] = true
		for _, d := range byName[n] {
			for _, dep := range d.deps {
				mark(dep)
			}
		}
	}
	for _, n := range used.sorted() {
		mark(n)
	}
	return out
}

// helperSet is the helper groups a kernel registered, in the order they
// were first registered, each under a key.
type helperSet struct {
	names  []string
	groups map[string]cgroup
}

// add registers group g under key, once.
func (h *helperSet) add(key string, g cgroup) {
	if h.groups == nil {
		h.groups = map[string]cgroup{}
	}
	if _, ok := h.groups[key]; ok {
		return
	}
	h.names = append(h.names, key)
	h.groups[key] = g
}

// later takes out the groups registered since the set held mark groups
// and returns a function that registers them again. A pipelined loop's
// printer writes the code before its loop first but registers that code's
// groups after its body's (multipipe.go, mmamulti.go), so that the
// prelude lists the groups the body names first, as it always has.
func (h *helperSet) later(mark int) (again func()) {
	keys := append([]string(nil), h.names[mark:]...)
	groups := make([]cgroup, len(keys))
	for i, k := range keys {
		groups[i] = h.groups[k]
		delete(h.groups, k)
	}
	h.names = h.names[:mark]
	return func() {
		for i, k := range keys {
			h.add(k, groups[i])
		}
	}
}

// list is the registered groups in order.
func (h *helperSet) list() []cgroup {
	out := make([]cgroup, 0, len(h.names))
	for _, n := range h.names {
		out = append(out, h.groups[n])
	}
	return out
}

// oneDef is a group of one definition named name, with no head.
func oneDef(name string, deps nameSet, text string) cgroup {
	return cgroup{defs: []cdef{{name, deps.sorted(), text}}}
}
