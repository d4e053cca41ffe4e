package interp

// This file implements Run: argument binding, the split of the grid among
// workers, timeouts and cancellation, and the choice of the reported error.

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// Arg is one runtime argument, in the order of k.Params: a tensor for a
// pointer parameter, a scalar (ir.Const of the param's dtype) otherwise.
type Arg struct {
	Tensor *tensor.Tensor
	Scalar ir.Const
}

// Options tune Run.
type Options struct {
	// Workers is the number of goroutines running programs; 0 means
	// GOMAXPROCS. A program spinning in a while loop may start one more
	// goroutine at a time (see the package comment), so a program waiting
	// for a later one makes progress even with one worker.
	Workers int
	// Timeout stops the run after this long (0: never); the error names the
	// kernel and the loop (source line) a program was in.
	Timeout time.Duration
	// Context, if set, cancels the run.
	Context context.Context
	// Buffers, if set, fixes the address map: Buffers[i] lives at Base(i).
	// Tensor arguments not listed get the next bases, in parameter order.
	// Use it for tensors reached only through pointer tables (int64 tensors
	// of addresses, cast to pointers in the kernel), which must be built
	// with those addresses before Run.
	Buffers []*tensor.Tensor
	// Stdout receives the lines the kernel prints (tl.device_print,
	// print), programs in order; nil means os.Stdout.
	Stdout io.Writer
	// BufferNames, if set, names Buffers[i] in error messages ("buffer
	// i" where absent).
	BufferNames []string
	// MaxMemory bounds the bytes of the kernel's tensors plus the large
	// tiles the programs hold (see budget.go); past it the run stops with
	// an error placed at the statement. 0 means DefaultMaxMemory().
	MaxMemory int64
	// Arch is the target whose conversions the run follows, as a compute
	// capability (80 for sm_80, 90 for sm_90a); 0 means sm_89 or newer.
	// Before sm_89 (1 to 88) fp8e5 converts in software as Triton and
	// tri's CUDA do there (see fp8soft.go), with other results than the
	// cvt instructions for ties, magnitudes from 61440, infinities, NaN
	// and, from bf16, small values.
	Arch int
}

// Stop reasons, in machine.stop.
const (
	running int32 = iota
	stopTimeout
	stopCanceled
)

// machine is the state shared by the workers of one Run.
type machine struct {
	k       *ir.Kernel
	grid    [3]int
	arch    int // Options.Arch
	mem     *memory
	params  []*tile // the value of each Param, by index
	timeout time.Duration
	stop    atomic.Int32

	// budget is the memory budget; live counts the tensors' bytes
	// (tensorBytes) and those of the tiles the programs hold.
	budget      int64
	tensorBytes int64
	live        atomic.Int64

	next  atomic.Int64   // the index of the next program to start
	total int64          // the number of programs
	wg    sync.WaitGroup // the workers and helpers

	mu       sync.Mutex
	failed   atomic.Int64 // lowest failing program index, or the program count
	firstErr error

	// stdout is where prints go, nil for a kernel that prints nothing;
	// out orders them (under mu).
	stdout io.Writer
	out    output
}

// Run executes k over grid (programs along x, y, z) with the given
// arguments, reading and writing the tensors in place. Out-of-bounds or
// misaligned loads and stores, the use of a lane of an integer division
// by zero (stored, an address, a mask, control flow), an assume that
// does not hold, a zero loop step, timeouts and cancellation are errors
// (*diag.Diagnostic) naming the source position and the program id (and,
// for memory, the element index and the buffer's bounds). Run never
// panics: an internal failure is an internal-error diagnostic.
func Run(k *ir.Kernel, grid [3]int, args []Arg, opt Options) (err error) {
	if k == nil {
		return diag.Errorf(diag.Pos{}, diag.CodeInternal, "interpreting: no kernel")
	}
	defer func() {
		if r := recover(); r != nil {
			err = diag.Errorf(diag.Pos{File: k.File}, diag.CodeInternal, "interpreting %s: internal error: %v", k.Name, r)
		}
	}()
	m, err := newMachine(k, grid, args, opt)
	if err != nil {
		return err
	}
	if err := CanRun(k); err != nil {
		return err
	}
	if err := m.startBudget(opt.MaxMemory); err != nil {
		return err
	}
	total := grid[0] * grid[1] * grid[2]
	if total == 0 {
		return nil
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Err() != nil {
		return m.kernelError(diag.CodeRuntime, "canceled before it started")
	}
	stopCtx := context.AfterFunc(ctx, func() { m.stop.CompareAndSwap(running, stopCanceled) })
	defer stopCtx()
	if opt.Timeout > 0 {
		t := time.AfterFunc(opt.Timeout, func() { m.stop.CompareAndSwap(running, stopTimeout) })
		defer t.Stop()
	}

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, total)
	m.total = int64(total)
	m.failed.Store(int64(total))
	for range workers {
		m.wg.Go(func() { m.work(m.newProgram(), false) })
	}
	m.wg.Wait()
	return m.firstErr
}

