package autotune

// This file checks the size of the values that gpython makes in one step
// in Go, before it makes them: such a step runs no Python code and no loop
// of host code, so the guard's polls cannot stop it, and one call could
// ask for gigabytes (s.replace('', s) on a long s, bytes(10**10), a range
// of 10**10 items called through type(range(0)), l.extend(l) doubling a
// list). The operators are checked by the instrumentation (guard.go);
// these are methods and constructors of gpython's types, which serve
// every interpreter of the process, so they are replaced once, and refuse
// past maxHostItems with MemoryError, as Python does when an allocation
// fails. (gpython has no bytearray, and its str has no ljust, center,
// zfill or expandtabs, its dict no fromkeys: host code that calls them
// gets a NameError or an AttributeError.)
//
// A step that makes a large value (bigResult items or more) counts in
// bigSteps; the guard of each session reads the heap at its next poll
// when the count moved, instead of waiting for its next periodic read, so
// that a loop of such steps cannot outgrow the heap limit between reads.

import (
	"strings"
	"sync/atomic"

	"github.com/go-python/gpython/py"
)

// bigSteps counts the steps that made a value of bigResult items or more.
var bigSteps atomic.Uint64

// sized refuses a value of n units (items or bytes) of kind, and counts a
// large one.
func sized(kind string, n int64, unit string) error {
	if n > maxHostItems || n < 0 {
		return py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a %s of %d %s (at most %d)", kind, n, unit, maxHostItems)
	}
	if n >= bigResult {
		bigSteps.Add(1)
	}
	return nil
}

// installAllocChecks replaces gpython's methods and constructors that
// can make a huge value in one step; installCallGuard calls it once.
func installAllocChecks() {
	replace := method(py.StringType, "replace")
	py.StringType.Dict["replace"] = py.MustNewMethod("replace", func(self py.Object, args py.Tuple) (py.Object, error) {
		s, ok := self.(py.String)
		if ok && len(args) >= 2 {
			old, ok1 := args[0].(py.String)
			repl, ok2 := args[1].(py.String)
			if ok1 && ok2 && len(repl) > len(old) {
				n := int64(strings.Count(string(s), string(old)))
				if len(args) == 3 {
					if c, ok := args[2].(py.Int); ok && c >= 0 && int64(c) < n {
						n = int64(c)
					}
				}
				if err := sized("str", int64(len(s))+n*int64(len(repl)-len(old)), "bytes"); err != nil {
					return nil, err
				}
			}
		}
		return replace.Call(self, args)
	}, 0, replace.Doc)

	extend := method(py.ListType, "extend")
	py.ListType.Dict["extend"] = py.MustNewMethod("extend", func(self py.Object, args py.Tuple) (py.Object, error) {
		l, ok := self.(*py.List)
		if ok && len(args) == 1 {
			if o, ok := args[0].(*py.List); ok {
				if err := sized("list", int64(len(l.Items))+int64(len(o.Items)), "items"); err != nil {
					return nil, err
				}
			}
		}
		return extend.Call(self, args)
	}, 0, extend.Doc)

	bytesNew := py.BytesType.New
	py.BytesType.New = func(metatype *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		if len(args) >= 1 {
			if n, ok := bigOf(args[0]); ok {
				size := int64(-1) // past int64: refused
				if n.IsInt64() {
					size = n.Int64()
				}
				if n.Sign() >= 0 {
					if err := sized("bytes", size, "bytes"); err != nil {
						return nil, err
					}
				}
			}
		}
		return bytesNew(metatype, args, kwargs)
	}

	rangeNew := py.RangeType.New
	py.RangeType.New = func(metatype *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		r, err := rangeNew(metatype, args, kwargs)
		if err != nil {
			return nil, err
		}
		if rg, ok := r.(*py.Range); ok {
			if err := sized("range", int64(rg.Length), "items"); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
}

// method is the Go method name of gpython's type t.
func method(t *py.Type, name string) *py.Method {
	m, ok := t.Dict[name].(*py.Method)
	if !ok {
		panic("gpython's " + t.Name + " has no method " + name)
	}
	return m
}

// joinSize checks sep.join(parts) before it is made.
func joinSize(sep string, parts []string) error {
	n := int64(len(sep)) * int64(max(len(parts)-1, 0))
	for _, p := range parts {
		n += int64(len(p))
		if n > maxHostItems {
			break
		}
	}
	return sized("str", n, "bytes")
}
