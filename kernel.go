package tri

// This file implements compiled kernels and launches: their CUDA, and
// their runs in the interpreter and on the GPU.

import (
	"errors"
	"os"
	"strings"
	"sync"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// Kernel is one specialization of a kernel: compiled to tri's IR for
// fixed dtypes and constexprs, ready to be run in the interpreter, and
// compiled for the GPU on its first Run. It is safe for concurrent use.
type Kernel struct {
	ir *ir.Kernel
	o  Options

	mu   sync.Mutex
	cuda string
	c    *gpu.Compiled
}

// Param is a runtime parameter of a Kernel: what Run and Interpret take,
// in order. Constexprs and integers specialized to 1 are not parameters.
type Param struct {
	Name string
	// DType is Triton's name of its type: "*fp32" for a pointer to
	// float32, "i32", "fp32".
	DType string
}

// ready reports a Kernel that Compile or Prepare did not make.
func (k *Kernel) ready(method string) error {
	if k == nil || k.ir == nil {
		return badInput("Kernel.%s: a Kernel not made by File.Compile or File.Prepare", method)
	}
	return nil
}

// Name is the kernel's Python name.
func (k *Kernel) Name() string {
	if k.ready("Name") != nil {
		return ""
	}
	return k.ir.Name
}

// Params lists the runtime parameters, in the order Run takes them.
func (k *Kernel) Params() []Param {
	if k.ready("Params") != nil {
		return nil
	}
	out := make([]Param, len(k.ir.Params))
	for i, p := range k.ir.Params {
		out[i] = Param{Name: p.Name, DType: p.DType.String()}
	}
	return out
}

// CUDA is the CUDA C that tri generates for the kernel, for
// Options.Arch (the GPU's own where "", else sm_80): readable, each
// statement under the Python line it comes from.
func (k *Kernel) CUDA() (string, error) {
	if err := k.ready("CUDA"); err != nil {
		return "", err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		return k.c.CUDA, nil
	}
	if k.cuda == "" {
		res, err := gpu.GenerateCUDA(k.ir, gpu.TargetArch(k.o.Arch), k.o.LineInfo)
		if err != nil {
			return "", wrap(err)
		}
		k.cuda = res.Source
	}
	return k.cuda, nil
}

// compiled compiles the kernel for the GPU, once.
func (k *Kernel) compiled() (*gpu.Compiled, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		return k.c, nil
	}
	c, err := gpu.CompileFor(k.ir, k.o.Arch, k.o.LineInfo)
	if errors.Is(err, gpu.ErrTarget) {
		return nil, badInput("Options.Arch %s: %v", k.o.Arch, err)
	}
	if err != nil {
		return nil, wrap(err)
	}
	k.c = c
	return c, nil
}

// args converts Run's and Interpret's arguments, one per parameter.
func (k *Kernel) args(method string, grid [3]int, values []any) ([]arg, error) {
	if err := k.ready(method); err != nil {
		return nil, err
	}
	for _, n := range grid {
		if n < 0 {
			return nil, badInput("Kernel.%s: grid %v has a negative dimension", method, grid)
		}
	}
	if len(values) != len(k.ir.Params) {
		return nil, badInput("Kernel.%s: %s takes %d runtime arguments (%s), got %d", method, k.ir.Name, len(k.ir.Params), paramNames(k.ir), len(values))
	}
	out := make([]arg, len(values))
	for i, v := range values {
		a, err := runtimeArg(k.ir.Params[i], v)
		if err != nil {
			return nil, badInput("Kernel.%s: %s: %v", method, k.ir.Name, err)
		}
		out[i] = a
	}
	return out, nil
}

