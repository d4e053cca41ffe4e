package hosteval

// This file implements the environment of --let bindings.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tri-lang/tri/frontend"
)

// Env holds bindings from --let, in order, and the seed of the random
// constructors.
type Env struct {
	seed  int64
	names []string
	vals  map[string]Value
	index map[string]int // binding order, which picks the random stream
	// Dir is the directory that load() paths are relative to; "" is the
	// working directory.
	Dir string
	// MaxElements, when positive, bounds the elements of a tensor that a
	// constructor makes below the default 2^31 (fuzzing lowers it).
	MaxElements int64
	// DeferData, when set, makes the tensors of the constructors (randn,
	// zeros, empty, ..., the *_like forms and arithmetic on their floats)
	// deferred (tensor.Deferred): their elements are made, the same as
	// without it, only when something reads them. It is for commands that
	// read only dtypes, shapes and strides (tri build), which then spend
	// nothing on data: a deferred tensor may have up to 2^48 elements.
	DeferData bool
	// Device is the GPU that torch.cuda.get_device_properties describes
	// (nil: an A100, the oldest architecture tri targets).
	Device *DeviceInfo
	// Host, if set, calls the kernel file's own host functions, which a
	// launch line or --let may call as Python would (NUM_SMS=num_sms(),
	// USE_GDC=supports_pdl()); names of tri's builtins come first.
	Host    HostFuncs
	globals map[string]frontend.Expr
	// rng is the random stream of the binding being evaluated, and calls
	// counts the lambda calls of the evaluation, to stop runaway recursion.
	rng   *stream
	calls int
}

// HostFuncs calls the host functions of a kernel file.
type HostFuncs interface {
	// Has reports whether the file defines a host function (or binds a
	// host value) name.
	Has(name string) bool
	// Call calls it with the arguments of a launch line; the result is a
	// value a launch line holds (a number, bool, string, dtype, tuple).
	Call(name string, args []Value, kwargs map[string]Value) (Value, error)
}

// NewEnv returns an empty environment whose random constructors are seeded
// by seed (the --seed flag).
func NewEnv(seed int64) *Env {
	return &Env{seed: seed, vals: map[string]Value{}, index: map[string]int{}}
}

// Seed is the environment's seed.
func (e *Env) Seed() int64 { return e.seed }

// LetSource is the source name of a --let binding of name in error
// positions: "--let x".
func LetSource(name string) string { return "--let " + name }

// Let evaluates "NAME=EXPR" and binds NAME. Errors are diagnostics placed in
// the text under the source name "--let NAME" (--let x:1:5: ...), columns
// counting from the start of the whole text. Binding a name again replaces
// its value; it keeps its random stream.
func (e *Env) Let(spec string) (err error) {
	name, expr, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	src := LetSource(name)
	if !ok || strings.HasPrefix(expr, "=") {
		src = "--let"
	}
	defer AttachSource(&err, src, spec)
	if src == "--let" {
		return Usage(ErrAt(src, 1, "want NAME=EXPR"))
	}
	if !isIdent(name) {
		return Usage(ErrAt(src, 1, fmt.Sprintf("%q is not a valid name", name)))
	}
	if strings.TrimSpace(expr) == "" {
		return Usage(ErrAt(src, len(spec)+1, "missing the expression after '='"))
	}
	// Blank out "NAME=" so that columns in the expression are columns in
	// the text the user wrote.
	text := strings.Repeat(" ", len(spec)-len(expr)) + expr
	x, err := ParseExpr(src, text)
	if err != nil {
		return err
	}
	idx, ok := e.index[name]
	if !ok {
		idx = len(e.names)
	}
	end := e.begin(idx)
	v, err := e.eval(x, nil)
	end()
	if err != nil {
		return err
	}
	e.Set(name, v)
	return nil
}

// Set binds name to v directly, as Let does after evaluating. A zero Env
// (not made by NewEnv) gets its maps here.
func (e *Env) Set(name string, v Value) {
	if e.vals == nil || e.index == nil {
		e.vals, e.index = map[string]Value{}, map[string]int{}
	}
	if _, ok := e.index[name]; !ok {
		e.index[name] = len(e.names)
		e.names = append(e.names, name)
	}
	e.vals[name] = v
}

// Lookup returns the value bound to name.
func (e *Env) Lookup(name string) (Value, bool) {
	v, ok := e.vals[name]
	return v, ok
}

// Names returns the bound names in binding order.
func (e *Env) Names() []string { return append([]string(nil), e.names...) }

// UseGlobals makes a file's module-level globals (BLOCK =
// tl.constexpr(128)) visible to the evaluation of parameter defaults in
// package bind. Bindings by --let take precedence.
func (e *Env) UseGlobals(gs []*frontend.Global) {
	e.globals = map[string]frontend.Expr{}
	for _, g := range gs {
		e.globals[g.Name] = g.Value
	}
}

// Begin starts a top-level evaluation with the random stream of the next
// binding; the returned function ends it. Every Eval until then draws from
// that one stream, so that the arguments of a launch (package bind) are as
// random as the bindings of one --let each.
func (e *Env) Begin() (end func()) { return e.begin(len(e.names)) }

// begin starts a top-level evaluation with the random stream of binding
// number idx; the returned function ends it. Nested calls (package bind
// evaluating arguments) keep the outer evaluation's stream.
func (e *Env) begin(idx int) (end func()) {
	if e.rng != nil {
		return func() {}
	}
	e.rng, e.calls = e.stream(idx), 0
	return func() { e.rng = nil }
}

// stream returns the random stream of binding number idx: a PCG generator
// keyed by the seed and the index, so streams are independent of each
// other and of the bindings around them.
func (e *Env) stream(idx int) *stream {
	return &stream{src: *rand.NewPCG(uint64(e.seed), 0x9e3779b97f4a7c15^uint64(idx))}
}

// stream is the random stream of one evaluation. A deferred tensor draws
// its numbers only when it is made: it keeps the state of the stream where
// it was bound, and the stream owes its draws to whatever draws after it,
// so that every tensor, made at once or later, gets the numbers it would
// have got had all been made in binding order.
type stream struct {
	src  rand.PCG
	owed []func(*rand.Rand) // the draws of deferred tensors, in order
}

// now returns the generator for numbers drawn at once: the stream after
// the draws it owes.
func (s *stream) now() *rand.Rand {
	r := rand.New(&s.src)
	for _, skip := range s.owed {
		skip(r)
	}
	s.owed = nil
	return r
}

// later returns what makes a generator at the stream's present point, for
// a deferred tensor, and owes skip, that tensor's draws, from then on.
func (s *stream) later(skip func(*rand.Rand)) (start func() *rand.Rand) {
	src, owed := s.src, slices.Clone(s.owed)
	s.owed = append(s.owed, skip)
	return func() *rand.Rand {
		src := src
		r := rand.New(&src)
		for _, f := range owed {
			f(r)
		}
		return r
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
