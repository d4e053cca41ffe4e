package autotune

// This file implements the limits on host code: time, recursion depth and
// memory. A kernel file is untrusted input: a config function that never
// returns, recurses without end or builds a list of 10**10 items must end
// in a placed error, not hang tri, kill it with Go's "fatal error: stack
// overflow" or "out of memory", or leave a goroutine spinning after its
// timeout.
//
// Each interpreter session has a guard. Instrumented code (instrument.go)
// polls it at every backward jump, and every call of a Python function or
// resumption of a generator polls it too (gpython runs them through the
// package variables py.VmEvalCode and py.VmRunFrame, which
// installCallGuard wraps once per process; the wrapper finds the session's
// guard through the interpreter's module store, so code of other
// interpreters is not touched). A poll stops the evaluation when:
//
//   - the guard was halted: the evaluation ran past its timeout or its
//     caller gave up on it (Host.Done); do() halts it, and the goroutine
//     that runs the code ends at its next poll instead of spinning on;
//   - calls nest deeper than maxHostDepth (gpython runs each Python call
//     on the Go stack, so unbounded recursion would overflow it);
//   - the heap has grown by more than maxHostHeap since the evaluation
//     began (read from runtime/metrics every heapPollEvery polls, and at
//     the poll after any step that made a large value).
//
// A stop is a panic with a *hostStop, which Python code cannot catch
// (gpython turns no panic into an exception); do() recovers it in the
// evaluating goroutine and reports it at the line of the loop or the
// function where the code was stopped. The operators that can make a huge
// value in one step check the size of their result first and raise
// MemoryError, as Python does when an allocation fails; that one can be
// caught, having allocated nothing.

import (
	"fmt"
	"math/big"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-python/gpython/py"
)

const (
	// maxHostDepth bounds nested Python calls, as CPython's default
	// recursion limit does.
	maxHostDepth = 1000
	// maxHostHeap bounds the heap that one evaluation may add.
	maxHostHeap = 1 << 30
	// maxHostItems bounds the items of a list, tuple or range, and the
	// bytes of a str or bytes, that one operation may make.
	maxHostItems = 1 << 24
	// maxHostBits bounds the bits of an int that one operation may make.
	maxHostBits = 1 << 20
	// heapPollEvery is how many polls pass between reads of the heap (a
	// read costs about as much as a turn of a small loop).
	heapPollEvery = 64
	// bigResult is the size from which an operation reads the heap first.
	bigResult = 1 << 16
	// defaultHostTimeout bounds an evaluation whose Host sets no timeout.
	defaultHostTimeout = time.Minute
)

// hostStop is the panic that stops host code, and the error of the
// evaluation it stopped: what happened, where.
type hostStop struct {
	file string
	line int
	msg  string
}

func (s *hostStop) Error() string { return fmt.Sprintf("%s:%d: %s", s.file, s.line, s.msg) }

// guard holds one session's limits and the state of the evaluation in
// progress. depth and polls are touched only by the goroutine running the
// evaluation; halted is written by do() from another.
type guard struct {
	halted   atomic.Pointer[string] // why the evaluation must stop, once set
	depth    int
	polls    uint32
	heapBase uint64
	maxHeap  uint64 // maxHostHeap; tests lower it
	bigSeen  uint64 // bigSteps at the last read of the heap (hostpy_alloc.go)
	// instrumented are the code objects instrumented for this session
	// (hostpy_ctx.go); touched by the evaluating goroutine only.
	instrumented map[*py.Code]bool
}

// guardType makes a guard a Python object, so that it can sit in the
// interpreter's module store (guardModule) where the call wrappers find
// it. Python code cannot import that module (boundary.go).
var guardType = py.NewType("tri_guard", "the limits of tri's host Python")

// Type implements py.Object.
func (g *guard) Type() *py.Type { return guardType }

const guardModule = "__tri_guard__"

// attach stores g in ctx's module store.
func (g *guard) attach(ctx py.Context) error {
	m, err := ctx.Store().NewModule(ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: guardModule}})
	if err != nil {
		return err
	}
	m.Globals["guard"] = g
	return nil
}

