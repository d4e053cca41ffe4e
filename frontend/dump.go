package frontend

// This file implements Dump and FormatExpr, the readable forms of the AST
// behind `tri check --dump=ast` and diagnostics.

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Dump writes the AST of f in a readable indented form (for `tri check
// --dump=ast`): aliases, globals, host functions and every @jit function
// with its statements, each with its line:col.
func Dump(w io.Writer, f *File) {
	d := &dumper{w: w}
	d.line("file %s", f.Name)
	names := make([]string, 0, len(f.Aliases))
	for k := range f.Aliases {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		d.line("  alias %s = %s", k, f.Aliases[k])
	}
	for _, g := range f.Globals {
		kind := "global"
		if g.Constexpr {
			kind = "constexpr global"
		}
		d.line("  %s %s = %s  @%s", kind, g.Name, FormatExpr(g.Value), at(g.Pos.Line, g.Pos.Col))
	}
	names = names[:0]
	for k := range f.Host {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if f.Host[k].Assign {
			d.line("  host %s = ...  @%d", k, f.Host[k].Pos.Line)
		} else {
			d.line("  host def %s  @%d", k, f.Host[k].Pos.Line)
		}
	}
	for _, fn := range f.Funcs {
		d.fn(fn)
	}
}

// dumper writes indented lines.
type dumper struct {
	w      io.Writer
	indent int
}

func (d *dumper) line(format string, args ...any) {
	fmt.Fprintf(d.w, "%s%s\n", strings.Repeat("  ", d.indent), fmt.Sprintf(format, args...))
}

func at(line, col int) string { return fmt.Sprintf("%d:%d", line, col) }

func (d *dumper) fn(fn *Func) {
	d.indent = 1
	d.line("jit def %s  @%s", fn.Name, at(fn.Pos.Line, fn.Pos.Col))
	d.indent++
	for _, dc := range fn.Decorators {
		s := dc.Name
		if dc.Call {
			s += "(" + formatArgs(dc.Args, dc.Keywords) + ")"
		}
		d.line("decorator %s", s)
	}
	if len(fn.DoNotSpecialize) > 0 {
		d.line("do_not_specialize %s", strings.Join(fn.DoNotSpecialize, ", "))
	}
	for _, p := range fn.Params {
		s := p.Name
		if p.Annotation != nil {
			s += ": " + FormatExpr(p.Annotation)
		}
		if p.Default != nil {
			s += " = " + FormatExpr(p.Default)
		}
		if p.Constexpr {
			s += "  [constexpr]"
		}
		d.line("param %s  @%s", s, at(p.Pos.Line, p.Pos.Col))
	}
	d.stmts(fn.Body)
}

func (d *dumper) stmts(ss []Stmt) {
	for _, s := range ss {
		d.stmt(s)
	}
}

func (d *dumper) block(head string, s Stmt, body []Stmt) {
	p := s.Position()
	d.line("%s  @%s", head, at(p.Line, p.Col))
	d.indent++
	d.stmts(body)
	d.indent--
}

func (d *dumper) stmt(s Stmt) {
	p := s.Position()
	pos := "  @" + at(p.Line, p.Col)
	switch s := s.(type) {
	case *Assign:
		var parts []string
		for _, t := range s.Targets {
			parts = append(parts, FormatExpr(t))
		}
		extra := ""
		if s.Annotation != nil {
			extra = "  [annotated " + FormatExpr(s.Annotation) + "]"
		}
		if s.Constexpr {
			extra += "  [constexpr]"
		}
		d.line("%s = %s%s%s", strings.Join(parts, " = "), FormatExpr(s.Value), pos, extra)
	case *AugAssign:
		d.line("%s %s= %s%s", FormatExpr(s.Target), s.Op, FormatExpr(s.Value), pos)
	case *ExprStmt:
		d.line("%s%s", FormatExpr(s.X), pos)
	case *If:
		d.block("if "+FormatExpr(s.Cond)+":", s, s.Then)
		if s.Else != nil {
			d.line("else:")
			d.indent++
			d.stmts(s.Else)
			d.indent--
		}
	case *For:
		d.block("for "+FormatExpr(s.Target)+" in "+FormatExpr(s.Iter)+":", s, s.Body)
		if s.Else != nil {
			d.line("else:")
			d.indent++
			d.stmts(s.Else)
			d.indent--
		}
	case *While:
		d.block("while "+FormatExpr(s.Cond)+":", s, s.Body)
		if s.Else != nil {
			d.line("else:")
			d.indent++
			d.stmts(s.Else)
			d.indent--
		}
	case *Return:
		if s.Value == nil {
			d.line("return%s", pos)
		} else {
			d.line("return %s%s", FormatExpr(s.Value), pos)
		}
	case *Pass:
		d.line("pass%s", pos)
	case *Break:
		d.line("break%s", pos)
	case *Continue:
		d.line("continue%s", pos)
	case *Assert:
		msg := ""
		if s.Msg != nil {
			msg = ", " + FormatExpr(s.Msg)
		}
		d.line("assert %s%s%s", FormatExpr(s.Test), msg, pos)
	case *Unsupported:
		d.line("<unsupported %s>%s", s.What, pos)
	default:
		d.line("<%T>%s", s, pos)
	}
}

