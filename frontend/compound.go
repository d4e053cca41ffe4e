package frontend

// This file implements the descent into module-level if and try
// statements: their arms become Conds, and the statements of each arm are
// chunks handled as top-level ones (imports, @jit defs, assignments), with
// the arm recorded on every name they bind.
//
// An indented statement is parsed on its own by putting "if 1:" before it
// (see parseChunk), so columns stay those of the file.

import (
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// maxCondDepth bounds the nesting of module-level if/try statements that
// are read; deeper ones are host code.
const maxCondDepth = 8

// expand returns the chunks to handle, descending into if and try
// statements: their headers are read as Conds and their bodies split into
// chunks of their own. arm is the arm chunks sits in (nil at the top).
func (p *fileParser) expand(chunks []*chunk, arm *Arm, depth int) []*chunk {
	var out []*chunk
	for i := 0; i < len(chunks); i++ {
		c := chunks[i]
		c.arm = arm
		word := leadingIdent(strings.TrimLeft(c.first(p.text), " \t"))
		if (word != "if" && word != "try") || depth >= maxCondDepth {
			out = append(out, c)
			continue
		}
		group := []*chunk{c}
		for i+1 < len(chunks) && isContinuation(p.text, chunks[i+1]) {
			i++
			group = append(group, chunks[i])
		}
		cond := &Cond{Pos: p.at(c), Try: word == "try", Arm: arm}
		for _, g := range group {
			a := p.arm(cond, g)
			if a == nil {
				break
			}
			cond.Arms = append(cond.Arms, a)
			if len(g.lines) > 1 {
				out = append(out, p.expand(splitChunksAt(p.text, g.lines[1:], g.lines[1].indent), a, depth+1)...)
			}
		}
	}
	return out
}

// at is the position of a chunk's first line.
func (p *fileParser) at(c *chunk) diag.Pos {
	return diag.Pos{File: p.file.Name, Line: c.line, Col: c.indent + 1}
}

// arm reads the header of one arm of cond; nil if it cannot be read, which
// ends the statement's arms.
func (p *fileParser) arm(cond *Cond, c *chunk) *Arm {
	header := strings.TrimLeft(c.first(p.text), " \t")
	a := &Arm{Cond: cond, Pos: p.at(c)}
	switch word := leadingIdent(header); word {
	case "if", "elif":
		if cond.Try {
			return nil
		}
		a.Kind = ArmIf
		a.Test = p.armTest(c, word)
	case "else":
		a.Kind = ArmElse
		if cond.Try {
			a.Kind = ArmTryElse
		}
	case "try":
		a.Kind = ArmTry
	case "except":
		a.Kind = ArmExcept
		a.Catches = exceptNames(header[len(word):])
	case "finally":
		a.Kind = ArmFinally
	default:
		return nil
	}
	return a
}

// armTest parses the condition of an if or elif header. It returns a
// BadExpr where the condition does not parse: the arm is then undecided.
func (p *fileParser) armTest(c *chunk, word string) Expr {
	l := c.lines[0]
	text := p.text[l.start:l.end]
	kw := strings.Index(text, word)
	// "elif" becomes "  if", so the condition keeps its columns.
	src := text[:kw] + strings.Repeat(" ", len(word)-2) + "if" + text[kw+len(word):]
	src = strings.TrimLeft(strings.TrimRight(src, "\n"), " \t")
	pad := len(text) - len(strings.TrimLeft(text, " \t"))
	src = strings.Repeat(" ", pad) + src
	body := "\n" + strings.Repeat(" ", pad+1) + "pass\n"
	at := diag.Pos{File: p.file.Name, Line: c.line, Col: pad + 1}
	if pad > 0 {
		src = "if 1:\n" + src
	}
	line0 := c.line - 1
	if pad > 0 {
		line0--
	}
	src, rw := modernize(src) // (W := f()) > 2, 1_000
	m, d := gpyParse(src+body, p.file.Name, line0, py.ExecMode, at)
	if d != nil {
		return &BadExpr{At: At{at}, What: "this condition"}
	}
	mod, ok := m.(*ast.Module)
	if !ok || len(mod.Body) != 1 {
		return &BadExpr{At: At{at}, What: "this condition"}
	}
	s := mod.Body[0]
	if pad > 0 {
		outer, ok := s.(*ast.If)
		if !ok || len(outer.Body) != 1 {
			return &BadExpr{At: At{at}, What: "this condition"}
		}
		s = outer.Body[0]
	}
	ifs, ok := s.(*ast.If)
	if !ok {
		return &BadExpr{At: At{at}, What: "this condition"}
	}
	conv := &converter{file: p.file.Name, line0: line0, aliases: p.file.Aliases, rw: rw}
	return conv.expr(ifs.Test)
}

// exceptNames reads the exception names of an except header (the text
// after the keyword): "(ImportError, ModuleNotFoundError) as e:".
func exceptNames(rest string) []string {
	rest = strings.TrimSpace(rest)
	if i := strings.Index(rest, " as "); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSuffix(strings.TrimSpace(strings.SplitN(rest, ":", 2)[0]), ":")
	var out []string
	for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == '(' || r == ')' || r == ' ' || r == '\t' }) {
		if i := strings.LastIndexByte(f, '.'); i >= 0 {
			f = f[i+1:]
		}
		out = append(out, f)
	}
	return out
}

// dedupe drops repeated diagnostics: a @jit def inside a module-level if
// or try is parsed on its own and within the whole statement's syntax
// check, and both report its syntax error.
func dedupe(l *diag.List) *diag.List {
	seen := map[string]bool{}
	kept := l.Items[:0]
	for _, d := range l.Items {
		key := d.Pos.String() + "\x00" + d.Message
		if !seen[key] {
			seen[key] = true
			kept = append(kept, d)
		}
	}
	l.Items = kept
	return l
}
