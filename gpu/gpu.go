package gpu

// This file compiles a specialized kernel to a cubin (or PTX, for a target
// older than the GPU) and runs it on the GPU.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
	"github.com/tri-lang/tri/tensor"
)

// ErrNoGPU is wrapped by errors of GPU work attempted where no NVIDIA driver
// or NVRTC is found.
var ErrNoGPU = errors.New("no GPU")

var (
	deviceOnce sync.Once
	device     *nvrtc.Device
	deviceErr  error
)

// Device opens GPU 0 once per process. Without a driver the error wraps
// ErrNoGPU.
func Device() (*nvrtc.Device, error) {
	deviceOnce.Do(func() {
		if err := nvrtc.LoadDriver(); err != nil {
			deviceErr = fmt.Errorf("%w: %v", ErrNoGPU, err)
			return
		}
		device, deviceErr = nvrtc.OpenDevice(0)
		if deviceErr != nil {
			deviceErr = fmt.Errorf("%w: %v", ErrNoGPU, deviceErr)
		}
	})
	return device, deviceErr
}

// TargetArch is the architecture to compile for: the given one, else the
// GPU's when a driver is found, else sm_80.
func TargetArch(arch string) string {
	if arch != "" {
		return arch
	}
	if d, err := Device(); err == nil {
		return DeviceTarget(d)
	}
	return "sm_80"
}

// DeviceTarget is the architecture tri compiles for on device d: its own,
// with the "a" variant on sm_90 (Hopper's wgmma needs sm_90a), as Triton.
// A nil d has no architecture: "".
func DeviceTarget(d *nvrtc.Device) string {
	if d == nil {
		return ""
	}
	if a := d.Arch(); a != "sm_90" {
		return a
	}
	return "sm_90a"
}

// Compiled is a kernel compiled and loaded on the GPU, ready to launch many
// times.
type Compiled struct {
	Kernel *ir.Kernel
	CUDA   string
	// Log is NVRTC's log (ptxas -v report included); for PTX, followed by
	// the driver JIT's log, which holds ptxas's report.
	Log    string
	Cached bool // the cubin or PTX came from the disk cache
	// Target is the architecture the code was generated for and whether
	// it runs through the driver's PTX JIT.
	Target Target
	fn     *nvrtc.Function
	dev    *nvrtc.Device
	shared int // bytes of dynamic shared memory per launch
	// tmaps are the kernel's CUtensorMap parameters, after its others.
	tmaps []cudagen.TensorMap
	// scratch is the global scratch memory each program needs (the tensor
	// maps the kernel builds), passed after the tensor maps; the buffers
	// are kept per stream, as the launches on one stream run in order.
	scratch   int
	scratchMu sync.Mutex
	buffers   map[*nvrtc.Stream]scratchBuffer
	// tmapCache holds the tensor maps encoded for recent launches, by
	// what they were encoded from (mapKey): a launch with the same
	// descriptors does not ask the driver again.
	tmapMu    sync.Mutex
	tmapCache map[string][nvrtc.TensorMapBytes]byte
}

// maxCachedMaps bounds Compiled.tmapCache; past it the cache starts over.
const maxCachedMaps = 256

// errNoKernel answers a nil kernel (or CUDA) given to the functions that
// compile one, which would otherwise stop on the nil pointer.
var errNoKernel = errors.New("gpu: no kernel or no generated CUDA (nil)")

// scratchBuffer is a device buffer of scratch memory.
type scratchBuffer struct {
	ptr   nvrtc.DevicePtr
	bytes int
}

// GenerateCUDA lowers k to CUDA C for arch.
func GenerateCUDA(k *ir.Kernel, arch string, lineInfo bool) (*cudagen.Result, error) {
	if k == nil {
		return nil, errNoKernel
	}
	res, err := cudagen.Generate(k, cudagen.Options{Arch: arch, LineInfo: lineInfo})
	if err != nil {
		return nil, fmt.Errorf("generating CUDA for %s: %w", k.Name, err)
	}
	return res, nil
}

