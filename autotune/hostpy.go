package autotune

// This file implements the evaluation of host Python: the arguments of
// @triton.autotune and @triton.heuristics, the functions of the kernel file
// that build config lists (tutorial 03's get_autotune_config()), pruning
// functions and heuristics lambdas. They run in gpython's own interpreter,
// against small stand-ins of the triton and torch modules.
//
// Only what an evaluation needs is fed to the interpreter: the names an
// expression uses are looked up among the file's top-level host functions
// and assignments (frontend.File.Host), transitively, and those statements
// run in source order, each at its own line, so that a traceback names the
// kernel file's lines. Imports are not run: the names the file imports from
// triton, torch, typing, os, inspect and itertools are bound to stand-ins, names from
// the project's other modules are followed to their definitions
// (imports.go), and other modules are unknown names.
//
// gpython compiles functions whose parameters are captured by an inner
// function or comprehension without the map from those cells to the
// arguments, so the parameter reads as unbound there; fixCells adds the
// map that CPython's compiler makes.

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/parser"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// tritonStandIn is the stand-in triton module (its language submodule is
// bound as triton.language). _arch is a Go function that reports the
// target's compute capability as Triton does (90 for sm_90).
const tritonStandIn = `
class Config:
    __tri_config__ = True

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        out = {}
        for k in self.kwargs:
            out[k] = self.kwargs[k]
        out['num_warps'] = self.num_warps
        out['num_stages'] = self.num_stages
        out['num_ctas'] = self.num_ctas
        return out

    def __repr__(self):
        parts = []
        for k in sorted(self.kwargs):
            parts.append('%s: %r' % (k, self.kwargs[k]))
        return 'Config(%s, num_warps=%d, num_stages=%d)' % (', '.join(parts), self.num_warps, self.num_stages)


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n -= 1
    n |= n >> 1
    n |= n >> 2
    n |= n >> 4
    n |= n >> 8
    n |= n >> 16
    n |= n >> 32
    n += 1
    return n


def jit(fn=None, **kwargs):
    if fn is None:
        return lambda f: f
    return fn


class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend = backend
        self.arch = arch
        self.warp_size = warp_size

    def __repr__(self):
        return 'GPUTarget(backend=%r, arch=%r, warp_size=%r)' % (self.backend, self.arch, self.warp_size)


class _Namespace:
    pass


class _ActiveDriver:
    def get_current_target(self):
        return GPUTarget('cuda', _arch(), 32)

    def get_active_torch_device(self):
        return 'cuda'

    def get_current_device(self):
        return 0


class _DriverUtils:
    def get_device_properties(self, device=None):
        d = _device()
        return {'multiprocessor_count': d[3], 'max_shared_mem': d[4], 'max_num_regs': 65536, 'warpSize': 32}


class _AutotuneArgs:
    pass


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
                   post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False,
                   **unknown):
    a = _AutotuneArgs()
    a.configs = configs
    a.key = key
    a.prune_configs_by = prune_configs_by
    a.reset_to_zero = reset_to_zero
    a.restore_value = restore_value
    a.pre_hook = pre_hook
    a.post_hook = post_hook
    a.warmup = warmup
    a.rep = rep
    a.use_cuda_graph = use_cuda_graph
    a.do_bench = do_bench
    a.unknown = unknown
    return a


def heuristics(values):
    return values


class TensorDescriptor:
    __tri_desc__ = True

    def __init__(self, base, shape, strides, block_shape, padding='zero'):
        self.base = base
        self.shape = shape
        self.strides = strides
        self.block_shape = block_shape
        self.padding = padding


def _desc_from_tensor(tensor, block_shape, padding='zero'):
    return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape, padding)


TensorDescriptor.from_tensor = _desc_from_tensor


tools = _Namespace()
tools.tensor_descriptor = _Namespace()
tools.tensor_descriptor.TensorDescriptor = TensorDescriptor

runtime = _Namespace()
runtime.driver = _Namespace()
runtime.driver.active = _ActiveDriver()
runtime.driver.active.utils = _DriverUtils()
runtime.Config = Config
runtime.jit = jit

# The Triton whose semantics tri follows (packaging.go compares versions).
__version__ = '3.6.0'
`