// guardOf finds the guard of the interpreter that ctx belongs to, or nil
// for an interpreter without one.
func guardOf(ctx py.Context) *guard {
	if ctx == nil {
		return nil
	}
	m, err := ctx.GetModule(guardModule)
	if err != nil {
		return nil
	}
	g, _ := m.Globals["guard"].(*guard)
	return g
}

var (
	installOnce sync.Once
	// installed is set, under installOnce, where gpython is linked.
	installed bool
)

// installCallGuard wraps gpython's entry points for running a Python
// function and resuming a generator, so that each polls its session's
// guard and counts its depth, and replaces str's constructor. It runs before any session of this package
// runs code, so the writes happen before every read that matters; it
// reports whether gpython is linked at all, read under the same Once, as
// sessions start concurrently (a survey builds kernels side by side).
func installCallGuard() bool {
	installOnce.Do(func() {
		if py.NewContext == nil || py.Compile == nil || py.VmEvalCode == nil {
			return
		}
		installed = true
		installAllocChecks()
		evalCode, runFrame := py.VmEvalCode, py.VmRunFrame
		py.VmEvalCode = func(ctx py.Context, code *py.Code, globals, locals py.StringDict, args []py.Object, kws py.StringDict, defs []py.Object, kwdefs py.StringDict, closure py.Tuple) (py.Object, error) {
			g := guardOf(ctx)
			if g == nil {
				return evalCode(ctx, code, globals, locals, args, kws, defs, kwdefs, closure)
			}
			g.enter(code)
			defer g.leave()
			return evalCode(ctx, code, globals, locals, args, kws, defs, kwdefs, closure)
		}
		// str(x) of a container is tri's bounded str (hostpy_nest.go);
		// str is a type, whose New serves every interpreter: a value
		// that gpython would recurse into without end is one that no
		// interpreter can print otherwise.
		strNew := py.StringType.New
		py.StringType.New = func(metatype *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if metatype == py.StringType && len(args) == 1 && len(kwargs) == 0 && recursive(args[0]) {
				s, err := strString(nil, args[0])
				if err != nil {
					return nil, err
				}
				return py.String(s), nil
			}
			return strNew(metatype, args, kwargs)
		}
		py.VmRunFrame = func(f *py.Frame) (py.Object, error) {
			g := guardOf(f.Context)
			if g == nil {
				return runFrame(f)
			}
			g.enter(f.Code)
			defer g.leave()
			return runFrame(f)
		}
	})
	return installed
}

// begin prepares g for an evaluation.
func (g *guard) begin() {
	g.depth, g.polls = 0, 0
	g.heapBase = heapBytes()
}

// halt makes the running evaluation stop at its next poll.
func (g *guard) halt(why string) {
	g.halted.CompareAndSwap(nil, &why)
}

// enter counts a call of code and polls. A stop there is placed at the
// function's first line (gpython's code objects do not keep the line of
// the def).
func (g *guard) enter(code *py.Code) {
	g.depth++
	why := ""
	if g.depth > maxHostDepth {
		g.depth--
		why = fmt.Sprintf("host code recursed deeper than %d calls (in %s)", maxHostDepth, code.Name)
	} else {
		why = g.poll()
	}
	if why != "" {
		panic(&hostStop{file: code.Filename, line: int(code.Addr2Line(0)), msg: why})
	}
}

func (g *guard) leave() { g.depth-- }

// poll says why the evaluation must stop, or "".
func (g *guard) poll() string {
	if why := g.halted.Load(); why != nil {
		return *why
	}
	g.polls++
	if big := bigSteps.Load(); g.polls%heapPollEvery == 0 || big != g.bigSeen {
		g.bigSeen = big
		if why := g.heapExceeded(); why != "" {
			g.halt(why)
			return why
		}
	}
	return ""
}

