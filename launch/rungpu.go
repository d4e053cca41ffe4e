package launch

// This file places a prepared launch's tensors on the GPU and runs it there.

import (
	"errors"
	"fmt"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
)

// RunGPU compiles the launch's kernel for p.Arch (through the cache),
// copies the bound tensors to the GPU, launches once, waits, and copies
// them back.
func (p *Prepared) RunGPU(lineInfo bool) (_ *gpu.Compiled, err error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer p.sourced(&err)
	c, err := p.compile(lineInfo)
	if err != nil {
		return nil, err
	}
	dev, err := gpu.Device() // opened by Compile
	if err != nil {
		return nil, err
	}
	dt := gpu.NewTensors(dev)
	defer dt.Free()
	args, err := p.deviceArgs(dt)
	if err != nil {
		return nil, err
	}
	if err := c.LaunchEx(nil, p.Grid, p.Bound.PDL, args...); err != nil {
		return nil, err
	}
	err = dev.Synchronize()
	gpu.FlushOutput()
	if err != nil {
		return nil, fmt.Errorf("running %s on the GPU: %w", p.Kernel.Name, gpu.AssertionError(p.Kernel, err))
	}
	if err := c.Close(); err != nil {
		return nil, err
	}
	return c, dt.Download()
}

// compile compiles the launch's kernel for p.Arch on the GPU; a target the
// GPU cannot run is bad input.
func (p *Prepared) compile(lineInfo bool) (*gpu.Compiled, error) {
	c, err := gpu.CompileFor(p.Kernel, p.Arch, lineInfo)
	if errors.Is(err, gpu.ErrTarget) {
		return nil, hosteval.Usage(fmt.Errorf("--arch %s: %w", p.Arch, err))
	}
	return c, err
}

// target is the Target of o.Arch on the GPU; a target the GPU cannot run
// is bad input.
func target(o *Options) (gpu.Target, error) {
	t, err := gpu.ResolveTarget(o.Arch)
	if errors.Is(err, gpu.ErrTarget) {
		return t, hosteval.Usage(fmt.Errorf("--arch %s: %w", o.Arch, err))
	}
	return t, err
}

// resolveTarget is target, reported before anything is compiled or tuned:
// the note of code run through the PTX JIT goes to o.Stderr.
func resolveTarget(o *Options) (gpu.Target, error) {
	t, err := target(o)
	if err == nil && t.Note() != "" {
		fmt.Fprintln(o.stderr(), t.Note())
	}
	return t, err
}

// deviceArgs uploads the tensors of the launch (and the tensors that
// pointer tables name, whose addresses are written into the tables) and
// returns the kernel's arguments.
func (p *Prepared) deviceArgs(dt *gpu.Tensors) ([]gpu.Arg, error) {
	rargs, err := p.runtimeArgs()
	if err != nil {
		return nil, err
	}
	args := make([]gpu.Arg, len(rargs))
	for i, a := range rargs {
		if a.value.Kind != hosteval.VTensor {
			args[i] = gpu.Arg{Int: a.scalar.Int, Float: a.scalar.Float}
			continue
		}
		if err := p.fillPointerTable(dt, a.value); err != nil {
			return nil, err
		}
		if args[i].Ptr, err = dt.Upload(a.value.Tensor); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// fillPointerTable writes the device addresses of the tensors a ptrs(...)
// table names into it.
func (p *Prepared) fillPointerTable(dt *gpu.Tensors, v hosteval.Value) error {
	for j, name := range v.Ptrs {
		t, ok := p.Env.Lookup(name)
		if !ok || t.Kind != hosteval.VTensor {
			return fmt.Errorf("ptrs(): %s is not a bound tensor", name)
		}
		addr, err := dt.Upload(t.Tensor)
		if err != nil {
			return err
		}
		v.Tensor.SetInt(j, int64(addr))
	}
	return nil
}

// Upload copies the launch's tensors to the GPU and returns the kernel's
// arguments for Compiled.Launch, and a function that frees the copies.
func (p *Prepared) Upload() ([]gpu.Arg, func(), error) {
	if err := p.ready(); err != nil {
		return nil, nil, err
	}
	dev, err := gpu.Device()
	if err != nil {
		return nil, nil, err
	}
	dt := gpu.NewTensors(dev)
	args, err := p.deviceArgs(dt)
	if err != nil {
		dt.Free()
		return nil, nil, err
	}
	return args, dt.Free, nil
}
