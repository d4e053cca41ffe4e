package autotune

// This file reads Python values for tri under the guard. Converting a
// value (fromPy), writing it (repr) or reading an attribute of it can run
// host code: a user class's __getattr__, __repr__ or __str__ (a subclass
// of triton.Config with a __getattr__ that never returns). Such reads run
// as a step of the interpreter (hostPython.do), with its time limit and
// its placed stop, never on tri's own goroutine.

import (
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// pyField is a Python value read for tri: the object (py.None for an
// attribute that is absent), its value for tri or the error of converting
// it, its repr for messages, and a dict's items.
type pyField struct {
	obj    py.Object
	absent bool
	val    hosteval.Value
	err    error
	repr   string
	items  map[string]pyField
}

// goResult carries a Go value out of a step of the interpreter.
type goResult struct{ v any }

// Type implements py.Object.
func (goResult) Type() *py.Type { return guardType }

// readField reads o; it runs in a step of the interpreter whose guard is
// g.
func readField(g *guard, o py.Object) pyField {
	f := pyField{obj: o}
	f.val, f.err = fromPy(o)
	var err error
	if f.repr, err = reprString(g, o); err != nil {
		f.repr = pyTypeName(o)
	}
	if d, ok := o.(py.StringDict); ok {
		f.items = map[string]pyField{}
		for k, v := range d {
			f.items[k] = readField(g, v)
		}
	}
	return f
}

// read reads o under the guard.
func (h *hostPython) read(o py.Object, pos diag.Pos, what string) (pyField, error) {
	r, err := h.do(pos, what, func() (py.Object, error) { return goResult{readField(h.guard, o)}, nil })
	if err != nil {
		return pyField{}, err
	}
	return r.(goResult).v.(pyField), nil
}

// readAttrs reads the attributes names of o under the guard; one that
// cannot be read is absent.
func (h *hostPython) readAttrs(o py.Object, names []string, pos diag.Pos, what string) (map[string]pyField, error) {
	r, err := h.do(pos, what, func() (py.Object, error) {
		out := map[string]pyField{}
		for _, name := range names {
			v, err := py.GetAttrString(o, name)
			if err != nil {
				out[name] = pyField{obj: py.None, absent: true, val: hosteval.None, repr: "None"}
				continue
			}
			out[name] = readField(h.guard, v)
		}
		return goResult{out}, nil
	})
	if err != nil {
		return nil, err
	}
	return r.(goResult).v.(map[string]pyField), nil
}

// callRead calls fn and reads its result, in one step.
func (h *hostPython) callRead(fn py.Object, args py.Tuple, kwargs py.StringDict, pos diag.Pos, what string) (pyField, error) {
	r, err := h.do(pos, what, func() (py.Object, error) {
		v, err := py.Call(fn, args, kwargs)
		if err != nil {
			return nil, err
		}
		return goResult{readField(h.guard, v)}, nil
	})
	if err != nil {
		return pyField{}, err
	}
	return r.(goResult).v.(pyField), nil
}
