package cudanames

// This file implements the reading of declarations out of C++ header text:
// not a parser, but enough of one to tell global declarations (what a
// kernel's name can clash with) from the names inside namespaces, classes
// and function bodies. Every #if branch is read, so the names of all
// configurations are collected.

import (
	"regexp"
	"strings"
)

var (
	defineLine = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)`)
	identRe    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Declared returns the names C++ header text declares at global scope.
func Declared(text string) []string {
	var names []string
	code, macros := preprocess(text)
	names = append(names, macros...)
	s := &scanner{toks: tokenize(code)}
	s.scope(false, &names)
	return names
}

// preprocess drops comments, string literals and preprocessor lines
// (joined across backslash-newlines), returning the code left and the
// names the #define lines define.
func preprocess(text string) (string, []string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var b strings.Builder
	var macros []string
	i := 0
	atLineStart := true
	for i < len(text) {
		c := text[i]
		switch {
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				i = len(text)
			} else {
				i += j + 4
			}
			b.WriteByte(' ')
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(text) && text[j] != c && text[j] != '\n' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			b.WriteString(` "" `)
		case c == '#' && atLineStart:
			j := i
			var line strings.Builder
			for j < len(text) && text[j] != '\n' {
				if text[j] == '\\' && j+1 < len(text) && text[j+1] == '\n' {
					j += 2
					continue
				}
				line.WriteByte(text[j])
				j++
			}
			if m := defineLine.FindStringSubmatch(line.String()); m != nil {
				macros = append(macros, m[1])
			}
			i = j
		default:
			b.WriteByte(c)
			if c == '\n' {
				atLineStart = true
			} else if c != ' ' && c != '\t' {
				atLineStart = false
			}
			i++
		}
	}
	return b.String(), macros
}

// tokenize splits code into identifiers, numbers and single punctuation
// characters ("::" is one token).
func tokenize(code string) []string {
	var toks []string
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || code[j] >= '0' && code[j] <= '9' || code[j] == '.' && c >= '0' && c <= '9') {
				j++
			}
			toks = append(toks, code[i:j])
			i = j
		case c == '"' && i+1 < len(code) && code[i+1] == '"':
			toks = append(toks, `""`)
			i += 2
		case c == ':' && i+1 < len(code) && code[i+1] == ':':
			toks = append(toks, "::")
			i += 2
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

type scanner struct {
	toks []string
	pos  int
}

// scope reads declarations until the closing brace of the current scope
// (or the end), collecting the names declared unless the scope is nested
// in a namespace (names of classes and functions bodies are skipped by
// brace).
func (s *scanner) scope(nested bool, names *[]string) {
	var stmt []string
	depth := 0 // of parentheses: a macro's arguments may hold ";"
	for s.pos < len(s.toks) {
		t := s.toks[s.pos]
		s.pos++
		switch t {
		case "(":
			depth++
			stmt = append(stmt, t)
		case ")":
			depth--
			stmt = append(stmt, t)
		case ";", "__DEF_IF_HOST": // the macro is "{ }" or ";": it ends a declaration
			if depth > 0 {
				stmt = append(stmt, t)
				continue
			}
			if !nested {
				*names = append(*names, statementNames(stmt)...)
			}
			stmt = stmt[:0]
		case "}":
			return
		case "{":
			s.brace(stmt, nested, names)
			// What follows a class or enum body belongs to the same
			// statement (struct S {...} s;); after a function or namespace
			// body a new statement starts.
			if k := bodyKind(stmt); k == "class" || k == "enum" {
				stmt = append(stmt[:0:0], "typedef-tail")
			} else {
				stmt = stmt[:0]
			}
		default:
			stmt = append(stmt, t)
		}
	}
}

// brace reads a braced body opened after the tokens of stmt.
func (s *scanner) brace(stmt []string, nested bool, names *[]string) {
	switch bodyKind(stmt) {
	case "linkage": // extern "C" { ... }: its declarations are global
		s.scope(nested, names)
	case "namespace":
		// namespace std is opened around the C library's declarations on
		// some platforms only (under an #if, all of whose branches are
		// read): its names are the global ones elsewhere.
		s.scope(nested || !contains(stmt, "std"), names)
	case "class":
		if !nested {
			if n := className(stmt); n != "" {
				*names = append(*names, n)
			}
		}
		s.skip()
	case "enum":
		if !nested {
			if n := className(stmt); n != "" {
				*names = append(*names, n)
			}
			if !contains(stmt, "class") && !contains(stmt, "struct") {
				*names = append(*names, s.enumerators()...)
				return
			}
		}
		s.skip()
	default: // a function body or an initializer
		if !nested && hasPlainParen(stmt) && !containsTop(stmt, "=") {
			*names = append(*names, functionName(stmt))
		}
		s.skip()
	}
}

// bodyKind says what a brace after stmt opens.
func bodyKind(stmt []string) string {
	if len(stmt) > 0 && stmt[0] == "typedef-tail" {
		return ""
	}
	if len(stmt) >= 2 && stmt[0] == "extern" && stmt[1] == `""` && len(stmt) == 2 {
		return "linkage"
	}
	if contains(stmt, "namespace") {
		return "namespace"
	}
	if paren := index(stmt, "("); paren < 0 || !hasPlainParen(stmt) {
		for _, t := range stmt {
			switch t {
			case "enum":
				return "enum"
			case "struct", "class", "union":
				return "class"
			}
		}
	}
	return ""
}

// hasPlainParen reports whether stmt has a parenthesis that is not part of
// an attribute (__align__(16), __attribute__((...)), alignas(8)).
func hasPlainParen(stmt []string) bool {
	for i, t := range stmt {
		if t == "(" && (i == 0 || !isAttribute(stmt[i-1])) {
			return true
		}
	}
	return false
}

// skip moves past the body whose opening brace was read.
func (s *scanner) skip() {
	depth := 1
	for s.pos < len(s.toks) && depth > 0 {
		switch s.toks[s.pos] {
		case "{":
			depth++
		case "}":
			depth--
		}
		s.pos++
	}
}

// enumerators reads an enum body: the first identifier of each item.
func (s *scanner) enumerators() []string {
	var out []string
	depth, first := 1, true
	for s.pos < len(s.toks) && depth > 0 {
		t := s.toks[s.pos]
		s.pos++
		switch {
		case t == "{" || t == "(":
			depth++
		case t == "}" || t == ")":
			depth--
		case t == "," && depth == 1:
			first = true
		case first && depth == 1 && identRe.MatchString(t):
			out = append(out, t)
			first = false
		}
	}
	return out
}

// statementNames returns what a declaration ending in ";" declares.
func statementNames(stmt []string) []string {
	stmt = dropTemplateHead(stmt)
	if len(stmt) == 0 {
		return nil
	}
	switch stmt[0] {
	case "typedef-tail": // struct S {...} a, b;
		return declarators(stmt[1:])
	case "typedef":
		if i := index(stmt, "("); i >= 0 && i+2 < len(stmt) && stmt[i+1] == "*" && identRe.MatchString(stmt[i+2]) {
			return []string{stmt[i+2]} // typedef void (*name)(...)
		}
		return declarators(stmt[1:])
	case "using":
		if len(stmt) >= 3 && stmt[2] == "=" {
			return []string{stmt[1]}
		}
		return nil
	case "static_assert", "namespace", "friend", "template":
		return nil
	}
	if contains(stmt, "operator") { // operators clash with no name
		return nil
	}
	if hasPlainParen(stmt) && !containsTop(stmt, "=") {
		if n := functionName(stmt); n != "" {
			return []string{n}
		}
		return nil
	}
	if k := bodyKind(stmt); k == "class" || k == "enum" {
		if len(stmt) <= 3 { // struct S; (a forward declaration)
			return []string{className(stmt)}
		}
	}
	return declarators(stmt)
}

// dropTemplateHead removes "template <...>" from the start of stmt.
func dropTemplateHead(stmt []string) []string {
	for len(stmt) > 0 && stmt[0] == "template" {
		depth := 0
		i := 1
		for ; i < len(stmt); i++ {
			if stmt[i] == "<" {
				depth++
			} else if stmt[i] == ">" {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		stmt = stmt[min(i+1, len(stmt)):]
	}
	return stmt
}

// functionName is the name before the first parenthesis that is not an
// attribute or a macro call in capitals.
func functionName(stmt []string) string {
	stmt = dropTemplateHead(stmt)
	for i := 1; i < len(stmt); i++ {
		if stmt[i] != "(" {
			continue
		}
		n := stmt[i-1]
		if !identRe.MatchString(n) || isAttribute(n) || isMacroCase(n) || isKeyword(n) {
			continue
		}
		if i >= 2 && (stmt[i-2] == "operator" || stmt[i-2] == "::" || stmt[i-2] == "~") {
			return ""
		}
		return n
	}
	return ""
}

// declarators returns the names of "T a = 1, b[3];": the identifier before
// each "=", "[", "," or the end, at parenthesis depth 0.
func declarators(stmt []string) []string {
	var out []string
	depth := 0
	last := ""
	flush := func() {
		if last != "" && !isKeyword(last) && !isMacroCase(last) {
			out = append(out, last)
		}
		last = ""
	}
	skipping := false
	for _, t := range stmt {
		switch {
		case t == "(" || t == "[" || t == "<":
			depth++
		case t == ")" || t == "]" || t == ">":
			depth--
		case depth == 0 && t == "=":
			flush()
			skipping = true
		case depth == 0 && t == ",":
			flush()
			skipping = false
		case depth == 0 && !skipping && identRe.MatchString(t) && !isAttribute(t):
			last = t
		}
	}
	if !skipping {
		flush()
	}
	return out
}

// className is the name after struct, class, union or enum, skipping
// attributes.
func className(stmt []string) string {
	for i, t := range stmt {
		if t != "struct" && t != "class" && t != "union" && t != "enum" {
			continue
		}
		for j := i + 1; j < len(stmt); j++ {
			switch {
			case stmt[j] == "class" || stmt[j] == "struct":
			case stmt[j] == "(": // an attribute's arguments
				depth := 0
				for ; j < len(stmt); j++ {
					if stmt[j] == "(" {
						depth++
					} else if stmt[j] == ")" {
						depth--
						if depth == 0 {
							break
						}
					}
				}
			case isAttribute(stmt[j]) || isMacroCase(stmt[j]):
			case identRe.MatchString(stmt[j]):
				return stmt[j]
			default:
				return ""
			}
		}
	}
	return ""
}

// isAttribute reports whether t is an attribute-like word that comes
// before a declaration's parenthesis: __attribute__, __align__, alignas...
func isAttribute(t string) bool {
	switch t {
	case "alignas", "decltype", "sizeof", "noexcept", "throw", "__attribute__", "__declspec", "__align__", "__launch_bounds__",
		"__builtin_align__", "__cudart_builtin__", "__device_builtin__":
		return true
	}
	return strings.HasPrefix(t, "__") && strings.HasSuffix(t, "__") && len(t) > 4
}

// isMacroCase reports whether t is written as a macro is (all capitals,
// digits and underscores): such a word before a parenthesis is a macro
// call, not the function declared.
func isMacroCase(t string) bool {
	hasUpper := false
	for _, c := range t {
		switch {
		case c >= 'A' && c <= 'Z':
			hasUpper = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return hasUpper
}

var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto bool char const constexpr double extern float inline int long register
		short signed static struct class union enum typename unsigned void volatile template typedef using
		operator virtual explicit friend mutable wchar_t char16_t char32_t nullptr true false this`) {
		keywords[k] = true
	}
}

func isKeyword(t string) bool { return keywords[t] }

func contains(stmt []string, t string) bool { return index(stmt, t) >= 0 }

// containsTop reports whether t is in stmt outside parentheses.
func containsTop(stmt []string, t string) bool {
	depth := 0
	for _, s := range stmt {
		switch s {
		case "(":
			depth++
		case ")":
			depth--
		case t:
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

func index(stmt []string, t string) int {
	for i, s := range stmt {
		if s == t {
			return i
		}
	}
	return -1
}
