package survey

// This file implements the search for @jit functions: a scan of the text of
// every .py file under a folder, independent of tri's parser, so that a
// function tri cannot parse (or does not look at, such as a @jit defined
// inside an if or a host function) is still counted.

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Func is one @jit function found in the text of a file.
type Func struct {
	File   string // path relative to the surveyed folder, with slashes
	Line   int    // 1-based line of the def keyword
	Name   string
	Indent int // columns of indentation of the def; 0 at top level
	// Helper is set when another @jit function of the folder calls this
	// one by name: it is compiled as part of its callers, not on its own.
	Helper bool
	body   string // the def's text, from the def line to the end of its body
}

// source is one .py or .tri file that defines @jit functions.
type source struct {
	rel   string // relative path, with slashes
	path  string // path to read it from
	text  []byte
	funcs []*Func
}

var (
	jitDecorator = regexp.MustCompile(`^([ \t]*)@(?:triton\.)?jit\b`)
	defLine      = regexp.MustCompile(`^([ \t]*)(?:async[ \t]+)?def[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)
)

// findSources walks dir for .py and .tri files (tri's own kernel files)
// that define @jit functions, in lexical order. Hidden folders and
// __pycache__ are skipped.
func findSources(dir string) ([]*source, error) {
	var out []*source
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".py") && !strings.HasSuffix(d.Name(), ".tri") || !d.Type().IsRegular() {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		s := &source{rel: filepath.ToSlash(rel), path: path, text: text}
		s.funcs = scanFuncs(s.rel, string(text))
		if len(s.funcs) > 0 {
			out = append(out, s)
		}
		return nil
	})
	return out, err
}

// scanFuncs finds the defs decorated with @jit or @triton.jit (bare or
// called) in text: the first def at the decorator's indentation after it,
// past any other decorators and their argument lines.
func scanFuncs(rel, text string) []*Func {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	quoted := linesInStrings(text)
	var out []*Func
	for i := 0; i < len(lines); i++ {
		m := jitDecorator.FindStringSubmatch(lines[i])
		if m == nil || quoted[i] {
			continue
		}
		indent := m[1]
		for j := i + 1; j < len(lines); j++ {
			d := defLine.FindStringSubmatch(lines[j])
			if d == nil || d[1] != indent {
				continue
			}
			end := bodyEnd(lines, j, len(indent))
			out = append(out, &Func{File: rel, Line: j + 1, Name: d[2], Indent: len(indent), body: strings.Join(lines[j:end], "\n")})
			i = j
			break
		}
	}
	return out
}

// linesInStrings reports, for each line of text, whether it starts inside
// a triple-quoted string: code kept in a docstring or a string (a kernel
// commented out with """) is no kernel, and tri's parser rightly finds
// none there.
func linesInStrings(text string) []bool {
	out := []bool{false}
	var quote string // the open string's delimiter, "" outside strings
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			if quote != "" && len(quote) == 1 {
				quote = "" // an unterminated one-line string ends with its line
			}
			out = append(out, quote != "")
		case quote != "":
			if c == '\\' {
				i++ // an escaped character, a newline included
				if i < len(text) && text[i] == '\n' {
					out = append(out, true)
				}
			} else if strings.HasPrefix(text[i:], quote) {
				i += len(quote) - 1
				quote = ""
			}
		case c == '#':
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			quote = string(c)
			if strings.HasPrefix(text[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
				i += 2
			}
		}
	}
	return out
}

// bodyEnd is the index of the first line after the def at line def (of
// the given indentation): the next non-blank line, outside the def's own
// header, that is indented no deeper than the def and is not a comment or
// a closing bracket.
func bodyEnd(lines []string, def, indent int) int {
	for k := def + 1; k < len(lines); k++ {
		l := lines[k]
		t := strings.TrimLeft(l, " \t")
		if t == "" || strings.HasPrefix(t, "#") || len(l)-len(t) > indent {
			continue
		}
		if strings.HasPrefix(t, ")") || strings.HasPrefix(t, "]") {
			continue
		}
		return k
	}
	return len(lines)
}

// returnsValue finds a return with a value in a body: kernels return
// nothing, so a function that returns something is a helper even where
// nothing in the folder calls it.
var returnsValue = regexp.MustCompile(`(?m)^[ \t]+return[ \t]*[^ \t\n#]`)

// markHelpers sets Helper on every function that returns a value or that
// another function's body calls by name (name( or mod.name(, but not
// tl.name(, which is Triton's).
func markHelpers(srcs []*source) {
	names := map[string][]*Func{}
	for _, s := range srcs {
		for _, f := range s.funcs {
			names[f.Name] = append(names[f.Name], f)
			f.Helper = returnsValue.MatchString(f.body)
		}
	}
	call := regexp.MustCompile(`(tl\.)?\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(`)
	for _, s := range srcs {
		for _, caller := range s.funcs {
			body := caller.body
			if i := strings.Index(body, "\n"); i >= 0 { // the def line names the caller itself
				body = body[i:]
			}
			for _, m := range call.FindAllStringSubmatch(body, -1) {
				if m[1] != "" {
					continue
				}
				for _, f := range names[m[2]] {
					if f != caller {
						f.Helper = true
					}
				}
			}
		}
	}
}

// comparedLiteral finds NAME == literal (or !=): a string in either quote,
// or a decimal integer.
var comparedLiteral = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*[=!]=[ \t]*('[^'\\\n]*'|"[^"\\\n]*"|-?[0-9]+\b)`)

// usableLiteral reports whether a compared literal makes a value for a
// parameter of that name: a string, or a positive integer for a name that
// is not a block size (BT == 0 tests a case; a block of 0 is no block).
func usableLiteral(name, lit string) bool {
	if lit[0] == '\'' || lit[0] == '"' {
		return true
	}
	n, err := strconv.Atoi(lit)
	return err == nil && n > 0 && !blockName.MatchString(name)
}

// comparedLiterals maps each name that a @jit function compares with a
// literal to the first usable such literal as written, in file and line order: a
// tl.constexpr of that name that nothing else gives a value takes it,
// which selects one of the branches the kernel (or a helper it passes the
// value to, perhaps in another file) is written for (act_func == "relu",
// p_loss == 1).
func comparedLiterals(srcs []*source) map[string]string {
	out := map[string]string{}
	for _, s := range srcs {
		for _, f := range s.funcs {
			for _, m := range comparedLiteral.FindAllStringSubmatch(f.body, -1) {
				if _, ok := out[m[1]]; ok || !usableLiteral(m[1], m[2]) {
					continue
				}
				out[m[1]] = m[2]
			}
		}
	}
	return out
}

// folderOf is the folder of a file's relative path ("." at the top).
func folderOf(rel string) string {
	if i := strings.LastIndex(rel, "/"); i >= 0 {
		return rel[:i]
	}
	return "."
}

// sortedFolders lists the folders of the results in lexical order.
func sortedFolders(rs []*Result) []string {
	var out []string
	for _, r := range rs {
		if f := folderOf(r.File); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}
