package survey

// This file implements the walks over a kernel's AST that the pointer
// search needs.

import "github.com/tri-lang/tri/frontend"

// walkStmts calls f on every statement of body, nested ones included.
func walkStmts(body []frontend.Stmt, f func(frontend.Stmt)) {
	for _, st := range body {
		f(st)
		switch st := st.(type) {
		case *frontend.If:
			walkStmts(st.Then, f)
			walkStmts(st.Else, f)
		case *frontend.For:
			walkStmts(st.Body, f)
			walkStmts(st.Else, f)
		case *frontend.While:
			walkStmts(st.Body, f)
			walkStmts(st.Else, f)
		}
	}
}

// walkExprs calls f on every expression of body, subexpressions included.
func walkExprs(body []frontend.Stmt, f func(frontend.Expr)) {
	walkStmts(body, func(st frontend.Stmt) {
		for _, x := range stmtExprs(st) {
			walkExpr(x, f)
		}
	})
}

// stmtExprs are the expressions a statement holds directly.
func stmtExprs(st frontend.Stmt) []frontend.Expr {
	switch st := st.(type) {
	case *frontend.Assign:
		return append(append([]frontend.Expr{}, st.Targets...), st.Value)
	case *frontend.AugAssign:
		return []frontend.Expr{st.Target, st.Value}
	case *frontend.ExprStmt:
		return []frontend.Expr{st.X}
	case *frontend.If:
		return []frontend.Expr{st.Cond}
	case *frontend.For:
		return []frontend.Expr{st.Target, st.Iter}
	case *frontend.While:
		return []frontend.Expr{st.Cond}
	case *frontend.Return:
		return []frontend.Expr{st.Value}
	case *frontend.Assert:
		return []frontend.Expr{st.Test, st.Msg}
	}
	return nil
}

// walkExpr calls f on x and every subexpression of x; nil is skipped.
func walkExpr(x frontend.Expr, f func(frontend.Expr)) {
	if x == nil {
		return
	}
	f(x)
	var subs []frontend.Expr
	switch x := x.(type) {
	case *frontend.Binary:
		subs = []frontend.Expr{x.X, x.Y}
	case *frontend.Unary:
		subs = []frontend.Expr{x.X}
	case *frontend.BoolOp:
		subs = x.Values
	case *frontend.Compare:
		subs = append([]frontend.Expr{x.Left}, x.Rights...)
	case *frontend.Call:
		subs = append([]frontend.Expr{x.Func}, x.Args...)
		for _, k := range x.Keywords {
			subs = append(subs, k.Value)
		}
	case *frontend.Attribute:
		subs = []frontend.Expr{x.X}
	case *frontend.Subscript:
		subs = []frontend.Expr{x.X, x.Index}
	case *frontend.Slice:
		subs = []frontend.Expr{x.Lo, x.Hi, x.Step}
	case *frontend.Tuple:
		subs = x.Elts
	case *frontend.List:
		subs = x.Elts
	case *frontend.Dict:
		subs = append(append([]frontend.Expr{}, x.Keys...), x.Values...)
	case *frontend.IfExp:
		subs = []frontend.Expr{x.Cond, x.Then, x.Else}
	case *frontend.Lambda:
		subs = []frontend.Expr{x.Body}
	case *frontend.Starred:
		subs = []frontend.Expr{x.X}
	case *frontend.FString:
		for _, p := range x.Parts {
			subs = append(subs, p.X)
		}
	}
	for _, s := range subs {
		walkExpr(s, f)
	}
}
