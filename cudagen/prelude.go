package cudagen

// This file implements the prelude: the types, conversions, inline-PTX
// wrappers and math functions that generated kernels call. Only what a
// kernel uses is written, in a fixed order, so that a file changes only
// when its kernel's code does. What it uses is recorded while its code is
// printed (needs.go), never found by reading the code back. The file stays self-contained: no header
// is included, so the same text compiles with NVRTC (no include path),
// with nvcc, and with clang's CUDA mode without the CUDA SDK
// (-nocudainc -nocudalib). Special registers, fp16/bf16 conversions and
// fast math are inline PTX, which all three accept alike.

import "strings"

// clangHead opens every file: under clang without the CUDA headers it
// defines what those headers would.
const clangHead = `#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
// clang -x cuda -nocudainc -nocudalib: define what the CUDA headers would.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __forceinline__ __attribute__((always_inline)) inline
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
`

// libdeviceMacro is a TRI_ macro for a libdevice function: under clang
// without the CUDA headers it calls the __nv_ function, declared; else
// the CUDA math function of the same meaning.
type libdeviceMacro struct {
	name, args, decl, nv, std string
}

// libdeviceMacros are the libdevice macros, in the order they are written.
var libdeviceMacros = []libdeviceMacro{
	{"TRI_FMODF", "(a, b)", `extern "C" __device__ float __nv_fmodf(float, float);`, "__nv_fmodf", "fmodf"},
	{"TRI_FMOD", "(a, b)", `extern "C" __device__ double __nv_fmod(double, double);`, "__nv_fmod", "fmod"},
	{"TRI_EXP_F64", "(x)", `extern "C" __device__ double __nv_exp(double);`, "__nv_exp", "exp"},
	{"TRI_EXP2_F64", "(x)", `extern "C" __device__ double __nv_exp2(double);`, "__nv_exp2", "exp2"},
	{"TRI_LOG_F64", "(x)", `extern "C" __device__ double __nv_log(double);`, "__nv_log", "log"},
	{"TRI_LOG2_F64", "(x)", `extern "C" __device__ double __nv_log2(double);`, "__nv_log2", "log2"},
	{"TRI_LOG_F32", "(x)", `extern "C" __device__ float __nv_logf(float);`, "__nv_logf", "logf"},
	{"TRI_SIN_F32", "(x)", `extern "C" __device__ float __nv_sinf(float);`, "__nv_sinf", "sinf"},
	{"TRI_COS_F32", "(x)", `extern "C" __device__ float __nv_cosf(float);`, "__nv_cosf", "cosf"},
	{"TRI_SIN_F64", "(x)", `extern "C" __device__ double __nv_sin(double);`, "__nv_sin", "sin"},
	{"TRI_COS_F64", "(x)", `extern "C" __device__ double __nv_cos(double);`, "__nv_cos", "cos"},
}

