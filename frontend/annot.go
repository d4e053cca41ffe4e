package frontend

// This file implements the blanking of annotated assignments
// (NAME: ANNOT = expr), which gpython's Python 3.4 grammar rejects.

import "strings"

// annotation is one blanked annotation: the target name's place and the
// annotation's text and place.
type annotation struct {
	line, col int // of the target name, 1-based
	text      string
	aLine     int // of the annotation text, 1-based
	aCol      int
}

// pythonKeywords are the words that can start a line followed by ':' and
// are not assignment targets.
var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}

// blankAnnotations returns the text of c with every annotated assignment's
// ": ANNOT" replaced by spaces (newlines kept), and the annotations found.
func blankAnnotations(src string, c *chunk) (string, []annotation) {
	buf := []byte(src[c.start:c.end])
	var anns []annotation
	for _, l := range c.lines {
		s := src[l.start:l.end]
		i := l.indent
		j := i
		for j < len(s) && isIdentByte(s[j], j > i) {
			j++
		}
		if j == i || pythonKeywords[s[i:j]] {
			continue
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || s[k] != ':' || k+1 < len(s) && s[k+1] == '=' {
			continue
		}
		eq := findAssignEq(s, k+1)
		stop := eq
		if stop < 0 {
			stop = annotationEnd(s, k+1)
		}
		ann := annotation{line: l.line, col: i + 1, text: strings.TrimSpace(s[k+1 : stop])}
		ann.aLine, ann.aCol = l.line, k+2
		lead := s[k+1 : stop]
		ann.aCol += len(lead) - len(strings.TrimLeft(lead, " \t"))
		off := l.start - c.start
		for p := k; p < stop; p++ {
			if buf[off+p] != '\n' {
				buf[off+p] = ' '
			}
		}
		anns = append(anns, ann)
	}
	return string(buf), anns
}

// isIdentByte reports whether b may appear in an identifier (at a position
// other than the first if notFirst). Python 3 identifiers may hold
// non-ASCII letters: every byte of a multi-byte UTF-8 character counts, and
// the parser rejects the characters that are not letters.
func isIdentByte(b byte, notFirst bool) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80 || notFirst && '0' <= b && b <= '9'
}

// findAssignEq returns the offset in s of the first '=' at bracket depth 0
// after from that is an assignment (not ==, <=, +=, ...), or -1.
func findAssignEq(s string, from int) int {
	depth := 0
	for i := from; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			i, _ = skipString(s, i, 0)
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		case c == '=' && depth == 0:
			prevOK := i == 0 || !strings.ContainsRune("=<>!:+-*/%&|^@", rune(s[i-1]))
			nextOK := i+1 >= len(s) || s[i+1] != '='
			if prevOK && nextOK {
				return i
			}
		}
		i++
	}
	return -1
}

// annotationEnd returns where a bare annotation starting at from ends: at a
// comment or the end of the logical line.
func annotationEnd(s string, from int) int {
	for i := from; i < len(s); {
		switch s[i] {
		case '\'', '"':
			i, _ = skipString(s, i, 0)
			continue
		case '#':
			return i
		}
		i++
	}
	end := len(strings.TrimRight(s, "\n"))
	if end < from {
		return from
	}
	return end
}
