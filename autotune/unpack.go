package autotune

// This file implements dict displays that unpack other dicts ({'A': f,
// **more}, Python 3.5's PEP 448), which gpython's parser, of the Python
// 3.4 grammar, rejects: before host code is compiled, such a display is
// rewritten as a call of __tri_dict__, which merges its arguments left to
// right as the display would ({'A': f, **more, 'B': g} becomes
// __tri_dict__({'A': f}, (more), {'B': g})). Other text is kept as it is;
// a line keeps its number, so error positions stay where they were up to a
// few columns within the rewritten line.

import (
	"strings"

	"github.com/go-python/gpython/py"
)

// dictMergeName is the name of the merging function in the host's globals.
const dictMergeName = "__tri_dict__"

// expandUnpacking rewrites the dict displays of text that unpack another
// dict, as the file comment says.
func expandUnpacking(text string) string {
	if !strings.Contains(text, "**") {
		return text
	}
	out, _, _, _ := unpackGroup(text, 0, 0)
	return out
}

// closers maps an opening bracket to its closing one.
var closers = map[byte]byte{'(': ')', '[': ']', '{': '}'}

// unpackGroup copies text from i up to the byte that closes a group opened
// by open (0: none, to the end), rewriting the groups inside it. It returns
// the copy of what is between the brackets (a {} group that unpacks
// becomes a whole call, brackets included: merged reports it), the index
// after the closing byte, and whether one was found.
func unpackGroup(text string, i int, open byte) (out string, next int, merged, closed bool) {
	var b strings.Builder
	var items []string // the items of a {} group, split at its top-level commas
	start := 0         // where the current item starts in b
	finish := func() (string, bool) {
		if open != '{' {
			return b.String(), false
		}
		items = append(items, b.String()[start:])
		return mergeItems(items)
	}
	for i < len(text) {
		c := text[i]
		switch {
		case open != 0 && c == closers[open]:
			out, merged = finish()
			return out, i + 1, merged, true
		case c == '#':
			// Inside brackets a comment is dropped: a bracket written after
			// it on a rewritten line would be commented out.
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			if open == 0 {
				b.WriteString(text[i : i+j])
			}
			i += j
		case c == '\'' || c == '"':
			j := stringEnd(text, i)
			b.WriteString(text[i:j])
			i = j
		case c == '(' || c == '[' || c == '{':
			inner, after, m, ok := unpackGroup(text, i+1, c)
			if !m {
				b.WriteByte(c)
			}
			b.WriteString(inner)
			if ok && !m {
				b.WriteByte(closers[c])
			}
			i = after
		case c == ',' && open == '{':
			items = append(items, b.String()[start:])
			b.WriteByte(c)
			start = b.Len()
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	out, merged = finish()
	return out, i, merged, false
}

// mergeItems joins the items of a {} group back, or, where one of them
// unpacks a dict, makes them a call of the merging function (merged).
func mergeItems(items []string) (string, bool) {
	unpacks := false
	for _, it := range items {
		unpacks = unpacks || strings.HasPrefix(strings.TrimSpace(it), "**")
	}
	if !unpacks {
		return strings.Join(items, ","), false
	}
	var parts, run []string
	flush := func() {
		if len(run) > 0 {
			parts = append(parts, "{"+strings.Join(run, ",")+"}")
			run = nil
		}
	}
	for _, it := range items {
		t := strings.TrimSpace(it)
		switch {
		case t == "":
		case strings.HasPrefix(t, "**"):
			flush()
			parts = append(parts, "("+strings.TrimPrefix(t, "**")+")")
		default:
			run = append(run, it)
		}
	}
	flush()
	return dictMergeName + "(" + strings.Join(parts, ", ") + ")", true
}

// stringEnd is the index after the string literal whose quote is at
// text[i] (a prefix before it is copied as an identifier).
func stringEnd(text string, i int) int {
	q := text[i]
	if triple := strings.Repeat(string(q), 3); strings.HasPrefix(text[i:], triple) {
		for j := i + 3; j < len(text); j++ {
			if text[j] == '\\' {
				j++
				continue
			}
			if strings.HasPrefix(text[j:], triple) {
				return j + 3
			}
		}
		return len(text)
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q, '\n':
			return j + 1
		}
	}
	return len(text)
}

// dictMerge is __tri_dict__: a new dict with the items of each argument in
// turn, later ones replacing earlier ones, as {**a, **b} does.
func dictMerge(_ py.Object, args py.Tuple) (py.Object, error) {
	out := py.NewStringDict()
	for _, a := range args {
		d, ok := a.(py.StringDict)
		if !ok {
			return nil, py.ExceptionNewf(py.TypeError, "'%s' object is not a mapping with string keys", a.Type().Name)
		}
		for k, v := range d {
			out[k] = v
		}
	}
	return out, nil
}
