package autotune

// This file implements the host names that a decorator of the kernel file
// takes from other modules of the project (a config list built in a
// utils module, a pruning function imported from another): the name is
// followed through the file's imports (frontend.File.Lookup) to the module
// that defines it, and that module's host definition runs in the module's
// own globals, with the stand-ins for triton and torch bound to its own
// import names, before its value is bound in the importing module. Nothing
// else of that module runs.

import (
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
)

// hostModule is a module of the project seen by the interpreter.
type hostModule struct {
	file    *frontend.File
	globals py.StringDict
	loaded  map[*frontend.HostFunc]bool // host definitions already run
	busy    map[string]bool             // names being imported, for cycles
}

// main is the kernel file as a hostModule sharing h's globals.
func (h *hostPython) main() *hostModule {
	if m, ok := h.mods[h.sf.File]; ok {
		return m
	}
	m := &hostModule{file: h.sf.File, globals: h.globals, loaded: h.loaded, busy: map[string]bool{}}
	h.mods[h.sf.File] = m
	return m
}

// module returns the hostModule of f, making its globals on first use.
func (h *hostPython) module(f *frontend.File) *hostModule {
	if f == h.sf.File {
		return h.main()
	}
	if m, ok := h.mods[f]; ok {
		return m
	}
	m := &hostModule{file: f, globals: py.StringDict{}, loaded: map[*frontend.HostFunc]bool{}, busy: map[string]bool{}}
	m.globals["triton"] = h.standIn["triton"]
	for _, name := range []string{dictMergeName, fmtName} { // what forGpython's rewrites call (print is a builtin: boundary.go)
		m.globals[name] = h.globals[name]
	}
	for local, path := range f.Aliases {
		if o, ok := h.resolve(h.standIn, path); ok {
			m.globals[local] = o
		}
	}
	h.mods[f] = m
	return m
}

// importName binds in m the value of name, which m imports from another
// module of the project; nothing happens if it does not (the evaluation
// then reports the name as undefined). An import of the project that fails
// is the error, placed at the import, as Python would raise it.
func (h *hostPython) importName(m *hostModule, name string, pos diag.Pos, what string) error {
	if _, ok := m.globals[name]; ok || m.busy[name] {
		return nil
	}
	sym, d := m.file.Lookup(name)
	if d != nil {
		e := *d
		e.Message = what + ": " + e.Message
		if pos.IsValid() && pos != d.Pos {
			e.Notes = append(append([]diag.Related(nil), d.Notes...), diag.Related{Pos: pos, Message: "while evaluating this"})
		}
		return hosteval.Usage(&e)
	}
	switch sym.Kind {
	case frontend.SymPath:
		if v, ok := h.pureImport(sym.Path); ok {
			// import math at module level: tl.constexpr(math.sqrt(2 / math.pi))
			m.globals[name] = v
			return nil
		}
		h.foreign[name] = sym.Path
	case frontend.SymModule:
		// A module of the project used as a value (runtime.get_tuned_config
		// with from pkg import runtime): tri runs a module's host
		// definitions one by one, never the whole module, so it has no
		// module object to give, as for a module it does not read.
		h.foreign[name] = sym.File.ModuleName()
	}
	if sym.File == nil || sym.File == m.file || sym.Name == "" {
		return nil
	}
	switch sym.Kind {
	case frontend.SymGlobal, frontend.SymHost:
	default:
		return nil
	}
	m.busy[name] = true
	defer delete(m.busy, name)
	src := h.module(sym.File)
	if err := h.requireIn(src, []string{sym.Name}, pos, what); err != nil {
		return err
	}
	if v, ok := src.globals[sym.Name]; ok {
		m.globals[name] = v
	}
	return nil
}

