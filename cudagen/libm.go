package cudagen

// This file implements the math ops that lower to a libdevice function, as
// Triton lowers them: one small table names each op's CUDA function, and
// its wrapper is printed among the helpers only in kernels that call it.

import (
	"fmt"

	"github.com/tri-lang/tri/ir"
)

// libmFunc names the CUDA math functions of an op for fp32 and fp64. NVRTC
// and nvcc provide them; clang without the CUDA headers gets their
// libdevice symbols (__nv_ and the same name) declared instead.
type libmFunc struct{ f32, f64 string }

// libmFuncs are the math ops lowered to libdevice calls.
var libmFuncs = map[ir.Op]libmFunc{
	ir.OpErf: {"erff", "erf"},
}

// Lowers reports whether cudagen lowers op; an op it does not lower is
// reported as unsupported rather than printed wrong.
func Lowers(op ir.Op) bool {
	if _, ok := libmFuncs[op]; ok {
		return true
	}
	return lowered[op]
}

// libmCall is the call of op's function on x, of kind k (fp32 or fp64),
// after adding the function's wrapper to the helpers.
func (e *emitter) libmCall(op ir.Op, k ir.Kind, x string) string {
	name, ty := libmFuncs[op].f32, "float"
	if k == ir.Float64 {
		name, ty = libmFuncs[op].f64, "double"
	}
	wrapper := "tri_" + name
	// Under clang the wrapper calls libdevice's function, declared; under
	// NVRTC and nvcc the CUDA API's.
	e.helpers.add(wrapper, cgroup{fmt.Sprintf("%s\nextern \"C\" __device__ %[2]s __nv_%[3]s(%[2]s);", clangOnly, ty, name), []cdef{{wrapper, nil,
		fmt.Sprintf("TRI_DEV %[1]s %[3]s(%[1]s x) { return __nv_%[2]s(x); }\n#else\nTRI_DEV %[1]s %[3]s(%[1]s x) { return %[2]s(x); }\n#endif", ty, name, wrapper)}}})
	e.use(wrapper)
	return wrapper + "(" + x + ")"
}
