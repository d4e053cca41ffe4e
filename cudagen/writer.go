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
//
// A comment wider than lineWidth columns is wrapped at spaces onto
// several comment lines, each after the first indented two more spaces
// than the text's own indentation.
func (w *writer) comment(format string, args ...any) {
	text := commentSafe(fmt.Sprintf(format, args...))
	lead := len(text) - len(strings.TrimLeft(text, " "))
	for i, l := range wrapText(text, max(lineWidth-2*w.indent-3, minCommentText), lead+2) {
		if i > 0 {
			l = strings.Repeat(" ", lead+2) + l
		}
		w.line("// %s", l)
	}
}

// long writes the statement s, which holds no string literal, on one line
// or, where that is wider than lineWidth, broken after commas (or at
// spaces) onto lines indented four spaces more: a vector's initializer,
// whose fields are one expression each.
func (w *writer) long(s string) {
	for i, l := range wrapText(s, max(lineWidth-2*w.indent, minCommentText), 4) {
		if i > 0 {
			l = "    " + l
		}
		w.line("%s", l)
	}
}

// lineWidth is the widest line the emitter writes, indentation included,
// inline asm aside: comments are wrapped to it, a kernel's signature that
// would be wider breaks, and longer C sub-expressions are bound to named
// locals. minCommentText is the least text a wrapped comment line holds
// however deep its indentation.
const (
	lineWidth      = 160
	minCommentText = 60
)

// wrapText splits s into lines of at most width bytes, breaking after the
// last comma that fits, or where there is none in the line's second half
// at the last space (a word longer than a line is cut at a character
// boundary). The first line keeps s's leading spaces; the next ones are
// cont narrower, for the indentation the caller gives them. The spaces at
// the breaks are dropped.
func wrapText(s string, width, cont int) []string {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	var out []string
	for len(s) > width {
		// A break after a comma keeps the items of a list whole.
		cut := strings.LastIndex(s[:width+1], ", ") + 1
		if cut <= max(lead, width/2) {
			cut = strings.LastIndexByte(s[:width+1], ' ')
		}
		if cut <= lead {
			cut = width
			for cut > lead+1 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[cut:], " ")
		if lead >= 0 {
			width -= cont
			lead = -1
		}
	}
	return append(out, s)
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

// loop writes the for loop head running stmt, with the const locals
// locals ("int tri_row = ...", each a C sub-expression bound to a name)
// declared in its body before stmt: on one line where it has none, else
// as a block. stmt holds no string literal (it may be broken, as long
// breaks a line).
func (w *writer) loop(head string, locals []string, stmt string) {
	if len(locals) == 0 {
		w.long(head + " " + stmt)
		return
	}
	w.open("%s {", head)
	for _, l := range locals {
		w.long("const " + l + ";")
	}
	w.long(stmt)
	w.close("}")
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
