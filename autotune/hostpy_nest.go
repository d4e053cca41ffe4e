package autotune

// This file computes the operations that gpython implements in Go by
// recursing into a value's items: repr and str of lists, tuples, dicts,
// sets and exceptions, and ==, != and in between them. gpython recurses
// without a limit and without noticing a container that holds itself
// (l = []; l.append(l)), and that recursion makes no Python call and runs
// no loop, so the guard (guard.go) never runs: Go's stack overflows, a
// fatal error that no recover catches. tri computes them as CPython does:
//
//   - a container met again inside its own repr is written [...] ({...},
//     (...)), as CPython's Py_ReprEnter does, also where a Python
//     __repr__ lies between the two (the containers in progress are kept
//     in reprActive, across calls);
//   - == compares an item with itself as equal without looking inside, as
//     CPython's PyObject_RichCompareBool does, so l == l is True;
//   - nesting deeper than maxNesting raises RecursionError with CPython's
//     messages (a chain of a thousand nested lists, or two distinct
//     lists that each hold themselves compared with ==);
//   - a repr longer than maxHostItems bytes raises MemoryError, and a long
//     walk polls the guard, so a value that shares its items
//     (l = [l, l] thirty times) cannot make tri spin.
//
// Host code reaches them through the builtins repr, ascii, str and print
// (boundary.go), %-formatting, f-strings and str.format (pyformat.go,
// hostpy_percent.go), the operators ==, !=, in and not in and the dunder
// methods of built-in values (l.__repr__(), getattr(l, '__eq__')), which
// the instrumentation routes here (instrument.go), and tri reaches them
// when it reads a value or an exception's message.

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/go-python/gpython/py"
)

// maxNesting bounds how deep repr and == go into nested containers, as
// CPython's recursion limit does.
const maxNesting = maxHostDepth

// recursionError is CPython's RecursionError, which gpython lacks: a
// RuntimeError, so that code catching that catches it too.
var recursionError = py.RuntimeError.NewType("RecursionError", "Recursion limit exceeded.", nil, nil)

// objKey is the identity of a container.
type objKey struct {
	p unsafe.Pointer
	n int
}

// identity is the identity of a container whose repr or == recurses: its
// pointer (a tuple's first item and length; an empty tuple holds
// nothing).
func identity(o py.Object) (objKey, bool) {
	switch o := o.(type) {
	case *py.List:
		return objKey{unsafe.Pointer(o), -1}, true
	case py.Tuple:
		if len(o) > 0 {
			return objKey{unsafe.Pointer(&o[0]), len(o)}, true
		}
	case py.StringDict:
		return objKey{reflect.ValueOf(o).UnsafePointer(), -2}, true
	case *py.Set:
		return objKey{unsafe.Pointer(o), -3}, true
	case *py.FrozenSet:
		return objKey{unsafe.Pointer(o), -4}, true
	case *py.Exception:
		return objKey{unsafe.Pointer(o), -5}, true
	}
	return objKey{}, false
}

// recursive reports whether o is a value whose repr, str or == gpython
// computes by recursing into its items.
func recursive(o py.Object) bool {
	switch o.(type) {
	case *py.List, py.Tuple, py.StringDict, *py.Set, *py.FrozenSet, *py.Exception:
		return true
	}
	return false
}

// reprActive holds the containers whose repr is being computed. Objects
// of different interpreters are distinct, so one set serves them all.
var reprActive = struct {
	sync.Mutex
	m map[objKey]bool
}{m: map[objKey]bool{}}

func reprEnter(k objKey) bool {
	reprActive.Lock()
	defer reprActive.Unlock()
	if reprActive.m[k] {
		return false
	}
	reprActive.m[k] = true
	return true
}

func reprLeave(k objKey) {
	reprActive.Lock()
	delete(reprActive.m, k)
	reprActive.Unlock()
}

// walker computes one repr, str or comparison. g, when set, is the guard
// of the session whose goroutine runs it, polled as the walk goes on.
type walker struct {
	g     *guard
	steps int
	size  int          // bytes of repr and str made, in all
	buf   bytes.Buffer // the repr being written (reprTo)
}

