package frontend

// This file implements Parse: the walk over a file's top-level chunks.

import (
	"sort"
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
)

// chunkKind says what a top-level chunk is, judged by its first tokens.
type chunkKind int

const (
	kindSkip chunkKind = iota
	kindImport
	kindAssign
	kindDef
)

// hostDef is a parsed top-level def that is not (yet) known to be @jit.
type hostDef struct {
	def   *ast.FunctionDef
	conv  *converter
	pos   diag.Pos
	text  string // the chunk's text, whose first line is line line0+1
	line0 int
	arm   *Arm
}

// fileParser holds the state of one Parse call.
type fileParser struct {
	file     *File
	text     string // normalized source
	diags    *diag.List
	hostDefs map[string]*hostDef
	wrappers []*wrapper
	wrapped  map[string]bool // names that a jit wrapper applies to
	// unknown holds the warning about each unknown decorator, given once
	// per file at its first use.
	unknown map[string]*diag.Diagnostic
}

// Parse finds the @jit functions, imports, constexpr globals and host
// functions of one source file. It never panics; problems are diagnostics
// (errors for broken kernels, warnings for skipped decorators).
func Parse(name string, src []byte) (file *File, diags *diag.List) {
	file = &File{Name: name, Src: src, Aliases: map[string]string{}, Host: map[string]*HostFunc{}}
	file.mod = loneModule(file)
	diags = &diag.List{}
	defer func() {
		if r := recover(); r != nil {
			diags.Add(diag.Errorf(diag.Pos{File: name}, diag.CodeInternal, "internal error while parsing: %v", r))
		}
	}()
	p := &fileParser{
		file:     file,
		text:     normalizeSource(src),
		diags:    diags,
		hostDefs: map[string]*hostDef{},
		unknown:  map[string]*diag.Diagnostic{},
		wrapped:  map[string]bool{},
	}
	if d := checkEncoding(name, p.text); d != nil {
		diags.Add(d)
		return file, diags
	}
	if d := checkLimits(name, p.text); d != nil {
		diags.Add(d)
		return file, diags
	}
	lines := scanLogicalLines(p.text)
	if d := checkIndentation(name, p.text, lines); d != nil {
		diags.Add(d)
		return file, diags
	}
	top := splitChunks(p.text, lines)
	topKinds := make([]chunkKind, len(top))
	for i, c := range top {
		topKinds[i] = p.classify(c)
	}
	for _, c := range hostStatements(p.text, top, topKinds) {
		p.guard(c, p.checkHostSyntax)
	}
	chunks := p.expand(top, nil, 0)
	file.body, file.text = p.joinContinuations(chunks), p.text
	kinds := make([]chunkKind, len(chunks))
	for i, c := range chunks {
		kinds[i] = p.classify(c)
		if kinds[i] == kindImport {
			p.guard(c, p.importChunk)
		}
	}
	p.hostIfs(top) // after the imports: an if has_triton(): guard is known by the aliases
	for i, c := range chunks {
		switch {
		case kinds[i] == kindAssign:
			p.guard(c, p.assignChunk)
		case c.indent == 0 && isAugAssign(c.first(p.text)):
			p.guard(c, p.augAssignChunk)
		}
	}
	for i, c := range chunks {
		if kinds[i] == kindDef {
			p.guard(c, p.defChunk)
		}
	}
	p.applyWrappers()
	for name, hd := range p.hostDefs {
		p.bind(&Binding{Name: name, Pos: hd.pos}, hd.arm)
	}
	sort.SliceStable(file.Funcs, func(i, j int) bool { return file.Funcs[i].Pos.Before(file.Funcs[j].Pos) })
	sort.SliceStable(file.Scope, func(i, j int) bool { return file.Scope[i].Pos.Before(file.Scope[j].Pos) })
	file.sortHostStmts()
	return file, dedupe(diags)
}

// guard runs handle on c, turning a panic (a bug in tri) into an internal
// error placed at the chunk, so that one bad statement does not lose the
// rest of the file.
func (p *fileParser) guard(c *chunk, handle func(*chunk)) {
	defer func() {
		if r := recover(); r != nil {
			p.diags.Add(diag.Errorf(diag.Pos{File: p.file.Name, Line: c.line, Col: 1}, diag.CodeInternal,
				"internal error while parsing this statement: %v", r))
		}
	}()
	handle(c)
}

