package aot

// This file implements the --grid expressions: parsing them against the
// kernel's parameters and printing them as C.
//
// Triton's AOT compiler pastes its --grid text into the C launcher as it is,
// so a typo surfaces as a C compiler error in a generated file. tri parses
// the text instead, so that an error points at the --grid text, and prints
// C that cannot go wrong at run time: the arithmetic is in int64_t (no
// int32_t product overflows), and a divisor must be a positive constant (a
// literal or a constexpr parameter), so no launch divides by zero.
//
// A grid is one to three comma-separated expressions, optionally inside
// parentheses as a Python tuple; missing dimensions are 1. An expression
// is made of integer literals, the kernel's integer runtime parameters,
// its constexpr and :1 parameters (folded to their values, which Triton's
// pasted C cannot name), + - * / // % and parentheses, and the calls
// cdiv(a, b) (also triton.cdiv, tl.cdiv), min(a, b) and max(a, b). Division
// is C's, truncating, as in Triton's C grid; for the non-negative values a
// grid has it is Python's floor division too.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
)

// gridSource names the --grid text in diagnostics.
const gridSource = "--grid"

// gridName is what a name in a grid expression stands for: a runtime
// integer parameter of the launcher (c, its C name), a folded constant
// (value), or, where why is set, a parameter the grid cannot use.
type gridName struct {
	c     string
	cType string
	value int64
	why   string
}

// gexpr is a node of a parsed grid expression. Constant subexpressions
// are folded as they are parsed, so a node is a literal, a parameter, or
// an operation with at least one operand that is not constant.
type gexpr struct {
	op    string // "lit", "param", "+", "-", "*", "/", "%", "neg", "cdiv", "min", "max"
	value int64  // of a "lit"
	c     string // C name of a "param"
	cType string // its C type
	x, y  *gexpr
}

func (e *gexpr) isLit() bool { return e.op == "lit" }

// grid is a parsed --grid: three dimensions and the helpers their C calls.
type grid struct {
	dims [3]*gexpr
	// text is the --grid text on one line, in parentheses as a tuple
	// (for comments).
	text string
}

// helpers are the static C functions the grid's C calls, sorted.
func (g *grid) helpers() []string {
	seen := map[string]bool{}
	var walk func(e *gexpr)
	walk = func(e *gexpr) {
		if e == nil {
			return
		}
		switch e.op {
		case "cdiv", "min", "max":
			seen[e.op] = true
		}
		walk(e.x)
		walk(e.y)
	}
	for _, d := range g.dims {
		walk(d)
	}
	var out []string
	for h := range seen {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// gtoken is one token of a grid expression.
type gtoken struct {
	kind string // "int", "name", "op", "eof"
	text string
	col  int // 1-based
	val  int64
}

func gridErr(col int, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(diag.Pos{File: gridSource, Line: 1, Col: col}, diag.CodeLaunch, format, args...)
}

func lexGrid(s string) ([]gtoken, error) {
	var out []gtoken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(s[i:j], "_", ""), 0, 64)
			if err != nil {
				return nil, gridErr(i+1, "%q is not an integer the grid can use (a grid has whole numbers of programs)", s[i:j])
			}
			out = append(out, gtoken{kind: "int", text: s[i:j], col: i + 1, val: v})
			i = j
		case isIdentByte(c):
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			out = append(out, gtoken{kind: "name", text: s[i:j], col: i + 1})
			i = j
		case strings.HasPrefix(s[i:], "//"):
			out = append(out, gtoken{kind: "op", text: "//", col: i + 1})
			i += 2
		case strings.IndexByte("+-*/%(),", c) >= 0:
			out = append(out, gtoken{kind: "op", text: string(c), col: i + 1})
			i++
		default:
			return nil, gridErr(i+1, "unexpected %q in the grid (it takes integers, the kernel's integer parameters, + - * / %% and cdiv, min, max)", string(c))
		}
	}
	return append(out, gtoken{kind: "eof", col: len(s) + 1}), nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// gridParser parses one --grid text.
type gridParser struct {
	toks  []gtoken
	pos   int
	names map[string]gridName
}

func (p *gridParser) peek() gtoken { return p.toks[p.pos] }

func (p *gridParser) next() gtoken {
	t := p.toks[p.pos]
	if t.kind != "eof" {
		p.pos++
	}
	return t
}

func (p *gridParser) isOp(text string) bool {
	t := p.peek()
	return t.kind == "op" && t.text == text
}

func (p *gridParser) expect(text, what string) error {
	if !p.isOp(text) {
		return gridErr(p.peek().col, "expected %q %s, found %s", text, what, describe(p.peek()))
	}
	p.next()
	return nil
}

func describe(t gtoken) string {
	if t.kind == "eof" {
		return "the end of the grid"
	}
	return strconv.Quote(t.text)
}

