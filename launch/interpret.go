package launch

// This file runs a prepared launch in the CPU interpreter.

import (
	"fmt"
	"io"
	"time"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/ir"
)

// paramValue returns the host value bound to a runtime parameter.
func (p *Prepared) paramValue(param *ir.Param) (hosteval.Value, error) {
	for i, sp := range p.Bound.Func.Params {
		if param.Of != "" && sp.Name == param.Of {
			return descPart(p.Bound.Values[i], param)
		}
		if param.TupleOf != "" {
			if sp.Name == param.TupleOf {
				return tupleElem(p.Bound.Values[i], param)
			}
			continue
		}
		if param.Of == "" && sp.Name == param.Name {
			return p.Bound.Values[i], nil
		}
	}
	return hosteval.Value{}, fmt.Errorf("internal error: parameter %s of %s not bound", param.Name, p.Kernel.Name)
}

// tupleElem is the element of a host tuple that a parameter of the kernel
// receives (Triton flattens tuple arguments the same way).
func tupleElem(v hosteval.Value, param *ir.Param) (hosteval.Value, error) {
	for _, i := range param.Path {
		if v.Kind != hosteval.VTuple || i >= len(v.Elems) {
			return hosteval.Value{}, fmt.Errorf("internal error: parameter %s has no element %v", param.TupleOf, param.Path)
		}
		v = v.Elems[i]
	}
	return v, nil
}

// descPart is the part of a host tensor descriptor that a parameter of
// the kernel receives: its base tensor, or one of its shape or strides.
func descPart(v hosteval.Value, param *ir.Param) (hosteval.Value, error) {
	if v.Kind != hosteval.VDesc {
		return hosteval.Value{}, fmt.Errorf("parameter %s is a tensor descriptor but got a %s", param.Of, v.Kind)
	}
	d := v.Desc
	if param.Part == "base" {
		return d.Base, nil
	}
	var dim int
	if _, err := fmt.Sscanf(param.Part, "shape%d", &dim); err == nil && dim < len(d.Shape) {
		return hosteval.IntValue(d.Shape[dim]), nil
	}
	if _, err := fmt.Sscanf(param.Part, "stride%d", &dim); err == nil && dim < len(d.Strides) {
		return hosteval.IntValue(d.Strides[dim]), nil
	}
	return hosteval.Value{}, fmt.Errorf("internal error: descriptor %s has no part %s", param.Of, param.Part)
}

// scalarConst converts a host number to the constant of a parameter's dtype.
func scalarConst(v hosteval.Value, d ir.DType) (ir.Const, error) {
	switch v.Kind {
	case hosteval.VInt:
		if d.Kind.IsFloat() {
			return ir.FloatConst(roundTo(d.Kind, float64(v.Int))), nil
		}
		return ir.IntConst(v.Int), nil
	case hosteval.VUint:
		if d.Kind.IsFloat() {
			return ir.FloatConst(roundTo(d.Kind, float64(uint64(v.Int)))), nil
		}
		return ir.IntConst(v.Int), nil
	case hosteval.VBool:
		if v.Bool {
			return ir.IntConst(1), nil
		}
		return ir.IntConst(0), nil
	case hosteval.VFloat:
		if !d.Kind.IsFloat() {
			return ir.Const{}, fmt.Errorf("a float for %s parameter", d)
		}
		return ir.FloatConst(roundTo(d.Kind, v.Float)), nil
	}
	return ir.Const{}, fmt.Errorf("a %s for a %s parameter", v.Kind, d)
}

func roundTo(k ir.Kind, f float64) float64 {
	if k == ir.Float32 {
		return float64(float32(f))
	}
	return f
}

// runtimeArg is the host value of one runtime parameter: a tensor for a
// pointer, else a constant of the parameter's dtype.
type runtimeArg struct {
	value  hosteval.Value
	scalar ir.Const
}

// runtimeArgs resolves the kernel's runtime parameters, in k.Params order,
// to their host values.
func (p *Prepared) runtimeArgs() ([]runtimeArg, error) {
	args := make([]runtimeArg, len(p.Kernel.Params))
	for i, param := range p.Kernel.Params {
		v, err := p.paramValue(param)
		if err != nil {
			return nil, err
		}
		args[i].value = v
		if param.DType.IsPtr() {
			if v.Kind != hosteval.VTensor {
				return nil, fmt.Errorf("parameter %s is a pointer but got a %s", param.Name, v.Kind)
			}
			// A tensor the launch line made itself is no binding that ready
			// made.
			v.Tensor.Materialize()
			continue
		}
		if args[i].scalar, err = scalarConst(v, param.DType); err != nil {
			return nil, fmt.Errorf("parameter %s: %v", param.Name, err)
		}
	}
	return args, nil
}

// interpArgs builds the interpreter's arguments in k.Params order, and the
// options that name the buffers its pointer tables point into.
func (p *Prepared) interpArgs() ([]interp.Arg, interp.Options, error) {
	rargs, err := p.runtimeArgs()
	if err != nil {
		return nil, interp.Options{}, err
	}
	bufs, names, err := p.interpTables(rargs)
	if err != nil {
		return nil, interp.Options{}, err
	}
	args := make([]interp.Arg, len(rargs))
	for i, a := range rargs {
		args[i] = interp.Arg{Tensor: a.value.Tensor, Scalar: a.scalar}
	}
	return args, interp.Options{Buffers: bufs, BufferNames: names}, nil
}

// Interpret runs the launch on the CPU, updating the bound tensors in
// place, with the conversions of the target p.Arch: its compute capability
// (cudagen.ArchVersion), so that the interpreter converts fp8e5 as the
// target's code does (in software before sm_89); 0, sm_89's conversions and
// later, where no target is named.
func (p *Prepared) Interpret(timeout time.Duration) (err error) {
	if err := p.ready(); err != nil {
		return err
	}
	defer p.sourced(&err)
	args, opts, err := p.interpArgs()
	if err != nil {
		return err
	}
	opts.Timeout, opts.Stdout, opts.MaxMemory = timeout, p.Stdout, p.MaxMemory
	opts.Arch = cudagen.ArchVersion(p.Arch)
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	return interp.Run(p.Kernel, p.Grid, args, opts)
}
