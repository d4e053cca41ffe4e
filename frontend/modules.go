package frontend

// This file implements Loader: the modules of a Python source tree, found
// and parsed on demand, as Python's import system finds them.
//
// A kernel file inside a package (a folder with __init__.py) has a dotted
// module name: the folders up to the first one without __init__.py are its
// packages, and that first folder is a source root. Absolute imports are
// searched in the roots given (--root, then TRI_PATH), then in that found
// root, then in the kernel file's own folder, as Python puts a script's
// folder first on sys.path. A module is a.py or a/__init__.py under a root;
// a folder without __init__.py is a namespace package. Modules that no root
// holds (torch, numpy, triton itself) are never read: a name imported from
// one stands for its dotted path, and only Triton's paths mean anything to
// a kernel.
//
// Nothing is executed and nothing is read before a kernel needs it: a
// name's binding is followed through imports only when Lookup is asked for
// it, each module is parsed once per Loader, and a name that depends on
// itself through imports is an error, not a loop.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/internal/regfile"
)

// Loader finds, parses and caches the modules of one compilation.
type Loader struct {
	roots []string               // --root and TRI_PATH folders, in order
	known func(path string) bool // whether a dotted Triton path exists
	files map[string]*module     // by absolute path
	names map[string]*module     // by dotted module name; nil: looked for, absent
	order []*File                // every file read, in order
	diags *diag.List             // what parsing imported modules reported
	busy  map[lookupKey]bool     // lookups in progress, for cycles
	// deciding counts the if/try statements being decided: lookups made
	// meanwhile are not kept.
	deciding int
	mu       sync.Mutex // held by the exported methods: lookups fill caches
	host     HostEvaluator
}

// lock locks l and returns the unlock, for a deferred call.
func (l *Loader) lock() func() {
	l.mu.Lock()
	return l.mu.Unlock
}

// lookupKey names one lookup in progress.
type lookupKey struct {
	m    *module
	name string
}

// module is a file read as a Python module.
type module struct {
	loader *Loader
	file   *File
	name   string // dotted module name; "" for a file outside any root's tree
	isPkg  bool   // an __init__.py
	root   string // the root it was found under
	arms   map[*Arm]armState
	// guessed holds the if chains whose conditions tri could not evaluate
	// (branch.go), each with the first such test: the names their arms
	// bind are uncertain (guess.go).
	guessed map[*Cond]Expr
	byName  map[string][]*Binding // the file's Scope by name, made on first lookup
	cache   map[string]lookupResult
	// What the evaluation of the top level (exec.go) found: how far it
	// ran, the binding of each name, the bindings other modules made by
	// attribute assignment, the host functions it may call, and the
	// locals of the one it is running.
	state  execState
	env    map[string]*Binding
	sets   map[string]override
	defs   map[string]*hostDefn
	locals *frame
}

// armState is what is known of whether an arm of a module-level if or try
// runs.
type armState int

const (
	armUnknown armState = iota
	armDeciding
	armRuns
	armSkipped
)

// NewLoader returns a loader that searches roots (the --root folders, then
// the TRI_PATH ones) before the root found from the kernel file. known
// reports whether a dotted path under triton exists (sema's tables); it may
// be nil, in which case every Triton path is taken to exist.
func NewLoader(roots []string, known func(path string) bool) *Loader {
	l := &Loader{known: known, files: map[string]*module{}, names: map[string]*module{}, diags: &diag.List{}, busy: map[lookupKey]bool{}}
	for _, r := range roots {
		if r != "" {
			l.roots = append(l.roots, filepath.Clean(r))
		}
	}
	return l
}

