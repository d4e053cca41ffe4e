package cudagen

// This file implements the helper functions a kernel may need beyond the
// prelude: warp shuffles for reductions and atomics as inline PTX. They are
// printed between the prelude and the kernel, each definition only where
// used (see preludeFor).

import (
	"fmt"
)

// shuffleHelpers are tri_shfl_xor overloads for every register type:
// shfl.sync.bfly over all 32 lanes, 64-bit values in two halves.
var shuffleHelpers = cgroup{`// Butterfly shuffles across the lanes of a warp (shfl.sync.bfly), for every register type.`, []cdef{
	{"tri_shfl_xor_b32", nil, `TRI_DEV unsigned int tri_shfl_xor_b32(unsigned int v, int m) {
  unsigned int r; asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m)); return r;
}`},
	{"tri_shfl_xor_b64", []string{"tri_shfl_xor_b32"}, `TRI_DEV unsigned long long tri_shfl_xor_b64(unsigned long long v, int m) {
  unsigned int lo = tri_shfl_xor_b32((unsigned int)v, m), hi = tri_shfl_xor_b32((unsigned int)(v >> 32), m);
  return ((unsigned long long)hi << 32) | lo;
}`},
	{"tri_shfl_xor", []string{"tri_bits_f32", "tri_f32_bits", "tri_shfl_xor_b32"}, `TRI_DEV float tri_shfl_xor(float v, int m) { return tri_f32_bits(tri_shfl_xor_b32(tri_bits_f32(v), m)); }`},
	{"tri_shfl_xor", []string{"tri_bits_f64", "tri_f64_bits", "tri_shfl_xor_b64"}, `TRI_DEV double tri_shfl_xor(double v, int m) { return tri_f64_bits(tri_shfl_xor_b64(tri_bits_f64(v), m)); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV int tri_shfl_xor(int v, int m) { return (int)tri_shfl_xor_b32((unsigned int)v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV unsigned int tri_shfl_xor(unsigned int v, int m) { return tri_shfl_xor_b32(v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b64"}, `TRI_DEV long long tri_shfl_xor(long long v, int m) { return (long long)tri_shfl_xor_b64((unsigned long long)v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b64"}, `TRI_DEV unsigned long long tri_shfl_xor(unsigned long long v, int m) { return tri_shfl_xor_b64(v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV short tri_shfl_xor(short v, int m) { return (short)tri_shfl_xor_b32((unsigned int)(unsigned short)v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV unsigned short tri_shfl_xor(unsigned short v, int m) { return (unsigned short)tri_shfl_xor_b32(v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV signed char tri_shfl_xor(signed char v, int m) { return (signed char)tri_shfl_xor_b32((unsigned int)(unsigned char)v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV unsigned char tri_shfl_xor(unsigned char v, int m) { return (unsigned char)tri_shfl_xor_b32(v, m); }`},
	{"tri_shfl_xor", []string{"tri_shfl_xor_b32"}, `TRI_DEV bool tri_shfl_xor(bool v, int m) { return tri_shfl_xor_b32(v ? 1u : 0u, m) != 0; }`},
}}

// helperDecl is a group of one one-line __device__ function, whose text
// names deps.
func helperDecl(ret, name, params, body string, deps nameSet) cgroup {
	return oneDef(name, deps, fmt.Sprintf("TRI_DEV %s %s(%s) { %s }", ret, name, params, body))
}
