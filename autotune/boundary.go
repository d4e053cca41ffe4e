package autotune

// This file draws the boundary of host Python: what the code of a kernel
// file that tri runs (config functions, heuristics, module-level values)
// may reach. tri is a compiler and checker that users point at code from
// anywhere, whole trees of it with tri survey; nobody expects tri check on
// a downloaded file to read or write their files. So host code has no I/O:
//
//   - open, eval, exec, compile and input are refused: they raise
//     PermissionError, which names the function and the way out;
//   - import takes only modules without I/O: tri's stand-ins (triton,
//     torch, typing, os, inspect, itertools) and gpython's math and string;
//     the other pure modules of Python's library that host code uses
//     (functools, collections, re, ...) pass the boundary but gpython has
//     no such module; anything else (sys, time, tempfile, glob, marshal,
//     importlib, a .py file next to the kernel) raises ImportError. Modules
//     are taken from the interpreter only, never read from files;
//   - print writes to tri's stderr with control characters escaped, so
//     host code cannot drive the terminal;
//   - pow and math.factorial refuse results past the size limits of
//     guard.go, as the operators do, and so do range, bytes, str.replace,
//     str.join and list.extend (hostpy_alloc.go, for every interpreter).
//
// gpython exposes no __class__, __subclasses__, __globals__ or
// __builtins__ (TestBoundaryIntrospection keeps it so), so host code
// cannot reach the original builtins through an object. Host.AllowIO
// (--allow-host-io) restores open, eval, exec, compile, the full import and
// print(file=...); the limits on time, depth and memory stay.

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// hostModules are the modules host code may import: tri's stand-ins,
// gpython's pure modules, and the pure modules of Python's library that
// config code uses, which gpython does not have (importing one says so
// rather than refusing it).
var hostModules = []string{"triton", "torch", "typing", "os", "inspect", "itertools",
	"math", "string",
	"functools", "collections", "dataclasses", "enum", "re", "operator", "numbers", "fractions", "decimal", "copy", "abc",
	"packaging"}

// refusedBuiltins are the builtins that reach outside the interpreter or
// compile code the boundary has not instrumented.
var refusedBuiltins = map[string]string{
	"open":    "opens files",
	"input":   "reads the terminal",
	"eval":    "compiles code",
	"exec":    "compiles code",
	"compile": "compiles code",
}

// allowIOHint is how a refusal names the way out.
const allowIOHint = "tri runs host code without I/O; --allow-host-io lifts this for code you trust"

// setupBoundary replaces the builtins of h's interpreter by the bounded
// ones; allowIO keeps those that do I/O.
func (h *hostPython) setupBoundary(allowIO bool, stderr io.Writer) {
	b := h.ctx.Store().Builtins.Globals
	original := map[string]py.Object{}
	for _, name := range []string{"print", "pow", "__import__", "getattr"} {
		original[name] = b[name]
	}
	g := h.guard
	// repr and str of values that hold themselves or nest deeply, and
	// the dunder methods that reach them or the size-checked operators,
	// are tri's (hostpy_nest.go); str is a type, whose New is replaced
	// once for the process (installStrNew).
	b["repr"] = py.MustNewMethod("repr", func(self py.Object, arg py.Object) (py.Object, error) {
		s, err := reprString(g, arg)
		return py.String(s), err
	}, 0, "")
	b["ascii"] = py.MustNewMethod("ascii", func(self py.Object, arg py.Object) (py.Object, error) {
		s, err := reprString(g, arg)
		return py.String(asciiEscape(s)), err
	}, 0, "")
	b["getattr"] = py.MustNewMethod("getattr", func(self py.Object, args py.Tuple) (py.Object, error) {
		if len(args) >= 2 {
			if name, ok := args[1].(py.String); ok && checkedAttrs[string(name)] {
				v, err := g.attr(args[0], string(name))
				if err != nil && len(args) == 3 && py.IsException(py.AttributeError, err) {
					return args[2], nil
				}
				return v, err
			}
		}
		return py.Call(original["getattr"], args, nil)
	}, 0, "")
	b["RecursionError"] = recursionError
	if !allowIO {
		for name, why := range refusedBuiltins {
			b[name] = refused(name, why)
		}
		b["__import__"] = py.MustNewMethod("__import__", h.importModule, 0, "")
	}
	b["print"] = py.MustNewMethod("print", func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		if f, ok := kwargs["file"]; ok && f != py.None {
			if !allowIO {
				return nil, py.ExceptionNewf(py.PermissionError, "print(file=...) is refused: %s", allowIOHint)
			}
			strs := make(py.Tuple, len(args))
			for i, a := range args {
				s, err := strString(g, a)
				if err != nil {
					return nil, err
				}
				strs[i] = py.String(s)
			}
			return py.Call(original["print"], strs, kwargs)
		}
		return hostPrint(g, stderr, args, kwargs)
	}, 0, "")
	b["pow"] = py.MustNewMethod("pow", func(self py.Object, args py.Tuple) (py.Object, error) {
		if len(args) == 2 { // with a modulus the result stays small
			if _, err := checkSize(opBinaryPower, args[0], args[1]); err != nil {
				return nil, err
			}
		}
		return py.Call(original["pow"], args, nil)
	}, 0, "")
}

