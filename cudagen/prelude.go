package cudagen

// prelude is written at the top of every generated file, unchanged. It
// makes the file self-contained: no header is included, so the same text
// compiles with NVRTC (no include path), with nvcc, and with clang's CUDA
// mode without the CUDA SDK (-nocudainc -nocudalib). Special registers,
// fp16/bf16 conversions and fast math are inline PTX, which all three
// accept alike.
const prelude = `// ---- tri prelude (the same in every file) ----
#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
// clang -x cuda -nocudainc -nocudalib: define what the CUDA headers would.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __forceinline__ __attribute__((always_inline)) inline
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
extern "C" __device__ float __nv_fmodf(float, float);
extern "C" __device__ double __nv_fmod(double, double);
extern "C" __device__ double __nv_exp(double);
extern "C" __device__ double __nv_exp2(double);
extern "C" __device__ double __nv_log(double);
extern "C" __device__ double __nv_log2(double);
extern "C" __device__ double __nv_sin(double);
extern "C" __device__ float __nv_sinf(float);
extern "C" __device__ float __nv_cosf(float);
extern "C" __device__ double __nv_cos(double);
#define TRI_FMODF(a, b) __nv_fmodf(a, b)
#define TRI_FMOD(a, b) __nv_fmod(a, b)
#define TRI_EXP_F64(x) __nv_exp(x)
#define TRI_EXP2_F64(x) __nv_exp2(x)
#define TRI_LOG_F64(x) __nv_log(x)
#define TRI_LOG2_F64(x) __nv_log2(x)
#define TRI_SIN_F32(x) __nv_sinf(x)
#define TRI_COS_F32(x) __nv_cosf(x)
#define TRI_SIN_F64(x) __nv_sin(x)
#define TRI_COS_F64(x) __nv_cos(x)
#else
#define TRI_FMODF(a, b) fmodf(a, b)
#define TRI_FMOD(a, b) fmod(a, b)
#define TRI_EXP_F64(x) exp(x)
#define TRI_EXP2_F64(x) exp2(x)
#define TRI_LOG_F64(x) log(x)
#define TRI_LOG2_F64(x) log2(x)
#define TRI_SIN_F32(x) sinf(x)
#define TRI_COS_F32(x) cosf(x)
#define TRI_SIN_F64(x) sin(x)
#define TRI_COS_F64(x) cos(x)
#endif
#define TRI_DEV __device__ __forceinline__

// fp16 and bf16 are kept as their bits and computed in float, rounding back
// after each op, as Triton does for most ops.
typedef unsigned short tri_half;
typedef unsigned short tri_bf16;

// Vectors for 8- and 16-byte global accesses.
struct alignas(8) tri_f32x2 { float x, y; };
struct alignas(16) tri_f32x4 { float x, y, z, w; };
struct alignas(8) tri_u32x2 { unsigned int x, y; };
struct alignas(16) tri_u32x4 { unsigned int x, y, z, w; };
struct alignas(16) tri_f64x2 { double x, y; };
struct alignas(16) tri_u64x2 { unsigned long long x, y; };

// Thread and program indices (threadIdx.x, blockIdx, gridDim).
TRI_DEV int tri_thread_id(void) { int r; asm("mov.u32 %0, %%tid.x;" : "=r"(r)); return r; }
TRI_DEV int tri_program_id_x(void) { int r; asm("mov.u32 %0, %%ctaid.x;" : "=r"(r)); return r; }
TRI_DEV int tri_program_id_y(void) { int r; asm("mov.u32 %0, %%ctaid.y;" : "=r"(r)); return r; }
TRI_DEV int tri_program_id_z(void) { int r; asm("mov.u32 %0, %%ctaid.z;" : "=r"(r)); return r; }
TRI_DEV int tri_num_programs_x(void) { int r; asm("mov.u32 %0, %%nctaid.x;" : "=r"(r)); return r; }
TRI_DEV int tri_num_programs_y(void) { int r; asm("mov.u32 %0, %%nctaid.y;" : "=r"(r)); return r; }
TRI_DEV int tri_num_programs_z(void) { int r; asm("mov.u32 %0, %%nctaid.z;" : "=r"(r)); return r; }

// Bit casts.
TRI_DEV float tri_f32_bits(unsigned int u) { float r; asm("mov.b32 %0, %1;" : "=f"(r) : "r"(u)); return r; }
TRI_DEV unsigned int tri_bits_f32(float f) { unsigned int r; asm("mov.b32 %0, %1;" : "=r"(r) : "f"(f)); return r; }
TRI_DEV double tri_f64_bits(unsigned long long u) { double r; asm("mov.b64 %0, %1;" : "=d"(r) : "l"(u)); return r; }
TRI_DEV unsigned long long tri_bits_f64(double f) { unsigned long long r; asm("mov.b64 %0, %1;" : "=l"(r) : "d"(f)); return r; }

// Conversions between float and fp16/bf16 (round to nearest even; _rz: toward zero).
TRI_DEV float tri_h2f(tri_half h) { float r; asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h)); return r; }
TRI_DEV tri_half tri_f2h(float f) { tri_half r; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }
TRI_DEV tri_half tri_f2h_rz(float f) { tri_half r; asm("cvt.rz.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }
TRI_DEV tri_half tri_d2h(double f) { tri_half r; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(f)); return r; }
TRI_DEV tri_half tri_d2h_rz(double f) { tri_half r; asm("cvt.rz.f16.f64 %0, %1;" : "=h"(r) : "d"(f)); return r; }
TRI_DEV float tri_bf2f(tri_bf16 h) { return tri_f32_bits((unsigned int)h << 16); }
TRI_DEV tri_bf16 tri_f2bf(float f) { tri_bf16 r; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r; }
TRI_DEV tri_bf16 tri_f2bf_rz(float f) {
  unsigned int u = tri_bits_f32(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (tri_bf16)(((u >> 16) & 0x8000u) | 0x7fc0u);
  return (tri_bf16)(u >> 16);
}

// fp32 math as Triton lowers it: approximate division, exp, log, sqrt.
TRI_DEV float tri_div_f32(float a, float b) { float r; asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
TRI_DEV float tri_exp2_f32(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_exp_f32(float x) { return tri_exp2_f32(x * 1.44269504088896341f); }
TRI_DEV float tri_log2_f32(float x) { float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_log_f32(float x) { return tri_log2_f32(x) * 0.693147180559945309f; }
TRI_DEV float tri_sqrt_f32(float x) { float r; asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_rsqrt_f32(float x) { float r; asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
// sin and cos are precise (libdevice), as in Triton.
TRI_DEV float tri_sin_f32(float x) { return TRI_SIN_F32(x); }
TRI_DEV float tri_cos_f32(float x) { return TRI_COS_F32(x); }
TRI_DEV float tri_floor_f32(float x) { float r; asm("cvt.rmi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_ceil_f32(float x) { float r; asm("cvt.rpi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_abs_f32(float x) { float r; asm("abs.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_fma_f32(float a, float b, float c) { float r; asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }
TRI_DEV float tri_max_f32(float a, float b) { float r; asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
TRI_DEV float tri_min_f32(float a, float b) { float r; asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
TRI_DEV float tri_max_nan_f32(float a, float b) { float r; asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
TRI_DEV float tri_min_nan_f32(float a, float b) { float r; asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }

// fp64 math is precise.
TRI_DEV double tri_sqrt_f64(double x) { double r; asm("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
TRI_DEV double tri_rsqrt_f64(double x) { return 1.0 / tri_sqrt_f64(x); }
TRI_DEV double tri_floor_f64(double x) { double r; asm("cvt.rmi.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
TRI_DEV double tri_ceil_f64(double x) { double r; asm("cvt.rpi.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
TRI_DEV double tri_abs_f64(double x) { double r; asm("abs.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
TRI_DEV double tri_fma_f64(double a, double b, double c) { double r; asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(r) : "d"(a), "d"(b), "d"(c)); return r; }
TRI_DEV double tri_max_f64(double a, double b) { double r; asm("max.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
TRI_DEV double tri_min_f64(double a, double b) { double r; asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
TRI_DEV double tri_max_nan_f64(double a, double b) { return a != a ? a : b != b ? b : tri_max_f64(a, b); }
TRI_DEV double tri_min_nan_f64(double a, double b) { return a != a ? a : b != b ? b : tri_min_f64(a, b); }
// ---- end of prelude ----
`
