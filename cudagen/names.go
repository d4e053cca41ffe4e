package cudagen

// This file implements the naming of C locals after source names: clashes
// with C, C++ and CUDA names get a trailing underscore, and a name bound
// more than once gets _1, _2, ... in program order.

import (
	"strconv"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// reserved are names a C local must not take: keywords, CUDA builtins,
// functions the output calls, and the emitter's own loop names.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`
		alignas alignof and asm auto bool break case catch char char16_t char32_t class const constexpr
		const_cast continue decltype default delete do double dynamic_cast else enum explicit export
		extern false float for friend goto if inline int long mutable namespace new noexcept not nullptr
		operator or private protected public register reinterpret_cast return short signed sizeof static
		static_assert static_cast struct switch template this thread_local throw true try typedef typeid
		typename union unsigned using virtual void volatile wchar_t while xor
		threadIdx blockIdx blockDim gridDim warpSize main printf malloc free memcpy memset
		min max abs fabs fabsf exp expf exp2 exp2f log logf log2 log2f sqrt sqrtf rsqrt rsqrtf sin sinf cos cosf
		floor floorf ceil ceilf fmod fmodf fma fmaf fmax fmaxf fmin fminf pow powf
		e vec lane_id warp_id`) {
		m[s] = true
	}
	return m
}()

// namer hands out unique C names.
type namer struct {
	used map[string]bool
	// next is, per base name, the suffix to try first: every base_i below
	// it is taken already, and names are never released, so the search
	// resumes there rather than at 1. Without it a name bound N times (a
	// statically unrolled loop's body) costs O(N^2) probes.
	next map[string]int
}

func newNamer() *namer { return &namer{used: map[string]bool{}, next: map[string]int{}} }

// sanitize turns a source name into a C identifier that clashes with
// nothing reserved.
func sanitize(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || reserved[out] || strings.HasPrefix(out, "tri_") || strings.HasPrefix(out, "TRI_") ||
		strings.HasPrefix(out, "__") || isLayoutLocal(out) {
		out += "_"
	}
	return out
}

// isLayoutLocal reports whether s has the shape of a layout's locals
// (L0_base, L1_owner).
func isLayoutLocal(s string) bool {
	rest, ok := strings.CutPrefix(s, "L")
	if !ok {
		return false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	return digits > 0 && strings.HasPrefix(rest[digits:], "_")
}

// name returns a fresh C name based on the source name s.
func (n *namer) name(s string) string {
	base := sanitize(s)
	out := base
	i := max(n.next[base], 1)
	for ; n.used[out]; i++ {
		out = base + "_" + strconv.Itoa(i)
	}
	n.next[base] = i
	n.used[out] = true
	return out
}

// ptrRoot is the source name of the pointer a pointer value was computed
// from: a parameter, a Var, or a named value.
func ptrRoot(v *ir.Value) string {
	for {
		switch {
		case v.Op == ir.OpParam:
			return v.Param.Name
		case v.Op == ir.OpVarRead:
			return v.Var.Name
		case v.Name != "":
			return v.Name
		case (v.Op == ir.OpPtrAdd || v.Op == ir.OpMultipleOf || v.Op == ir.OpMaxContiguous || v.Op == ir.OpSplat) && len(v.Args) > 0:
			v = v.Args[0]
		default:
			return ""
		}
	}
}

// roleName names an unnamed value after what it is for, or "" if nothing
// better than t<ID> comes to mind.
func roleName(v *ir.Value, argName func(*ir.Value) string) string {
	switch v.Op {
	case ir.OpPtrAdd:
		if r := ptrRoot(v.Args[0]); r != "" {
			if strings.HasSuffix(r, "ptr") {
				return r + "s"
			}
			return r + "_ptrs"
		}
	case ir.OpLoad:
		if r := ptrRoot(v.Args[0]); r != "" {
			if s, ok := strings.CutSuffix(r, "_ptr"); ok && s != "" {
				return s
			}
			return r + "_val"
		}
	case ir.OpCast:
		if a := argName(v.Args[0]); a != "" {
			return a + "_" + v.Type.Kind.String()
		}
	case ir.OpReduce, ir.OpScan:
		if a := argName(v.Args[0]); a != "" {
			if v.Op == ir.OpScan {
				return a + "_cum" + v.Combine.String()
			}
			return a + "_" + v.Combine.String()
		}
	}
	return ""
}
