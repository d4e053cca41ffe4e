package review

// This file renders a Page with html/template.

import (
	_ "embed"
	"html/template"
	"io"
)

//go:embed page.html
var pageText string

// pageTemplate is the page: its style sheet and script are inline, so the
// file opens from disk with no network (its Content-Security-Policy
// forbids every other source).
var pageTemplate = template.Must(template.New("page").Parse(pageText))

// Write renders the page as one self-contained HTML file.
func (pg *Page) Write(w io.Writer) error {
	if pg == nil || w == nil {
		return errNothing
	}
	return pageTemplate.Execute(w, pg)
}