// tlStandIn is the stand-in triton.language; its dtypes are added from Go.
const tlStandIn = `
class dtype:
    __tri_dtype__ = True

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return 'triton.language.' + self.name


def constexpr(value):
    return value


def cdiv(x, y):
    return (x + y - 1) // y
`

// torchStandIn is the stand-in torch: a CUDA device of the target's
// capability, dtypes (added from Go), and the tensors a heuristic or a
// pruning function sees (shape, strides, dtype; no data).
const torchStandIn = `
class dtype:
    __tri_dtype__ = True

    def __init__(self, name, tl_name):
        self.name = tl_name
        self.torch_name = name

    def __repr__(self):
        return 'torch.' + self.torch_name


class Tensor:
    def __init__(self, shape, strides, dtype, element_size):
        self.shape = shape
        self.ndim = len(shape)
        self.dtype = dtype
        self.device = 'cuda'
        self.is_cuda = True
        self._strides = strides
        self._element_size = element_size

    def stride(self, dim=None):
        if dim is None:
            return self._strides
        return self._strides[dim]

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self.shape[dim]

    def dim(self):
        return self.ndim

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def element_size(self):
        return self._element_size

    def __repr__(self):
        return 'tensor(shape=%r, dtype=%r)' % (self.shape, self.dtype)


class _DeviceProperties:
    def __init__(self, d):
        self.name = d[0]
        self.major = d[1]
        self.minor = d[2]
        self.multi_processor_count = d[3]
        self.shared_memory_per_block_optin = d[4]
        self.warp_size = 32

    def __repr__(self):
        return '_CudaDeviceProperties(name=%r, major=%r, minor=%r, multi_processor_count=%r)' % (
            self.name, self.major, self.minor, self.multi_processor_count)


class _Cuda:
    def is_available(self):
        return True

    def device_count(self):
        return 1

    def current_device(self):
        return 0

    def get_device_capability(self, device=None):
        return (_arch() // 10, _arch() % 10)

    def get_device_properties(self, device=None):
        return _DeviceProperties(_device())

    def get_device_name(self, device=None):
        for arch, name in ((70, 'Tesla V100'), (75, 'Tesla T4'), (80, 'NVIDIA A100'), (86, 'NVIDIA GeForce RTX 3090'),
                           (89, 'NVIDIA L4'), (90, 'NVIDIA H100'), (100, 'NVIDIA B200'), (120, 'NVIDIA GeForce RTX 5090')):
            if arch == _arch():
                return name
        return 'NVIDIA GPU'


class _Version:
    hip = None
    cuda = '12.0'


cuda = _Cuda()
version = _Version()


# torch.finfo and torch.iinfo of the stand-in dtypes, with torch's values
# (module-level constants such as FlagGems' torch.finfo(torch.float32).min).
class _Info:
    def __init__(self, dtype, bits, min, max, eps=None, tiny=None):
        self.dtype = dtype
        self.bits = bits
        self.min = min
        self.max = max
        if eps is not None:
            self.eps = eps
            self.tiny = tiny
            self.smallest_normal = tiny
            self.resolution = eps


# name: (bits, max, eps, tiny); fp8 ones from their exponent bias and
# mantissa width, as torch has them.
_FINFO = {
    'float16': (16, 65504.0, 0.0009765625, 6.103515625e-05),
    'bfloat16': (16, 3.3895313892515355e+38, 0.0078125, 1.1754943508222875e-38),
    'float32': (32, 3.4028234663852886e+38, 1.1920928955078125e-07, 1.1754943508222875e-38),
    'float64': (64, 1.7976931348623157e+308, 2.220446049250313e-16, 2.2250738585072014e-308),
    'float8_e4m3fn': (8, 448.0, 0.125, 0.015625),
    'float8_e5m2': (8, 57344.0, 0.25, 6.103515625e-05),
    'float8_e4m3fnuz': (8, 240.0, 0.125, 0.0078125),
    'float8_e5m2fnuz': (8, 57344.0, 0.25, 3.0517578125e-05),
}

_IINFO = {'int8': 8, 'int16': 16, 'int32': 32, 'int64': 64, 'uint8': 8, 'uint16': 16, 'uint32': 32, 'uint64': 64}


def finfo(type=None):
    name = 'float32' if type is None else getattr(type, 'torch_name', None)
    if name not in _FINFO:
        raise TypeError('torch.finfo() requires a floating point input type, not %r' % (type,))
    bits, mx, eps, tiny = _FINFO[name]
    return _Info(name, bits, -mx, mx, eps, tiny)


def iinfo(type):
    name = getattr(type, 'torch_name', None)
    if name not in _IINFO:
        raise TypeError('torch.iinfo() requires an integer input type, not %r' % (type,))
    bits = _IINFO[name]
    if name[0] == 'u':
        return _Info(name, bits, 0, (1 << bits) - 1)
    return _Info(name, bits, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


# PyTorch's default: host code that picks configs for deterministic runs
# (mamba's autotune_configs) takes the ordinary ones.
def are_deterministic_algorithms_enabled():
    return False
`

