package cudanames

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDeclared reads the global declarations of header text written as
// CUDA's headers write them, and leaves out what is not global.
func TestDeclared(t *testing.T) {
	text := `
#define __DEF_IF_HOST { }
#define CUDART_PI_F 3.141592654f
#if defined(__QNX__)
namespace std {
#endif
extern "C"
{
extern _CRTIMP __host__ __device__ __device_builtin__ __cudart_builtin__ int __cdecl printf(const char*, ...);
extern __device__ __device_builtin__ float sinpif(float x) __THROW;
}
#if defined(__QNX__)
}
#endif
/* a comment naming notdeclared(int); */
// another: alsonot(int);
static __inline__ __device__ int atomicAdd(int *address, int val) { int inside(int); return inside(val); }
__SM_30_INTRINSICS_DECL__ int __shfl_xor_sync(unsigned mask, int var, int laneMask, int width=warpSize) __DEF_IF_HOST
__SM_60_ATOMIC_FUNCTIONS_DECL__ int atomicAdd_block(int *address, int val) __DEF_IF_HOST
__SM_60_ATOMIC_FUNCTIONS_DECL__ int atomicAdd_system(int *address, int val) __DEF_IF_HOST
template <typename T> __device__ T tmpl_fn(T x);
struct __device_builtin__ __align__(16) float4 { float x, y, z, w; int member(int); };
typedef __device_builtin__ struct float4 float4;
typedef struct { int a; } anon_t, *anon_p;
typedef void (*cudaStreamCallback_t)(int);
__cuda_builtin_vector_align8(short4, short x; short y; short z; short w;);
enum __device_builtin__ cudaRoundMode { cudaRoundNearest, cudaRoundZero = 1 << 2, cudaRoundPosInf };
enum class scoped_e { scopedValue };
extern const __device__ dim3 threadIdx, blockIdx;
using alias_t = int;
namespace nvcuda { namespace wmma { struct fragment; void load_matrix_sync(int); } }
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16 &lh, const __nv_bfloat16 &rh);
__host__ __device__ __nv_bfloat16 &operator+=(__nv_bfloat16 &lh, const __nv_bfloat16 &rh);
`
	got := Declared(text)
	sort.Strings(got)
	for _, want := range []string{"__DEF_IF_HOST", "CUDART_PI_F", "printf", "sinpif", "atomicAdd", "__shfl_xor_sync", "atomicAdd_block", "atomicAdd_system", "tmpl_fn",
		"float4", "anon_t", "anon_p", "cudaStreamCallback_t", "cudaRoundMode", "cudaRoundNearest", "cudaRoundZero",
		"cudaRoundPosInf", "scoped_e", "threadIdx", "blockIdx", "alias_t"} {
		assert.Contains(t, got, want)
	}
	for _, not := range []string{"notdeclared", "alsonot", "inside", "member", "x", "y", "z", "w", "a", "mask", "var", "val",
		"scopedValue", "fragment", "load_matrix_sync", "lh", "rh", "int", "float", "__cdecl", "__align__"} {
		assert.NotContains(t, got, not)
	}
}

// TestMangledAndLibdevice reads names from Itanium manglings (not those in
// a namespace) and from libdevice's definitions.
func TestMangledAndLibdevice(t *testing.T) {
	lib := []byte("\x00_Z9atomicAddPii\x00__iAtomicAdd_Z10make_uint2jj\x00_ZN6nvcuda4wmma8fragmentE\x00")
	assert.ElementsMatch(t, []string{"atomicAdd", "make_uint2"}, mangledNames(lib))
	ll := "define float @__nv_sinf(float %x) #0 {\ndeclare i32 @llvm.nvvm.reflect(i8*)\ndefine internal double @__internal_accurate_pow(double) {\n"
	assert.Equal(t, []string{"__nv_sinf", "__internal_accurate_pow"}, LibdeviceNames(ll))
}