// refused is a builtin that raises PermissionError when called.
func refused(name, why string) py.Object {
	return py.MustNewMethod(name, func(py.Object, py.Tuple, py.StringDict) (py.Object, error) {
		return nil, py.ExceptionNewf(py.PermissionError, "%s() is refused: it %s, and %s", name, why, allowIOHint)
	}, 0, "")
}

// importModule is the __import__ of bounded host code: the modules of
// hostModules that the interpreter has, never a file.
func (h *hostPython) importModule(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	var name, globals, locals, fromlist py.Object
	var level py.Object = py.Int(0)
	if err := py.UnpackTuple(args, kwargs, "__import__", 1, 5, &name, &globals, &locals, &fromlist, &level); err != nil {
		return nil, err
	}
	s, ok := name.(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "__import__() argument 1 must be str")
	}
	path := string(s)
	if lv, ok := level.(py.Int); ok && lv != 0 {
		return nil, py.ExceptionNewf(py.ImportError, "relative import of %q inside a host function: tri binds the names a module imports where it reads the module, not when host code runs", path)
	}
	top, _, _ := strings.Cut(path, ".")
	if !slices.Contains(hostModules, top) {
		return nil, py.ExceptionNewf(py.ImportError, "import of %s is refused: host code imports only %s; %s", path, strings.Join(hostModules[:8], ", "), allowIOHint)
	}
	if m, err := h.ctx.GetModule(path); err == nil {
		return m, nil
	}
	if impl := py.GetModuleImpl(path); impl != nil {
		m, err := h.ctx.ModuleInit(impl)
		if err != nil {
			return nil, err
		}
		if path == "math" {
			boundMath(m)
		}
		return m, nil
	}
	return nil, py.ExceptionNewf(py.ImportError, "No module named '%s' in tri's host Python (gpython's interpreter has no %s)", path, path)
}

// boundMath makes math.factorial refuse arguments whose result passes the
// size limit (factorial(65536) has about a million bits).
func boundMath(m *py.Module) {
	f, ok := m.Globals["factorial"]
	if !ok {
		return
	}
	m.Globals["factorial"] = py.MustNewMethod("factorial", func(self py.Object, arg py.Object) (py.Object, error) {
		if x, ok := bigOf(arg); ok && (!x.IsInt64() || x.Int64() > 1<<16) {
			return nil, py.ExceptionNewf(py.MemoryError, "tri's host Python refuses factorial(%s) (at most factorial(65536))", x)
		}
		return py.Call(f, py.Tuple{arg}, nil)
	}, 0, "")
}

// hostPrint is print(*args, sep=' ', end='\n') on w, escaped.
func hostPrint(g *guard, w io.Writer, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	sep, end := " ", "\n"
	for k, v := range kwargs {
		switch k {
		case "sep", "end":
			if v == py.None {
				continue
			}
			s, ok := v.(py.String)
			if !ok {
				return nil, py.ExceptionNewf(py.TypeError, "%s must be None or a string, not %s", k, v.Type().Name)
			}
			if k == "sep" {
				sep = string(s)
			} else {
				end = string(s)
			}
		case "flush", "file":
		default:
			return nil, py.ExceptionNewf(py.TypeError, "'%s' is an invalid keyword argument for print()", k)
		}
	}
	parts := make([]string, len(args))
	for i, a := range args {
		s, err := strString(g, a)
		if err != nil {
			return nil, err
		}
		parts[i] = s
	}
	fmt.Fprint(w, escapeControls(strings.Join(parts, sep)+end))
	return py.None, nil
}

// escapeControls writes the control characters of s, and the Unicode
// characters that reorder text on a terminal, as Python escapes (\x1b,
// \u202e); newlines and tabs stay. Text that host code hands to the
// terminal, in print or in an exception's message, goes through it.
func escapeControls(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
