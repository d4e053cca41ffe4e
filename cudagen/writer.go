package cudagen

// This file implements the small text writer the emitter prints through.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tri-lang/tri/ir"
)

// writer accumulates C source with an indentation level, and for each line
// it writes the source position of the statement it belongs to (at, set by
// the emitter before a statement's code).
type writer struct {
	b      strings.Builder
	indent int
	at     ir.Pos
	lines  []ir.Pos
}

// line writes one indented line.
func (w *writer) line(format string, args ...any) {
	for i := 0; i < w.indent; i++ {
		w.b.WriteString("  ")
	}
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
	w.lines = append(w.lines, w.at)
}

// comment writes one indented "// " comment line holding text that may come
// from the user (source lines, file names, constexpr strings). Such text
// must not change the code around it: a control character (a newline above
// all) would end the comment early, and a backslash at the end of the line
// would splice the next generated line into the comment. Control characters
// and invalid UTF-8 become '?', and a closing backslash is followed by a
// note, so that no comment line ends in one.
func (w *writer) comment(format string, args ...any) {
	w.line("// %s", commentSafe(fmt.Sprintf(format, args...)))
}

// commentSafe is the text comment writes for s.
func commentSafe(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			b.WriteByte('?')
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	t := strings.TrimRight(b.String(), " ")
	if strings.HasSuffix(t, "\\") {
		t += " (ends in a backslash)"
	}
	return t
}

// cString quotes s as a C string literal: quotes and backslashes escaped,
// other bytes outside printable ASCII as three-digit octal escapes (which,
// unlike \x escapes, cannot run into the characters after them).
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteString("\\" + strconv.FormatInt(int64(c)|0o1000, 8)[1:])
		case c == '?':
			// "??/" would be a trigraph for a backslash in older C++ modes.
			b.WriteString("\\?")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// raw writes s at column 0 (preprocessor directives, the prelude).
func (w *writer) raw(s string) {
	w.b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		w.b.WriteByte('\n')
	}
	for range strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 {
		w.lines = append(w.lines, w.at)
	}
}

// append writes what o wrote after what w wrote, lines and positions.
func (w *writer) append(o *writer) {
	w.b.WriteString(o.b.String())
	w.lines = append(w.lines, o.lines...)
}

// open writes a line ending a block opener ("{") and indents.
func (w *writer) open(format string, args ...any) {
	w.line(format, args...)
	w.indent++
}

// close dedents and writes the closing line.
func (w *writer) close(format string, args ...any) {
	w.indent--
	w.line(format, args...)
}

func (w *writer) String() string { return w.b.String() }