// parseGrid reads text against the kernel's names.
func parseGrid(text string, names map[string]gridName) (*grid, error) {
	toks, err := lexGrid(text)
	if err != nil {
		return nil, err
	}
	if toks[0].kind == "eof" {
		return nil, gridErr(1, "the grid is empty; give one to three expressions, e.g. --grid 'cdiv(n, 1024), 1, 1'")
	}
	p := &gridParser{toks: toks, names: names}
	// A grid written as a Python tuple, (x, y), loses its parentheses;
	// (n + 1) / 2 keeps them, as its closing parenthesis is not the last
	// token or holds no comma.
	shown := "(" + oneLine(text) + ")"
	if close := p.tupleClose(); close > 0 {
		p.toks = append(append([]gtoken{}, toks[1:close]...), toks[close+1:]...)
		shown = oneLine(text)
	}
	var dims []*gexpr
	var cols []int
	for {
		if p.peek().kind == "eof" && len(dims) > 0 {
			break // a trailing comma, as in (n,)
		}
		cols = append(cols, p.peek().col)
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		dims = append(dims, e)
		if p.peek().kind == "eof" {
			break
		}
		if err := p.expect(",", "between the grid's dimensions"); err != nil {
			return nil, err
		}
	}
	if len(dims) > 3 {
		return nil, gridErr(cols[3], "a grid has at most three dimensions, this one has %d", len(dims))
	}
	g := &grid{text: shown}
	for i := range g.dims {
		g.dims[i] = &gexpr{op: "lit", value: 1}
		if i < len(dims) {
			g.dims[i] = dims[i]
		}
	}
	for i, d := range dims {
		limit := int64(maxGridYZ)
		if i == 0 {
			limit = maxGridX
		}
		switch {
		case d.isLit() && d.value <= 0:
			return nil, gridErr(cols[i], "grid dimension %d is %d: no program would run", i, d.value)
		case d.isLit() && d.value > limit:
			return nil, gridErr(cols[i], "grid dimension %d is %d, more than CUDA's %d", i, d.value, limit)
		}
	}
	return g, nil
}

// tupleClose is the index of the token closing a leading parenthesis
// that encloses the whole text and a comma at its own level, else 0.
func (p *gridParser) tupleClose() int {
	if !p.isOp("(") {
		return 0
	}
	depth, comma := 0, false
	for i, t := range p.toks {
		if t.kind != "op" {
			continue
		}
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				if comma && p.toks[i+1].kind == "eof" {
					return i
				}
				return 0
			}
		case ",":
			comma = comma || depth == 1
		}
	}
	return 0
}

func (p *gridParser) expr() (*gexpr, error) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.next()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		if x, err = binary(op, x, y); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (p *gridParser) term() (*gexpr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") || p.isOp("//") || p.isOp("%") {
		op := p.next()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		if x, err = binary(op, x, y); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (p *gridParser) unary() (*gexpr, error) {
	switch {
	case p.isOp("-"):
		op := p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if x.isLit() {
			if x.value == math.MinInt64 {
				return nil, gridErr(op.col, "the grid's arithmetic overflows int64")
			}
			return &gexpr{op: "lit", value: -x.value}, nil
		}
		return &gexpr{op: "neg", x: x}, nil
	case p.isOp("+"):
		p.next()
		return p.unary()
	}
	return p.primary()
}

func (p *gridParser) primary() (*gexpr, error) {
	t := p.next()
	switch t.kind {
	case "int":
		return &gexpr{op: "lit", value: t.val}, nil
	case "name":
		if p.isOp("(") {
			return p.call(t)
		}
		n, ok := p.names[t.text]
		switch {
		case !ok:
			return nil, gridErr(t.col, "unknown name %s in the grid; it may use %s", t.text, p.usable())
		case n.why != "":
			return nil, gridErr(t.col, "%s in the grid: %s", t.text, n.why)
		case n.c == "":
			return &gexpr{op: "lit", value: n.value}, nil
		}
		return &gexpr{op: "param", c: n.c, cType: n.cType}, nil
	case "op":
		if t.text == "(" {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")", "to close the parenthesis"); err != nil {
				return nil, err
			}
			return e, nil
		}
	}
	return nil, gridErr(t.col, "expected a number, a parameter or a parenthesis in the grid, found %s", describe(t))
}

// usable lists the names a grid may use, for an unknown name's message.
func (p *gridParser) usable() string {
	var params, consts []string
	for name, n := range p.names {
		switch {
		case n.why != "":
		case n.c != "":
			params = append(params, name)
		default:
			consts = append(consts, name)
		}
	}
	sort.Strings(params)
	sort.Strings(consts)
	var parts []string
	if len(params) > 0 {
		parts = append(parts, "the integer parameters "+strings.Join(params, ", "))
	}
	if len(consts) > 0 {
		parts = append(parts, "the constants "+strings.Join(consts, ", "))
	}
	parts = append(parts, "integers and cdiv, min, max")
	return strings.Join(parts, "; ")
}