// CompileCUDA compiles the CUDA generated for target t with NVRTC through
// the disk cache, to a cubin or, for a JIT target, to PTX, rewriting error
// logs to point at the kernel's source lines.
func CompileCUDA(k *ir.Kernel, res *cudagen.Result, t Target, lineInfo bool) (*nvrtc.Program, bool, error) {
	if k == nil || res == nil {
		return nil, false, errNoKernel
	}
	return compileWith(k, res, compileOptions(k, t, lineInfo), func(src string, opt nvrtc.CompileOptions) (*nvrtc.Program, bool, error) {
		return nvrtc.CompileCached(nvrtc.DefaultCache(), src, opt)
	})
}

// CompileReport compiles res to a cubin for arch afresh, past tri's cubin
// cache (whose logs may come from a tri that let NVRTC skip ptxas), so
// that the log holds ptxas's resource report. It needs no GPU: the report
// is of arch's own code, also for a target older than the GPU.
func CompileReport(k *ir.Kernel, res *cudagen.Result, arch string, lineInfo bool) (*nvrtc.Program, error) {
	if k == nil || res == nil {
		return nil, errNoKernel
	}
	opt := compileOptions(k, Target{Arch: arch}, lineInfo)
	prog, _, err := compileWith(k, res, opt, func(src string, opt nvrtc.CompileOptions) (*nvrtc.Program, bool, error) {
		prog, err := nvrtc.Compile(src, opt)
		return prog, false, err
	})
	return prog, err
}

// compileOptions are NVRTC's options for k's CUDA for target t: a cubin
// with ptxas's report, or PTX for a JIT target, whose register limit goes
// to the JIT instead (jitOptions).
func compileOptions(k *ir.Kernel, t Target, lineInfo bool) nvrtc.CompileOptions {
	cuName := strings.TrimSuffix(filepath.Base(k.File), filepath.Ext(k.File)) + "_" + k.Name + ".cu"
	opt := nvrtc.CompileOptions{Arch: t.Arch, PTX: t.JIT, LineInfo: lineInfo, Verbose: true, Name: cuName}
	if k.MaxNReg > 0 && !t.JIT { // Triton's maxnreg
		opt.Extra = append(opt.Extra, fmt.Sprintf("--maxrregcount=%d", k.MaxNReg))
	}
	return opt
}

// jitOptions are the driver JIT's options for k's PTX: those NVRTC passes
// ptxas for a cubin.
func jitOptions(k *ir.Kernel, lineInfo bool) nvrtc.JITOptions {
	return nvrtc.JITOptions{MaxRegisters: k.MaxNReg, LineInfo: lineInfo}
}

// compileWith compiles the CUDA generated for k with compile under opt,
// mapping a rejection's log to the source.
func compileWith(k *ir.Kernel, res *cudagen.Result, opt nvrtc.CompileOptions,
	compile func(string, nvrtc.CompileOptions) (*nvrtc.Program, bool, error)) (*nvrtc.Program, bool, error) {
	if k == nil || res == nil {
		return nil, false, errNoKernel
	}
	if err := nvrtc.LoadNVRTC(); err != nil {
		return nil, false, fmt.Errorf("%w: %v", ErrNoGPU, err)
	}
	prog, hit, err := compile(res.Source, opt)
	if err != nil {
		var ce *nvrtc.CompileError
		if errors.As(err, &ce) {
			return nil, false, fmt.Errorf("NVRTC rejected the CUDA generated for %s (an internal error of tri):\n%s",
				k.Name, nvrtc.MapLogToSource(ce.Log, opt.Name, func(n int) (string, int, bool) {
					p, ok := res.SourceLine(n)
					return p.File, p.Line, ok
				}))
		}
		return nil, false, err
	}
	return prog, hit, nil
}

// Compile generates, compiles and loads k on GPU 0 for the GPU's own
// target (DeviceTarget).
func Compile(k *ir.Kernel, lineInfo bool) (*Compiled, error) {
	return CompileFor(k, "", lineInfo)
}

