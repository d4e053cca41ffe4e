package sema

// This file implements what tri knows of the names Triton 3.6 itself
// binds in triton.language, so that a kernel that reads one it lacks
// (tl.pow, tl.libdevice: older Tritons had them) is told that Triton
// rejects it too, in Triton's words, rather than that tri lacks it.

import "strings"

// triton36Names are the names that Triton 3.6's triton/language/__init__.py
// binds (its imports and __all__) and its submodules.
var triton36Names = func() map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Fields(`
		PropagateNan TRITON_MAX_TENSOR_NUMEL abs add advance amd_tensor_descriptor_type arange argmax argmin
		associative_scan assume atomic_add atomic_and atomic_cas atomic_max atomic_min atomic_or atomic_xchg
		atomic_xor bfloat16 bitonic_merge block_type broadcast broadcast_to cast cat cdiv ceil clamp condition
		const constexpr constexpr_type cos cumprod cumsum debug_barrier device_assert device_print div_rn dot
		dot_scaled dtype erf exp exp2 expand_dims extra fdiv flip float16 float32 float64 float8e4b15
		float8e4b8 float8e4nv float8e5 float8e5b16 floor fma full gather histogram inline_asm_elementwise int1
		int16 int32 int64 int8 interleave join load load_tensor_descriptor log log2 make_block_ptr
		make_tensor_descriptor map_elementwise math max max_constancy max_contiguous maximum min minimum mul
		multiple_of num_programs nvidia_tensor_descriptor_im2col_type nvidia_tensor_descriptor_type
		pair_uniform_to_normal permute philox philox_impl pi32_t pointer_type program_id rand rand4x randint
		randint4x randn randn4x range ravel reduce reduce_or reshape rsqrt sigmoid sin slice softmax sort split
		sqrt sqrt_rn squeeze static_assert static_print static_range store store_tensor_descriptor str_to_ty
		sub sum swizzle2d target_info tensor tensor_descriptor tensor_descriptor_type to_tensor topk trans
		tuple tuple_type uint16 uint32 uint64 uint8 uint_to_uniform_float umulhi unsqueeze view void where
		xor_sum zeros zeros_like
		core standard semantic random`) {
		out[n] = true
	}
	return out
}()

// tritonLacks is what a message about attribute name of module path
// parent adds when Triton 3.6 has no such attribute either (an
// AttributeError there): "" where Triton has it, or parent is not
// triton.language.
func tritonLacks(parent, name string) string {
	if parent != "triton.language" || triton36Names[name] {
		return ""
	}
	return " (Triton 3.6 rejects it too)"
}