// work runs the next programs not yet started, until there are none left
// or a lower-numbered program failed; with one set, it runs one program at
// most.
func (m *machine) work(p *program, one bool) {
	for {
		i := m.next.Add(1) - 1
		if i >= m.total || i > m.failed.Load() {
			return
		}
		err := p.run(int(i))
		m.printed(i, p)
		if err != nil {
			m.fail(i, err)
		}
		if one {
			return
		}
	}
}

// newMachine checks the arguments and maps the tensors.
func newMachine(k *ir.Kernel, grid [3]int, args []Arg, opt Options) (*machine, error) {
	m := &machine{k: k, grid: grid, arch: opt.Arch, mem: &memory{}, timeout: opt.Timeout}
	if k.Body == nil {
		return nil, m.kernelError(diag.CodeInternal, "the kernel has no body")
	}
	if hasPrint(k) {
		m.stdout, m.out.pending = opt.Stdout, map[int64][]byte{}
		if m.stdout == nil {
			m.stdout = os.Stdout
		}
	}
	for _, g := range grid {
		if g < 0 {
			return nil, m.kernelError(diag.CodeLaunch, "negative grid %v", grid)
		}
	}
	if len(args) != len(k.Params) {
		return nil, m.kernelError(diag.CodeArgs, "%d arguments for %d parameters", len(args), len(k.Params))
	}
	for i, t := range opt.Buffers {
		if t == nil {
			return nil, m.kernelError(diag.CodeArgs, "buffer %d is nil", i)
		}
		name := fmt.Sprintf("buffer %d", i)
		if i < len(opt.BufferNames) && opt.BufferNames[i] != "" {
			name = opt.BufferNames[i]
		}
		m.mem.add(t, name)
	}
	m.params = make([]*tile, len(k.Params))
	for i, p := range k.Params {
		a := args[i]
		if !p.DType.IsPtr() {
			m.params[i] = constTile(p.DType.Kind, a.Scalar)
			continue
		}
		if a.Tensor == nil {
			return nil, diag.Errorf(diag.Pos(p.Pos), diag.CodeArgs, "interpreting %s: no tensor for pointer parameter %s", k.Name, p.Name)
		}
		if a.Tensor.Kind != p.DType.Elem {
			return nil, diag.Errorf(diag.Pos(p.Pos), diag.CodeArgs, "interpreting %s: parameter %s is %s but the tensor holds %s",
				k.Name, p.Name, p.DType, ir.Scalar(a.Tensor.Kind))
		}
		b := m.mem.add(a.Tensor, p.Name)
		m.params[i] = intScalar(ir.Ptr, int64(b.base))
	}
	return m, nil
}

// fail records the error of program i, keeping the lowest-numbered one.
func (m *machine) fail(i int64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i < m.failed.Load() || m.firstErr == nil {
		m.failed.Store(i)
		m.firstErr = err
	}
}

// kernelError is an error about the whole run, placed at the kernel's file.
func (m *machine) kernelError(code diag.Code, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(diag.Pos{File: m.k.File}, code, "interpreting %s: %s", m.k.Name, fmt.Sprintf(format, args...))
}

// durationString prints whole seconds as "60s" and other durations as Go
// does.
func durationString(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