// hostPython is one interpreter session over a kernel file's host code.
type hostPython struct {
	sf      *Source
	ctx     py.Context
	globals py.StringDict // the host module's
	tl      *py.Module
	torch   *py.Module
	loaded  map[*frontend.HostFunc]bool
	// limit, when positive, is the line of the kernel file at which its
	// host code stops: a decorator's arguments see only the module-level
	// bindings above it, as in Python.
	limit   int
	timeout time.Duration
	done    <-chan struct{} // Host.Done
	guard   *guard
	broken  error // set when an evaluation was stopped: the interpreter is not used again
	// mods are the other modules of the project whose host definitions an
	// evaluation imported, each with its own globals (see imports.go).
	mods    map[*frontend.File]*hostModule
	standIn map[string]*py.Module // triton, triton.language, torch
	// foreign maps the names that host code imports from modules tri does
	// not run (neither Triton, the stand-ins nor the project) to their
	// dotted paths: an evaluation that needs one cannot be done here.
	foreign map[string]string
}

// errNoInterpreter is the error of a program that evaluates host Python
// without having linked gpython's interpreter.
var errNoInterpreter = errors.New("evaluating host Python (autotune configs, heuristics) needs gpython's interpreter, " +
	"which this program does not link: import _ \"github.com/tri-lang/tri/hostpy\" (the tri command does)")

