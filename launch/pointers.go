package launch

// This file implements the pointer tables of the interpreter: a table
// bound by ptrs(a, b, ...) holds, on the GPU, the device addresses of a
// and b (rungpu.go fills it); in the interpreter it holds the addresses
// of the interpreter's own address space, where a and b are mapped first.

import (
	"fmt"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/tensor"
)

// interpTables fills the pointer tables among the kernel's arguments with
// interpreter addresses and returns the tensors they point to, in the
// order of interp.Options.Buffers, with their names.
func (p *Prepared) interpTables(args []runtimeArg) ([]*tensor.Tensor, []string, error) {
	var bufs []*tensor.Tensor
	var names []string
	index := map[*tensor.Tensor]int{}
	for _, a := range args {
		for j, name := range a.value.Ptrs {
			v, ok := p.Env.Lookup(name)
			if !ok || v.Kind != hosteval.VTensor {
				return nil, nil, fmt.Errorf("ptrs(): %s is not a bound tensor", name)
			}
			i, ok := index[v.Tensor]
			if !ok {
				i = len(bufs)
				index[v.Tensor] = i
				bufs, names = append(bufs, v.Tensor), append(names, name)
			}
			a.value.Tensor.SetInt(j, int64(interp.Base(i)))
		}
	}
	return bufs, names, nil
}

// isPointerTable reports whether the tensor bound to name is a ptrs(...)
// table: its contents are addresses, which differ between the GPU and the
// interpreter.
func (p *Prepared) isPointerTable(name string) bool {
	v, ok := p.Env.Lookup(name)
	return ok && v.Ptrs != nil
}
