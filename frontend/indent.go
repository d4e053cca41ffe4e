package frontend

// This file implements Python's checks of indentation that gpython's
// tokenizer lacks: TabError, when tabs and spaces are mixed so that the
// meaning of the indentation depends on the tab size, and the dedent that
// matches no outer level.

import "github.com/tri-lang/tri/diag"

// checkIndentation compares each logical line's indentation with the open
// levels twice, with tabs to the next multiple of 8 and with tabs as one
// column, as CPython's tokenizer does: where the two disagree the
// indentation is inconsistent.
func checkIndentation(file, text string, lines []logicalLine) *diag.Diagnostic {
	type level struct{ tab8, tab1 int }
	stack := []level{{}}
	for _, l := range lines {
		var lv level
		for _, c := range text[l.start : l.start+l.indent] {
			switch c {
			case '\t':
				lv.tab8 = (lv.tab8/8 + 1) * 8
				lv.tab1++
			case ' ':
				lv.tab8++
				lv.tab1++
			}
		}
		at := diag.Pos{File: file, Line: l.line, Col: 1}
		tabErr := diag.Errorf(at, diag.CodeSyntax, "TabError: inconsistent use of tabs and spaces in indentation")
		top := stack[len(stack)-1]
		switch {
		case lv.tab8 == top.tab8:
			if lv.tab1 != top.tab1 {
				return tabErr
			}
		case lv.tab8 > top.tab8:
			if lv.tab1 <= top.tab1 {
				return tabErr
			}
			stack = append(stack, lv)
		default:
			for len(stack) > 1 && lv.tab8 < stack[len(stack)-1].tab8 {
				stack = stack[:len(stack)-1]
			}
			top = stack[len(stack)-1]
			if lv.tab8 != top.tab8 {
				return diag.Errorf(at, diag.CodeSyntax, "IndentationError: unindent does not match any outer indentation level")
			}
			if lv.tab1 != top.tab1 {
				return tabErr
			}
		}
	}
	return nil
}
