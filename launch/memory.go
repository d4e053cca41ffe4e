package launch

// This file implements the memory budget of a launch (--max-memory): the
// tensors that --let binds count against it as they are made, and the
// interpreter counts the kernel's tensors and its large tiles against it
// (interp/budget.go), so that a kernel or a binding too large for the
// machine ends in a placed error instead of the Go runtime's fatal
// out-of-memory.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/tensor"
)

// memoryBudget is o.MaxMemory, or the interpreter's default where 0.
func (o *Options) memoryBudget() int64 {
	if o.MaxMemory > 0 {
		return o.MaxMemory
	}
	return interp.DefaultMaxMemory()
}

// checkLetMemory reports a binding, spec, after which the tensors bound in
// env take more than budget bytes, placed at its expression.
func checkLetMemory(env *hosteval.Env, spec string, budget int64) (err error) {
	seen := map[*tensor.Tensor]bool{}
	var total int64
	for _, n := range env.Names() {
		if v, _ := env.Lookup(n); v.Kind == hosteval.VTensor && v.Tensor != nil && !seen[v.Tensor] {
			seen[v.Tensor] = true
			total += int64(len(v.Tensor.Data))
		}
	}
	if total <= budget {
		return nil
	}
	name, _, _ := strings.Cut(spec, "=")
	src := hosteval.LetSource(strings.TrimSpace(name))
	defer hosteval.AttachSource(&err, src, spec)
	d := hosteval.ErrAt(src, len(name)+2, fmt.Sprintf("the tensors bound so far take %s, more than the memory budget of %s",
		interp.FormatBytes(total), interp.FormatBytes(budget)))
	d.Suggestion = "raise the budget with --max-memory"
	return d
}
