package frontend

// This file implements the rewrite of Python syntax newer than gpython's
// parser (the Python 3.4 grammar) into text it accepts.
//
// The rewrite keeps every byte where it was (only replacing characters by
// others, never inserting or deleting), so that gpython's positions stay
// the source's, and records what it changed, keyed by the position that
// gpython will report for the node concerned, so that the converter can
// give the node its real meaning back:
//
//   - f"..{x}.." loses its f (rf"..." becomes " r"..."); the converter
//     turns the string run into an FString with parsed replacement fields.
//   - a trailing comma in a def or call that has a * or ** argument
//     (f(**kw,), def f(*a, b,)) becomes a space: same meaning.
//   - f(*a, b), f(*a, *b): the '*' of a starred argument that a positional
//     one follows becomes a space; the converter makes the argument Starred
//     again.
//   - x := v inside brackets or an if/elif/while header becomes x == v; the
//     converter turns that comparison into a BadExpr (Triton's code
//     generator has no walrus operator either).
//   - 1_000 (underscores in a number) becomes "  1000": the digits move
//     right over the underscores and spaces fill their place.
//   - {..., **d} (a dict display that unpacks another): the "**" becomes
//     "0:", an item with a key; the converter gives that item a nil key
//     again, as Python's own AST does. Host code with it keeps its meaning
//     (package autotune rewrites such displays for gpython's interpreter).
//
// Host code rewritten this way parses but would not mean the same thing to
// gpython's interpreter: the parser gives host code its text with the
// f-strings and unpacked dicts put back (package autotune rewrites them
// for gpython's interpreter), and host functions with a starred argument
// or a walrus are not offered to it.

import "strings"

// rewrites records what modernize changed, keyed by gpython positions in
// the rewritten text: {1-based line, 0-based byte column}.
type rewrites struct {
	fstrings map[[2]int][]strToken // first string of a run holding an f-string -> the run
	stars    map[[2]int]bool       // starred arguments whose '*' was removed
	walrus   map[[2]int]bool       // targets of ':='
	unpacks  map[[2]int]bool       // the keys that stand for '**' in a dict display
	// fprefixes are the prefixes of the f-strings, as written, at their
	// {1-based line, 0-based byte column}: restoreFStrings puts them back.
	fprefixes map[[2]int]string
}

// strToken is one string literal of an implicitly concatenated run.
type strToken struct {
	text      string // as rewritten: prefix, quotes, body
	f         bool   // was an f-string
	line, col int    // 1-based line, 0-based byte column of the token
}

// changesHostMeaning reports whether the text that the parser returns
// (restoreUnpacks, restoreFStrings) means something else to a Python
// interpreter than the original: the f-strings and dict unpacking are put
// back (package autotune rewrites both for gpython's interpreter), a
// starred argument or a walrus are not.
func (r *rewrites) changesHostMeaning() bool {
	return r != nil && len(r.stars)+len(r.walrus) > 0
}

// restoreFStrings puts back in text, as modernize rewrote it, the prefixes
// of the f-strings, so that the text of host code keeps its meaning.
func (r *rewrites) restoreFStrings(text string) string {
	if r == nil || len(r.fprefixes) == 0 {
		return text
	}
	starts := lineStarts(text)
	buf := []byte(text)
	for at, prefix := range r.fprefixes {
		if off := starts[at[0]-1] + at[1]; off+len(prefix) <= len(buf) {
			copy(buf[off:], prefix)
		}
	}
	return string(buf)
}

// lineStarts returns the offset of each line of text.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// restoreUnpacks puts back in text, as modernize rewrote it, the "**" of
// the dicts unpacked into displays: the text that decorator arguments and
// host functions are read from keeps its meaning for Python.
func (r *rewrites) restoreUnpacks(text string) string {
	if r == nil || len(r.unpacks) == 0 {
		return text
	}
	starts := lineStarts(text)
	buf := []byte(text)
	for at := range r.unpacks {
		if off := starts[at[0]-1] + at[1]; off+1 < len(buf) {
			buf[off], buf[off+1] = '*', '*'
		}
	}
	return string(buf)
}

// argInfo is one top-level argument of a bracket group.
type argInfo struct {
	star    int // 0, 1 for *x, 2 for **x
	starAt  int // offset of the '*'
	keyword bool
	empty   bool
}