// newHostPython starts an interpreter for sf's host code. arch reports the
// target architecture ("sm_90") when host code asks for it, and
// host.Device the GPU's properties; host.Timeout bounds each evaluation
// (0: none).
func newHostPython(sf *Source, arch func() string, host Host, stderr io.Writer) (*hostPython, error) {
	timeout := host.Timeout
	if timeout <= 0 {
		timeout = defaultHostTimeout
	}
	if !installCallGuard() {
		return nil, errNoInterpreter
	}
	// Starting the interpreter runs tri's stand-ins, not the user's code:
	// it gets at least startTimeout, however short --timeout is (the race
	// detector makes it slow), and --timeout bounds each evaluation after.
	h := &hostPython{sf: sf, loaded: map[*frontend.HostFunc]bool{}, timeout: max(timeout, startTimeout), done: host.Done, guard: &guard{maxHeap: maxHostHeap},
		mods: map[*frontend.File]*hostModule{}, foreign: map[string]string{}}
	_, err := h.do(diag.Pos{File: sf.Path}, "starting the Python interpreter", func() (py.Object, error) {
		opts := py.ContextOpts{}
		if host.AllowIO {
			// import finds modules beside the importing file, as Python
			// finds them beside the script (gpython's "." is that folder).
			opts.SysPaths = []string{"."}
		}
		h.ctx = &guardedCtx{Context: py.NewContext(opts), g: h.guard} // hostpy_ctx.go
		if err := h.guard.attach(h.ctx); err != nil {
			return nil, err
		}
		h.setupBoundary(host.AllowIO, stderr)
		capability := py.MustNewMethod("_arch", func(py.Object) (py.Object, error) {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(arch(), "sm_"), "a"))
			if err != nil {
				return nil, py.ExceptionNewf(py.ValueError, "unknown architecture %q", arch())
			}
			return py.Int(n), nil
		}, 0, "")
		params := py.MustNewMethod("_params", paramNames, 0, "")
		device := py.MustNewMethod("_device", func(py.Object) (py.Object, error) {
			d := hosteval.ArchDevice(arch())
			if host.Device != nil {
				d = host.Device()
			}
			return py.Tuple{py.String(d.Name), py.Int(d.Major), py.Int(d.Minor), py.Int(d.Multiprocessors), py.Int(d.MaxSharedMem)}, nil
		}, 0, "")
		mods := map[string]*py.Module{}
		for _, m := range []struct{ name, src string }{{"triton.language", tlStandIn}, {"triton", tritonStandIn}, {"torch", torchStandIn}, {"typing", typingStandIn}, {"os", osStandIn}, {"inspect", inspectStandIn}, {"itertools", itertoolsStandIn}, {"packaging", packagingStandIn}} {
			code, err := py.Compile(m.src, "<"+m.name+">", py.ExecMode, 0, true)
			if err != nil {
				return nil, err
			}
			fixCells(code)
			mod, err := h.ctx.Store().NewModule(h.ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: m.name}})
			if err != nil {
				return nil, err
			}
			mod.Globals["_arch"] = capability
			mod.Globals["_params"] = params
			mod.Globals["_device"] = device
			if _, err := h.ctx.RunCode(code, mod.Globals, mod.Globals, nil); err != nil {
				return nil, err
			}
			mods[m.name] = mod
		}
		h.tl, h.torch, h.standIn = mods["triton.language"], mods["torch"], mods
		mods["packaging"].Globals["_version"] = py.MustNewMethod("_version", parseVersion, 0, "") // packaging.go
		mods["triton"].Globals["language"] = h.tl
		for _, k := range dtypeKinds {
			d := ir.Scalar(k)
			o, err := py.Call(h.tl.Globals["dtype"], py.Tuple{py.String(d.PyName())}, nil)
			if err != nil {
				return nil, err
			}
			h.tl.Globals[d.PyName()] = o
			if torchName(k) == "" {
				continue
			}
			if o, err = py.Call(h.torch.Globals["dtype"], py.Tuple{py.String(torchName(k)), py.String(d.PyName())}, nil); err != nil {
				return nil, err
			}
			h.torch.Globals[torchName(k)] = o
		}
		host, err := h.ctx.Store().NewModule(h.ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: "__tri_host__", FileDesc: sf.Path}})
		if err != nil {
			return nil, err
		}
		h.globals = host.Globals
		h.globals["triton"] = mods["triton"]
		h.globals["__tri_autotune__"] = mods["triton"].Globals["autotune"]
		h.globals["__tri_heuristics__"] = mods["triton"].Globals["heuristics"]
		h.globals[dictMergeName] = py.MustNewMethod(dictMergeName, dictMerge, 0, "") // {**a} (unpack.go)
		h.globals[fmtName] = py.MustNewMethod(fmtName, h.guard.fmtField, 0, "")      // f"{x}" (fstring.go)
		for local, path := range sf.File.Aliases {
			if o, ok := h.resolve(mods, path); ok {
				h.globals[local] = o
			}
		}
		return py.None, nil
	})
	if err != nil {
		return nil, err
	}
	h.timeout = timeout
	return h, nil
}

// startTimeout bounds starting an interpreter, which runs only tri's code.
const startTimeout = 30 * time.Second

// dtypeKinds are the dtypes the stand-ins offer: triton.language has
// them all, torch those of torchFP8 among the fp8 types.
var dtypeKinds = []ir.Kind{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64,
	ir.Float16, ir.BFloat16, ir.Float32, ir.Float64,
	ir.Float8E4NV, ir.Float8E5, ir.Float8E4B15, ir.Float8E4B8, ir.Float8E5B16}

