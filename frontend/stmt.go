package frontend

// This file implements the conversion of gpython statements to tri's AST.

import (
	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"
)

// stmts converts a statement list.
func (c *converter) stmts(ss []ast.Stmt) []Stmt {
	out := make([]Stmt, 0, len(ss))
	for _, s := range ss {
		out = append(out, c.stmt(s))
	}
	return out
}

// stmt converts one statement; kinds tri does not handle become
// Unsupported.
func (c *converter) stmt(s ast.Stmt) Stmt {
	switch s := s.(type) {
	case *ast.Assign:
		at := At{c.pos(s.Pos)}
		out := &Assign{At: at, Targets: c.exprs(s.Targets), Value: c.expr(s.Value)}
		if a, ok := c.anns[[2]int{at.Pos.Line, at.Pos.Col}]; ok {
			out.Annotation, out.Constexpr = c.annotationExpr(a)
		}
		return out
	case *ast.AugAssign:
		return &AugAssign{At: At{c.pos(s.Pos)}, Target: c.expr(s.Target), Op: binOps[s.Op], Value: c.expr(s.Value)}
	case *ast.ExprStmt:
		return &ExprStmt{At: At{c.pos(s.Pos)}, X: c.expr(s.Value)}
	case *ast.If:
		return &If{At: At{c.pos(s.Pos)}, Cond: c.expr(s.Test), Then: c.stmts(s.Body), Else: c.stmtsOrNil(s.Orelse)}
	case *ast.For:
		return &For{At: At{c.pos(s.Pos)}, Target: c.expr(s.Target), Iter: c.expr(s.Iter), Body: c.stmts(s.Body), Else: c.stmtsOrNil(s.Orelse)}
	case *ast.While:
		return &While{At: At{c.pos(s.Pos)}, Cond: c.expr(s.Test), Body: c.stmts(s.Body), Else: c.stmtsOrNil(s.Orelse)}
	case *ast.Return:
		return &Return{At: At{c.pos(s.Pos)}, Value: c.expr(s.Value)}
	case *ast.Pass:
		return &Pass{At{c.pos(s.Pos)}}
	case *ast.Break:
		return &Break{At{c.pos(s.Pos)}}
	case *ast.Continue:
		return &Continue{At{c.pos(s.Pos)}}
	case *ast.Assert:
		return &Assert{At: At{c.pos(s.Pos)}, Test: c.expr(s.Test), Msg: c.expr(s.Msg)}
	case *ast.FunctionDef:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "nested def"}
	case *ast.ClassDef:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "class definition"}
	case *ast.Delete:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "del statement"}
	case *ast.With:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "with statement"}
	case *ast.Raise:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "raise statement"}
	case *ast.Try:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "try statement"}
	case *ast.Import, *ast.ImportFrom:
		return &Unsupported{At: c.stmtPos(s), What: "import inside a function"}
	case *ast.Global:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "global statement"}
	case *ast.Nonlocal:
		return &Unsupported{At: At{c.pos(s.Pos)}, What: "nonlocal statement"}
	}
	return &Unsupported{At: c.stmtPos(s), What: describe(s) + " statement"}
}

// stmtsOrNil converts an else list, keeping nil for none.
func (c *converter) stmtsOrNil(ss []ast.Stmt) []Stmt {
	if len(ss) == 0 {
		return nil
	}
	return c.stmts(ss)
}

// stmtPos returns the position of any gpython statement.
func (c *converter) stmtPos(s ast.Stmt) At {
	p := ast.Pos{}
	if l, ok := s.(interface{ GetLineno() int }); ok {
		p.Lineno = l.GetLineno()
	}
	if o, ok := s.(interface{ GetColOffset() int }); ok {
		p.ColOffset = o.GetColOffset()
	}
	return At{c.pos(p)}
}

// annotationExpr parses the text of a blanked annotation and reports
// whether it means tl.constexpr. An annotation that does not parse is
// dropped (nil), as tri only looks at constexpr ones.
func (c *converter) annotationExpr(a annotation) (Expr, bool) {
	m, d := gpyParse(a.text, c.file, 0, py.EvalMode, c.pos(ast.Pos{}))
	if d != nil {
		return nil, false
	}
	ex, ok := m.(*ast.Expression)
	if !ok {
		return nil, false
	}
	sub := &converter{file: c.file, line0: a.aLine - 1, col0: a.aCol - 1, aliases: c.aliases}
	e := sub.expr(ex.Body)
	return e, isConstexprName(c.aliases, dottedName(e))
}