// SearchPath splits a TRI_PATH value (folders separated as in PYTHONPATH)
// and puts the --root folders before it.
func SearchPath(roots []string, triPath string) []string {
	out := append([]string(nil), roots...)
	for _, d := range filepath.SplitList(triPath) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// Open parses the kernel file at path (its text src) as the main module:
// its package and root are found by walking up __init__.py files.
func (l *Loader) Open(path string, src []byte) (*File, *diag.List) {
	f, diags := Parse(path, src)
	m := &module{loader: l, file: f, arms: map[*Arm]armState{}, cache: map[string]lookupResult{}}
	f.mod = m
	l.order = append(l.order, f)
	clean := filepath.Clean(path)
	l.files[fileKey(clean)] = m
	// The walk needs the folders' names, which a relative path such as
	// "k.py" lacks; the root keeps the path's own form ("..").
	dir, err := filepath.Abs(filepath.Dir(clean))
	if err != nil {
		dir = filepath.Dir(clean)
	}
	base := strings.TrimSuffix(filepath.Base(clean), filepath.Ext(clean))
	parts := []string{base}
	if base == "__init__" {
		parts, m.isPkg = nil, true
	}
	up := 0
	for isFile(filepath.Join(dir, "__init__.py")) || isNamespaceIn(dir) {
		parts = append([]string{filepath.Base(dir)}, parts...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir, up = parent, up+1
	}
	if len(parts) > 0 && (m.isPkg || len(parts) > 1) {
		m.name = strings.Join(parts, ".")
		m.root = filepath.Dir(clean)
		for range up {
			m.root = filepath.Join(m.root, "..")
		}
		l.names[m.name] = m
	}
	if m.root != "" {
		l.roots = append(l.roots, m.root)
	}
	l.roots = append(l.roots, filepath.Dir(clean))
	return f, diags
}

// isNamespaceIn reports whether dir, which has no __init__.py, is a
// namespace package inside a package: the folder above it is in a package
// (has an __init__.py, or is such a folder itself). Python imports a file
// there by its dotted name (pkg.kernels.attn for pkg/kernels/attn.py with
// no pkg/kernels/__init__.py), so its relative imports work; a folder
// with no package above it is a source root.
func isNamespaceIn(dir string) bool {
	for {
		if isFile(filepath.Join(dir, "__init__.py")) {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		if isFile(filepath.Join(parent, "__init__.py")) {
			return true
		}
		dir = parent
	}
}

// find returns the module with a dotted name, reading it on first use; nil
// if no root holds it.
func (l *Loader) find(name string) *module {
	if m, ok := l.names[name]; ok {
		return m
	}
	l.names[name] = nil
	head, _, _ := strings.Cut(name, ".")
	if head == "triton" {
		return nil // Triton is known from sema's tables, never read
	}
	if preloaded[head] {
		return nil // Python has it before any folder of the path is searched
	}
	rel := filepath.Join(strings.Split(name, ".")...)
	for _, root := range l.roots {
		for _, cand := range []struct {
			path  string
			isPkg bool
		}{{filepath.Join(root, rel, "__init__.py"), true}, {filepath.Join(root, rel+".py"), false}} {
			if !isFile(cand.path) {
				continue
			}
			m := l.read(cand.path, name, cand.isPkg, root)
			l.names[name] = m
			return m
		}
		if isDir(filepath.Join(root, rel)) { // a namespace package
			m := &module{loader: l, name: name, isPkg: true, root: root, arms: map[*Arm]armState{}, cache: map[string]lookupResult{},
				file: &File{Name: filepath.Join(root, rel), Aliases: map[string]string{}, Host: map[string]*HostFunc{}}}
			m.file.mod = m
			l.names[name] = m
			return m
		}
	}
	return nil
}

// preloaded names the standard modules that a Python process has before it
// searches sys.path: those compiled into the interpreter
// (sys.builtin_module_names) and those imported while it starts (os and
// what it needs, site). An os.py under a source root does not shadow os,
// as Python finds the module already loaded; a math.py would shadow math.
var preloaded = map[string]bool{
	"abc": true, "atexit": true, "builtins": true, "codecs": true, "encodings": true, "errno": true,
	"faulthandler": true, "gc": true, "genericpath": true, "io": true, "itertools": true, "marshal": true,
	"os": true, "posix": true, "posixpath": true, "pwd": true, "site": true, "stat": true, "sys": true,
	"time": true, "zipimport": true,
}

// read parses the module file at path.
func (l *Loader) read(path, name string, isPkg bool, root string) *module {
	clean := filepath.Clean(path)
	if m, ok := l.files[fileKey(clean)]; ok {
		return m
	}
	src, err := readModule(clean)
	if err != nil {
		l.diags.Errorf(diag.Pos{File: clean}, diag.CodeUndefined, "cannot read module %s: %v", name, err)
		src = nil
	}
	f, diags := Parse(clean, src)
	l.diags.Append(diags)
	m := &module{loader: l, file: f, name: name, isPkg: isPkg, root: root, arms: map[*Arm]armState{}, cache: map[string]lookupResult{}}
	f.mod = m
	l.files[fileKey(clean)] = m
	l.order = append(l.order, f)
	return m
}

// maxModuleBytes bounds the size of a module file, as hosteval's
// MaxSourceBytes bounds the kernel file's.
const maxModuleBytes = regfile.MaxSourceBytes

// readModule reads a module file with the checks hosteval.ReadSource makes
// on the kernel file: what is not a regular file, and a file over
// maxModuleBytes, is refused before it is read. find takes only regular
// files, but the file may be replaced between its Stat and this read, so
// regfile opens it without waiting (opening a FIFO waits for a writer) and
// checks what it opened.
func readModule(path string) ([]byte, error) {
	return regfile.ReadSource(path, maxModuleBytes)
}

// pkg is the package that relative imports in m start from.
func (m *module) pkg() string {
	if m.isPkg {
		return m.name
	}
	if i := strings.LastIndexByte(m.name, '.'); i >= 0 {
		return m.name[:i]
	}
	return ""
}

// fileKey names a file however the path to it was spelled.
func fileKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// HostEvaluator computes the value of a module-level name of f by running
// the host code that defines it (the interpreter of package autotune). It
// returns a constant (a number, string, bool or None), or an error placed
// in the project's files.
type HostEvaluator func(f *File, name string) (*Const, error)

// SetHost sets the evaluator asked for the module-level values a kernel
// needs that tri cannot compute without running host code
// (s = tl.constexpr(_generate_asm(1))). Without one they are errors.
func (l *Loader) SetHost(h HostEvaluator) {
	defer l.lock()()
	l.host = h
}

// HostValue computes the module-level name of f with the loader's host
// evaluator; false if the loader has none.
func (f *File) HostValue(name string) (*Const, bool, error) {
	l := f.module().loader
	l.mu.Lock()
	h := l.host
	l.mu.Unlock()
	if h == nil {
		return nil, false, nil
	}
	k, err := h(f, name)
	return k, true, err
}
