package frontend

// This file implements the split of a source file into top-level chunks.
//
// The scanner below knows just enough Python lexing to find where logical
// lines start and end: string literals (with prefixes, escapes and triple
// quotes), comments, brackets and backslash continuations. It never fails:
// an unterminated string or bracket simply runs to the end of the file.

import "strings"

// logicalLine is one logical line of source: a statement header or a
// simple statement, possibly spanning several physical lines.
type logicalLine struct {
	start, end int // byte offsets; end is after the final newline (or len)
	indent     int // bytes of leading whitespace
	line       int // 1-based line number of start
}

// chunk is one top-level statement with its indented body, plus the
// decorators before it.
type chunk struct {
	start, end int // byte offsets into the normalized source
	line       int // 1-based line of start
	lines      []logicalLine
	indent     int  // of its first line: 0 at the top, more inside an if or try
	arm        *Arm // the module-level if/try arm it sits in; nil at the top
}

// first returns the text of the chunk's first logical line without its
// trailing newline.
func (c *chunk) first(src string) string {
	l := c.lines[0]
	return strings.TrimRight(src[l.start:l.end], "\n")
}

// scanLogicalLines returns the logical lines of src, leaving out lines that
// hold only whitespace and comments.
func scanLogicalLines(src string) []logicalLine {
	var out []logicalLine
	line := 1
	i := 0
	for i < len(src) {
		// At the start of a physical line that begins a logical line.
		startLine := line
		start := i
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f') {
			j++
		}
		if j >= len(src) {
			break
		}
		if src[j] == '\n' || src[j] == '#' {
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if j < len(src) {
				j++
				line++
			}
			i = j
			continue
		}
		indent := j - start
		depth := 0
		for j < len(src) {
			c := src[j]
			switch {
			case c == '\n':
				line++
				j++
				if depth == 0 {
					goto done
				}
			case c == '\\' && j+1 < len(src) && src[j+1] == '\n':
				j += 2
				line++
			case c == '#':
				for j < len(src) && src[j] != '\n' {
					j++
				}
			case c == '(' || c == '[' || c == '{':
				depth++
				j++
			case c == ')' || c == ']' || c == '}':
				if depth > 0 {
					depth--
				}
				j++
			case c == '\'' || c == '"':
				j, line = skipString(src, j, line)
			default:
				j++
			}
		}
	done:
		out = append(out, logicalLine{start: start, end: j, indent: indent, line: startLine})
		i = j
	}
	return out
}

// skipString skips the string literal whose opening quote is at src[i] and
// returns the offset after it and the updated line count.
func skipString(src string, i, line int) (int, int) {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
		for i < len(src) {
			switch {
			case src[i] == '\\' && i+1 < len(src):
				if src[i+1] == '\n' {
					line++
				}
				i += 2
			case src[i] == q && i+2 < len(src) && src[i+1] == q && src[i+2] == q:
				return i + 3, line
			default:
				if src[i] == '\n' {
					line++
				}
				i++
			}
		}
		return i, line
	}
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				line++
			}
			i += 2
		case q:
			return i + 1, line
		case '\n':
			// Unterminated: let the newline end the logical line.
			return i, line
		default:
			i++
		}
	}
	if i > len(src) {
		i = len(src)
	}
	return i, line
}

// splitChunks groups logical lines into top-level chunks: a chunk starts at
// a logical line with no indentation and takes every indented line after
// it; decorator lines join the statement that follows them.
func splitChunks(src string, lines []logicalLine) []*chunk {
	return splitChunksAt(src, lines, 0)
}

// splitChunksAt is splitChunks for the statements of a block indented by
// indent.
func splitChunksAt(src string, lines []logicalLine, indent int) []*chunk {
	var out []*chunk
	var cur *chunk
	for _, l := range lines {
		if cur == nil || l.indent <= indent && !cur.open(src) {
			cur = &chunk{start: l.start, line: l.line, indent: indent}
			out = append(out, cur)
		}
		cur.lines = append(cur.lines, l)
		cur.end = l.end
	}
	return out
}

// open reports whether c is a run of decorator lines still waiting for the
// statement they decorate.
func (c *chunk) open(src string) bool {
	last := c.lines[len(c.lines)-1]
	return strings.HasPrefix(src[last.start+last.indent:], "@")
}