// normalizeSource drops a byte order mark and turns CRLF and lone CR line
// ends into LF, which keeps every line and column where it was.
func normalizeSource(src []byte) string {
	s := strings.TrimPrefix(string(src), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// classify decides what a chunk is from its first tokens.
func (p *fileParser) classify(c *chunk) chunkKind {
	first := strings.TrimLeft(c.first(p.text), " \t")
	if strings.HasPrefix(first, "@") {
		if _, ok := p.defLine(c); ok {
			return kindDef
		}
		return kindSkip
	}
	word := leadingIdent(first)
	switch word {
	case "def":
		return kindDef
	case "import", "from":
		return kindImport
	case "":
		return kindSkip
	}
	if pythonKeywords[word] {
		return kindSkip
	}
	rest := strings.TrimLeft(first[len(word):], " \t")
	switch {
	case strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=="):
		return kindAssign
	case strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":="):
		return kindAssign
	}
	return kindSkip
}

// leadingIdent returns the identifier at the start of s, or "".
func leadingIdent(s string) string {
	i := 0
	for i < len(s) && isIdentByte(s[i], i > 0) {
		i++
	}
	return s[:i]
}

// defLine returns the logical line of a chunk that holds its def keyword.
func (p *fileParser) defLine(c *chunk) (logicalLine, bool) {
	for _, l := range c.lines {
		if l.indent != c.indent {
			break
		}
		s := p.text[l.start+l.indent : l.end]
		if strings.HasPrefix(s, "@") {
			continue
		}
		if leadingIdent(s) == "def" {
			return l, true
		}
		break
	}
	return logicalLine{}, false
}

// parseChunk parses a chunk (with annotations blanked) as a module of one
// statement. It also returns the blanked text that was parsed. An indented
// chunk (inside a module-level if or try) is parsed under "if 1:", which
// keeps its columns.
func (p *fileParser) parseChunk(c *chunk) (ast.Stmt, *converter, string, *diag.Diagnostic) {
	text, anns := blankAnnotations(p.text, c)
	text, rw := modernize(text)
	line0 := c.line - 1
	src := text
	if c.indent > 0 {
		src, line0 = "if 1:\n"+text, line0-1
	}
	conv := &converter{file: p.file.Name, line0: line0, aliases: p.file.Aliases, anns: map[[2]int]annotation{}, rw: rw}
	for _, a := range anns {
		conv.anns[[2]int{a.line, a.col}] = a
	}
	at := p.at(c)
	m, d := gpyParse(src, p.file.Name, line0, py.ExecMode, at)
	if d != nil {
		return nil, nil, "", d
	}
	mod, ok := m.(*ast.Module)
	if !ok || len(mod.Body) != 1 {
		return nil, nil, "", diag.Errorf(at, diag.CodeSyntax, "syntax error: expected one top-level statement")
	}
	s := mod.Body[0]
	if c.indent > 0 {
		outer, ok := s.(*ast.If)
		if !ok || len(outer.Body) != 1 {
			return nil, nil, "", diag.Errorf(at, diag.CodeSyntax, "syntax error: expected one statement")
		}
		s = outer.Body[0]
	}
	return s, conv, rw.restoreFStrings(rw.restoreUnpacks(text)), nil
}

// importChunk records the aliases of an import statement.
func (p *fileParser) importChunk(c *chunk) {
	s, _, _, d := p.parseChunk(c)
	if d != nil {
		p.hostError(c, d)
		return
	}
	addImport(p.file.Aliases, s)
	p.imports(s, c)
}

// defChunk handles a (possibly decorated) top-level def.
func (p *fileParser) defChunk(c *chunk) {
	dl, _ := p.defLine(c)
	name := pyIdent(leadingIdent(strings.TrimLeft(p.text[dl.start+dl.indent+3:dl.end], " \t")))
	defPos := diag.Pos{File: p.file.Name, Line: dl.line, Col: dl.indent + 1}
	s, conv, text, d := p.parseChunk(c)
	if d != nil {
		if p.looksJit(c, name) {
			p.diags.Add(d)
		} else {
			p.hostError(c, d)
		}
		return
	}
	fd, ok := s.(*ast.FunctionDef)
	if !ok {
		return
	}
	decos := conv.decorators(fd.DecoratorList)
	setArgsText(decos, text, c.line-1)
	if !hasJit(decos) && hasDecorator(decos, constexprFunction) {
		p.constexprFunc(fd, conv, defPos, name, c.arm)
		if c.indent == 0 && !conv.rw.changesHostMeaning() { // host code may call it too
			p.addHost(&HostFunc{Name: name, Pos: defPos, Source: text[dl.start-c.start:]})
		}
		return
	}
	if !hasJit(decos) {
		p.hostDefs[name] = &hostDef{def: fd, conv: conv, pos: defPos, text: text, line0: c.line - 1, arm: c.arm}
		p.nestedJit(fd, conv, text, c.line-1, nil, nil)
		if c.indent == 0 {
			p.moduleGetter(fd)
		}
		if c.indent == 0 && !conv.rw.changesHostMeaning() {
			// Host functions run in gpython's interpreter, which would
			// read the rewritten text differently.
			p.addHost(&HostFunc{Name: name, Pos: defPos, Source: text[dl.start-c.start:]})
		}
		return
	}
	fn := p.makeFunc(fd, conv, defPos, name, decos)
	p.file.Funcs = append(p.file.Funcs, fn)
	p.bind(&Binding{Name: name, Pos: defPos, Func: fn}, c.arm)
}

// addHost records a host definition unless a later one of the same name is
// already known (chunks are visited by kind, not in source order).
func (p *fileParser) addHost(h *HostFunc) {
	p.file.HostStmts = append(p.file.HostStmts, h)
	if old, ok := p.file.Host[h.Name]; ok && h.Pos.Before(old.Pos) {
		return
	}
	p.file.Host[h.Name] = h
}

// looksJit reports, from the text alone, whether a def that failed to parse
// was meant to be a @jit function.
func (p *fileParser) looksJit(c *chunk, name string) bool {
	if p.wrapped[name] {
		return true
	}
	for _, l := range c.lines {
		s := p.text[l.start+l.indent : l.end]
		if l.indent != c.indent || !strings.HasPrefix(s, "@") {
			break
		}
		dotted := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, s[1:])
		end := 0
		for end < len(dotted) && (isIdentByte(dotted[end], true) || dotted[end] == '.') {
			end++
		}
		if p.decoratorName(dotted[:end]) == "triton.jit" {
			return true
		}
	}
	return false
}