// CompileFor generates, compiles and loads k on GPU 0 for target
// architecture arch ("": the GPU's own). A target older than the GPU's
// major architecture is compiled to PTX, which the driver compiles for the
// GPU (Compiled.Target.JIT); one the GPU cannot run is refused with an
// error wrapping ErrTarget (see ResolveTarget).
func CompileFor(k *ir.Kernel, arch string, lineInfo bool) (*Compiled, error) {
	if k == nil {
		return nil, errNoKernel
	}
	dev, err := Device()
	if err != nil {
		return nil, err
	}
	t, err := targetOn(dev, arch)
	if err != nil {
		return nil, err
	}
	res, err := GenerateCUDA(k, t.Arch, lineInfo)
	if err != nil {
		return nil, err
	}
	prog, hit, err := CompileCUDA(k, res, t, lineInfo)
	if err != nil {
		return nil, err
	}
	log := prog.Log
	var mod *nvrtc.Module
	if t.JIT {
		var jitLog string
		mod, jitLog, err = dev.LoadPTX(prog.PTX, jitOptions(k, lineInfo))
		if err != nil {
			return nil, fmt.Errorf("%s (%s code on an %s GPU): %w", k.Name, t.Arch, t.Device, err)
		}
		if log != "" && jitLog != "" {
			log += "\n"
		}
		log += jitLog
	} else {
		mod, err = dev.LoadModule(prog.Cubin)
	}
	if err != nil {
		return nil, err
	}
	fn, err := mod.Function(res.Kernel)
	if err != nil {
		return nil, err
	}
	shared := res.SharedBytes
	if shared > 0 {
		if err := fn.SetMaxDynamicSharedMemory(shared); err != nil {
			return nil, fmt.Errorf("%s needs %d bytes of shared memory: %w", k.Name, shared, err)
		}
	}
	return &Compiled{Kernel: k, CUDA: res.Source, Log: log, Cached: hit, Target: t, fn: fn, dev: dev, shared: shared, tmaps: res.TensorMaps, scratch: res.ScratchBytes}, nil
}

// Arg is one argument of Compiled.Launch: a device pointer for a pointer
// parameter, a number otherwise.
type Arg struct {
	Ptr   nvrtc.DevicePtr
	Int   int64
	Float float64
}

// Launch queues one launch over grid with args in k.Params order. It does
// not wait for the kernel; call Device().Synchronize.
func (c *Compiled) Launch(grid [3]int, args ...Arg) error {
	return c.LaunchOn(nil, grid, args...)
}

// packers holds argument packers for launches, so that a Compiled can be
// launched from several goroutines at once without allocating.
var packers = sync.Pool{New: func() any { return new(nvrtc.ArgPacker) }}

// LaunchOn is Launch on stream (nil: the default stream); wait with
// stream.Synchronize. A Compiled may be launched from several goroutines at
// once.
func (c *Compiled) LaunchOn(stream *nvrtc.Stream, grid [3]int, args ...Arg) error {
	return c.LaunchEx(stream, grid, false, args...)
}

// LaunchEx is LaunchOn, and with pdl a programmatic dependent launch
// (Triton's launch_pdl=True), which may overlap the kernel before it in
// the stream until it runs tl.extra.cuda.gdc_wait.
func (c *Compiled) LaunchEx(stream *nvrtc.Stream, grid [3]int, pdl bool, args ...Arg) error {
	if c.Kernel == nil || c.fn == nil {
		return errors.New("gpu: launch of a Compiled that Compile did not make")
	}
	if len(args) != len(c.Kernel.Params) {
		return fmt.Errorf("%s takes %d runtime arguments, got %d", c.Kernel.Name, len(c.Kernel.Params), len(args))
	}
	p := packers.Get().(*nvrtc.ArgPacker)
	defer packers.Put(p)
	p.Reset()
	for i, param := range c.Kernel.Params {
		a := args[i]
		switch k := param.DType.Kind; {
		case k == ir.Ptr:
			p.Ptr(a.Ptr)
		case k == ir.Float32:
			p.F32(float32(a.Float))
		case k == ir.Float64:
			p.F64(a.Float)
		case k == ir.Float16 || k == ir.BFloat16:
			t := tensor.New(k, 1)
			t.SetFloat(0, a.Float)
			p.U16(uint16(t.Data[0]) | uint16(t.Data[1])<<8)
		case k.IsFP8():
			t := tensor.New(k, 1)
			t.SetFloat(0, a.Float)
			p.I8(int8(t.Data[0]))
		case k.Bits() == 64:
			p.I64(a.Int)
		case k.Bits() == 32:
			p.I32(int32(a.Int))
		case k.Bits() == 16:
			p.I16(int16(a.Int))
		default:
			p.I8(int8(a.Int))
		}
	}
	for _, tm := range c.tmaps {
		m, err := c.tensorMap(tm, args)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Kernel.Name, err)
		}
		p.Blob(m[:], 64)
	}
	if c.scratch > 0 {
		buf, err := c.scratchFor(stream, grid)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Kernel.Name, err)
		}
		p.Ptr(buf)
	}
	threads := 32 * c.Kernel.NumWarps
	if len(c.tmaps) > 0 || c.scratch > 0 {
		return c.fn.LaunchParams(stream, grid, [3]int{threads, 1, 1}, c.shared, p.Bytes(), p.Offsets(), pdl)
	}
	return c.fn.LaunchEx(stream, grid, [3]int{threads, 1, 1}, c.shared, p.Bytes(), pdl)
}

