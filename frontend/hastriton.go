package frontend

// This file implements the module-level if statements whose condition is
// true wherever Triton runs (if has_triton():, torchao's guard around a
// whole module of kernels and their configs): the assignments in their
// arm are host definitions as top-level ones are, so that a decorator's
// host code reads them.

import "strings"

// tritonGuards are the functions whose call is true where Triton runs.
var tritonGuards = map[string]bool{
	"torch.utils._triton.has_triton":         true,
	"torch.utils._triton.has_triton_package": true,
}

// underTriton reports whether chunk c is in the first arm of a top-level
// if whose condition is a call of a tritonGuards function.
func (p *fileParser) underTriton(c *chunk) bool {
	a := c.arm
	if a == nil || a.Kind != ArmIf || a.Pos.Col != 1 {
		return false
	}
	call, ok := a.Test.(*Call)
	return ok && len(call.Args) == 0 && tritonGuards[resolveName(p.file.Aliases, dottedName(call.Func))]
}

// dedent removes n columns of indentation from every line of text.
func dedent(text string, n int) string {
	if n == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		k := 0
		for k < n && k < len(l) && (l[k] == ' ' || l[k] == '\t') {
			k++
		}
		lines[i] = l[k:]
	}
	return strings.Join(lines, "\n")
}