// pollEvery is how many steps of a walk pass between polls of the guard.
const pollEvery = 1 << 10

func (w *walker) step() {
	w.steps++
	if w.g != nil && w.steps%pollEvery == 0 {
		if why := w.g.poll(); why != "" {
			panic(&hostStop{msg: why})
		}
	}
}

// grow counts n bytes more of a repr.
func (w *walker) grow(n int) error {
	w.size += n
	if w.size > maxHostItems {
		return py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a str of more than %d bytes (a repr)", maxHostItems)
	}
	return nil
}

func tooDeep(what string) error {
	return py.ExceptionNewf(recursionError, "maximum recursion depth exceeded %s", what)
}

// reprString is repr(o).
func reprString(g *guard, o py.Object) (string, error) {
	w := &walker{g: g}
	return w.repr(o, 0)
}

// strString is str(o).
func strString(g *guard, o py.Object) (string, error) {
	w := &walker{g: g}
	return w.str(o, 0)
}

func (w *walker) repr(o py.Object, depth int) (string, error) {
	start := w.buf.Len()
	err := w.reprTo(o, depth)
	s := string(w.buf.Bytes()[start:])
	w.buf.Truncate(start)
	return s, err
}

// write adds s to the repr being written.
func (w *walker) write(s string) error {
	w.buf.WriteString(s)
	return w.grow(len(s))
}

// reprTo writes repr(o) into w.buf: one buffer for the whole value, so
// that a value of many small items costs its length, not its length times
// its depth.
func (w *walker) reprTo(o py.Object, depth int) error {
	w.step()
	if n, ok := o.(py.Int); ok { // the common item, without gpython's fmt
		return w.write(strconv.FormatInt(int64(n), 10))
	}
	if !recursive(o) {
		s, err := py.ReprAsString(o) // a Python __repr__ runs under the guard's call depth
		if err != nil {
			return err
		}
		return w.write(s)
	}
	if depth > maxNesting {
		return tooDeep("while getting the repr of an object")
	}
	// An exception's arguments are fixed when it is made, so a cycle
	// through one passes through a container too; CPython does not mark
	// exceptions either.
	if _, isExc := o.(*py.Exception); !isExc {
		if k, ok := identity(o); ok {
			if !reprEnter(k) {
				return w.write(ellipsis(o))
			}
			defer reprLeave(k)
		}
	}
	list := func(open, close string, items []py.Object) error {
		if err := w.write(open); err != nil {
			return err
		}
		for i, it := range items {
			if i > 0 {
				if err := w.write(", "); err != nil {
					return err
				}
			}
			if err := w.reprTo(it, depth+1); err != nil {
				return err
			}
		}
		if len(items) == 1 && open == "(" {
			close = ",)"
		}
		return w.write(close)
	}
	set := func(open, close string, items []py.Object) error {
		// A set's order in gpython is a Go map's: sorted, the text is the
		// same from run to run.
		parts := make([]string, len(items))
		for i, it := range items {
			s, err := w.repr(it, depth+1)
			if err != nil {
				return err
			}
			parts[i] = s
		}
		slices.Sort(parts)
		w.buf.WriteString(open + strings.Join(parts, ", ") + close)
		return w.grow(len(open) + len(close))
	}
	switch o := o.(type) {
	case *py.List:
		return list("[", "]", o.Items)
	case py.Tuple:
		return list("(", ")", o)
	case py.StringDict:
		// gpython's dict keeps no insertion order; sorted keys make the
		// text the same from run to run.
		if err := w.write("{"); err != nil {
			return err
		}
		for i, k := range slices.Sorted(maps.Keys(o)) {
			if i > 0 {
				if err := w.write(", "); err != nil {
					return err
				}
			}
			ks, _ := py.ReprAsString(py.String(k))
			if err := w.write(ks + ": "); err != nil {
				return err
			}
			if err := w.reprTo(o[k], depth+1); err != nil {
				return err
			}
		}
		return w.write("}")
	case *py.Set:
		if items := setItems(o); len(items) > 0 {
			return set("{", "}", items)
		}
		return w.write("set()")
	case *py.FrozenSet:
		if items := setItems(o); len(items) > 0 {
			return set("frozenset({", "})", items)
		}
		return w.write("frozenset()")
	case *py.Exception:
		args, _ := o.Args.(py.Tuple)
		return list(o.Base.Name+"(", ")", args)
	}
	return nil
}

