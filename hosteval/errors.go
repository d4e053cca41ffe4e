package hosteval

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tri-lang/tri/diag"
)

// usageError marks an error as bad input: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Usage marks err as bad input (usage, missing file, bad source, bad launch
// line or --let), which the command line reports with exit status 2.
func Usage(err error) error {
	if err == nil {
		return nil
	}
	var u *usageError
	if errors.As(err, &u) {
		return err
	}
	return &usageError{err}
}

// ExitCode is the command line's exit status for err: 0 for nil, 2 for bad
// input, 1 for everything else (failed checks, kernel errors, no GPU).
func ExitCode(err error) int {
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2
	}
	return 1
}

// sourcedError is an error together with a text its diagnostics may point
// into (the kernel file, a launch line, a --let), so that PrintError can show
// the offending line. Errors carry their texts instead of a shared table, so
// that calls on several goroutines each render their own.
type sourcedError struct {
	err        error
	name, text string
}

func (e *sourcedError) Error() string { return e.err.Error() }
func (e *sourcedError) Unwrap() error { return e.err }

// withSource attaches the text named name to err (nil stays nil).
func withSource(err error, name, text string) error {
	if err == nil {
		return nil
	}
	return &sourcedError{err, name, text}
}

// errNoLaunch answers a nil launch or expression given to Env's methods,
// which would otherwise stop on the nil pointer.
var errNoLaunch = errors.New("hosteval: no launch or expression to evaluate (nil)")

// AttachSource is withSource for a deferred call on a named result.
// Line ends are normalised as the source's reader does, so that the line
// shown is the one a position names.
func AttachSource(err *error, name, text string) {
	if err != nil && *err != nil {
		*err = withSource(*err, name, string(NormalizeNewlines([]byte(text))))
	}
}

// sourcesOf collects the texts attached along err's chain; where two share a
// name, the one attached closer to the diagnostic wins.
func sourcesOf(err error) diag.Sources {
	src := diag.Sources{}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if s, ok := e.(*sourcedError); ok {
			src[s.name] = s.text
		}
	}
	return src
}

// PrintError writes err for a person: diagnostics with their source line and
// a caret, other errors on one line, prefixed with "tri: ". A nil err
// prints nothing; a nil w is os.Stderr.
func PrintError(w io.Writer, err error) {
	if err == nil {
		return
	}
	if w == nil {
		w = os.Stderr
	}
	var d *diag.Diagnostic
	var l *diag.List
	if errors.As(err, &d) || errors.As(err, &l) {
		diag.Render(w, err, sourcesOf(err))
		return
	}
	fmt.Fprintf(w, "tri: %v\n", err)
}

// ErrAt makes an error diagnostic at a column of a one-line text such as a
// launch line, a --let or a signature.
func ErrAt(src string, col int, msg string) *diag.Diagnostic {
	return diag.Errorf(diag.Pos{File: src, Line: 1, Col: col}, diag.CodeLaunch, "%s", msg)
}
