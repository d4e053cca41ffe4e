package launch

// This file implements Prepared.Autotune: the tuning of a launch on the GPU
// through autotune.Tuner, with pruning by early_config_prune and the GPU's
// autotune.Device.

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/nvrtc"
	"github.com/tri-lang/tri/tensor"
)

// Autotune picks the fastest config of an autotuned kernel for this launch
// on the GPU, or takes the choice cached on disk by an earlier tuning, and
// returns the launch prepared with it. Progress goes to o.Stderr. A launch
// of a kernel without @triton.autotune is returned as it is.
func (p *Prepared) Autotune(o *Options) (_ *Prepared, err error) {
	o = o.orDefault()
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer p.sourced(&err)
	if p.setup == nil || p.setup.autotune() == nil {
		return p, nil
	}
	dev, err := gpu.Device()
	if err != nil {
		return nil, err
	}
	t, err := target(o)
	if err != nil {
		return nil, err
	}
	a := p.setup.autotune()
	g := &gpuTuneDevice{p: p, o: o.quiet(), dev: dev, target: t, warmup: a.Warmup, rep: a.Rep, cands: map[int]*gpuCandidate{}}
	defer g.free()
	tuner := &autotune.Tuner{Log: o.stderr(), Timeout: o.Timeout}
	if o.Timeout > 0 {
		tuner.Deadline = time.Now().Add(o.Timeout)
	}
	return p.tune(g, tuneDevice(dev.Name(), t, gpu.DeviceTarget(dev)), tuner, o)
}

// tuneDevice names the GPU and the code a tuning timed, for the tuning
// cache's key: "NVIDIA H100 (sm_90)" for the GPU's own target (as before
// targets were honoured, so earlier tunings still count), with the target
// and the way it runs added for another ("NVIDIA H100 (sm_90), sm_80 code
// through the PTX JIT"), whose timings differ.
func tuneDevice(name string, t gpu.Target, own string) string {
	s := name + " (" + t.Device + ")"
	switch {
	case t.Arch == own:
		return s
	case t.JIT:
		return s + ", " + t.Arch + " code through the PTX JIT"
	}
	return s + ", " + t.Arch + " code"
}

// tune is Autotune on any autotune.Device.
func (p *Prepared) tune(dev autotune.Device, device string, tuner *autotune.Tuner, o *Options) (*Prepared, error) {
	a := p.setup.autotune()
	cands, err := p.pruneConfigs()
	if err != nil {
		return nil, err
	}
	zero, restore, err := autotune.Plan(a, p.Bound)
	if err != nil {
		return nil, err
	}
	s := &autotune.Session{Dev: dev, Zero: zero, Restore: restore}
	descs := make([]string, len(a.Configs))
	for i, c := range a.Configs {
		descs[i] = c.Describe(p.Bound.Func)
	}
	key, err := p.overriddenKey(autotune.Key(a, p.Bound))
	if err != nil {
		return nil, err
	}
	job := &autotune.Job{
		Kernel: p.Bound.Func.Name, Source: p.Source.Text, Key: key, Device: device,
		Configs: descs, Candidates: cands, Compile: dev.Compile, Time: s.Time,
	}
	if g, ok := dev.(*gpuTuneDevice); ok {
		job.Warm = g.warm
	}
	best, err := tuner.Tune(job)
	if err != nil {
		return nil, err
	}
	return p.setup.prepare(best, o)
}

// overriddenKey adds to a tuning key the meta-parameters and launch
// options that the launch line sets over the configs': a launch that
// forces 64x64 blocks is a different tuning from one that lets the configs
// choose, even with the same key values.
func (p *Prepared) overriddenKey(key string) (string, error) {
	_, kw, err := p.setup.launchArgs()
	if err != nil {
		return "", err
	}
	a := p.setup.autotune()
	var set []string
	for _, name := range slices.Sorted(maps.Keys(kw)) {
		meta := name == "num_warps" || name == "num_stages"
		for _, c := range a.Configs {
			if _, ok := c.Meta[name]; ok {
				meta = true
			}
		}
		if meta {
			set = append(set, name+"="+kw[name].String())
		}
	}
	if len(set) == 0 {
		return key, nil
	}
	return key + "; launch sets " + strings.Join(set, ", "), nil
}

// errStopBind stops a binding once launchArgs has what it needs.
var errStopBind = errors.New("stop")