// torchFP8 are torch's names of the fp8 types it has (Triton's e4b15 has
// no torch dtype).
var torchFP8 = map[ir.Kind]string{ir.Float8E4NV: "float8_e4m3fn", ir.Float8E5: "float8_e5m2",
	ir.Float8E4B8: "float8_e4m3fnuz", ir.Float8E5B16: "float8_e5m2fnuz"}

// torchName is torch's name of a dtype ("" if torch has none).
func torchName(k ir.Kind) string {
	switch {
	case k == ir.Bool:
		return "bool"
	case k.IsFP8():
		return torchFP8[k]
	}
	return ir.Scalar(k).PyName()
}

// resolve finds the stand-in object that an imported dotted name stands
// for (triton.language, triton.Config, torch.cuda, ...).
func (h *hostPython) resolve(mods map[string]*py.Module, path string) (py.Object, bool) {
	parts := strings.Split(path, ".")
	var o py.Object
	switch parts[0] {
	case "triton", "torch", "typing", "os", "inspect", "itertools", "packaging":
		o = mods[parts[0]]
	default:
		return nil, false
	}
	for _, p := range parts[1:] {
		next, err := py.GetAttrString(o, p)
		if err != nil {
			return nil, false
		}
		o = next
	}
	return o, true
}

// eval evaluates the text of an expression that starts at pos in the kernel
// file, after running the host definitions it needs. what names the
// evaluation in messages ("the autotune arguments").
func (h *hostPython) eval(text string, pos diag.Pos, what string) (py.Object, error) {
	src := strings.Repeat("\n", max(pos.Line-1, 0)) + forGpython(text)
	names, err := h.names(src, py.EvalMode, pos, what)
	if err != nil {
		return nil, err
	}
	if err := h.require(names, pos, what); err != nil {
		return nil, err
	}
	return h.do(pos, what, func() (py.Object, error) {
		code, err := h.compile(src, h.sf.Path, py.EvalMode)
		if err != nil {
			return nil, err
		}
		return h.ctx.RunCode(code, h.globals, h.globals, nil)
	})
}

// compile compiles host code of file for the bounded interpreter: cells
// fixed (fixCells) and polls of the guard added (instrument.go).
func (h *hostPython) compile(src, file string, mode py.CompileMode) (*py.Code, error) {
	code, err := py.Compile(src, file, mode, 0, true)
	if err != nil {
		return nil, err
	}
	fixCells(code)
	if err := instrument(code, h.guard.hooks(file)); err != nil {
		return nil, err
	}
	h.guard.markInstrumented(code)
	return code, nil
}

// call calls a Python function with Go-made arguments.
func (h *hostPython) call(fn py.Object, args py.Tuple, kwargs py.StringDict, pos diag.Pos, what string) (py.Object, error) {
	return h.do(pos, what, func() (py.Object, error) { return py.Call(fn, args, kwargs) })
}

// names lists the names that a text uses.
func (h *hostPython) names(src string, mode py.CompileMode, pos diag.Pos, what string) ([]string, error) {
	var names []string
	_, err := h.do(pos, what, func() (py.Object, error) {
		mod, err := parser.Parse(strings.NewReader(src), h.sf.Path, mode)
		if err != nil {
			return nil, err
		}
		ast.Walk(mod, func(n ast.Ast) bool {
			if nm, ok := n.(*ast.Name); ok {
				names = append(names, string(nm.Id))
			}
			return true
		})
		return py.None, nil
	})
	return names, err
}

// require runs, in source order, the host definitions that names refer to
// and those that they refer to in turn (see requireIn).
func (h *hostPython) require(names []string, pos diag.Pos, what string) error {
	return h.requireIn(h.main(), names, pos, what)
}

// padded is a host definition's text placed at its line.
func (h *hostPython) padded(hf *frontend.HostFunc) string {
	return strings.Repeat("\n", max(hf.Pos.Line-1, 0)) + forGpython(hf.Source)
}

// forGpython rewrites the syntax of host code that gpython's parser lacks:
// f-strings (fstring.go), then dict displays that unpack (unpack.go).
func forGpython(text string) string {
	return expandUnpacking(expandFStrings(text))
}

