package frontend

// This file implements import aliases and the resolution of dotted names
// through them.

import (
	"strings"

	"github.com/go-python/gpython/ast"
)

// modulePrefixes normalizes modules that are other spellings of the same
// namespace tri knows.
var modulePrefixes = []struct{ from, to string }{
	{"triton.language.extra.cuda.libdevice", "triton.language.extra.libdevice"},
	{"triton.language.core", "triton.language"},
}

// normalize rewrites known synonyms of a dotted name.
func normalize(dotted string) string {
	for _, p := range modulePrefixes {
		if dotted == p.from || strings.HasPrefix(dotted, p.from+".") {
			return p.to + dotted[len(p.from):]
		}
	}
	return dotted
}

// Resolve returns the full dotted name that dotted stands for under the
// file's import aliases: with "import triton.language as tl",
// Resolve("tl.arange") is "triton.language.arange". Names whose first part
// is not an alias are returned unchanged (after normalizing synonyms such as
// triton.language.core.X to triton.language.X).
func (f *File) Resolve(dotted string) string {
	return resolveName(f.Aliases, dotted)
}

// resolveName resolves dotted through aliases.
func resolveName(aliases map[string]string, dotted string) string {
	head, rest, _ := strings.Cut(dotted, ".")
	if m, ok := aliases[head]; ok {
		if rest == "" {
			dotted = m
		} else {
			dotted = m + "." + rest
		}
	}
	return normalize(dotted)
}

// annotationType is the type a parameter annotation gives, as Triton's
// KernelParam.annotation_type reads it (jit.py's _normalize_ty): a dtype
// of triton.language (tl.float16), a string naming one ("tl.uint8", "fp16",
// "*fp32": only a "tl." prefix is dropped), or the builtins int, float and
// bool (i32, fp32, u1). Anything else is "", an annotation Triton ignores.
func annotationType(aliases map[string]string, e Expr) string {
	var name string
	switch x := e.(type) {
	case *Const:
		if x.Kind != ConstStr {
			return ""
		}
		name = strings.TrimPrefix(strings.TrimSpace(x.Str), "tl.")
		if strings.HasPrefix(name, "*") {
			name = "*" + strings.TrimPrefix(strings.TrimSpace(name[1:]), "tl.")
		}
	default:
		dotted := dottedName(e)
		if dotted == "" {
			return ""
		}
		if _, aliased := aliases[dotted]; !aliased {
			switch dotted {
			case "int":
				return "i32"
			case "float":
				return "fp32"
			case "bool":
				return "u1"
			}
		}
		r := resolveName(aliases, dotted)
		if !strings.HasPrefix(r, "triton.language.") {
			return ""
		}
		name = strings.TrimPrefix(r, "triton.language.")
	}
	if p, ok := strings.CutPrefix(name, "*"); ok {
		if t := tritonTypeName(p); t != "" {
			return "*" + t
		}
		return ""
	}
	return tritonTypeName(name)
}

// tritonTypeName is Triton's canonical name of a scalar type name
// (_utils.py's type_canonicalisation_dict, after dropping "_t"), or "".
func tritonTypeName(s string) string {
	s = strings.ReplaceAll(s, "_t", "")
	if c, ok := tritonTypeNames[s]; ok {
		return c
	}
	for _, c := range tritonTypeNames {
		if c == s {
			return c
		}
	}
	return ""
}

var tritonTypeNames = map[string]string{
	"bool": "u1", "int1": "u1", "uint1": "u1", "i1": "u1",
	"float8e4nv": "fp8e4nv", "float8e5": "fp8e5", "float8e4b15": "fp8e4b15", "float8_e4m3fn": "fp8e4nv",
	"float8e4b8": "fp8e4b8", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2": "fp8e5", "float8e5b16": "fp8e5b16",
	"float8_e5m2fnuz": "fp8e5b16", "half": "fp16", "float16": "fp16", "bfloat16": "bf16", "float": "fp32",
	"float32": "fp32", "double": "fp64", "float64": "fp64",
	"int8": "i8", "int16": "i16", "int": "i32", "int32": "i32", "int64": "i64",
	"uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
}

// dottedName returns "a.b.c" for a Name or chain of Attributes, or "".
func dottedName(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.ID
	case *Attribute:
		if x := dottedName(e.X); x != "" {
			return x + "." + e.Name
		}
	}
	return ""
}

// isConstexprName reports whether the dotted name (an annotation or a
// callee) means triton.language.constexpr. A bare or tl-prefixed constexpr
// counts even without the import, as nothing else uses those names.
func isConstexprName(aliases map[string]string, dotted string) bool {
	switch dotted {
	case "constexpr", "tl.constexpr":
		return true
	}
	return resolveName(aliases, dotted) == "triton.language.constexpr"
}

// addImport records the aliases an import statement binds.
func addImport(aliases map[string]string, s ast.Stmt) {
	switch s := s.(type) {
	case *ast.Import:
		for _, a := range s.Names {
			name := string(a.Name)
			if a.AsName != "" {
				aliases[string(a.AsName)] = normalize(name)
				continue
			}
			head, _, _ := strings.Cut(name, ".")
			aliases[head] = head
		}
	case *ast.ImportFrom:
		if s.Level != 0 || s.Module == "" {
			return
		}
		for _, a := range s.Names {
			if a.Name == "*" {
				continue
			}
			local := string(a.AsName)
			if local == "" {
				local = string(a.Name)
			}
			aliases[local] = normalize(string(s.Module) + "." + string(a.Name))
		}
	}
}
