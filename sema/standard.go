package sema

// This file implements the private helpers of Triton's
// triton/language/standard.py that kernels import by name (from
// triton.language.standard import _log2, or tl.standard._log2): they are
// not names of triton.language itself, so normalizePath keeps their path.

import "github.com/tri-lang/tri/diag"

func init() {
	builtins["triton.language.standard._log2"] = &builtin{[]string{"i"}, 1, bLog2}
}

// bLog2 is Triton's standard._log2, a constexpr_function: how many times
// halving i (floor division) takes it to 1 or below; 0 for i <= 1.
func bLog2(c *compiler, a *args) *val {
	n, ok := a.vals[0].asInt()
	if !ok {
		return c.errorf(a.pos, diag.CodeValue, "_log2 needs a compile-time integer, got %s", a.vals[0].describe())
	}
	if n.Sign() <= 0 {
		return intVal(0)
	}
	return intVal(int64(n.BitLen() - 1))
}
