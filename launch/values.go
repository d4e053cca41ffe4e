package launch

// This file implements what a Go program that binds a launch's values
// itself needs beyond Prepare: a launch line over an environment it
// filled (PrepareLine), and the host value each runtime parameter of the
// specialized kernel receives (RuntimeValues), for the program to place
// on the device as it likes (package tri's Go slices and device buffers).

import (
	"errors"

	"github.com/tri-lang/tri/hosteval"
)

// PrepareLine is Prepare for a launch line whose names a Go program bound
// in env (with Env.Set) rather than by --let: the line is parsed, its
// kernel found in sf, env readied for the file's globals and host
// functions, and the kernel specialized for the values, with the config
// o.Config picks for an autotuned kernel (-1: the first that specializes).
// Errors in the line are placed in it (launch:1:14: ...).
func PrepareLine(sf *SourceFile, line string, env *hosteval.Env, o *Options) (_ *Prepared, err error) {
	o = o.orDefault()
	if err := o.check(); err != nil {
		return nil, err
	}
	if sf == nil || sf.File == nil || env == nil {
		return nil, errors.New("launch.PrepareLine: want a parsed file and an environment (one is nil)")
	}
	defer sf.sourced(&err)
	l, err := hosteval.ParseLaunch(line)
	if err != nil {
		return nil, hosteval.Usage(err)
	}
	defer hosteval.AttachSource(&err, hosteval.LaunchSource, l.Src)
	fn := sf.File.Func(l.Kernel)
	if fn == nil {
		return nil, hosteval.Usage(unknownKernel(sf, l.Kernel, hosteval.LaunchSource))
	}
	hostEnv(sf, fn, env, o)
	s, err := setupWith(sf, fn, l, env, o)
	if err != nil {
		return nil, err
	}
	return s.choose(o)
}

// RuntimeValues returns the host value of each runtime parameter of
// p.Kernel, in p.Kernel.Params order: the tensor of a pointer (or of a
// descriptor's base), else the number (int, float or bool) that the
// parameter's dtype converts.
func (p *Prepared) RuntimeValues() ([]hosteval.Value, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	args, err := p.runtimeArgs()
	if err != nil {
		return nil, err
	}
	out := make([]hosteval.Value, len(args))
	for i, a := range args {
		out[i] = a.value
	}
	return out, nil
}
