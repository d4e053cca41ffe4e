package autotune

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// TestSelfContainingValues: repr, str, print, ==, in, %-formatting,
// f-strings, str.format, dunder methods, subscripts and tri's own reading
// of values and messages on containers that hold themselves give
// CPython's results ([[...]], l == l) or a placed error, where gpython
// recursed until Go's stack overflowed (a fatal error that ends tri).
func TestSelfContainingValues(t *testing.T) {
	const l = "    l = []\n    l.append(l)\n"
	for _, c := range []struct {
		name, body string
		want       string // f()'s value, as tri reads it
		printed    string // what it printed
		err        string // or the error, a regexp
		line       int    // at this line of the body (1: its first); 0: an error of reading the value
	}{
		{name: "repr", body: l + "    return repr(l)\n", want: `"[[...]]"`},
		{name: "str", body: l + "    return str(l)\n", want: `"[[...]]"`},
		{name: "print", body: l + "    print(l, [l, 1])\n", want: "None", printed: "[[...]] [[[...]], 1]\n"},
		{name: "ascii", body: l + "    return ascii(l)\n", want: `"[[...]]"`},
		{name: "==", body: l + "    return (l == l, l != l, [l] == [l], l in l, l not in [l])\n", want: "(True, False, True, True, False)"},
		{name: "% with a tuple", body: l + "    return '%s|%r' % (l, l)\n", want: `"[[...]]|[[...]]"`},
		{name: "% with one value", body: l + "    return '%s' % l\n", want: `"[[...]]"`},
		{name: "f-string", body: l + "    return f'{l} {l!r:>9}'\n", want: `"[[...]]   [[...]]"`},
		{name: "str.format", body: l + "    return '{}'.format(l)\n", want: `"[[...]]"`},
		{name: "dunders", body: l + "    return (l.__repr__(), l.__str__(), l.__eq__(l), getattr(l, '__repr__')())\n", want: `("[[...]]", "[[...]]", True, "[[...]]")`},
		{name: "a dict", body: "    d = {}\n    d['a'] = d\n    return repr(d)\n", want: `"{'a': {...}}"`},
		{name: "a tuple through a list", body: "    t = ([],)\n    t[0].append(t)\n    return repr(t)\n", want: `"([(...)],)"`},
		{name: "globals", body: "    g = globals()\n    g['me'] = g\n    return 'me' in g and \"'me': {...}\" in repr(globals())\n", want: "True"},
		{name: "through a __repr__", body: "    class A:\n        def __repr__(self):\n            return 'A' + repr(self.l)\n    a = A()\n    a.l = [a]\n    return repr(a)\n", want: `"A[A[...]]"`},
		{name: "an exception's message", body: l + "    return str(ValueError(l))\n", want: `"[[...]]"`},
		{name: "raised", body: l + "    raise ValueError(l)\n", err: `ValueError: \[\[\.\.\.\]\]`, line: 3},
		{name: "returned", body: l + "    return l\n", err: `^a value nested deeper than 1000 levels \(or holding itself\)$`},
		{name: "two that hold themselves compared", body: l + "    m = []\n    m.append(m)\n    return l == m\n", err: `RecursionError: maximum recursion depth exceeded in comparison`, line: 5},
		{name: "as a dict key", body: "    d = {}\n    d['a'] = d\n    return d[d]\n", err: `TypeError: unhashable type: 'dict'`, line: 3},
		{name: "nested deeply", body: "    x = []\n    for i in range(100000):\n        x = [x]\n    return repr(x)\n", err: `RecursionError: maximum recursion depth exceeded while getting the repr of an object`, line: 4},
		{name: "sharing its items", body: "    x = ['x' * 4096]\n    for i in range(40):\n        x = [x, x]\n    return str(x)\n", err: `MemoryError: tri's host Python refuses a str of more than 16777216 bytes`, line: 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			// def f() is on line 4, the body's first line on 5.
			src := "\nimport triton\n\ndef f():\n" + c.body
			h, sf, stderr := hostSession(t, src, Host{})
			hf := sf.File.Host["f"]
			v, err := h.eval("f()", hf.Pos, "calling f()")
			if c.line == 0 && c.err != "" { // an error of reading the value
				require.NoError(t, err)
				_, err = fromPy(v)
				require.Error(t, err)
				assert.Regexp(t, regexp.MustCompile(c.err), err.Error())
				return
			}
			if c.err == "" {
				require.NoError(t, err)
				got, err := fromPy(v)
				require.NoError(t, err)
				assert.Equal(t, c.want, got.String())
				assert.Equal(t, c.printed, stderr.String())
				return
			}
			require.Error(t, err)
			assert.Regexp(t, regexp.MustCompile(c.err), err.Error())
			assert.Regexp(t, regexp.MustCompile(`^k\.py:`+strconv.Itoa(c.line+4)+`:`), err.Error(), "placed at the line")
			assert.Equal(t, 2, hosteval.ExitCode(err))
		})
	}
}
