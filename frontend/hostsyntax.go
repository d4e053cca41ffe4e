package frontend

// This file implements the syntax check of the statements tri does not
// compile (host code: imports of other modules, classes, functions that are
// not kernels, the script around them). Python would not import a file with
// a syntax error anywhere, so neither does tri; but gpython's parser knows
// Python 3.4, and host code is often newer, so a statement that gpython
// rejects and that uses syntax newer than 3.4 is given the benefit of the
// doubt: tri never rejects a valid file, and reports the errors it can be
// sure of.

import (
	"strings"
	"unicode/utf8"

	"github.com/tri-lang/tri/diag"
)

// checkEncoding reports what CPython reports for a source that is not
// UTF-8 text: a NUL byte, or bytes that are not UTF-8.
func checkEncoding(name, text string) *diag.Diagnostic {
	line, col := 1, 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == 0:
			return diag.Errorf(diag.Pos{File: name, Line: line, Col: col}, diag.CodeSyntax, "syntax error: source code cannot contain null bytes")
		case r == utf8.RuneError && size == 1:
			return diag.Errorf(diag.Pos{File: name, Line: line, Col: col}, diag.CodeSyntax,
				"syntax error: Non-UTF-8 code starting with '\\x%02x' (a Python source file is UTF-8 text)", text[i])
		case r == '\n':
			line, col = line+1, 0
		}
		i += size
		col += size
	}
	return nil
}

// hostStatements returns the skipped chunks as whole statements: a chunk
// that continues the one before it (except, else, elif, finally at the top
// level) is joined to it, so that try/except and if/else parse as one.
func hostStatements(src string, chunks []*chunk, kinds []chunkKind) []*chunk {
	var out []*chunk
	for i, c := range chunks {
		if isContinuation(src, c) && len(out) > 0 && out[len(out)-1].end == chunks[i-1].end {
			last := *out[len(out)-1]
			last.end = c.end
			last.lines = append(append([]logicalLine(nil), last.lines...), c.lines...)
			out[len(out)-1] = &last
			continue
		}
		if kinds[i] == kindSkip || kinds[i] == kindImport && i+1 < len(chunks) && isContinuation(src, chunks[i+1]) {
			out = append(out, c)
		}
	}
	return out
}

// isContinuation reports whether c starts with except, else, elif or
// finally.
func isContinuation(src string, c *chunk) bool {
	switch leadingIdent(strings.TrimLeft(c.first(src), " \t")) {
	case "except", "else", "elif", "finally":
		return true
	}
	return false
}

// checkHostSyntax parses a host statement and reports its syntax error,
// unless the statement uses syntax newer than gpython's.
func (p *fileParser) checkHostSyntax(c *chunk) {
	if _, _, _, d := p.parseChunk(c); d != nil {
		p.hostError(c, d)
	}
}

// hostError reports d, gpython's syntax error in host statement c, unless
// c uses syntax newer than gpython's.
func (p *fileParser) hostError(c *chunk, d *diag.Diagnostic) {
	if !newerSyntax(p.text[c.start:c.end]) {
		p.diags.Add(d)
	}
}

// newerSyntax reports whether src (one statement) uses, outside strings and
// comments, syntax that Python 3.4 lacks and modernize does not rewrite:
// f-strings (some), template strings, the @ operator,
// async and await, soft keywords (match, case, type) starting a line,
// unpacking with * or ** in displays and calls, numbers with underscores,
// variable annotations, positional-only parameters, except*.
func newerSyntax(src string) bool {
	lineStart := true  // only spaces seen on this line so far
	prev := byte('\n') // the last byte that is not a space
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\\':
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
			continue
		case c == '\'' || c == '"':
			j, _ := skipString(src, i, 0)
			i, prev, lineStart = j-1, 'x', false
			continue
		case isIdentStart(c):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && strings.ContainsAny(word, "fFtT") && len(word) <= 3 {
				// An f-string: modernize rewrites those of Python 3.11,
				// not 3.12's (quotes reused inside fields), so tri does
				// not judge them. Or a template string.
				return true
			}
			switch word {
			case "async", "await", "nonlocal":
				return true
			case "match", "case", "type":
				if lineStart {
					return true
				}
			}
			if lineStart {
				rest := strings.TrimLeft(src[j:], " \t")
				if strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":=") && !isBlockKeyword(word) {
					return true // a variable annotation
				}
			}
			i, prev, lineStart = j-1, 'x', false
			continue
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				if src[j] == '_' {
					return true
				}
				j++
			}
			i, prev, lineStart = j-1, 'x', false
			continue
		case c == '@' && !lineStart:
			return true
		case c == '*' && (prev == '(' || prev == '[' || prev == '{' || prev == ','):
			return true
		case c == '/' && (prev == ',' || prev == '(') && nextNonSpace(src, i+1) == ',' || c == '/' && prev == ',' && nextNonSpace(src, i+1) == ')':
			return true
		case c == '*' && prev == 'x' && strings.HasSuffix(strings.TrimRight(src[:i], " \t"), "except"):
			return true
		}
		prev, lineStart = c, false
	}
	return false
}

func nextNonSpace(s string, i int) byte {
	for ; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return s[i]
		}
	}
	return 0
}

// isBlockKeyword reports keywords that a colon may follow at the start of a
// line (else:, try:, ...), which are not annotations.
func isBlockKeyword(w string) bool {
	switch w {
	case "else", "try", "finally", "except", "lambda", "class", "def", "if", "elif", "while", "for", "with":
		return true
	}
	return false
}
