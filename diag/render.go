package diag

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Sources maps a file name (as it appears in positions) to its text, so that
// Render can show the offending line.
type Sources map[string]string

// Line returns the 1-based line of the named source, without its newline.
func (s Sources) Line(file string, line int) (string, bool) {
	text, ok := s[file]
	if !ok || line <= 0 {
		return "", false
	}
	for i := 1; i < line; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimRight(text, "\r"), true
}

// Render writes err for a person: each diagnostic as "file:line:col:
// message", then the source line and a caret under the column when the
// source is known, then its notes and suggestion. Errors that are not
// diagnostics are written as they are.
func Render(w io.Writer, err error, src Sources) {
	var list *List
	var d *Diagnostic
	switch {
	case errors.As(err, &list):
		for _, d := range list.Items {
			renderOne(w, d, src)
		}
		if list.dropped > 0 {
			fmt.Fprintf(w, "(%d more errors not shown)\n", list.dropped)
		}
	case errors.As(err, &d):
		renderOne(w, d, src)
	default:
		fmt.Fprintln(w, err)
	}
}

func renderOne(w io.Writer, d *Diagnostic, src Sources) {
	fmt.Fprintln(w, d.Error())
	writeCaret(w, d.Pos, d.End, src)
	for _, n := range d.Notes {
		if n.Pos.IsValid() {
			fmt.Fprintf(w, "%s: note: %s\n", n.Pos, n.Message)
			writeCaret(w, n.Pos, Pos{}, src)
		} else {
			fmt.Fprintf(w, "\tnote: %s\n", n.Message)
		}
	}
	if d.Suggestion != "" {
		fmt.Fprintf(w, "\thint: %s\n", d.Suggestion)
	}
}

func writeCaret(w io.Writer, p, end Pos, src Sources) {
	line, ok := src.Line(p.File, p.Line)
	if !ok {
		return
	}
	col := p.Col
	width := 1
	if end.Line == p.Line && end.Col > p.Col {
		width = end.Col - p.Col
	}
	// A very long line shows as a window around the column.
	if len(line) > maxShown {
		from := max(min(col-1-maxShown/2, len(line)-maxShown), 0)
		to := from + maxShown
		shown := "..." + line[from:to] + "..."
		if from == 0 {
			shown = line[:to] + "..."
		} else if col > 0 {
			col = col - from + 3
		}
		line = shown
		width = min(width, maxShown)
	}
	fmt.Fprintf(w, "    %s\n", expandTabs(line))
	if col <= 0 {
		return
	}
	prefix := line
	if col-1 < len(prefix) {
		prefix = prefix[:col-1]
	}
	pad := strings.Repeat(" ", len(expandTabs(prefix)))
	fmt.Fprintf(w, "    %s%s\n", pad, strings.Repeat("^", width))
}

// maxShown is the most bytes of a source line an error shows.
const maxShown = 120

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