// heapExceeded says why the heap is over the limit, or "". Garbage counts
// until it is collected, so an excess is confirmed after a collection.
func (g *guard) heapExceeded() string {
	if heapBytes() <= g.heapBase+g.maxHeap {
		return ""
	}
	runtime.GC()
	if heapBytes() <= g.heapBase+g.maxHeap {
		return ""
	}
	return fmt.Sprintf("host code holds more than %d MiB", g.maxHeap>>20)
}

// heapBytes is the memory of the heap's objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// hooks are what code of file compiled for g's session calls
// (instrument.go).
func (g *guard) hooks(file string) hooks {
	return hooks{tick: g.tickFor(file), op: g.opFunc, cmp: g.cmpFunc, attr: g.attrFunc, key: keyCheck}
}

// tickFor is the function instrumented code of file calls before a
// backward jump, with the line of the loop.
func (g *guard) tickFor(file string) py.Object {
	return py.MustNewMethod("__tri_tick__", func(_ py.Object, line py.Object) (py.Object, error) {
		if why := g.poll(); why != "" {
			n, _ := line.(py.Int)
			panic(&hostStop{file: file, line: int(n), msg: why})
		}
		return py.None, nil
	}, 0, "")
}

// opFunc is the checked version of an operator that instrumented code
// calls instead of the operator.
func (g *guard) opFunc(op byte) py.Object {
	var do func(a, b py.Object) (py.Object, error)
	name := ""
	switch op {
	case opBinaryMultiply:
		name, do = "*", py.Mul
	case opInplaceMultiply:
		name, do = "*=", py.IMul
	case opBinaryPower:
		name, do = "**", func(a, b py.Object) (py.Object, error) { return py.Pow(a, b, py.None) }
	case opInplacePower:
		name, do = "**=", func(a, b py.Object) (py.Object, error) { return py.IPow(a, b, py.None) }
	case opBinaryLshift:
		name, do = "<<", py.Lshift
	case opInplaceLshift:
		name, do = "<<=", py.ILshift
	case opBinaryAdd:
		name, do = "+", py.Add
	case opInplaceAdd:
		name, do = "+=", py.IAdd
	case opBinaryModulo, opInplaceModulo:
		// str % values is tri's (hostpy_percent.go); x %= y is x % y for
		// every value gpython has.
		name, do = "%", func(a, b py.Object) (py.Object, error) {
			if s, ok := a.(py.String); ok {
				return percentFormat(g, string(s), b)
			}
			return py.Mod(a, b)
		}
	}
	return py.MustNewMethod("__tri_op__", func(_ py.Object, args py.Tuple) (py.Object, error) {
		if len(args) != 2 {
			return nil, py.ExceptionNewf(py.SystemError, "%s: want 2 operands", name)
		}
		if err := g.checkOp(op, args[0], args[1]); err != nil {
			return nil, err
		}
		return do(args[0], args[1])
	}, 0, "")
}

// checkOp refuses op(a, b) past the size limits (checkSize) or, for a
// large result, when the heap is already over its limit.
func (g *guard) checkOp(op byte, a, b py.Object) error {
	size, err := checkSize(op, a, b)
	if err != nil {
		return err
	}
	return g.checkHeap(size)
}

// checkHeap reads the heap before an operation makes a result of size
// items: one such operation can allocate more than many polls do.
func (g *guard) checkHeap(size int64) error {
	if size < bigResult {
		return nil
	}
	if why := g.heapExceeded(); why != "" {
		g.halt(why)
		return py.ExceptionNewf(py.MemoryError, "%s", why)
	}
	return nil
}

// cmpFunc is the checked version of a comparison (hostpy_nest.go) that
// instrumented code calls instead of COMPARE_OP arg.
func (g *guard) cmpFunc(arg uint32) py.Object {
	return py.MustNewMethod("__tri_cmp__", func(_ py.Object, args py.Tuple) (py.Object, error) {
		if len(args) != 2 {
			return nil, py.ExceptionNewf(py.SystemError, "compare: want 2 operands")
		}
		return g.compare(arg, args[0], args[1])
	}, 0, "")
}