func (w *walker) str(o py.Object, depth int) (string, error) {
	switch o := o.(type) {
	case py.String:
		return string(o), w.grow(len(o))
	case *py.Exception:
		// CPython: no argument is "", one is its str, more their tuple's
		// repr.
		args, _ := o.Args.(py.Tuple)
		switch len(args) {
		case 0:
			return "", nil
		case 1:
			if depth > maxNesting {
				return "", tooDeep("while getting the str of an object")
			}
			return w.str(args[0], depth+1)
		}
		return w.repr(args, depth)
	}
	if recursive(o) {
		return w.repr(o, depth)
	}
	w.step()
	s, err := py.StrAsString(o)
	if err != nil {
		return "", err
	}
	return s, w.grow(len(s))
}

// ellipsis is what a container met inside its own repr is written as.
func ellipsis(o py.Object) string {
	switch o.(type) {
	case *py.List:
		return "[...]"
	case py.Tuple:
		return "(...)"
	}
	return "{...}"
}

// setItems lists a set's items.
func setItems(o py.Object) []py.Object {
	var items []py.Object
	_ = py.Iterate(o, func(it py.Object) bool {
		items = append(items, it)
		return false
	})
	return items
}

// same reports whether a and b are one object (CPython's "is"), for the
// values where tri can tell.
func same(a, b py.Object) bool {
	if ka, ok := identity(a); ok {
		kb, ok := identity(b)
		return ok && ka == kb
	}
	va := reflect.ValueOf(a)
	switch va.Kind() {
	case reflect.Pointer, reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64:
		return reflect.TypeOf(b) == va.Type() && a == b
	}
	return false
}

// truth is bool(o) for the result of a comparison.
func truth(o py.Object) (bool, error) {
	r, err := py.MakeBool(o)
	if err != nil {
		return false, err
	}
	return r == py.True, nil
}

