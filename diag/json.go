package diag

// This file implements diagnostics as JSON, for editors and CI (tri's
// --json): one object per line, as go vet -json and compilers' JSON modes
// write them, so a reader needs no streaming parser.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// JSON is a diagnostic as one JSON object. Line and Column are 1-based (0:
// unknown); File is the kernel file as named on the command line, or the
// name of a text from the command line: "launch" (the launch line),
// "--let", "--signature".
type JSON struct {
	File       string     `json:"file"`
	Line       int        `json:"line"`
	Column     int        `json:"column"`
	EndLine    int        `json:"end_line,omitempty"`
	EndColumn  int        `json:"end_column,omitempty"`
	Severity   string     `json:"severity"`
	Code       Code       `json:"code"`
	Message    string     `json:"message"`
	Notes      []JSONNote `json:"notes"` // [] when there are none
	Suggestion string     `json:"suggestion,omitempty"`
}

// JSONNote is a note of a JSON diagnostic, with its own position.
type JSONNote struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// JSON returns d as its JSON object (a nil d: an empty one).
func (d *Diagnostic) JSON() JSON {
	if d == nil {
		return JSON{Notes: []JSONNote{}}
	}
	j := JSON{
		File: d.Pos.File, Line: d.Pos.Line, Column: d.Pos.Col,
		Severity: d.Severity.String(), Code: d.Code, Message: d.Message,
		Notes: []JSONNote{}, Suggestion: d.Suggestion,
	}
	if d.End.IsValid() {
		j.EndLine, j.EndColumn = d.End.Line, d.End.Col
	}
	if j.Code == "" {
		j.Code = CodeError
	}
	for _, n := range d.Notes {
		j.Notes = append(j.Notes, JSONNote{File: n.Pos.File, Line: n.Pos.Line, Column: n.Pos.Col, Message: n.Message})
	}
	return j
}

// WriteJSON writes err as JSON lines: an object for each diagnostic it
// holds (a *Diagnostic or a *List along its chain), and one for the errors
// a List dropped past MaxErrors. An error that holds no diagnostic is one
// object with no position, with code as its code.
func WriteJSON(w io.Writer, err error, code Code) error {
	if err == nil {
		return nil
	}
	if w == nil {
		return errors.New("diag.WriteJSON: no writer (nil)")
	}
	var objs []JSON
	var l *List
	var d *Diagnostic
	switch {
	case errors.As(err, &l):
		for _, d := range l.Items {
			objs = append(objs, d.JSON())
		}
		if l.dropped > 0 {
			objs = append(objs, (&Diagnostic{Severity: Error, Code: CodeTooMany, Message: fmt.Sprintf("%d more errors not shown", l.dropped)}).JSON())
		}
	case errors.As(err, &d):
		objs = append(objs, d.JSON())
	default:
		objs = append(objs, (&Diagnostic{Severity: Error, Code: code, Message: err.Error()}).JSON())
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // messages quote code: keep < > & readable
	for _, o := range objs {
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return nil
}