func paramNames(k *ir.Kernel) string {
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Interpret runs the kernel in the interpreter, on the CPU, over grid
// (programs along x, y, z) with one argument per Param: slices for
// pointers, which it reads and writes in place, and numbers.
func (k *Kernel) Interpret(grid [3]int, args ...any) (err error) {
	a, err := k.args("Interpret", grid, args)
	if err != nil {
		return err
	}
	defer guard(&err, k.ir.File)
	return k.interpret(grid, a)
}

func (k *Kernel) interpret(grid [3]int, args []arg) error {
	iargs := make([]interp.Arg, len(args))
	for i, a := range args {
		switch {
		case a.data == nil:
			iargs[i].Scalar = a.scalar
		case a.data.buf != nil:
			return badInput("%s: parameter %s: the interpreter runs on Go slices, not on a Buffer (copy it with Buffer.CopyTo)", k.ir.Name, k.ir.Params[i].Name)
		default:
			iargs[i].Tensor = a.data.tensor()
		}
	}
	stdout := k.o.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	err := interp.Run(k.ir, grid, iargs, interp.Options{Timeout: k.o.Timeout, MaxMemory: k.o.MaxMemory, Stdout: stdout})
	hosteval.AttachSource(&err, k.ir.File, k.ir.Source) // for Error.Report's source line
	return wrap(err)
}

// Run runs the kernel on the GPU over grid, on stream s (nil: the
// default stream), with one argument per Param: a slice or a *Buffer for
// a pointer, a number otherwise. It compiles the kernel on its first run.
//
// With a slice among the arguments, Run copies each slice to the device,
// launches, waits for the stream and copies the slices back: they hold
// the results when it returns. With only buffers and numbers, Run queues
// the launch and returns at once; wait with s.Synchronize (or read a
// buffer with CopyTo, which waits). Without a GPU the error wraps
// ErrNoGPU.
func (k *Kernel) Run(s *Stream, grid [3]int, args ...any) (err error) {
	a, err := k.args("Run", grid, args)
	if err != nil {
		return err
	}
	if grid[0]*grid[1]*grid[2] == 0 {
		return nil // no programs, as in Triton
	}
	defer guard(&err, k.ir.File)
	return k.runGPU(s, grid, false, a)
}

// Launch is a launch line bound to Go values and its kernel specialized
// for them (File.Prepare): a call ready to run, as often as wanted.
type Launch struct {
	p      *launch.Prepared
	kernel *Kernel
	data   map[*tensor.Tensor]data
}

// ready reports a Launch that Prepare did not make.
func (l *Launch) ready(method string) error {
	if l == nil || l.p == nil || l.kernel == nil {
		return badInput("Launch.%s: a Launch not made by File.Prepare", method)
	}
	return nil
}

// Kernel is the launch's specialization of its kernel: its CUDA, its
// runtime parameters.
func (l *Launch) Kernel() *Kernel {
	if l.ready("Kernel") != nil {
		return nil
	}
	return l.kernel
}

// Grid is the number of programs along x, y and z that the launch's grid
// gave.
func (l *Launch) Grid() [3]int {
	if l.ready("Grid") != nil {
		return [3]int{}
	}
	return l.p.Grid
}

// Interpret runs the launch in the interpreter, on the CPU: the slices
// bound by Args hold the results when it returns.
func (l *Launch) Interpret() (err error) {
	args, err := l.args("Interpret")
	if err != nil {
		return err
	}
	defer guard(&err, l.kernel.ir.File)
	return l.kernel.interpret(l.p.Grid, args)
}

// Run runs the launch on the GPU on stream s (nil: the default stream),
// as Kernel.Run does: slices are copied to the device and back, and the
// call waits; with only buffers it queues the launch and returns.
func (l *Launch) Run(s *Stream) (err error) {
	args, err := l.args("Run")
	if err != nil {
		return err
	}
	if g := l.p.Grid; g[0]*g[1]*g[2] == 0 {
		return nil
	}
	defer guard(&err, l.kernel.ir.File)
	return l.kernel.runGPU(s, l.p.Grid, l.p.Bound.PDL, args)
}

// args are the kernel's runtime arguments from the values bound: the Go
// data behind each tensor, and the numbers.
func (l *Launch) args(method string) ([]arg, error) {
	if err := l.ready(method); err != nil {
		return nil, err
	}
	vals, err := l.p.RuntimeValues()
	if err != nil {
		return nil, wrap(err)
	}
	params := l.kernel.ir.Params
	out := make([]arg, len(vals))
	for i, v := range vals {
		var goValue any
		switch v.Kind {
		case hosteval.VTensor:
			if len(v.Ptrs) > 0 {
				return nil, badInput("Launch.%s: parameter %s: pointer tables (ptrs) are not supported by the Go API", method, params[i].Name)
			}
			d, ok := l.data[v.Tensor]
			if !ok { // a tensor the launch line made itself
				d = data{kind: v.Tensor.Kind, shape: v.Tensor.Shape, bytes: v.Tensor.Data}
			}
			out[i] = arg{data: &d}
			continue
		case hosteval.VInt:
			goValue = v.Int
		case hosteval.VFloat:
			goValue = v.Float
		case hosteval.VBool:
			goValue = v.Bool
		default:
			return nil, badInput("Launch.%s: parameter %s got a %s", method, params[i].Name, v.Kind)
		}
		a, err := runtimeArg(params[i], goValue)
		if err != nil {
			return nil, badInput("Launch.%s: %v", method, err)
		}
		out[i] = a
	}
	return out, nil
}

// CDiv is a / b rounded up, as triton.cdiv: the programs a grid needs for
// a elements, b per program (0 for b <= 0).
func CDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	q := a / b
	if a%b > 0 {
		q++
	}
	return q
}
