package frontend

// This file recognizes host functions that import a Triton module by name
// and return one of its attributes, such as
//
//	def libdevice_find(name):
//	    for loc in ("triton.language.extra.libdevice", "triton.language.math"):
//	        if spec := importlib.util.find_spec(loc):
//	            ...
//	            return getattr(module, name)
//
// which projects use to find libdevice across Triton versions. tri does not
// run such a function (host code that imports modules); it records which
// modules it tries, in order, so that a module-level rsqrt =
// libdevice_find("rsqrt") can stand for the attribute of the first module
// that a recent Triton has.

import (
	"strings"

	"github.com/go-python/gpython/ast"
)

// moduleGetter records fd in File.Getters when fd has one parameter,
// returns getattr(X, parameter) and names only Triton modules in its
// string constants.
func (p *fileParser) moduleGetter(fd *ast.FunctionDef) {
	a := fd.Args
	if a == nil || len(a.Args) != 1 || len(a.Kwonlyargs) > 0 || a.Vararg != nil || a.Kwarg != nil {
		return
	}
	param := string(a.Args[0].Arg)
	var paths []string
	returns, other := false, false
	for _, s := range fd.Body {
		ast.Walk(s, func(n ast.Ast) bool {
			switch x := n.(type) {
			case *ast.Str:
				if strings.HasPrefix(string(x.S), "triton.") && !strings.ContainsAny(string(x.S), " {}") {
					paths = append(paths, string(x.S))
				} else if _, doc := s.(*ast.ExprStmt); !doc {
					other = true // a message, or a module outside Triton
				}
			case *ast.Return:
				if isGetattrOf(x.Value, param) {
					returns = true
				} else if x.Value != nil {
					other = true
				}
			case *ast.Raise:
				return false // the failure when no module has the name
			case *ast.FunctionDef, *ast.Lambda, *ast.ClassDef:
				other = true
				return false
			}
			return true
		})
	}
	if !returns || other || len(paths) == 0 {
		return
	}
	if p.file.Getters == nil {
		p.file.Getters = map[string][]string{}
	}
	p.file.Getters[string(fd.Name)] = paths
}

// isGetattrOf reports whether e is getattr(X, param).
func isGetattrOf(e ast.Expr, param string) bool {
	c, ok := e.(*ast.Call)
	if !ok || len(c.Args) != 2 || len(c.Keywords) > 0 {
		return false
	}
	f, ok := c.Func.(*ast.Name)
	n, ok2 := c.Args[1].(*ast.Name)
	return ok && ok2 && f.Id == "getattr" && string(n.Id) == param
}