// scratchFor returns the scratch memory of a launch over grid on stream:
// the stream's buffer, grown when it is too small (after the launches
// queued on the stream that may use it have run).
func (c *Compiled) scratchFor(stream *nvrtc.Stream, grid [3]int) (nvrtc.DevicePtr, error) {
	need := c.scratch * max(grid[0], 1) * max(grid[1], 1) * max(grid[2], 1)
	c.scratchMu.Lock()
	defer c.scratchMu.Unlock()
	if c.buffers == nil {
		c.buffers = map[*nvrtc.Stream]scratchBuffer{}
	}
	old := c.buffers[stream]
	if old.bytes >= need {
		return old.ptr, nil
	}
	if old.bytes > 0 {
		var err error
		if stream != nil {
			err = stream.Synchronize()
		} else {
			err = c.dev.Synchronize()
		}
		if err == nil {
			err = c.dev.Free(old.ptr)
		}
		if err != nil {
			return 0, err
		}
		delete(c.buffers, stream)
	}
	ptr, err := c.dev.Alloc(need)
	if err != nil {
		return 0, fmt.Errorf("allocating %d bytes of scratch memory for the tensor maps the kernel builds: %w", need, err)
	}
	c.buffers[stream] = scratchBuffer{ptr, need}
	return ptr, nil
}

// ScratchBytes is how much scratch memory the kernel's launches hold now:
// the buffers of the streams it ran on, until Close.
func (c *Compiled) ScratchBytes() int {
	c.scratchMu.Lock()
	defer c.scratchMu.Unlock()
	n := 0
	for _, b := range c.buffers {
		n += b.bytes
	}
	return n
}

// Close frees the scratch memory of the kernel's launches, once the device
// has finished them. The kernel may still be launched: its next launch
// allocates scratch memory again.
func (c *Compiled) Close() error {
	c.scratchMu.Lock()
	defer c.scratchMu.Unlock()
	if len(c.buffers) == 0 {
		return nil
	}
	err := c.dev.Synchronize()
	for s, b := range c.buffers {
		if err == nil {
			err = c.dev.Free(b.ptr)
		}
		delete(c.buffers, s)
	}
	return err
}

// tensorMap is tensor map parameter tm of a launch with args: the one
// encoded for an earlier launch from the same descriptor, else a new one.
func (c *Compiled) tensorMap(tm cudagen.TensorMap, args []Arg) ([nvrtc.TensorMapBytes]byte, error) {
	var out [nvrtc.TensorMapBytes]byte
	m, err := tensorMapFrom(tm, args)
	if err != nil {
		return out, err
	}
	key := mapKey(m)
	c.tmapMu.Lock()
	out, ok := c.tmapCache[key]
	c.tmapMu.Unlock()
	if ok {
		return out, nil
	}
	if err := c.dev.EncodeTensorMap(m, &out); err != nil {
		return out, err
	}
	c.tmapMu.Lock()
	if c.tmapCache == nil || len(c.tmapCache) >= maxCachedMaps {
		c.tmapCache = map[string][nvrtc.TensorMapBytes]byte{}
	}
	c.tmapCache[key] = out
	c.tmapMu.Unlock()
	return out, nil
}

// mapKey identifies what a tensor map is encoded from: equal keys encode
// equal maps.
func mapKey(m nvrtc.TensorMap) string {
	return fmt.Sprintf("%x %d %v %v %v %d", m.Base, m.ElemBytes, m.Dims, m.Strides, m.Box, m.Swizzle)
}