// do runs one step of the interpreter in its own goroutine, turning
// Python exceptions into diagnostics placed in the kernel file (at the
// innermost line of the file in the traceback, else at pos), panics into
// internal errors, and a step that the guard stopped (guard.go), ran past
// the timeout or was cancelled by Host.Done into an error placed where the
// code was stopped. After a stop the interpreter is not used again, and
// the goroutine has ended or ends at its next poll of the guard.
func (h *hostPython) do(pos diag.Pos, what string, f func() (py.Object, error)) (py.Object, error) {
	if h.broken != nil {
		return nil, h.broken
	}
	ch := make(chan stepResult, 1)
	h.guard.begin()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(*hostStop); ok {
					ch <- stepResult{err: s}
					return
				}
				ch <- stepResult{err: hosteval.Usage(diag.Errorf(pos, diag.CodeInternal, "%s: internal error of the Python interpreter (gpython): %v", what, r))}
			}
		}()
		v, err := f()
		r := stepResult{v: v, err: err}
		if err != nil {
			// The message may hold any value's str: computed here, under
			// the guard, like the rest of the step.
			r.text = errorText(h.guard, err)
		}
		ch <- r
	}()
	timer := time.NewTimer(h.timeout)
	defer timer.Stop()
	var r stepResult
	select {
	case r = <-ch:
	case <-timer.C:
		r = h.stop(ch, fmt.Sprintf("host code ran longer than --timeout %v", h.timeout))
	case <-h.done:
		r = h.stop(ch, "host code was stopped at --timeout")
	}
	if s, ok := r.err.(*hostStop); ok {
		h.broken = h.stopError(s, pos, what)
		return nil, h.broken
	}
	if r.err != nil {
		err := h.pyError(r.err, r.text, pos, what)
		if h.guard.halted.Load() != nil {
			h.broken = err // stopped by a MemoryError of the heap limit
		}
		return nil, err
	}
	return r.v, nil
}

// stopGrace is how long do waits, after halting the guard, for the
// goroutine to say where it stopped.
const stopGrace = 500 * time.Millisecond

// stop halts the evaluation and returns its result: the stop, placed where
// the code was, if the goroutine reports it in time.
func (h *hostPython) stop(ch <-chan stepResult, why string) stepResult {
	h.guard.halt(why)
	select {
	case r := <-ch:
		if _, ok := r.err.(*hostStop); ok {
			return r
		}
	case <-time.After(stopGrace):
	}
	return stepResult{err: &hostStop{msg: why}}
}

// stepResult is what a step of the interpreter returns: its value, or
// its error and, for a Python exception, the exception's text.
type stepResult struct {
	v    py.Object
	err  error
	text string
}

// stopError is the diagnostic of a stopped evaluation.
func (h *hostPython) stopError(s *hostStop, pos diag.Pos, what string) error {
	at := pos
	// A stop in code without a file (tri's stand-ins, eval and exec's
	// "<string>") is placed where the evaluation began.
	if s.file != "" && !strings.HasPrefix(s.file, "<") && s.line > 0 {
		at = diag.Pos{File: s.file, Line: s.line, Col: 1}
		if s.file == h.sf.Path {
			at = h.linePos(s.line)
		}
	}
	d := diag.Errorf(at, diag.CodeTimeout, "%s: %s", what, s.msg)
	if at.Line != pos.Line && pos.IsValid() {
		d.WithNote(pos, "while evaluating this")
	}
	return hosteval.Usage(d)
}

// exceptionInfo is the Python exception that err carries, if any.
func exceptionInfo(err error) py.ExceptionInfo {
	switch e := err.(type) {
	case py.ExceptionInfo:
		return e
	case *py.ExceptionInfo:
		return *e
	case *py.Exception:
		return py.ExceptionInfo{Type: e.Base, Value: e}
	}
	return py.ExceptionInfo{}
}

// errorText is the text of an exception that err carries ("" for other
// errors), computed in the goroutine of the step that raised it.
func errorText(g *guard, err error) string {
	if ei := exceptionInfo(err); ei.Type != nil {
		return exceptionText(g, ei)
	}
	return ""
}

