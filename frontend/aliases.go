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
