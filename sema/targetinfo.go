package sema

// This file implements triton.language.target_info's predicates on the
// target, which a kernel calls to pick code for its GPU: tri compiles for
// NVIDIA GPUs only, so is_cuda is true and the AMD predicates false.

// addTargetInfoBuiltins registers target_info's is_cuda and is_hip*.
func addTargetInfoBuiltins(tl func(string) string) {
	target := func(v bool) *builtin {
		return &builtin{nil, 0, func(*compiler, *args) *val { return boolVal(v) }}
	}
	builtins[tl("target_info.is_cuda")] = target(true)
	for _, name := range []string{"is_hip", "is_hip_cdna3", "is_hip_cdna4", "is_hip_gfx1250"} {
		builtins[tl("target_info."+name)] = target(false)
	}
}