// pyError converts an error of the interpreter to a diagnostic; text is
// the exception's text (errorText).
func (h *hostPython) pyError(err error, text string, pos diag.Pos, what string) error {
	var d *diag.Diagnostic
	if errors.As(err, &d) || hosteval.ExitCode(err) == 2 {
		return err
	}
	var frames []diag.Pos
	ei := exceptionInfo(err)
	msg := text
	if ei.Type == nil {
		msg = err.Error() // gpython's Error() of an exception recurses into its arguments
	} else {
		if msg == "" {
			msg = ei.Type.Name
		}
		for tb := ei.Traceback; tb != nil; tb = tb.Next {
			if tb.Frame != nil && tb.Frame.Code != nil && tb.Frame.Code.Filename == h.sf.Path && tb.Lineno > 0 {
				frames = append(frames, h.linePos(int(tb.Lineno)))
			}
		}
		if e, ok := ei.Value.(*py.Exception); ok && ei.Traceback == nil {
			// A syntax error carries its place in its attributes.
			if line, ok := e.Dict["lineno"].(py.Int); ok && line > 0 {
				frames = append(frames, h.linePos(int(line)))
			}
		}
	}
	at := pos
	if len(frames) > 0 {
		at = frames[len(frames)-1]
	}
	d = diag.Errorf(at, diag.CodeValue, "%s: %s", what, escapeControls(msg))
	for i := len(frames) - 2; i >= 0; i-- {
		if frames[i].Line != at.Line && frames[i].Line != pos.Line {
			d.WithNote(frames[i], "called from here")
		}
	}
	if at.Line != pos.Line && pos.IsValid() {
		d.WithNote(pos, "while evaluating this")
	}
	if ei.Type == py.NameError {
		d.WithSuggestion("tri runs host code in gpython's interpreter with the file's top-level functions and assignments, " +
			"those it imports from the project's other modules, and stand-ins for triton (Config, cdiv, next_power_of_2, " +
			"runtime.driver.active.get_current_target()), torch, typing, os, inspect and itertools; other imports are not available")
	}
	return hosteval.Usage(d)
}

// linePos places a line of the kernel file at its first non-blank column.
func (h *hostPython) linePos(line int) diag.Pos {
	p := diag.Pos{File: h.sf.Path, Line: line, Col: 1}
	lines := strings.Split(string(h.sf.Text), "\n")
	if line <= len(lines) {
		s := lines[line-1]
		p.Col = len(s) - len(strings.TrimLeft(s, " \t")) + 1
	}
	return p
}

// exceptionText is "NameError: name 'x' is not defined". The exception's
// arguments are written by tri's bounded str and repr (hostpy_nest.go):
// raise ValueError(l) with a list that holds itself says [[...]].
func exceptionText(g *guard, ei py.ExceptionInfo) string {
	name := ei.Type.Name
	if e, ok := ei.Value.(*py.Exception); ok {
		if t, ok := e.Args.(py.Tuple); ok {
			switch {
			case len(t) == 0:
				return name
			case len(t) == 1 && ei.Type == py.KeyError:
				if s, err := reprString(g, t[0]); err == nil {
					return name + ": " + s
				}
			}
		}
	}
	if s, err := strString(g, ei.Value); err == nil && s != "" {
		return name + ": " + s
	}
	return name
}

// fixCells adds to code, and the code objects inside it, the map from cell
// variables to the parameters they hold, which gpython's compiler leaves
// out (without it, a parameter used inside a lambda or a comprehension of
// its function reads as unbound).
func fixCells(code *py.Code) {
	for _, c := range code.Consts {
		if inner, ok := c.(*py.Code); ok {
			fixCells(inner)
		}
	}
	if len(code.Cellvars) == 0 || code.Cell2arg != nil {
		return
	}
	total := code.Argcount + code.Kwonlyargcount
	if code.Flags&py.CO_VARARGS != 0 {
		total++
	}
	if code.Flags&py.CO_VARKEYWORDS != 0 {
		total++
	}
	m := make([]byte, len(code.Cellvars))
	used := false
	for i, cell := range code.Cellvars {
		m[i] = py.CO_CELL_NOT_AN_ARG
		for j := int32(0); j < total && int(j) < len(code.Varnames); j++ {
			if code.Varnames[j] == cell {
				m[i], used = byte(j), true
				break
			}
		}
	}
	if used {
		code.Cell2arg = m
	}
}

