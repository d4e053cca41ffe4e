package frontend

// This file implements the conversion of gpython expressions to tri's AST.

import (
	"math/big"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// converter turns gpython nodes into tri nodes, placing them in file. Nodes
// on gpython's line 1 are shifted right by col0 columns (for expressions
// parsed out of a larger text); other lines are taken as they are.
type converter struct {
	file    string
	line0   int // added to every line
	col0    int // added to columns on the first line
	anns    map[[2]int]annotation
	aliases map[string]string
	rw      *rewrites // what modernize changed in the parsed text; may be nil
}

// pos converts a gpython position (1-based line, 0-based column).
func (c *converter) pos(p ast.Pos) diag.Pos {
	if p.Lineno <= 0 {
		return diag.Pos{File: c.file}
	}
	col := p.ColOffset + 1
	if p.Lineno == 1 {
		col += c.col0
	}
	return diag.Pos{File: c.file, Line: p.Lineno + c.line0, Col: col}
}

// posOr converts p, or returns fallback when gpython left p unset.
func (c *converter) posOr(p ast.Pos, fallback diag.Pos) diag.Pos {
	if p.Lineno <= 0 {
		return fallback
	}
	return c.pos(p)
}

var binOps = map[ast.OperatorNumber]string{
	ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Modulo: "%",
	ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|",
	ast.BitXor: "^", ast.BitAnd: "&", ast.FloorDiv: "//",
}

var unaryOps = map[ast.UnaryOpNumber]string{
	ast.Invert: "~", ast.Not: "not", ast.UAdd: "+", ast.USub: "-",
}

var cmpOps = map[ast.CmpOp]string{
	ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
	ast.GtE: ">=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}

// exprs converts a list of expressions.
func (c *converter) exprs(es []ast.Expr) []Expr {
	out := make([]Expr, 0, len(es))
	for _, e := range es {
		out = append(out, c.expr(e))
	}
	return out
}

// expr converts one expression; nil stays nil.
func (c *converter) expr(e ast.Expr) Expr {
	if e == nil {
		return nil
	}
	switch e := e.(type) {
	case *ast.Name:
		return &Name{At: At{c.pos(e.Pos)}, ID: string(e.Id)}
	case *ast.Num:
		return c.num(e)
	case *ast.Str:
		if run, ok := c.rw.fstring(e.Pos); ok {
			return c.fstring(run, c.pos(e.Pos))
		}
		return &Const{At: At{c.pos(e.Pos)}, Kind: ConstStr, Str: string(e.S)}
	case *ast.NameConstant:
		at := At{c.pos(e.Pos)}
		switch v := e.Value.(type) {
		case py.Bool:
			return &Const{At: at, Kind: ConstBool, Bool: bool(v)}
		case py.NoneType:
			return &Const{At: at, Kind: ConstNone}
		}
		return &BadExpr{At: at, What: "constant"}
	case *ast.Ellipsis:
		return &Const{At: At{c.pos(e.Pos)}, Kind: ConstEllipsis}
	case *ast.BinOp:
		return &Binary{At: At{c.pos(e.Pos)}, Op: binOps[e.Op], X: c.expr(e.Left), Y: c.expr(e.Right)}
	case *ast.UnaryOp:
		return &Unary{At: At{c.pos(e.Pos)}, Op: unaryOps[e.Op], X: c.expr(e.Operand)}
	case *ast.BoolOp:
		op := "and"
		if e.Op == ast.Or {
			op = "or"
		}
		return &BoolOp{At: At{c.pos(e.Pos)}, Op: op, Values: c.exprs(e.Values)}
	case *ast.Compare:
		if c.rw.isWalrus(e.Pos) {
			bad := &BadExpr{At: At{c.pos(e.Pos)}, What: "the walrus operator :="}
			if n, ok := c.expr(e.Left).(*Name); ok && len(e.Comparators) == 1 {
				bad.Target, bad.Value = n, c.expr(e.Comparators[0])
			}
			return bad
		}
		out := &Compare{At: At{c.pos(e.Pos)}, Left: c.expr(e.Left), Rights: c.exprs(e.Comparators)}
		for _, op := range e.Ops {
			out.Ops = append(out.Ops, cmpOps[op])
		}
		return out
	case *ast.Call:
		return c.call(e)
	case *ast.Attribute:
		x := c.expr(e.Value)
		return &Attribute{At: At{start(x, c.pos(e.Pos))}, X: x, Name: string(e.Attr)}
	case *ast.Subscript:
		x := c.expr(e.Value)
		return &Subscript{At: At{start(x, c.pos(e.Pos))}, X: x, Index: c.slicer(e.Slice, c.pos(e.Pos))}
	case *ast.Starred:
		return &Starred{At: At{c.pos(e.Pos)}, X: c.expr(e.Value)}
	case *ast.Tuple:
		return &Tuple{At: At{c.pos(e.Pos)}, Elts: c.exprs(e.Elts)}
	case *ast.List:
		return &List{At: At{c.pos(e.Pos)}, Elts: c.exprs(e.Elts)}
	case *ast.Dict:
		d := &Dict{At: At{c.pos(e.Pos)}, Keys: c.exprs(e.Keys), Values: c.exprs(e.Values)}
		for i, k := range e.Keys {
			if c.rw.isUnpack(k) {
				d.Keys[i] = nil
			}
		}
		return d
	case *ast.IfExp:
		return &IfExp{At: At{c.pos(e.Pos)}, Cond: c.expr(e.Test), Then: c.expr(e.Body), Else: c.expr(e.Orelse)}
	case *ast.Lambda:
		out := &Lambda{At: At{c.pos(e.Pos)}, Body: c.expr(e.Body)}
		if e.Args != nil {
			for _, a := range e.Args.Args {
				out.Params = append(out.Params, string(a.Arg))
			}
		}
		return out
	case *ast.Bytes:
		return &BadExpr{At: At{c.pos(e.Pos)}, What: "bytes literal"}
	case *ast.Set:
		return &BadExpr{At: At{c.pos(e.Pos)}, What: "set"}
	case *ast.ListComp:
		b := &BadExpr{At: At{c.pos(e.Pos)}, What: "list comprehension"}
		if len(e.Generators) > 0 {
			g := e.Generators[0]
			b.Comp = &ListComp{Elt: c.expr(e.Elt), Target: c.expr(g.Target), Iter: c.expr(g.Iter), Ifs: c.exprs(g.Ifs), More: len(e.Generators) > 1}
		}
		return b
	case *ast.SetComp:
		return &BadExpr{At: At{c.pos(e.Pos)}, What: "set comprehension"}
	case *ast.DictComp:
		return &BadExpr{At: At{c.pos(e.Pos)}, What: "dict comprehension"}
	case *ast.GeneratorExp:
		return &BadExpr{At: At{c.pos(e.Pos)}, What: "generator expression"}
	case *ast.Yield, *ast.YieldFrom:
		return &BadExpr{At: At{c.exprPos(e)}, What: "yield"}
	}
	return &BadExpr{At: At{c.exprPos(e)}, What: describe(e)}
}

// start returns the position of x, where a trailer (call, attribute,
// subscript) starts, or fallback if x has none. gpython places trailers at
// their '(', '.' or '['; tri places every expression at its first byte.
func start(x Expr, fallback diag.Pos) diag.Pos {
	if x != nil && x.Position().IsValid() {
		return x.Position()
	}
	return fallback
}

// exprPos returns the position of any gpython expression.
func (c *converter) exprPos(e ast.Expr) diag.Pos {
	if p, ok := e.(interface{ GetLineno() int }); ok {
		q := e.(interface{ GetColOffset() int })
		return c.pos(ast.Pos{Lineno: p.GetLineno(), ColOffset: q.GetColOffset()})
	}
	return diag.Pos{File: c.file}
}

// num converts a numeric literal.
func (c *converter) num(e *ast.Num) Expr {
	at := At{c.pos(e.Pos)}
	switch v := e.N.(type) {
	case py.Int:
		return &Const{At: at, Kind: ConstInt, Int: big.NewInt(int64(v))}
	case *py.BigInt:
		return &Const{At: at, Kind: ConstInt, Int: new(big.Int).Set((*big.Int)(v))}
	case py.Float:
		return &Const{At: at, Kind: ConstFloat, Float: float64(v)}
	case py.Complex:
		return &BadExpr{At: at, What: "complex literal"}
	}
	return &BadExpr{At: at, What: "number literal"}
}

// call converts a call, turning *args into a Starred argument.
func (c *converter) call(e *ast.Call) Expr {
	fn := c.expr(e.Func)
	out := &Call{At: At{start(fn, c.pos(e.Pos))}, Func: fn, Args: c.exprs(e.Args)}
	for i, a := range e.Args {
		if c.rw.isStarred(a) {
			out.Args[i] = &Starred{At: At{out.Args[i].Position()}, X: out.Args[i]}
		}
	}
	if e.Starargs != nil {
		x := c.expr(e.Starargs)
		out.Args = append(out.Args, &Starred{At: At{x.Position()}, X: x})
	}
	out.Keywords = c.keywords(e.Keywords)
	if e.Kwargs != nil {
		x := c.expr(e.Kwargs)
		out.Args = append(out.Args, &BadExpr{At: At{x.Position()}, What: "**kwargs argument", Unpacked: x})
	}
	return out
}

// keywords converts keyword arguments.
func (c *converter) keywords(ks []*ast.Keyword) []*Keyword {
	var out []*Keyword
	for _, k := range ks {
		v := c.expr(k.Value)
		pos := c.posOr(k.Pos, v.Position())
		out = append(out, &Keyword{Pos: pos, Name: string(k.Arg), Value: v})
	}
	return out
}

// slicer converts the inside of a subscript: an Index becomes its
// expression, a Slice a Slice, an ExtSlice a Tuple of those.
func (c *converter) slicer(s ast.Slicer, at diag.Pos) Expr {
	switch s := s.(type) {
	case *ast.Index:
		return c.expr(s.Value)
	case *ast.Slice:
		return &Slice{At: At{c.posOr(s.Pos, at)}, Lo: c.expr(s.Lower), Hi: c.expr(s.Upper), Step: c.expr(s.Step)}
	case *ast.ExtSlice:
		out := &Tuple{At: At{c.posOr(s.Pos, at)}}
		for _, d := range s.Dims {
			out.Elts = append(out.Elts, c.slicer(d, out.Pos))
		}
		return out
	}
	return &BadExpr{At: At{at}, What: "subscript"}
}