// requireIn runs in m the host definitions of m that names refer to, and
// those they refer to in turn, importing the names m takes from other
// modules.
func (h *hostPython) requireIn(m *hostModule, names []string, pos diag.Pos, what string) error {
	var need []*frontend.HostFunc
	seen := map[string]bool{}
	limit := 0 // the main file runs to h.limit; imported modules run whole
	if m.file == h.sf.File {
		limit = h.limit
	}
	for len(names) > 0 {
		n := names[len(names)-1]
		names = names[:len(names)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		defs := m.file.HostBindings(n, limit)
		if len(defs) == 0 && limit > 0 {
			// Bound only below: a function that a hook or a lambda calls
			// when it runs, after the whole module has.
			defs = m.file.HostBindings(n, 0)
		}
		if len(defs) == 0 {
			if err := h.importName(m, n, pos, what); err != nil {
				return err
			}
			continue
		}
		for _, hf := range defs {
			if m.loaded[hf] || slices.Contains(need, hf) {
				continue
			}
			need = append(need, hf)
			more, err := h.names(h.padded(hf), py.ExecMode, hf.Pos, what)
			if err != nil {
				return err
			}
			names = append(names, more...)
		}
	}
	slices.SortFunc(need, func(a, b *frontend.HostFunc) int { return a.Pos.Line - b.Pos.Line })
	for _, hf := range need {
		m.loaded[hf] = true
		_, err := h.do(hf.Pos, what, func() (py.Object, error) {
			code, err := h.compile(h.padded(hf), m.file.Name, py.ExecMode)
			if err != nil {
				return nil, err
			}
			return h.ctx.RunCode(code, m.globals, m.globals, nil)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// typingStandIn is the stand-in typing module: host functions annotate
// their parameters and results (def configs() -> List[triton.Config]),
// which Python evaluates when it runs the def.
const typingStandIn = `
class _Form:
    def __getitem__(self, key):
        return self

    def __call__(self, *args, **kwargs):
        return self


Any = List = Dict = Tuple = Set = Optional = Union = Callable = Sequence = Iterable = Type = Literal = _Form()


def TypeVar(name, *args, **kwargs):
    return _Form()
`

// osStandIn is the stand-in os module: host code reads settings from the
// environment, which tri takes to be unset (as the module loader does when
// it chooses the arms of a module-level if), so defaults apply.
const osStandIn = `
environ = {}


def getenv(key, default=None):
    return default
`

// itertoolsStandIn is the stand-in itertools: config lists are often the
// product of a few value lists (itertools.product(STAGES, BLOCK_M, ...)).
// They join lists item by item: gpython's tuple + tuple loses the left
// operand's items, and list.extend takes lists only.
const itertoolsStandIn = `
def product(*iterables, repeat=1):
    pools = []
    for p in iterables:
        pools.append(list(p))
    out = [[]]
    for pool in pools * repeat:
        longer = []
        for t in out:
            for x in pool:
                longer.append(t + [x])
        out = longer
    return [tuple(t) for t in out]


def chain(*iterables):
    out = []
    for it in iterables:
        for x in it:
            out.append(x)
    return out
`

// inspectStandIn is the stand-in inspect module: host code asks whether
// Triton's functions take a parameter ("cache_results" in
// inspect.signature(triton.autotune).parameters), which the stand-ins
// answer with their own parameters, those of a recent Triton.
const inspectStandIn = `
class Parameter:
    def __init__(self, name):
        self.name = name


class Signature:
    def __init__(self, names):
        self.parameters = {}
        for n in names:
            self.parameters[n] = Parameter(n)


def signature(fn):
    return Signature(_params(fn))
`

// paramNames is _params(fn) of the inspect stand-in: the names of a
// Python function's parameters, in order (*args and **kwargs included).
func paramNames(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) != 1 {
		return nil, py.ExceptionNewf(py.TypeError, "signature() takes one argument")
	}
	fn, ok := args[0].(*py.Function)
	if !ok || fn.Code == nil {
		return nil, py.ExceptionNewf(py.TypeError, "signature() of %s is not supported here", args[0].Type().Name)
	}
	c := fn.Code
	n := int(c.Argcount + c.Kwonlyargcount)
	if c.Flags&py.CO_VARARGS != 0 {
		n++
	}
	if c.Flags&py.CO_VARKEYWORDS != 0 {
		n++
	}
	n = min(n, len(c.Varnames))
	out := make(py.Tuple, n)
	for i, name := range c.Varnames[:n] {
		out[i] = py.String(name)
	}
	return out, nil
}

// Values returns the evaluator of the module-level values that a kernel of
// src's project needs and that only host code computes (a constexpr string
// built by a function of the module): the name's definition and what it
// needs run in the interpreter, in their module's globals, on first use.
func Values(src *Source, arch func() string, host Host) frontend.HostEvaluator {
	var mu sync.Mutex
	var h *hostPython
	var startErr error
	return func(f *frontend.File, name string) (*frontend.Const, error) {
		mu.Lock()
		defer mu.Unlock()
		if h == nil && startErr == nil {
			stderr := host.Stderr
			if stderr == nil {
				stderr = io.Discard
			}
			h, startErr = newHostPython(src, arch, host, stderr)
		}
		if startErr != nil {
			return nil, startErr
		}
		m := h.module(f)
		hf, ok := f.Host[name]
		if defs := f.HostBindings(name, 0); !ok && len(defs) > 0 {
			// Bound only in the arms of a module-level if (frontend's
			// hostif.go), which runs whole.
			hf, ok = defs[len(defs)-1], true
		}
		if !ok {
			return nil, fmt.Errorf("%s is not a host assignment of %s", name, f.Name)
		}
		what := "the value of " + name
		if err := h.requireIn(m, []string{name}, hf.Pos, what); err != nil {
			return nil, err
		}
		o, ok := m.globals[name]
		if !ok {
			return nil, fmt.Errorf("%s: %s is not set", what, name)
		}
		fd, err := h.read(o, hf.Pos, what)
		if err != nil {
			return nil, err
		}
		v := fd.val
		if fd.err != nil {
			return nil, hosteval.Usage(diag.Errorf(hf.Pos, diag.CodeValue, "%s: %v", what, fd.err))
		}
		k := &frontend.Const{At: frontend.At{Pos: hf.Pos}}
		switch v.Kind {
		case hosteval.VInt:
			k.Kind, k.Int = frontend.ConstInt, big.NewInt(v.Int)
		case hosteval.VFloat:
			k.Kind, k.Float = frontend.ConstFloat, v.Float
		case hosteval.VStr:
			k.Kind, k.Str = frontend.ConstStr, v.Str
		case hosteval.VBool:
			k.Kind, k.Bool = frontend.ConstBool, v.Bool
		case hosteval.VNone:
			k.Kind = frontend.ConstNone
		default:
			return nil, hosteval.Usage(diag.Errorf(hf.Pos, diag.CodeValue, "%s: a %s, not a number, string or bool", what, v.Kind))
		}
		return k, nil
	}
}

// pureModules are the modules of Python's library, as gpython has them,
// that a module-level import binds for host code: they compute, and
// reach nothing outside the interpreter.
var pureModules = []string{"math", "itertools", "string", "functools", "operator"}

// pureImport returns what an import of dotted path (math, math.sqrt)
// binds, if its module is one of pureModules and has the attributes.
func (h *hostPython) pureImport(path string) (py.Object, bool) {
	parts := strings.Split(path, ".")
	if !slices.Contains(pureModules, parts[0]) {
		return nil, false
	}
	o, err := h.importModule(nil, py.Tuple{py.String(parts[0])}, nil)
	if err != nil {
		return nil, false
	}
	for _, attr := range parts[1:] {
		if o, err = py.GetAttrString(o, attr); err != nil {
			return nil, false
		}
	}
	return o, true
}