// toPy converts a launch value to a Python object: numbers, strings, None,
// dtypes (tl.float16), tuples, and tensors as stand-in torch tensors.
func (h *hostPython) toPy(v hosteval.Value) (py.Object, error) {
	switch v.Kind {
	case hosteval.VNone:
		return py.None, nil
	case hosteval.VInt:
		return py.Int(v.Int), nil
	case hosteval.VFloat:
		return py.Float(v.Float), nil
	case hosteval.VBool:
		return py.NewBool(v.Bool), nil
	case hosteval.VStr:
		return py.String(v.Str), nil
	case hosteval.VDType:
		if o, ok := h.tl.Globals[v.DType.PyName()]; ok {
			return o, nil
		}
	case hosteval.VTuple:
		out := make(py.Tuple, len(v.Elems))
		for i, e := range v.Elems {
			o, err := h.toPy(e)
			if err != nil {
				return nil, err
			}
			out[i] = o
		}
		return out, nil
	case hosteval.VTensor:
		return h.tensorToPy(v.Tensor)
	case hosteval.VDesc:
		return h.descToPy(v.Desc)
	}
	return nil, fmt.Errorf("%s cannot be passed to Python", v.Describe())
}

func (h *hostPython) tensorToPy(t *tensor.Tensor) (py.Object, error) {
	shape, strides := make(py.Tuple, len(t.Shape)), make(py.Tuple, len(t.Shape))
	for i, n := range t.Shape {
		shape[i], strides[i] = py.Int(n), py.Int(t.Stride(i))
	}
	d, ok := h.torch.Globals[torchName(t.Kind)]
	if !ok {
		return nil, fmt.Errorf("a %s tensor cannot be passed to Python", t.Kind)
	}
	// The stand-in's constructor is Python code: it runs under the guard,
	// like every other step, so that a stop is an error, not a panic.
	return h.do(diag.Pos{}, "a tensor argument", func() (py.Object, error) {
		return py.Call(h.torch.Globals["Tensor"], py.Tuple{shape, strides, d, py.Int(t.ElemSize())}, nil)
	})
}

// fromPy converts a Python object to a launch value: numbers, strings,
// None, stand-in dtypes and tuples or lists of those.
func fromPy(o py.Object) (hosteval.Value, error) {
	return (&fromPyLimit{}).value(o, 0)
}

// value is fromPy of o at depth in the value being read.
func (l *fromPyLimit) value(o py.Object, depth int) (hosteval.Value, error) {
	if err := l.enter(depth); err != nil {
		return hosteval.Value{}, err
	}
	switch o := o.(type) {
	case py.NoneType:
		return hosteval.None, nil
	case py.Bool:
		return hosteval.BoolValue(bool(o)), nil
	case py.Int:
		return hosteval.IntValue(int64(o)), nil
	case py.Float:
		return hosteval.FloatValue(float64(o)), nil
	case py.String:
		return hosteval.StrValue(string(o)), nil
	case py.Tuple:
		return l.elems(o, depth)
	case *py.List:
		return l.elems(o.Items, depth)
	}
	if _, err := py.GetAttrString(o, "__tri_dtype__"); err == nil {
		if name, err := py.GetAttrString(o, "name"); err == nil {
			if s, ok := name.(py.String); ok {
				if d, ok := ir.ParseDType(string(s)); ok {
					return hosteval.DTypeValue(d), nil
				}
			}
		}
	}
	return hosteval.Value{}, fmt.Errorf("a Python %s, which tri cannot use here", o.Type().Name)
}

func (l *fromPyLimit) elems(items []py.Object, depth int) (hosteval.Value, error) {
	out := hosteval.Value{Kind: hosteval.VTuple, Elems: []hosteval.Value{}}
	for _, it := range items {
		v, err := l.value(it, depth+1)
		if err != nil {
			return hosteval.Value{}, err
		}
		out.Elems = append(out.Elems, v)
	}
	return out, nil
}