// group is one open bracket.
type group struct {
	open   byte
	call   bool // a '(' after an operand: a call (or a def's parameters)
	def    bool // a def's parameter list
	args   []argInfo
	commas []int // offset of the comma after args[i]
}

// modernize rewrites text as the file comment says.
func modernize(text string) (string, *rewrites) {
	buf := []byte(text)
	rw := &rewrites{}
	var stack []*group
	line, lineStart := 1, 0
	// prev is the last significant token's kind: 'o' operand, 's' string,
	// 'k' keyword def, 'd' the name after def, 0 other.
	var prev byte
	stmtWord := "" // the first word of the logical line
	var run []strToken
	endRun := func() {
		if len(run) > 1 || len(run) == 1 && run[0].f {
			has := false
			for _, t := range run {
				has = has || t.f
			}
			if has {
				if rw.fstrings == nil {
					rw.fstrings = map[[2]int][]strToken{}
				}
				rw.fstrings[[2]int{run[0].line, run[0].col}] = run
			}
		}
		run = nil
	}
	cur := func() *group {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	newArg := func(g *group, at int) {
		g.args = append(g.args, argInfo{empty: true, starAt: at})
	}
	touch := func(at int) {
		if g := cur(); g != nil && len(g.args) > 0 && g.args[len(g.args)-1].empty {
			g.args[len(g.args)-1].empty = false
			g.args[len(g.args)-1].starAt = at
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c != ' ' && c != '\t' && c != '\f' && c != '\n' && c != '\\' && c != '#' && prev == 's' && !isStringStart(text, i) {
			endRun()
		}
		switch {
		case c == '\n':
			line++
			lineStart = i + 1
			if len(stack) == 0 {
				stmtWord = ""
				prev = 0
				endRun()
			}
			i++
			continue
		case c == '\\' && i+1 < len(text) && text[i+1] == '\n':
			line++
			lineStart = i + 2
			i += 2
			continue
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case c == ' ' || c == '\t' || c == '\f':
			i++
			continue
		case isStringStart(text, i):
			touch(i)
			j := i
			for text[j] != '\'' && text[j] != '"' {
				j++
			}
			prefix := strings.ToLower(text[i:j])
			end, _ := skipString(text, j, line)
			tok := strToken{line: line, col: i - lineStart}
			if strings.Contains(prefix, "f") {
				tok.f = true
				if rw.fprefixes == nil {
					rw.fprefixes = map[[2]int]string{}
				}
				rw.fprefixes[[2]int{line, i - lineStart}] = text[i:j]
				kept := strings.ReplaceAll(strings.ReplaceAll(text[i:j], "f", ""), "F", "")
				pad := (j - i) - len(kept)
				for k := 0; k < pad; k++ {
					buf[i+k] = ' '
				}
				copy(buf[i+pad:j], kept)
				tok.col += pad
			}
			tok.text = string(buf[i+(j-i)-len(strings.TrimLeft(string(buf[i:j]), " ")) : end])
			if prev != 's' {
				run = nil
			}
			run = append(run, tok)
			prev = 's'
			for k := j; k < end; k++ {
				if text[k] == '\n' {
					line++
					lineStart = k + 1
				}
			}
			i = end
			continue
		case isIdentByte(c, false) || c >= 0x80 || '0' <= c && c <= '9':
			touch(i)
			j := i
			for j < len(text) && (isIdentByte(text[j], true) || text[j] >= 0x80 || text[j] == '.' && '0' <= c && c <= '9') {
				j++
			}
			word := text[i:j]
			if '0' <= c && c <= '9' && strings.Contains(word, "_") {
				// 1_000: the digits move right over the underscores,
				// spaces before them keep the token's end in place.
				digits := strings.ReplaceAll(word, "_", "")
				pad := len(word) - len(digits)
				for k := range pad {
					buf[i+k] = ' '
				}
				copy(buf[i+pad:j], digits)
			}
			if stmtWord == "" && len(stack) == 0 {
				stmtWord = word
			}
			switch {
			case word == "def":
				prev = 'k'
			case prev == 'k':
				prev = 'd'
			case pythonKeywords[word] && word != "None" && word != "True" && word != "False":
				prev = 0
			default:
				prev = 'o'
			}
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			touch(i)
			g := &group{open: c, call: c == '(' && (prev == 'o' || prev == 's' || prev == 'd'), def: c == '(' && prev == 'd'}
			stack = append(stack, g)
			newArg(g, i+1)
			prev = 0
			i++
			continue
		case c == ')' || c == ']' || c == '}':
			if g := cur(); g != nil {
				rw.closeGroup(g, buf, text)
				stack = stack[:len(stack)-1]
			}
			prev = 'o'
			i++
			continue
		case c == ',':
			if g := cur(); g != nil {
				g.commas = append(g.commas, i)
				newArg(g, i+1)
			}
			prev = 0
			i++
			continue
		case c == '*' && i+1 < len(text) && text[i+1] == '*' && cur() != nil && cur().open == '{' && cur().args[len(cur().args)-1].empty:
			g := cur()
			g.args[len(g.args)-1].empty = false
			buf[i], buf[i+1] = '0', ':'
			if rw.unpacks == nil {
				rw.unpacks = map[[2]int]bool{}
			}
			rw.unpacks[[2]int{line, i - lineStart}] = true
			i += 2
			prev = 0
			continue
		case c == '*':
			g := cur()
			if g != nil && g.call && len(g.args) > 0 && g.args[len(g.args)-1].empty {
				a := &g.args[len(g.args)-1]
				a.empty = false
				a.starAt = i
				a.star = 1
				if i+1 < len(text) && text[i+1] == '*' {
					a.star = 2
				}
				i += a.star
				prev = 0
				continue
			}
		case c == ':' && i+1 < len(text) && text[i+1] == '=':
			if len(stack) > 0 || stmtWord == "if" || stmtWord == "elif" || stmtWord == "while" {
				if t, ok := walrusTarget(text, i, lineStart); ok {
					buf[i] = '='
					if rw.walrus == nil {
						rw.walrus = map[[2]int]bool{}
					}
					rw.walrus[[2]int{line, t}] = true
				}
			}
			i += 2
			prev = 0
			continue
		case c == '=':
			if g := cur(); g != nil && i+1 < len(text) && text[i+1] != '=' && i > 0 && !strings.ContainsRune("=<>!", rune(text[i-1])) {
				if len(g.args) > 0 {
					g.args[len(g.args)-1].keyword = true
				}
			}
		}
		touch(i)
		prev = 0
		i++
	}
	return string(buf), rw
}

// isStringStart reports whether a string literal (with its prefix) starts
// at text[i].
func isStringStart(text string, i int) bool {
	if i > 0 && (isIdentByte(text[i-1], true) || text[i-1] >= 0x80) {
		return false
	}
	for j := i; j < len(text) && j-i <= 3; j++ {
		switch text[j] {
		case '\'', '"':
			return true
		case 'r', 'R', 'b', 'B', 'f', 'F', 'u', 'U':
			continue
		}
		return false
	}
	return false
}

// walrusTarget returns the 0-based column of the identifier before the
// ':=' at text[at].
func walrusTarget(text string, at, lineStart int) (int, bool) {
	j := at
	for j > lineStart && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	k := j
	for k > lineStart && isIdentByte(text[k-1], true) {
		k--
	}
	if k == j {
		return 0, false
	}
	return k - lineStart, true
}

// closeGroup applies the argument rewrites of a closed bracket group.
func (rw *rewrites) closeGroup(g *group, buf []byte, text string) {
	if g.open != '(' || !g.call {
		return
	}
	starred := false
	for _, a := range g.args {
		starred = starred || a.star > 0
	}
	n := len(g.args)
	if starred && n >= 2 && g.args[n-1].empty {
		buf[g.commas[n-2]] = ' '
	}
	if g.def {
		return
	}
	for i, a := range g.args {
		if a.star != 1 {
			continue
		}
		later := false
		for _, b := range g.args[i+1:] {
			later = later || !b.empty && !b.keyword && b.star != 2
		}
		if !later {
			continue
		}
		x := a.starAt + 1
		for x < len(text) && (text[x] == ' ' || text[x] == '\t') {
			x++
		}
		if x >= len(text) || !(isIdentByte(text[x], false) || text[x] >= 0x80) {
			continue
		}
		buf[a.starAt] = ' '
		l, ls := lineOf(text, x)
		if rw.stars == nil {
			rw.stars = map[[2]int]bool{}
		}
		rw.stars[[2]int{l, x - ls}] = true
	}
}

// lineOf returns the 1-based line of text[at] and the offset of its start.
func lineOf(text string, at int) (int, int) {
	return strings.Count(text[:at], "\n") + 1, strings.LastIndexByte(text[:at], '\n') + 1
}