// call parses cdiv(a, b), min(a, b) or max(a, b) after the name fn.
func (p *gridParser) call(fn gtoken) (*gexpr, error) {
	var op string
	switch fn.text {
	case "cdiv", "triton.cdiv", "tl.cdiv":
		op = "cdiv"
	case "min", "max":
		op = fn.text
	default:
		return nil, gridErr(fn.col, "the grid cannot call %s; it knows cdiv(a, b), min(a, b) and max(a, b)", fn.text)
	}
	p.next() // (
	var args []*gexpr
	for !p.isOp(")") {
		if len(args) > 0 {
			if err := p.expect(",", "between the arguments of "+fn.text); err != nil {
				return nil, err
			}
		}
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	p.next() // )
	if len(args) != 2 {
		return nil, gridErr(fn.col, "%s takes 2 arguments, got %d", fn.text, len(args))
	}
	x, y := args[0], args[1]
	switch op {
	case "cdiv":
		if err := positiveDivisor(fn, y); err != nil {
			return nil, err
		}
		if x.isLit() {
			// (x + y - 1) / y without overflowing near the top of int64.
			q := x.value / y.value
			if x.value%y.value > 0 {
				q++
			}
			return &gexpr{op: "lit", value: q}, nil
		}
	case "min", "max":
		if x.isLit() && y.isLit() {
			v := min(x.value, y.value)
			if op == "max" {
				v = max(x.value, y.value)
			}
			return &gexpr{op: "lit", value: v}, nil
		}
	}
	return &gexpr{op: op, x: x, y: y}, nil
}

// positiveDivisor refuses a divisor that is not a positive constant.
func positiveDivisor(op gtoken, y *gexpr) error {
	if !y.isLit() {
		return gridErr(op.col, "the grid divides by a runtime parameter; it may divide only by a positive integer or constexpr, so that no launch divides by zero")
	}
	if y.value <= 0 {
		return gridErr(op.col, "the grid divides by %d; a divisor must be positive", y.value)
	}
	return nil
}

// binary folds or builds x op y.
func binary(op gtoken, x, y *gexpr) (*gexpr, error) {
	name := op.text
	if name == "//" {
		name = "/"
	}
	if name == "/" || name == "%" {
		if err := positiveDivisor(op, y); err != nil {
			return nil, err
		}
	}
	if !x.isLit() || !y.isLit() {
		// A :1 stride or a constexpr of 1 or 0 leaves no trace in the C.
		switch {
		case (name == "*" || name == "/") && y.isLit() && y.value == 1,
			(name == "+" || name == "-") && y.isLit() && y.value == 0:
			return x, nil
		case name == "*" && x.isLit() && x.value == 1, name == "+" && x.isLit() && x.value == 0:
			return y, nil
		}
		return &gexpr{op: name, x: x, y: y}, nil
	}
	a, b := x.value, y.value
	var v int64
	ok := true
	switch name {
	case "+":
		v = a + b
		ok = (b >= 0) == (v >= a)
	case "-":
		v = a - b
		ok = (b >= 0) == (v <= a)
	case "*":
		v = a * b
		ok = a == 0 || v/a == b && !(a == -1 && b == math.MinInt64)
	case "/":
		v = a / b
	case "%":
		v = a % b
	}
	if !ok {
		return nil, gridErr(op.col, "the grid's arithmetic overflows int64 (%d %s %d)", a, op.text, b)
	}
	return &gexpr{op: "lit", value: v}, nil
}

// C precedence levels of printed expressions.
const (
	precAdd = iota + 1
	precMul
	precUnary
	precAtom
)

// cExpr prints e as C of type int64_t.
func (e *gexpr) cExpr() string {
	s, _ := e.print()
	return s
}

func (e *gexpr) print() (string, int) {
	switch e.op {
	case "lit":
		return strconv.FormatInt(e.value, 10), precAtom
	case "param":
		if e.cType == "int64_t" {
			return e.c, precAtom
		}
		return "(int64_t)" + e.c, precUnary
	case "neg":
		x := e.x.operand(precUnary, false)
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")" // --x would be C's decrement
		}
		return "-" + x, precUnary
	case "cdiv", "min", "max":
		return fmt.Sprintf("tri_%s(%s, %s)", e.op, e.x.cExpr(), e.y.cExpr()), precAtom
	}
	prec := precAdd
	if e.op == "*" || e.op == "/" || e.op == "%" {
		prec = precMul
	}
	return e.x.operand(prec, false) + " " + e.op + " " + e.y.operand(prec, true), prec
}

// operand prints e as an operand of an operator of precedence prec,
// parenthesized where C would group it otherwise (a right operand of
// equal precedence too: a - (b - c)).
func (e *gexpr) operand(prec int, right bool) string {
	s, p := e.print()
	if p < prec || right && p == prec {
		return "(" + s + ")"
	}
	return s
}