// attrFunc is what instrumented code calls instead of reading the
// attribute name (one of checkedAttrs) of an object.
func (g *guard) attrFunc(name string) py.Object {
	return py.MustNewMethod("__tri_attr__", func(_ py.Object, obj py.Object) (py.Object, error) {
		return g.attr(obj, name)
	}, 0, "")
}

// checkSize refuses, with MemoryError, an operation whose result would
// pass the size limits; else it returns the result's size (items, or
// words of an int) as far as it can tell.
func checkSize(op byte, a, b py.Object) (int64, error) {
	switch op {
	case opBinaryMultiply, opInplaceMultiply:
		if n, ok := items(a); ok {
			return checkRepeat(a, n, b)
		}
		if n, ok := items(b); ok {
			return checkRepeat(b, n, a)
		}
		return checkBits(bits(a) + bits(b))
	case opBinaryAdd, opInplaceAdd:
		na, okA := items(a)
		nb, okB := items(b)
		if okA && okB {
			if na+nb > maxHostItems {
				return 0, tooLarge(a, na+nb)
			}
			return na + nb, nil
		}
	case opBinaryPower, opInplacePower:
		x, okA := bigOf(a)
		y, okB := bigOf(b)
		if okA && okB && y.Sign() > 0 && x.CmpAbs(big.NewInt(1)) > 0 {
			if !y.IsInt64() || y.Int64() > maxHostBits {
				return checkBits(maxHostBits + 1)
			}
			return checkBits(int64(x.BitLen()) * y.Int64())
		}
	case opBinaryLshift, opInplaceLshift:
		x, okA := bigOf(a)
		y, okB := bigOf(b)
		if okA && okB && x.Sign() != 0 && y.Sign() > 0 {
			if !y.IsInt64() || y.Int64() > maxHostBits {
				return checkBits(maxHostBits + 1)
			}
			return checkBits(int64(x.BitLen()) + y.Int64())
		}
	}
	return 0, nil
}

// checkRepeat checks seq * times, seq having n items.
func checkRepeat(seq py.Object, n int64, times py.Object) (int64, error) {
	k, ok := bigOf(times)
	if !ok || k.Sign() <= 0 || n == 0 {
		return 0, nil
	}
	if !k.IsInt64() || k.Int64() > maxHostItems || n*k.Int64() > maxHostItems {
		total := new(big.Int).Mul(k, big.NewInt(n))
		return 0, py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a %s of %s %s (at most %d)",
			seq.Type().Name, total, unit(seq), maxHostItems)
	}
	return n * k.Int64(), nil
}

func tooLarge(seq py.Object, n int64) error {
	return py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a %s of %d %s (at most %d)", seq.Type().Name, n, unit(seq), maxHostItems)
}

func checkBits(n int64) (int64, error) {
	if n > maxHostBits {
		return 0, py.ExceptionNewf(py.MemoryError, "tri's host Python refuses an int of more than %d bits", maxHostBits)
	}
	return n / 64, nil
}

// items is the length of a sequence whose repetition allocates: items of
// a list or tuple, bytes of a str or bytes.
func items(o py.Object) (int64, bool) {
	switch o := o.(type) {
	case py.String:
		return int64(len(o)), true
	case py.Bytes:
		return int64(len(o)), true
	case py.Tuple:
		return int64(len(o)), true
	case *py.List:
		return int64(len(o.Items)), true
	}
	return 0, false
}

func unit(seq py.Object) string {
	switch seq.(type) {
	case py.String, py.Bytes:
		return "bytes"
	}
	return "items"
}

// bigOf is an int's value.
func bigOf(o py.Object) (*big.Int, bool) {
	switch o := o.(type) {
	case py.Int:
		return big.NewInt(int64(o)), true
	case py.Bool:
		if o {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	case *py.BigInt:
		return (*big.Int)(o), true
	}
	return nil, false
}

// bits is the size of an int operand (0 for anything else).
func bits(o py.Object) int64 {
	if x, ok := bigOf(o); ok {
		return int64(x.BitLen())
	}
	return 0
}
