package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestTargetInfo: target_info's predicates are compile-time constants of
// a CUDA target, through tl.target_info and an import from the module.
func TestTargetInfo(t *testing.T) {
	for _, c := range []struct{ cond, want, not string }{
		{"tl.target_info.is_cuda()", "const 1", "const 2"},
		{"is_hip()", "const 2", "const 1"},
		{"tl.target_info.is_hip_cdna3() or is_hip_cdna4()", "const 2", "const 1"},
		{"not tl.target_info.is_hip_gfx1250()", "const 1", "const 2"},
	} {
		src := header + `from triton.language.target_info import is_hip, is_hip_cdna4

@triton.jit
def k(x_ptr):
    if ` + c.cond + `:
        tl.store(x_ptr, 1.0)
    else:
        tl.store(x_ptr, 2.0)
`
		k := compile(t, src, "k", sig(ptr(ir.Float32)))
		out := printed(k)
		assert.Contains(t, out, c.want, c.cond)
		assert.NotContains(t, out, c.not, c.cond)
	}
}