// tensorMapFrom is what tensor map parameter tm is encoded from: the
// arguments of the descriptor parameters it names, viewed as its RowAxes
// say.
func tensorMapFrom(tm cudagen.TensorMap, args []Arg) (nvrtc.TensorMap, error) {
	at := func(i int) (Arg, error) {
		if i < 0 || i >= len(args) {
			return Arg{}, fmt.Errorf("tensor map %s: a descriptor parameter is missing", tm.Name)
		}
		return args[i], nil
	}
	base, err := at(tm.Base)
	if err != nil {
		return nvrtc.TensorMap{}, err
	}
	m := nvrtc.TensorMap{Base: base.Ptr, ElemBytes: tm.ElemBytes, Box: tm.Box, Swizzle: tm.Swizzle}
	for _, i := range tm.Shape {
		a, err := at(i)
		if err != nil {
			return nvrtc.TensorMap{}, err
		}
		m.Dims = append(m.Dims, a.Int)
	}
	for _, i := range tm.Strides {
		a, err := at(i)
		if err != nil {
			return nvrtc.TensorMap{}, err
		}
		m.Strides = append(m.Strides, a.Int)
	}
	m.Strides = append(m.Strides, 1)
	if len(tm.RowAxes) > 0 {
		m = rowView(m, tm.RowAxes)
	}
	return m, nil
}

// rowView is the view of 2-D tensor map m whose rows are axes more:
// m's rows, then each of axes, outermost last, Count blocks of rows Stride
// rows apart, boxed whole (cudagen.TensorMap.RowAxes).
func rowView(m nvrtc.TensorMap, axes []cudagen.RowAxis) nvrtc.TensorMap {
	v := nvrtc.TensorMap{Base: m.Base, ElemBytes: m.ElemBytes, Swizzle: m.Swizzle}
	for i := len(axes) - 1; i >= 0; i-- {
		v.Dims = append(v.Dims, int64(axes[i].Count))
		v.Strides = append(v.Strides, m.Strides[0]*int64(axes[i].Stride))
		v.Box = append(v.Box, axes[i].Count)
	}
	v.Dims = append(v.Dims, m.Dims...)
	v.Strides = append(v.Strides, m.Strides...)
	v.Box = append(v.Box, m.Box...)
	return v
}

// Tensors places host tensors on the GPU, once each, and brings them back.
// It is not safe for concurrent use.
type Tensors struct {
	dev  *nvrtc.Device
	ptrs map[*tensor.Tensor]nvrtc.DevicePtr
}

// NewTensors returns an empty set of device copies on dev.
func NewTensors(dev *nvrtc.Device) *Tensors {
	return &Tensors{dev: dev, ptrs: map[*tensor.Tensor]nvrtc.DevicePtr{}}
}

// Upload returns the device copy of t, allocating and filling it the first
// time.
func (d *Tensors) Upload(t *tensor.Tensor) (nvrtc.DevicePtr, error) {
	if t == nil {
		return 0, errors.New("gpu: Upload of no tensor (nil)")
	}
	if d.dev == nil {
		return 0, errors.New("gpu: Upload to Tensors without a device (make them with NewTensors)")
	}
	if p, ok := d.ptrs[t]; ok {
		return p, nil
	}
	n := max(len(t.Data), 1)
	p, err := d.dev.Alloc(n)
	if err != nil {
		return 0, err
	}
	d.ptrs[t] = p
	if len(t.Data) > 0 {
		if err := d.dev.CopyHtoD(p, t.Data); err != nil {
			return 0, err
		}
	}
	return p, nil
}

// Lookup returns the device copy of t if Upload made one.
func (d *Tensors) Lookup(t *tensor.Tensor) (nvrtc.DevicePtr, bool) {
	p, ok := d.ptrs[t]
	return p, ok
}

// Download copies every device copy back into its host tensor.
func (d *Tensors) Download() error {
	for t, p := range d.ptrs {
		if len(t.Data) > 0 {
			if err := d.dev.CopyDtoH(t.Data, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// Free releases the device copies.
func (d *Tensors) Free() {
	for _, p := range d.ptrs {
		_ = d.dev.Free(p)
	}
}

// Synchronize waits for the GPU's queued work.
func Synchronize() error {
	dev, err := Device()
	if err != nil {
		return err
	}
	return dev.Synchronize()
}
