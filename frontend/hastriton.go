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
	return p.isTritonGuard(a.Test)
}

// isTritonGuard reports whether test is a call of a tritonGuards function,
// or an and of operands one of which is: the arm's kernels exist only
// where the whole condition holds, so tri, which reads them, reads the
// arm's configs as Python has them where it does
// (torch_version_at_least("2.10.0") and has_triton()).
func (p *fileParser) isTritonGuard(test Expr) bool {
	switch t := test.(type) {
	case *Call:
		return len(t.Args) == 0 && tritonGuards[resolveName(p.file.Aliases, dottedName(t.Func))]
	case *BoolOp:
		if t.Op != "and" {
			return false
		}
		for _, v := range t.Values {
			if p.isTritonGuard(v) {
				return true
			}
		}
	}
	return false
}

// tritonGuardBody returns the chunks of the first arm of top-level chunk
// c if c is an if whose condition is a triton guard; nil otherwise.
func (p *fileParser) tritonGuardBody(c *chunk) []*chunk {
	if c.indent != 0 || len(c.lines) < 2 || leadingIdent(c.first(p.text)) != "if" {
		return nil
	}
	if !p.isTritonGuard(p.armTest(c, "if")) {
		return nil
	}
	return splitChunksAt(p.text, c.lines[1:], c.lines[1].indent)
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