// eq is a == b as CPython's PyObject_RichCompareBool computes it for the
// items of containers: identical objects are equal.
func (w *walker) eq(a, b py.Object, depth int) (bool, error) {
	w.step()
	if same(a, b) {
		return true, nil
	}
	if !recursive(a) || reflect.TypeOf(a) != reflect.TypeOf(b) {
		r, err := py.Eq(a, b) // no two containers of one kind: gpython does not recurse
		if err != nil {
			return false, err
		}
		return truth(r)
	}
	if depth > maxNesting {
		return false, tooDeep("in comparison")
	}
	seq := func(x, y []py.Object) (bool, error) {
		if len(x) != len(y) {
			return false, nil
		}
		for i := range x {
			if ok, err := w.eq(x[i], y[i], depth+1); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	switch a := a.(type) {
	case *py.List:
		return seq(a.Items, b.(*py.List).Items)
	case py.Tuple:
		return seq(a, b.(py.Tuple))
	case py.StringDict:
		bd := b.(py.StringDict)
		if len(a) != len(bd) {
			return false, nil
		}
		for k, av := range a {
			bv, ok := bd[k]
			if !ok {
				return false, nil
			}
			if ok, err := w.eq(av, bv, depth+1); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	case *py.Set, *py.FrozenSet:
		x, y := setItems(a), setItems(b)
		if len(x) != len(y) {
			return false, nil
		}
		for _, it := range x {
			found, err := w.in(it, y, depth+1)
			if !found || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil // exceptions are equal only to themselves
}

// in reports whether one of items equals x.
func (w *walker) in(x py.Object, items []py.Object, depth int) (bool, error) {
	for _, it := range items {
		if ok, err := w.eq(it, x, depth); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// contains is x in seq.
func (w *walker) contains(seq, x py.Object) (bool, error) {
	switch s := seq.(type) {
	case *py.List:
		return w.in(x, s.Items, 0)
	case py.Tuple:
		return w.in(x, s, 0)
	case py.StringDict:
		// gpython's dicts have str keys: a key of another kind is absent,
		// or unhashable as in CPython (gpython would print it with Go's
		// fmt, which recurses through a dict that holds itself).
		if k, ok := x.(py.String); ok {
			_, found := s[string(k)]
			return found, nil
		}
		switch x.(type) {
		case *py.List, py.StringDict, *py.Set:
			return false, py.ExceptionNewf(py.TypeError, "unhashable type: '%s'", x.Type().Name)
		}
		return false, nil
	}
	if _, ok := seq.(py.I__contains__); ok || seq.Type().NativeGetAttrOrNil("__contains__") != nil {
		return py.SequenceContains(seq, x)
	}
	found := false
	var err error
	iterErr := py.Iterate(seq, func(it py.Object) bool {
		found, err = w.eq(it, x, 0)
		return found || err != nil
	})
	if iterErr != nil {
		return false, iterErr
	}
	return found, err
}

// compare is the checked version of ==, !=, in and not in.
func (g *guard) compare(op uint32, a, b py.Object) (py.Object, error) {
	w := &walker{g: g}
	switch op {
	case cmpEq, cmpNe:
		if !recursive(a) || !recursive(b) {
			if op == cmpEq {
				return py.Eq(a, b)
			}
			return py.Ne(a, b)
		}
		ok, err := w.eq(a, b, 0)
		if err != nil {
			return nil, err
		}
		return py.NewBool(ok == (op == cmpEq)), nil
	case cmpIn, cmpNotIn:
		ok, err := w.contains(b, a)
		if err != nil {
			return nil, err
		}
		return py.NewBool(ok == (op == cmpIn)), nil
	}
	return nil, py.ExceptionNewf(py.SystemError, "compare %d is not checked", op)
}

// The comparisons of COMPARE_OP that tri computes (CPython 3.4's cmp_op).
const (
	cmpEq    = 2
	cmpNe    = 3
	cmpIn    = 6
	cmpNotIn = 7
)

// checkedCompare reports whether COMPARE_OP arg is computed here.
func checkedCompare(arg uint32) bool {
	return arg == cmpEq || arg == cmpNe || arg == cmpIn || arg == cmpNotIn
}

// fromPyLimit bounds the values that tri reads from host code: nesting
// (a list that holds itself is infinitely deep) and items in all (a list
// that shares its items, l = [l, l] thirty times, has 2**30 of them).
type fromPyLimit struct{ items int }

func (l *fromPyLimit) enter(depth int) error {
	l.items++
	if depth > maxNesting {
		return fmt.Errorf("a value nested deeper than %d levels (or holding itself)", maxNesting)
	}
	if l.items > maxHostItems {
		return fmt.Errorf("a value of more than %d items", maxHostItems)
	}
	return nil
}

// checkedAttrs are the dunder methods through which host code reaches, on
// a built-in value, an operation that tri checks: repr, str, ==, in and
// %-formatting (bounded here) and the operators whose result size
// guard.go checks.
var checkedAttrs = map[string]bool{
	"__repr__": true, "__str__": true, "__eq__": true, "__ne__": true, "__contains__": true,
	"__mod__": true, "__rmod__": true, "__imod__": true,
	"__mul__": true, "__rmul__": true, "__imul__": true,
	"__add__": true, "__radd__": true, "__iadd__": true,
	"__pow__": true, "__rpow__": true, "__ipow__": true,
	"__lshift__": true, "__rlshift__": true, "__ilshift__": true,
	"get": true,
}

// builtinValue reports whether o is a value of a type gpython implements
// in Go, whose dunder methods are Go methods that the guard does not see.
func builtinValue(o py.Object) bool {
	switch o.(type) {
	case py.String, py.Bytes, py.Int, *py.BigInt, py.Bool, py.Float,
		*py.List, py.Tuple, py.StringDict, *py.Set, *py.FrozenSet, *py.Exception:
		return true
	}
	return false
}

// attr is obj.name for a name of checkedAttrs: on a built-in value, a
// method that does what the operator does in instrumented code.
func (g *guard) attr(obj py.Object, name string) (py.Object, error) {
	orig, err := py.GetAttrString(obj, name)
	if err != nil || !builtinValue(obj) {
		return orig, err
	}
	return py.MustNewMethod(name, func(_ py.Object, args py.Tuple) (py.Object, error) {
		return g.dunder(obj, name, orig, args)
	}, 0, ""), nil
}

// dunder calls obj's method name (orig, gpython's) with args, checked.
func (g *guard) dunder(obj py.Object, name string, orig py.Object, args py.Tuple) (py.Object, error) {
	if len(args) == 0 && (name == "__repr__" || name == "__str__") {
		s, err := reprString(g, obj)
		if name == "__str__" {
			s, err = strString(g, obj)
		}
		if err != nil {
			return nil, err
		}
		return py.String(s), nil
	}
	if len(args) == 0 || len(args) > 2 {
		return py.Call(orig, args, nil)
	}
	x := args[0]
	if _, ok := obj.(py.StringDict); ok && name == "get" {
		if _, isStr := x.(py.String); !isStr {
			// gpython writes the missing key with Go's fmt (keyCheck).
			if unhashable(x) {
				return nil, py.ExceptionNewf(py.TypeError, "unhashable type: '%s'", x.Type().Name)
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return py.None, nil
		}
		return py.Call(orig, args, nil)
	}
	if len(args) != 1 {
		return py.Call(orig, args, nil)
	}
	var op byte
	a, b := obj, x
	switch name {
	case "__eq__", "__ne__":
		if recursive(obj) && reflect.TypeOf(obj) == reflect.TypeOf(x) {
			return g.compare(map[string]uint32{"__eq__": cmpEq, "__ne__": cmpNe}[name], obj, x)
		}
	case "__contains__":
		return g.compare(cmpIn, x, obj)
	case "__mod__", "__imod__":
		if s, ok := obj.(py.String); ok {
			return percentFormat(g, string(s), x)
		}
	case "__rmod__":
		if s, ok := x.(py.String); ok {
			return percentFormat(g, string(s), obj)
		}
	case "__mul__", "__imul__":
		op = opBinaryMultiply
	case "__rmul__":
		op, a, b = opBinaryMultiply, x, obj
	case "__add__", "__iadd__":
		op = opBinaryAdd
	case "__radd__":
		op, a, b = opBinaryAdd, x, obj
	case "__pow__", "__ipow__":
		op = opBinaryPower
	case "__rpow__":
		op, a, b = opBinaryPower, x, obj
	case "__lshift__", "__ilshift__":
		op = opBinaryLshift
	case "__rlshift__":
		op, a, b = opBinaryLshift, x, obj
	}
	if op != 0 {
		if err := g.checkOp(op, a, b); err != nil {
			return nil, err
		}
	}
	return py.Call(orig, args, nil)
}

// unhashable reports whether CPython refuses x as a dict key.
func unhashable(x py.Object) bool {
	switch x.(type) {
	case *py.List, py.StringDict, *py.Set:
		return true
	}
	return false
}

// keyCheck is key(x, k), which instrumented code calls before x[k]: a dict
// of gpython holds str keys only and writes any other missing key with
// Go's fmt, which recurses without end through a dict that holds itself;
// tri raises CPython's error first, with the key written by its bounded
// repr.
var keyCheck = py.MustNewMethod("__tri_key__", func(_ py.Object, args py.Tuple) (py.Object, error) {
	if len(args) != 2 {
		return nil, py.ExceptionNewf(py.SystemError, "key: want 2 operands")
	}
	if _, ok := args[0].(py.StringDict); !ok {
		return py.None, nil
	}
	switch k := args[1].(type) {
	case py.String:
		return py.None, nil
	default:
		if unhashable(k) {
			return nil, py.ExceptionNewf(py.TypeError, "unhashable type: '%s'", k.Type().Name)
		}
		e, err := py.ExceptionNew(py.KeyError, py.Tuple{k}, nil)
		if err != nil {
			return nil, err
		}
		return nil, e.(*py.Exception)
	}
}, 0, "")