// makeFunc builds a Func from a parsed def.
func (p *fileParser) makeFunc(fd *ast.FunctionDef, conv *converter, pos diag.Pos, name string, decos []*Decorator) *Func {
	fn := &Func{Name: name, Pos: pos, File: p.file}
	for _, dc := range decos {
		if knownDecorators[dc.Name] {
			fn.Decorators = append(fn.Decorators, dc)
			continue
		}
		what := dc.Name
		if what == "" {
			what = "expression"
		}
		if d, ok := p.unknown[what]; ok {
			if dc.Pos.Before(d.Pos) {
				d.Pos = dc.Pos // defs are read by kind, not in source order
			}
			continue
		}
		d := diag.Warnf(dc.Pos, diag.CodeUnsupported, "unknown decorator %s skipped (wherever this file uses it)", what)
		p.unknown[what] = d
		p.diags.Add(d)
	}
	if a := fd.Args; a != nil {
		nDef := len(a.Defaults)
		for i, arg := range a.Args {
			prm := conv.param(arg)
			if j := i - (len(a.Args) - nDef); j >= 0 {
				prm.Default = conv.expr(a.Defaults[j])
			}
			fn.Params = append(fn.Params, prm)
		}
		for i, arg := range a.Kwonlyargs {
			prm := conv.param(arg)
			if i < len(a.KwDefaults) {
				prm.Default = conv.expr(a.KwDefaults[i])
			}
			fn.Params = append(fn.Params, prm)
		}
		fn.NumPositional = len(a.Args)
		if a.Vararg != nil {
			fn.Vararg = string(a.Vararg.Arg)
		}
		if a.Kwarg != nil {
			p.diags.Add(diag.Errorf(conv.posOr(a.Kwarg.Pos, pos), diag.CodeUnsupported,
				"**%s parameter is not supported in a @jit function", a.Kwarg.Arg).
				WithSuggestion("list the parameters one by one"))
		}
	}
	fn.Body = conv.stmts(fd.Body)
	fn.DoNotSpecialize = p.doNotSpecialize(fn)
	return fn
}

// param converts one parameter.
func (c *converter) param(a *ast.Arg) *Param {
	prm := &Param{Name: string(a.Arg), Pos: c.pos(a.Pos), Annotation: c.expr(a.Annotation)}
	if prm.Annotation != nil {
		prm.Constexpr = isConstexprName(c.aliases, dottedName(prm.Annotation))
		if !prm.Constexpr {
			prm.Type = annotationType(c.aliases, prm.Annotation)
		}
	}
	return prm
}

// doNotSpecialize reads do_not_specialize=[...] from fn's jit decorator,
// turning parameter indices into names.
func (p *fileParser) doNotSpecialize(fn *Func) []string {
	var out []string
	for _, dc := range fn.Decorators {
		if dc.Name != "triton.jit" {
			continue
		}
		for _, kw := range dc.Keywords {
			if kw.Name != "do_not_specialize" {
				continue
			}
			var elts []Expr
			switch v := kw.Value.(type) {
			case *List:
				elts = v.Elts
			case *Tuple:
				elts = v.Elts
			default:
				elts = []Expr{v}
			}
			for _, e := range elts {
				if name, ok := p.paramRef(fn, e); ok {
					out = append(out, name)
					continue
				}
				p.diags.Add(diag.Warnf(e.Position(), diag.CodeValue,
					"do_not_specialize entry %s names no parameter of %s; ignored", FormatExpr(e), fn.Name))
			}
		}
	}
	return out
}

// paramRef resolves a do_not_specialize entry (a name or an index).
func (p *fileParser) paramRef(fn *Func, e Expr) (string, bool) {
	c, ok := e.(*Const)
	if !ok {
		return "", false
	}
	switch c.Kind {
	case ConstStr:
		for _, prm := range fn.Params {
			if prm.Name == c.Str {
				return c.Str, true
			}
		}
	case ConstInt:
		if c.Int.IsInt64() {
			if i := c.Int.Int64(); i >= 0 && i < int64(len(fn.Params)) {
				return fn.Params[i].Name, true
			}
		}
	}
	return "", false
}
