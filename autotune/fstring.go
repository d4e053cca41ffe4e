package autotune

// This file implements the rewrite of f-strings (Python 3.6) in host code
// into expressions that gpython's parser, of Python 3.4, accepts:
// f"a{x!r:>4}b" becomes ("a" + __tri_fmt__((x), 'r', '>4') + "b"), where
// __tri_fmt__ is format(repr(x), '>4') (pyformat.go). Every newline stays
// where it was, so that tracebacks name the file's lines.

import "strings"

// fmtName is the host global that formats one replacement field.
const fmtName = "__tri_fmt__"

// expandFStrings rewrites the f-strings of text, outside comments and
// other strings; text without one comes back unchanged.
func expandFStrings(text string) string {
	if !strings.ContainsAny(text, "fF") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(text[i : i+j])
			i += j
		case c == '\'' || c == '"':
			end := stringEnd(text, i)
			b.WriteString(text[i:end])
			i = end
		case isWordByte(c):
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			word := text[i:j]
			if j < len(text) && (text[j] == '\'' || text[j] == '"') && len(word) <= 2 && strings.ContainsAny(word, "fF") &&
				strings.Trim(strings.ToLower(word), "fr") == "" {
				end := stringEnd(text, j)
				b.WriteString(fstringExpr(word, text[j:end]))
				i = end
				continue
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// isWordByte reports whether c may be part of a name or a number.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// fstringExpr rewrites one f-string literal (prefix, then quoted text).
func fstringExpr(prefix, lit string) string {
	quote := lit[:1]
	if len(lit) >= 6 && strings.HasPrefix(lit, strings.Repeat(quote, 3)) {
		quote = lit[:3]
	}
	body := strings.TrimSuffix(lit[len(quote):], quote)
	keep := strings.NewReplacer("f", "", "F", "").Replace(prefix)
	var parts []string
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, keep+quote+text.String()+quote)
			text.Reset()
		}
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body) && !strings.ContainsAny(keep, "rR"):
			text.WriteString(body[i : i+2])
			i++
		case (c == '{' || c == '}') && i+1 < len(body) && body[i+1] == c:
			text.WriteByte(c)
			i++
		case c == '{':
			end := closingBrace(body, i+1)
			if end < 0 {
				return prefix + lit // not an f-string gpython can run; it reports the error
			}
			shown, field := fieldPart(body[i+1:end], quote)
			if shown != "" {
				text.WriteString(shown)
			}
			flush()
			parts = append(parts, field)
			i = end
		default:
			text.WriteByte(c)
		}
	}
	flush()
	if len(parts) == 0 {
		return "''"
	}
	return "(" + strings.Join(parts, " + ") + ")"
}

// closingBrace returns the offset of the '}' that closes a replacement
// field whose text starts at s[from], or -1.
func closingBrace(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			i = stringEnd(s, i) - 1
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// fieldPart rewrites the text of one replacement field into a call of
// __tri_fmt__; shown is the literal text that a self-documenting field
// ({x=}) shows before its value.
func fieldPart(field, quote string) (shown, call string) {
	expr, conv, spec := field, "", ""
	depth := 0
scan:
	for i := 0; i < len(field); i++ {
		switch c := field[i]; {
		case c == '\'' || c == '"':
			i = stringEnd(field, i) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && c == '!' && (i+1 >= len(field) || field[i+1] != '='):
			expr = field[:i]
			conv, spec, _ = strings.Cut(field[i+1:], ":")
			break scan
		case depth == 0 && c == ':':
			expr, spec = field[:i], field[i+1:]
			break scan
		}
	}
	if t := strings.TrimRight(expr, " \t"); strings.HasSuffix(t, "=") && !strings.HasSuffix(t, "==") &&
		!strings.HasSuffix(t, "!=") && !strings.HasSuffix(t, "<=") && !strings.HasSuffix(t, ">=") {
		shown = expr
		expr = strings.TrimSuffix(t, "=")
		if conv == "" && spec == "" {
			conv = "r"
		}
	}
	specExpr := "'" + strings.ReplaceAll(spec, "'", "\\'") + "'"
	if strings.Contains(spec, "{") {
		specExpr = fstringExpr("f", quote+spec+quote)
	}
	return shown, fmtName + "((" + expr + "), '" + strings.TrimSpace(conv) + "', " + specExpr + ")"
}
