package cudagen

// This file implements the prelude: the types, conversions, inline-PTX
// wrappers and math functions that generated kernels call. Only what a
// kernel uses is written, in a fixed order, so that a file changes only
// when its kernel's code does. The file stays self-contained: no header
// is included, so the same text compiles with NVRTC (no include path),
// with nvcc, and with clang's CUDA mode without the CUDA SDK
// (-nocudainc -nocudalib). Special registers, fp16/bf16 conversions and
// fast math are inline PTX, which all three accept alike.

import (
	"regexp"
	"strings"
)

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

// preludeDefs are the definitions a kernel may use, in groups separated
// by blank lines, each opened by a comment. A definition starts at a line
// opening with TRI_DEV, typedef or struct; a comment inside a group
// belongs to the definition below it.
const preludeDefs = `// fp16 and bf16 are kept as their bits and computed in float, rounding back
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
// tl.exp2 flushes subnormal results to zero (libdevice's exp2f under Triton's flush-to-zero linking); tl.exp keeps them.
TRI_DEV float tri_exp2_f32(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_exp_f32(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x * 1.44269504088896341f)); return r; }
TRI_DEV float tri_log2_f32(float x) { float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_sqrt_f32(float x) { float r; asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
TRI_DEV float tri_rsqrt_f32(float x) { float r; asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
// sin and cos are precise (libdevice), as in Triton.
TRI_DEV float tri_sin_f32(float x) { return TRI_SIN_F32(x); }
TRI_DEV float tri_cos_f32(float x) { return TRI_COS_F32(x); }
// log is precise (libdevice) too, as in Triton, which turned its fast log
// off again (randn's Box-Muller transform needs the precise one).
TRI_DEV float tri_log_f32(float x) { return TRI_LOG_F32(x); }
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
`

// tokenPattern matches the names the prelude defines and kernels use.
var tokenPattern = regexp.MustCompile(`\b(?:tri|TRI)_\w+\b`)

// defPattern matches the name a definition line defines.
var defPattern = regexp.MustCompile(`^(?:(?:template <[^>]*> )?TRI_DEV [^(]*\b(tri_\w+)\(|typedef .*\b(tri_\w+);|struct alignas\(\d+\) (tri_\w+) )`)

// preludeDef is one definition of preludeDefs.
type preludeDef struct {
	group int
	name  string
	text  string // with the comment lines above it in its group
}

// splitGroups splits groups of definitions (preludeDefs' blank-line
// separated groups, then the helper blocks) into their opening comments
// and their definitions.
func splitGroups(groups []string) (heads []string, defs []preludeDef) {
	for g, group := range groups {
		group = strings.TrimSuffix(group, "\n")
		var head, pending strings.Builder
		started := false
		for _, l := range strings.Split(group, "\n") {
			if m := defPattern.FindStringSubmatch(l); m != nil {
				started = true
				defs = append(defs, preludeDef{group: g, name: m[1] + m[2] + m[3], text: pending.String()})
				pending.Reset()
			}
			switch {
			case !started:
				head.WriteString(l + "\n")
			case strings.HasPrefix(l, "//"):
				pending.WriteString(l + "\n")
			default:
				defs[len(defs)-1].text += l + "\n"
			}
		}
		heads = append(heads, head.String())
	}
	return heads, defs
}

// preludeFor is what precedes a kernel's code in its file: the clang
// head, the libdevice macros, the prelude's definitions and then the
// helpers' (the blocks the emitter collected), each only where code uses
// it, directly or through other definitions.
func preludeFor(code string, helpers []string) string {
	groups := strings.Split(strings.TrimSuffix(preludeDefs+"\n"+fp8Prelude, "\n"), "\n\n")
	nPrelude := len(groups)
	heads, defs := splitGroups(append(groups, helpers...))
	used := map[string]bool{}
	var mark func(text string)
	mark = func(text string) {
		for _, t := range tokenPattern.FindAllString(text, -1) {
			if used[t] {
				continue
			}
			used[t] = true
			for _, d := range defs {
				if d.name == t {
					mark(d.text)
				}
			}
		}
	}
	mark(code)
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
	last := -1
	for _, d := range defs {
		if !used[d.name] {
			continue
		}
		if d.group >= nPrelude && last < nPrelude {
			b.WriteString("// ---- end of prelude ----\n// ---- helpers used by this kernel ----\n")
		}
		if d.group != last {
			if d.group < nPrelude {
				b.WriteString("\n")
			}
			b.WriteString(heads[d.group])
			last = d.group
		}
		b.WriteString(d.text)
	}
	if last < nPrelude {
		b.WriteString("// ---- end of prelude ----\n")
	}
	return b.String()
}
