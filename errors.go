package tri

// This file defines the errors of the API: two sentinels to test with
// errors.Is, and Error, which holds the diagnostics of a failed call with
// their places.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
)

// ErrNoGPU is wrapped by the errors of GPU work (Run, NewStream,
// NewBuffer) on a machine where no NVIDIA driver or NVRTC is found; the
// interpreter needs neither.
var ErrNoGPU = gpu.ErrNoGPU

// ErrBadInput is wrapped by errors in what the caller gave: the source, a
// signature, a launch line, an argument of the wrong type or count.
// Errors without it happened while compiling or running a good input (a
// kernel's out-of-bounds access in the interpreter, a driver error).
var ErrBadInput = errors.New("bad input")

// Diagnostic is one problem placed in a text: the kernel file (or the name
// given to Parse), "launch" for a launch line, "--signature" for a
// signature.
type Diagnostic struct {
	File   string
	Line   int // 1-based; 0 when the problem has no line
	Column int // 1-based, counting bytes; 0 when unknown
	// Severity is "error" or "warning".
	Severity string
	// Code is a stable name of the kind of problem ("syntax", "type",
	// "undefined", "launch", ...), for programs to match on.
	Code       string
	Message    string
	Suggestion string // a fix to try ("did you mean ..."), or ""
}

// String formats d as file:line:col: message, as compilers print errors.
func (d Diagnostic) String() string {
	var b strings.Builder
	switch {
	case d.Line > 0 && d.Column > 0:
		fmt.Fprintf(&b, "%s:%d:%d: ", d.File, d.Line, d.Column)
	case d.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", d.File, d.Line)
	case d.File != "":
		fmt.Fprintf(&b, "%s: ", d.File)
	}
	if d.Severity != "" && d.Severity != "error" {
		b.WriteString(d.Severity + ": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Error is the error every function and method of the package returns:
// its message, and the diagnostics it holds. Use errors.As to get it and
// errors.Is with ErrNoGPU or ErrBadInput to tell what kind it is.
type Error struct {
	// Diagnostics are the problems placed in a text, sorted by place;
	// empty for an error that has no place (a missing file, no GPU).
	Diagnostics []Diagnostic
	err         error
}

// Error is the message: one line per diagnostic, file:line:col: message.
func (e *Error) Error() string {
	if e.err == nil {
		return "tri: error"
	}
	return e.err.Error()
}

// Unwrap returns the error of the compiler or runtime that e wraps.
func (e *Error) Unwrap() error { return e.err }

// Is reports ErrBadInput for errors in the caller's input.
func (e *Error) Is(target error) bool {
	return target == ErrBadInput && e.err != nil && hosteval.ExitCode(e.err) == 2
}

// Report is the error as tri's command line prints it: each diagnostic
// with its source line and a caret under the column.
func (e *Error) Report() string {
	if e.err == nil {
		return ""
	}
	var b strings.Builder
	hosteval.PrintError(&b, e.err)
	return b.String()
}

// wrap makes err an *Error with its diagnostics (nil stays nil).
func wrap(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Diagnostics: diagnostics(err), err: err}
}

// badInput is an *Error in the caller's input, with a plain message.
func badInput(format string, args ...any) error {
	return wrap(hosteval.Usage(fmt.Errorf(format, args...)))
}

// diagnostics converts the diagnostics err holds (a diag.List or one
// diag.Diagnostic along its chain).
func diagnostics(err error) []Diagnostic {
	var l *diag.List
	var d *diag.Diagnostic
	var ds []*diag.Diagnostic
	switch {
	case errors.As(err, &l):
		ds = l.Items
	case errors.As(err, &d):
		ds = []*diag.Diagnostic{d}
	}
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, fromDiag(d))
	}
	return out
}

func fromDiag(d *diag.Diagnostic) Diagnostic {
	return Diagnostic{File: d.Pos.File, Line: d.Pos.Line, Column: d.Pos.Col, Severity: d.Severity.String(),
		Code: string(d.Code), Message: d.Message, Suggestion: d.Suggestion}
}
