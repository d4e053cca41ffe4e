package frontend

// This file implements Python's normalisation of identifiers: the parser
// reads every identifier in NFKC form (PEP 3131), so OHM SIGN and GREEK
// CAPITAL LETTER OMEGA, or the ligature "ﬁ" and "fi", spell one name.
// gpython's parser keeps identifiers as written; every tree it returns is
// normalised here before anything reads a name from it, in kernels and
// module code alike. String literals are not identifiers and keep their
// characters.

import (
	"github.com/go-python/gpython/ast"
	"golang.org/x/text/unicode/norm"
)

// pyIdent is an identifier as Python reads it.
func pyIdent(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return norm.NFKC.String(s)
		}
	}
	return s
}

// normalizeIdents rewrites every identifier of a parsed tree in NFKC form.
func normalizeIdents(m ast.Ast) {
	id := func(p *ast.Identifier) {
		if s := string(*p); s != "" {
			*p = ast.Identifier(pyIdent(s))
		}
	}
	ast.Walk(m, func(n ast.Ast) bool {
		switch n := n.(type) {
		case *ast.Name:
			id(&n.Id)
		case *ast.Attribute:
			id(&n.Attr)
		case *ast.FunctionDef:
			id(&n.Name)
		case *ast.ClassDef:
			id(&n.Name)
		case *ast.Arg:
			id(&n.Arg)
		case *ast.Keyword:
			id(&n.Arg)
		case *ast.Alias:
			id(&n.Name)
			id(&n.AsName)
		case *ast.ImportFrom:
			id(&n.Module)
		case *ast.Global:
			for i := range n.Names {
				id(&n.Names[i])
			}
		case *ast.Nonlocal:
			for i := range n.Names {
				id(&n.Names[i])
			}
		case *ast.ExceptHandler:
			id(&n.Name)
		}
		return true
	})
}
