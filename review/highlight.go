package review

// This file implements the syntax highlighting of the two panes: chroma's
// lexers, rendered one line at a time so that each line is an element the
// line map can point at.

import (
	"html"
	"html/template"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// styleName is the chroma style of both panes.
const styleName = "github"

// highlight returns text as one HTML fragment per line, each token in a
// span of chroma's class for it (the CSS comes from chromaCSS). lexer
// names a chroma lexer; text it cannot lex is escaped plainly.
func highlight(text, lexer string) []template.HTML {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	l := lexers.Get(lexer)
	if l == nil {
		return plain(lines)
	}
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		return plain(lines)
	}
	out := make([]template.HTML, 0, len(lines))
	for _, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		var b strings.Builder
		for _, t := range toks {
			v := strings.TrimSuffix(t.Value, "\n")
			if v == "" {
				continue
			}
			if c := class(t.Type); c != "" {
				b.WriteString(`<span class="` + c + `">` + html.EscapeString(v) + `</span>`)
			} else {
				b.WriteString(html.EscapeString(v))
			}
		}
		out = append(out, template.HTML(b.String()))
	}
	// chroma drops nothing but may end without the last empty lines.
	for len(out) < len(lines) {
		out = append(out, "")
	}
	return out[:len(lines)]
}

// plain escapes lines without highlighting.
func plain(lines []string) []template.HTML {
	out := make([]template.HTML, len(lines))
	for i, l := range lines {
		out[i] = template.HTML(html.EscapeString(l))
	}
	return out
}

// class is chroma's CSS class of a token type, or of its nearest parent
// that has one.
func class(t chroma.TokenType) string {
	for ; t != 0; t = t.Parent() {
		if c, ok := chroma.StandardTypes[t]; ok {
			return c
		}
	}
	return ""
}

// chromaCSS is the style sheet of the token classes, under the panes'
// class "chroma".
func chromaCSS() template.CSS {
	var b strings.Builder
	st := styles.Get(styleName)
	if err := chtml.New(chtml.WithClasses(true)).WriteCSS(&b, st); err != nil {
		return ""
	}
	return template.CSS(b.String())
}