// FormatExpr renders e as Python source (fully parenthesized where
// precedence could be in doubt), for dumps and messages.
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Name:
		b.WriteString(e.ID)
	case *Const:
		b.WriteString(formatConst(e))
	case *Binary:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Y)
		b.WriteString(")")
	case *Unary:
		b.WriteString("(" + e.Op)
		if e.Op == "not" {
			b.WriteString(" ")
		}
		writeExpr(b, e.X)
		b.WriteString(")")
	case *BoolOp:
		b.WriteString("(")
		for i, v := range e.Values {
			if i > 0 {
				b.WriteString(" " + e.Op + " ")
			}
			writeExpr(b, v)
		}
		b.WriteString(")")
	case *Compare:
		b.WriteString("(")
		writeExpr(b, e.Left)
		for i, op := range e.Ops {
			b.WriteString(" " + op + " ")
			if i < len(e.Rights) {
				writeExpr(b, e.Rights[i])
			}
		}
		b.WriteString(")")
	case *Call:
		writeExpr(b, e.Func)
		b.WriteString("(" + formatArgs(e.Args, e.Keywords) + ")")
	case *Attribute:
		writeExpr(b, e.X)
		b.WriteString("." + e.Name)
	case *Subscript:
		writeExpr(b, e.X)
		b.WriteString("[")
		if t, ok := e.Index.(*Tuple); ok && len(t.Elts) > 0 {
			writeList(b, t.Elts)
		} else {
			writeExpr(b, e.Index)
		}
		b.WriteString("]")
	case *Slice:
		if e.Lo != nil {
			writeExpr(b, e.Lo)
		}
		b.WriteString(":")
		if e.Hi != nil {
			writeExpr(b, e.Hi)
		}
		if e.Step != nil {
			b.WriteString(":")
			writeExpr(b, e.Step)
		}
	case *Tuple:
		b.WriteString("(")
		writeList(b, e.Elts)
		if len(e.Elts) == 1 {
			b.WriteString(",")
		}
		b.WriteString(")")
	case *List:
		b.WriteString("[")
		writeList(b, e.Elts)
		b.WriteString("]")
	case *Dict:
		b.WriteString("{")
		for i := range e.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if e.Keys[i] == nil {
				b.WriteString("**")
			} else {
				writeExpr(b, e.Keys[i])
				b.WriteString(": ")
			}
			if i < len(e.Values) {
				writeExpr(b, e.Values[i])
			}
		}
		b.WriteString("}")
	case *IfExp:
		b.WriteString("(")
		writeExpr(b, e.Then)
		b.WriteString(" if ")
		writeExpr(b, e.Cond)
		b.WriteString(" else ")
		writeExpr(b, e.Else)
		b.WriteString(")")
	case *Lambda:
		b.WriteString("(lambda")
		if len(e.Params) > 0 {
			b.WriteString(" " + strings.Join(e.Params, ", "))
		}
		b.WriteString(": ")
		writeExpr(b, e.Body)
		b.WriteString(")")
	case *FString:
		b.WriteString("f'")
		for _, pt := range e.Parts {
			if pt.X == nil {
				b.WriteString(strings.NewReplacer("{", "{{", "}", "}}", "'", "\\'").Replace(pt.Lit))
				continue
			}
			b.WriteString("{")
			writeExpr(b, pt.X)
			if pt.Conv != "" {
				b.WriteString("!" + pt.Conv)
			}
			if pt.Spec != "" {
				b.WriteString(":" + pt.Spec)
			}
			b.WriteString("}")
		}
		b.WriteString("'")
	case *Starred:
		b.WriteString("*")
		writeExpr(b, e.X)
	case *BadExpr:
		b.WriteString("<unsupported " + e.What + ">")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

func writeList(b *strings.Builder, es []Expr) {
	for i, x := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x)
	}
}

func formatArgs(args []Expr, kws []*Keyword) string {
	var b strings.Builder
	writeList(&b, args)
	for i, k := range kws {
		if i > 0 || len(args) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Name + "=")
		writeExpr(&b, k.Value)
	}
	return b.String()
}

func formatConst(c *Const) string {
	switch c.Kind {
	case ConstInt:
		if c.Int == nil {
			return "0"
		}
		return c.Int.String()
	case ConstFloat:
		s := strconv.FormatFloat(c.Float, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return s
	case ConstStr:
		return strconv.Quote(c.Str)
	case ConstBool:
		if c.Bool {
			return "True"
		}
		return "False"
	case ConstNone:
		return "None"
	}
	return "..."
}
