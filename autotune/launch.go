package autotune

// This file derives from a bound launch what tuning it needs: its key and
// the tensors to zero and restore while tuning.

import (
	"slices"
	"strings"

	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
)

// Plan names the tensor arguments to zero before each timed launch
// (reset_to_zero) and to restore after each config (restore_value, or
// every tensor argument and tensor descriptor argument, whose base tensor
// is restored, when it is not given).
func Plan(a *Autotune, b *bind.Bound) (zero, restore []string, err error) {
	tensorArg := func(name, what string) error {
		i := slices.IndexFunc(b.Func.Params, func(p *frontend.Param) bool { return p.Name == name })
		if i >= 0 && b.Values[i].Kind == hosteval.VTensor {
			return nil
		}
		v := hosteval.None
		if i >= 0 {
			v = b.Values[i]
		}
		return hosteval.Usage(diag.Errorf(a.Pos, diag.CodeArgs, "@triton.autotune: %s names '%s', which is %s in this launch, not a tensor", what, name, v.Describe()))
	}
	for _, n := range a.ResetToZero {
		if err := tensorArg(n, "reset_to_zero"); err != nil {
			return nil, nil, err
		}
		zero = append(zero, n)
	}
	for _, n := range a.RestoreValue {
		if err := tensorArg(n, "restore_value"); err != nil {
			return nil, nil, err
		}
		restore = append(restore, n)
	}
	if a.RestoreValue == nil {
		for i, p := range b.Func.Params {
			if k := b.Values[i].Kind; k == hosteval.VTensor || k == hosteval.VDesc {
				restore = append(restore, p.Name)
			}
		}
	}
	return zero, restore, nil
}

// Key is the key of a launch: the values of the autotune key's
// arguments, then the dtype of every tensor argument.
func Key(a *Autotune, b *bind.Bound) string {
	var parts, dtypes []string
	for _, name := range a.Key {
		i := slices.IndexFunc(b.Func.Params, func(p *frontend.Param) bool { return p.Name == name })
		v := b.Values[i]
		s := v.String()
		if v.Kind == hosteval.VTensor {
			s = v.Tensor.String()
		}
		parts = append(parts, name+"="+s)
	}
	for i, p := range b.Func.Params {
		if v := b.Values[i]; v.Kind == hosteval.VTensor {
			dtypes = append(dtypes, p.Name+": "+ir.Scalar(v.Tensor.Kind).PyName())
		}
	}
	key := strings.Join(parts, ", ")
	if len(dtypes) > 0 {
		if key != "" {
			key += "; "
		}
		key += strings.Join(dtypes, ", ")
	}
	return key
}
