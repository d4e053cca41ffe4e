package cudagen

// This file implements the small text writer the emitter prints through.

import (
	"fmt"
	"strings"
)

// writer accumulates C source with an indentation level.
type writer struct {
	b      strings.Builder
	indent int
}

// line writes one indented line.
func (w *writer) line(format string, args ...any) {
	for i := 0; i < w.indent; i++ {
		w.b.WriteString("  ")
	}
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

// raw writes s at column 0 (preprocessor directives, the prelude).
func (w *writer) raw(s string) {
	w.b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		w.b.WriteByte('\n')
	}
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