// preludeGroups are the definitions a kernel may use, in groups printed
// under their opening comments, in this order (the fp8 groups last).
var preludeGroups = []cgroup{
	{`// fp16 and bf16 are kept as their bits and computed in float, rounding back
// after each op, as Triton does for most ops.`, []cdef{
		{"tri_half", nil, `typedef unsigned short tri_half;`},
		{"tri_bf16", nil, `typedef unsigned short tri_bf16;`},
	}},
	{`// Vectors for 8- and 16-byte global accesses.`, []cdef{
		{"tri_f32x2", nil, `struct alignas(8) tri_f32x2 { float x, y; };`},
		{"tri_f32x4", nil, `struct alignas(16) tri_f32x4 { float x, y, z, w; };`},
		{"tri_u32x2", nil, `struct alignas(8) tri_u32x2 { unsigned int x, y; };`},
		{"tri_u32x4", nil, `struct alignas(16) tri_u32x4 { unsigned int x, y, z, w; };`},
		{"tri_f64x2", nil, `struct alignas(16) tri_f64x2 { double x, y; };`},
		{"tri_u64x2", nil, `struct alignas(16) tri_u64x2 { unsigned long long x, y; };`},
	}},
	{`// Thread and program indices (threadIdx.x, blockIdx, gridDim).`, []cdef{
		{"tri_thread_id", nil, `TRI_DEV int tri_thread_id(void) { int r; asm("mov.u32 %0, %%tid.x;" : "=r"(r)); return r; }`},
		{"tri_program_id_x", nil, `TRI_DEV int tri_program_id_x(void) { int r; asm("mov.u32 %0, %%ctaid.x;" : "=r"(r)); return r; }`},
		{"tri_program_id_y", nil, `TRI_DEV int tri_program_id_y(void) { int r; asm("mov.u32 %0, %%ctaid.y;" : "=r"(r)); return r; }`},
		{"tri_program_id_z", nil, `TRI_DEV int tri_program_id_z(void) { int r; asm("mov.u32 %0, %%ctaid.z;" : "=r"(r)); return r; }`},
		{"tri_num_programs_x", nil, `TRI_DEV int tri_num_programs_x(void) { int r; asm("mov.u32 %0, %%nctaid.x;" : "=r"(r)); return r; }`},
		{"tri_num_programs_y", nil, `TRI_DEV int tri_num_programs_y(void) { int r; asm("mov.u32 %0, %%nctaid.y;" : "=r"(r)); return r; }`},
		{"tri_num_programs_z", nil, `TRI_DEV int tri_num_programs_z(void) { int r; asm("mov.u32 %0, %%nctaid.z;" : "=r"(r)); return r; }`},
	}},
	{`// Bit casts.`, []cdef{
		{"tri_f32_bits", nil, `TRI_DEV float tri_f32_bits(unsigned int u) { float r; asm("mov.b32 %0, %1;" : "=f"(r) : "r"(u)); return r; }`},
		{"tri_bits_f32", nil, `TRI_DEV unsigned int tri_bits_f32(float f) { unsigned int r; asm("mov.b32 %0, %1;" : "=r"(r) : "f"(f)); return r; }`},
		{"tri_f64_bits", nil, `TRI_DEV double tri_f64_bits(unsigned long long u) { double r; asm("mov.b64 %0, %1;" : "=d"(r) : "l"(u)); return r; }`},
		{"tri_bits_f64", nil, `TRI_DEV unsigned long long tri_bits_f64(double f) { unsigned long long r; asm("mov.b64 %0, %1;" : "=l"(r) : "d"(f)); return r; }`},
	}},
	{`// Conversions between float and fp16/bf16 (round to nearest even; _rz: toward zero).`, []cdef{
		{"tri_h2f", []string{"tri_half"}, `TRI_DEV float tri_h2f(tri_half h) { float r; asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h)); return r; }`},
		{"tri_f2h", []string{"tri_half"}, `TRI_DEV tri_half tri_f2h(float f) { tri_half r; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }`},
		{"tri_f2h_rz", []string{"tri_half"}, `TRI_DEV tri_half tri_f2h_rz(float f) { tri_half r; asm("cvt.rz.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }`},
		{"tri_d2h", []string{"tri_half"}, `TRI_DEV tri_half tri_d2h(double f) { tri_half r; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(f)); return r; }`},
		{"tri_d2h_rz", []string{"tri_half"}, `TRI_DEV tri_half tri_d2h_rz(double f) { tri_half r; asm("cvt.rz.f16.f64 %0, %1;" : "=h"(r) : "d"(f)); return r; }`},
		{"tri_bf2f", []string{"tri_bf16", "tri_f32_bits"}, `TRI_DEV float tri_bf2f(tri_bf16 h) { return tri_f32_bits((unsigned int)h << 16); }`},
		{"tri_f2bf", []string{"tri_bf16"}, `TRI_DEV tri_bf16 tri_f2bf(float f) { tri_bf16 r; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }`},
		{"tri_f2bf_rz", []string{"tri_bf16", "tri_bits_f32"}, `TRI_DEV tri_bf16 tri_f2bf_rz(float f) {
  unsigned int u = tri_bits_f32(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (tri_bf16)(((u >> 16) & 0x8000u) | 0x7fc0u);
  return (tri_bf16)(u >> 16);
}`},
	}},
	{`// fp32 math as Triton lowers it: approximate division, exp, log, sqrt.`, []cdef{
		{"tri_div_f32", nil, `TRI_DEV float tri_div_f32(float a, float b) { float r; asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }`},
		{"tri_exp2_f32", nil, `// tl.exp2 flushes subnormal results to zero (libdevice's exp2f under Triton's flush-to-zero linking); tl.exp keeps them.
TRI_DEV float tri_exp2_f32(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_exp_f32", nil, `TRI_DEV float tri_exp_f32(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x * 1.44269504088896341f)); return r; }`},
		{"tri_log2_f32", nil, `TRI_DEV float tri_log2_f32(float x) { float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_sqrt_f32", nil, `TRI_DEV float tri_sqrt_f32(float x) { float r; asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_rsqrt_f32", nil, `TRI_DEV float tri_rsqrt_f32(float x) { float r; asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_sin_f32", []string{"TRI_SIN_F32"}, `// sin and cos are precise (libdevice), as in Triton.
TRI_DEV float tri_sin_f32(float x) { return TRI_SIN_F32(x); }`},
		{"tri_cos_f32", []string{"TRI_COS_F32"}, `TRI_DEV float tri_cos_f32(float x) { return TRI_COS_F32(x); }`},
		{"tri_log_f32", []string{"TRI_LOG_F32"}, `// log is precise (libdevice) too, as in Triton, which turned its fast log
// off again (randn's Box-Muller transform needs the precise one).
TRI_DEV float tri_log_f32(float x) { return TRI_LOG_F32(x); }`},
		{"tri_floor_f32", nil, `TRI_DEV float tri_floor_f32(float x) { float r; asm("cvt.rmi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_ceil_f32", nil, `TRI_DEV float tri_ceil_f32(float x) { float r; asm("cvt.rpi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_abs_f32", nil, `TRI_DEV float tri_abs_f32(float x) { float r; asm("abs.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }`},
		{"tri_fma_f32", nil, `TRI_DEV float tri_fma_f32(float a, float b, float c) { float r; asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }`},
		{"tri_max_f32", nil, `TRI_DEV float tri_max_f32(float a, float b) { float r; asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }`},
		{"tri_min_f32", nil, `TRI_DEV float tri_min_f32(float a, float b) { float r; asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }`},
		{"tri_max_nan_f32", nil, `TRI_DEV float tri_max_nan_f32(float a, float b) { float r; asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }`},
		{"tri_min_nan_f32", nil, `TRI_DEV float tri_min_nan_f32(float a, float b) { float r; asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }`},
	}},
	{`// fp64 math is precise.`, []cdef{
		{"tri_sqrt_f64", nil, `TRI_DEV double tri_sqrt_f64(double x) { double r; asm("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }`},
		{"tri_rsqrt_f64", []string{"tri_sqrt_f64"}, `TRI_DEV double tri_rsqrt_f64(double x) { return 1.0 / tri_sqrt_f64(x); }`},
		{"tri_floor_f64", nil, `TRI_DEV double tri_floor_f64(double x) { double r; asm("cvt.rmi.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }`},
		{"tri_ceil_f64", nil, `TRI_DEV double tri_ceil_f64(double x) { double r; asm("cvt.rpi.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }`},
		{"tri_abs_f64", nil, `TRI_DEV double tri_abs_f64(double x) { double r; asm("abs.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }`},
		{"tri_fma_f64", nil, `TRI_DEV double tri_fma_f64(double a, double b, double c) { double r; asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(r) : "d"(a), "d"(b), "d"(c)); return r; }`},
		{"tri_max_f64", nil, `TRI_DEV double tri_max_f64(double a, double b) { double r; asm("max.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }`},
		{"tri_min_f64", nil, `TRI_DEV double tri_min_f64(double a, double b) { double r; asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }`},
		{"tri_max_nan_f64", []string{"tri_max_f64"}, `TRI_DEV double tri_max_nan_f64(double a, double b) { return a != a ? a : b != b ? b : tri_max_f64(a, b); }`},
		{"tri_min_nan_f64", []string{"tri_min_f64"}, `TRI_DEV double tri_min_nan_f64(double a, double b) { return a != a ? a : b != b ? b : tri_min_f64(a, b); }`},
	}},
	fp8Prelude,
	fp8SoftPrelude,
}

// preludeFor is what precedes a kernel's code in its file: the clang
// head, the libdevice macros, the prelude's definitions and then the
// helpers' (the groups the emitter registered), each only where the code
// uses it, directly or through other definitions: used holds the names the
// code was recorded naming.
func preludeFor(used nameSet, helpers []cgroup) string {
	groups := append(append([]cgroup(nil), preludeGroups...), helpers...)
	used = closure(used, groups)
	var b strings.Builder
	b.WriteString("// ---- tri prelude: what this kernel uses ----\n")
	b.WriteString(clangHead)
	var other strings.Builder
	for _, m := range libdeviceMacros {
		if used[m.name] {
			b.WriteString(m.decl + "\n#define " + m.name + m.args + " " + m.nv + m.args + "\n")
			other.WriteString("#define " + m.name + m.args + " " + m.std + m.args + "\n")
		}
	}
	if other.Len() > 0 {
		b.WriteString("#else\n" + other.String())
	}
	b.WriteString("#endif\n#define TRI_DEV __device__ __forceinline__\n")
	nPrelude := len(preludeGroups)
	last := -1
	for g, group := range groups {
		for _, d := range group.defs {
			if !used[d.name] {
				continue
			}
			if g >= nPrelude && last < nPrelude {
				b.WriteString("// ---- end of prelude ----\n// ---- helpers used by this kernel ----\n")
			}
			if g != last {
				if g < nPrelude {
					b.WriteString("\n")
				}
				if group.head != "" {
					b.WriteString(group.head + "\n")
				}
				last = g
			}
			b.WriteString(d.text + "\n")
		}
	}
	if last < nPrelude {
		b.WriteString("// ---- end of prelude ----\n")
	}
	return b.String()
}