// launchArgs are the launch's arguments by name before any config or
// heuristic (defaults included), and those given by keyword.
func (s *launchSetup) launchArgs() (named, kwargs map[string]hosteval.Value, err error) {
	_, err = bind.With(s.fn, s.l, s.env, func(b *bind.Binding) error {
		named, kwargs = b.Named(), map[string]hosteval.Value{}
		for _, kw := range s.l.Kwargs {
			if v, ok := named[kw.Name]; ok {
				kwargs[kw.Name] = v
			}
		}
		if b.Sig.NumWarps > 0 {
			kwargs["num_warps"] = hosteval.IntValue(int64(b.Sig.NumWarps))
		}
		if b.Sig.NumStages > 0 {
			kwargs["num_stages"] = hosteval.IntValue(int64(b.Sig.NumStages))
		}
		return errStopBind
	})
	if !errors.Is(err, errStopBind) {
		return nil, nil, err
	}
	return named, kwargs, nil
}

// pruneConfigs returns the configs to time: all of them, or those that
// early_config_prune keeps, called with the launch's arguments.
func (p *Prepared) pruneConfigs() ([]int, error) {
	return p.Tuning.Prune(p.setup.launchArgs)
}

// gpuTuneDevice is autotune.Device on the GPU: each config compiled and
// launched on copies of the launch's tensors made for tuning.
type gpuTuneDevice struct {
	p           *Prepared // the launch as Prepare left it: its tensors
	o           *Options  // quiet: no dumps or warnings from the configs tried
	dev         *nvrtc.Device
	target      gpu.Target // what each config is compiled for
	warmup, rep time.Duration
	cands       map[int]*gpuCandidate
	dt          *gpu.Tensors
	flush       nvrtc.DevicePtr
}

// gpuCandidate is one config compiled and ready to launch.
type gpuCandidate struct {
	p    *Prepared
	c    *gpu.Compiled
	args []gpu.Arg
}

// warm compiles the candidates' CUDA into the cubin cache, several at a
// time: binding is sequential (host Python is not shared between
// goroutines), NVRTC runs in parallel.
func (g *gpuTuneDevice) warm(cands []int) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	for _, i := range cands {
		q, err := g.p.setup.prepare(i, g.o)
		if err != nil {
			continue
		}
		res, err := gpu.GenerateCUDA(q.Kernel, g.target.Arch, g.o.LineInfo)
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			_, _, _ = gpu.CompileCUDA(q.Kernel, res, g.target, g.o.LineInfo)
		}()
	}
	wg.Wait()
}

func (g *gpuTuneDevice) Compile(i int) error {
	q, err := g.p.setup.prepare(i, g.o)
	if err != nil {
		return err
	}
	c, err := q.compile(g.o.LineInfo)
	if err != nil {
		return err
	}
	if g.dt == nil {
		g.dt = gpu.NewTensors(g.dev)
	}
	args, err := q.deviceArgs(g.dt)
	if err != nil {
		return err
	}
	g.cands[i] = &gpuCandidate{p: q, c: c, args: args}
	return nil
}

func (g *gpuTuneDevice) Launch(i int) error {
	c := g.cands[i]
	return c.c.Launch(c.p.Grid, c.args...)
}

// tensor returns a tensor argument (the base of a tensor descriptor
// argument) and its tuning copy.
func (g *gpuTuneDevice) tensor(name string) (*tensor.Tensor, nvrtc.DevicePtr, error) {
	b := g.p.Bound
	for i, prm := range b.Func.Params {
		v := b.Values[i]
		if v.Kind == hosteval.VDesc {
			v = v.Desc.Base
		}
		if prm.Name == name && v.Kind == hosteval.VTensor && g.dt != nil {
			t := v.Tensor
			if ptr, ok := g.dt.Lookup(t); ok {
				return t, ptr, nil
			}
		}
	}
	return nil, 0, fmt.Errorf("internal error: no tuning copy of tensor %s", name)
}

func (g *gpuTuneDevice) Zero(name string) error {
	t, ptr, err := g.tensor(name)
	if err != nil || len(t.Data) == 0 {
		return err
	}
	return g.dev.Memset(ptr, 0, len(t.Data))
}

func (g *gpuTuneDevice) Restore(name string) error {
	t, ptr, err := g.tensor(name)
	if err != nil || len(t.Data) == 0 {
		return err
	}
	return g.dev.CopyHtoD(ptr, t.Data)
}

func (g *gpuTuneDevice) Bench(launch func() error) ([]float64, error) {
	if g.flush == 0 {
		f, err := g.dev.Alloc(l2FlushBytes)
		if err != nil {
			return nil, err
		}
		g.flush = f
	}
	return timeLaunches(g.dev, launch, g.flush, g.warmup, g.rep)
}

// free releases the candidates' scratch memory, the tuning copies and the
// flush buffer.
func (g *gpuTuneDevice) free() {
	for _, c := range g.cands {
		_ = c.c.Close()
	}
	if g.dt != nil {
		g.dt.Free()
	}
	if g.flush != 0 {
		_ = g.dev.Free(g.flush)
	}
}
