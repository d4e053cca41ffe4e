package cudagen

// This file implements the naming of C locals after source names: clashes
// with C, C++ and CUDA names get a trailing underscore, and a name bound
// more than once gets _1, _2, ... in program order.

//go:generate go run ./internal/cudanames/gen -o cudanames.go -version $CUDA_VERSION -builtins $NVRTC_BUILTINS -include $CUDA_INCLUDE -libdevice $LIBDEVICE_LL

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// reserved are names a C name made from a source name must not take: C++
// keywords and alternative tokens, the names CUDA under NVRTC declares at
// global scope (cudaNames: a kernel named atomicAdd would overload the
// builtin, one named vprintf crashes NVRTC), and the emitter's own names.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`
		alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
		class co_await co_return co_yield compl concept const consteval constexpr constinit const_cast
		continue decltype default delete do double dynamic_cast else enum explicit export extern false
		float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr
		operator or or_eq private protected public register reinterpret_cast requires return short signed
		sizeof static static_assert static_cast struct switch template this thread_local throw true try
		typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
		main e vec lane_id warp_id`) {
		m[s] = true
	}
	for _, s := range cudaNames {
		m[s] = true
	}
	return m
}()

// ReservedNames returns, sorted, every name that the CUDA never gives a
// kernel, parameter or local named in the source: C++ keywords, the names
// CUDA under NVRTC declares at global scope and the emitter's own.
func ReservedNames() []string {
	out := make([]string, 0, len(reserved))
	for n := range reserved {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

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
	// Names that start with two underscores or with one and a capital are
	// the implementation's (CUDA's __nv_ and __shfl_, mangled _Z names).
	if out == "" || reserved[out] || strings.HasPrefix(out, "tri_") || strings.HasPrefix(out, "TRI_") ||
		strings.HasPrefix(out, "__") || len(out) > 1 && out[0] == '_' && out[1] >= 'A' && out[1] <= 'Z' || isLayoutLocal(out) {
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

// descName is the source name of descriptor d made in the kernel, which
// sema gives the values of its shape (a_desc_shape0), for the names of its
// maps.
func descName(d *ir.DescAccess) string {
	if name, ok := strings.CutSuffix(d.Shape[0].Name, "_shape0"); ok && name != "" {
		return name
	}
	return "desc"
}
