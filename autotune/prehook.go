package autotune

// This file runs a triton.Config's pre_hook. Triton calls it with the
// launch's arguments (the config's meta-parameters included) before each
// launch of the config; tutorial 06's sets the block shapes of the host
// tensor descriptors it is given to the config's blocks
// (nargs["desc_q"].block_shape = [BLOCK_M, HEAD_DIM]). tri runs it in its
// host Python, where descriptors are stand-in TensorDescriptor objects and
// tensors hold no data, and applies the block shapes it leaves on the
// descriptors; a block shape is part of the kernel's specialization. What
// else a hook does (to tensors) has no effect.

import (
	"maps"
	"slices"

	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// descToPy converts a host tensor descriptor to a stand-in
// TensorDescriptor.
func (h *hostPython) descToPy(d *hosteval.Descriptor) (py.Object, error) {
	base, err := h.toPy(d.Base)
	if err != nil {
		return nil, err
	}
	ints := func(xs []int64) py.Object {
		out := make([]py.Object, len(xs))
		for i, x := range xs {
			out[i] = py.Int(x)
		}
		return py.NewListFromItems(out)
	}
	cls, err := py.GetAttrString(h.standIn["triton"], "TensorDescriptor")
	if err != nil {
		return nil, err
	}
	return py.Call(cls, py.Tuple{base, ints(d.Shape), ints(d.Strides), ints(d.Block), py.String(d.Padding)}, nil)
}

// preHook calls config c's pre_hook, if it has one, with the arguments
// bound so far, and rebinds each descriptor argument to a copy with the
// block shape the hook leaves on it. Without descriptor arguments the hook
// is not run.
func (t *Tuning) preHook(c *Config, b *bind.Binding) error {
	named := b.Named()
	if c.preHook == nil || !slices.ContainsFunc(slices.Collect(maps.Values(named)), func(v hosteval.Value) bool { return v.Kind == hosteval.VDesc }) {
		return nil
	}
	args := py.NewStringDict()
	descs := map[string]py.Object{}
	for _, name := range slices.Sorted(maps.Keys(named)) {
		o, err := t.host.toPy(named[name])
		if err != nil {
			return hosteval.Usage(diag.Errorf(b.EndPos, diag.CodeArgs, "argument '%s': %v", name, err))
		}
		args[name] = o
		if named[name].Kind == hosteval.VDesc {
			descs[name] = o
		}
	}
	for _, k := range []struct {
		name string
		n    int
	}{{"num_warps", c.NumWarps}, {"num_stages", c.NumStages}} {
		if _, ok := args[k.name]; !ok {
			args[k.name] = py.Int(k.n)
		}
	}
	what := "the pre_hook of config " + c.Describe(t.fn)
	if _, err := t.host.call(c.preHook, py.Tuple{args}, nil, c.pos, what); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(descs)) {
		o, err := py.GetAttrString(descs[name], "block_shape")
		if err != nil {
			return err
		}
		fd, err := t.host.read(o, c.pos, what)
		if err != nil {
			return err
		}
		v := fd.val
		block, ok := intList(v)
		if fd.err != nil || !ok {
			return hosteval.Usage(diag.Errorf(c.pos, diag.CodeValue, "%s set the block_shape of '%s' to %s, not a list of integers", what, name, fd.repr))
		}
		if err := hosteval.CheckBlockShape(block); err != nil {
			return hosteval.Usage(diag.Errorf(c.pos, diag.CodeValue, "%s set the block_shape of '%s' to %v: %v", what, name, v, err))
		}
		d := *named[name].Desc
		if len(block) != len(d.Shape) {
			return hosteval.Usage(diag.Errorf(c.pos, diag.CodeValue, "%s set the block_shape of '%s' to %v, of rank %d, for a descriptor of rank %d", what, name, v, len(block), len(d.Shape)))
		}
		d.Block = block
		if err := b.Set(name, hosteval.DescValue(&d)); err != nil {
			return err
		}
	}
	return nil
}

// intList reads a tuple of integers.
func intList(v hosteval.Value) ([]int64, bool) {
	if v.Kind != hosteval.VTuple {
		return nil, false
	}
	out := make([]int64, len(v.Elems))
	for i, e := range v.Elems {
		if e.Kind != hosteval.VInt {
			return nil, false
		}
		out[i] = e.Int
	}
	return out, true
}
