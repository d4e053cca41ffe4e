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
	e.helpers.add(wrapper, fmt.Sprintf(`#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
extern "C" __device__ %[1]s __nv_%[2]s(%[1]s);
TRI_DEV %[1]s %[3]s(%[1]s x) { return __nv_%[2]s(x); }
#else
TRI_DEV %[1]s %[3]s(%[1]s x) { return %[2]s(x); }
#endif
`, ty, name, wrapper))
	return wrapper + "(" + x + ")"
}
