package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a named source text. Line and Col are 1-based; Col
// counts bytes. The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, leaving out what is unknown.
func (p Pos) String() string {
	switch {
	case !p.IsValid():
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before reports whether p comes before q in the same file order.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Severity says how bad a diagnostic is.
type Severity int

// Severities, least severe first.
const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	}
	return "error"
}

// Code is a stable identifier of a kind of diagnostic ("syntax"). Tests,
// editors and CI (tri's --json) can match on it; messages may be
// reworded. Codes lists every code with its meaning.
type Code string

// The codes of tri's diagnostics, and of the errors tri reports that are
// not placed in a text (usage, no-gpu, error).
const (
	CodeSyntax      Code = "syntax"
	CodeUnsupported Code = "unsupported"
	CodeUndefined   Code = "undefined"
	CodeType        Code = "type"
	CodeArgs        Code = "args"
	CodeValue       Code = "value"
	CodeLaunch      Code = "launch"
	CodeRuntime     Code = "runtime"
	CodeIO          Code = "io"
	CodeInternal    Code = "internal"
	CodeTimeout     Code = "timeout"
	CodeTooMany     Code = "too-many-errors"
	CodeUsage       Code = "usage"
	CodeNoGPU       Code = "no-gpu"
	CodeError       Code = "error"
)

// Codes lists every Code with what it means, for help and docs.
var Codes = []struct {
	Code    Code
	Meaning string
}{
	{CodeSyntax, "the source does not parse as Python"},
	{CodeUndefined, "a name, attribute, module or kernel that is not defined"},
	{CodeType, "an operand or argument of the wrong type, dtype or shape"},
	{CodeValue, "a value out of range or not allowed (a size not a power of 2, a bad axis)"},
	{CodeUnsupported, "Python or Triton that tri does not compile"},
	{CodeArgs, "arguments that do not match the parameters (a launch, a call, a signature)"},
	{CodeLaunch, "a launch line, --let or --signature that does not evaluate"},
	{CodeRuntime, "a failure while the kernel or host code runs (an assertion, an out-of-bounds access)"},
	{CodeIO, "a file that cannot be read or written"},
	{CodeTimeout, "--timeout ran out"},
	{CodeInternal, "a fault in tri itself"},
	{CodeTooMany, "more errors than are shown (at most ten)"},
	{CodeUsage, "a bad command line: a flag, an argument, a missing file"},
	{CodeNoGPU, "a command that needs a GPU (or CUDA's libraries) found none"},
	{CodeError, "an error of no other kind, such as a failed --check"},
}

// Related is a note attached to a diagnostic, with its own position.
type Related struct {
	Pos     Pos
	Message string
}

// Diagnostic is one report of a problem in the input.
type Diagnostic struct {
	Pos        Pos
	End        Pos // optional end of the range; zero if unknown
	Severity   Severity
	Code       Code
	Message    string
	Notes      []Related
	Suggestion string // optional "did you mean" or fix, printed as a hint
}

// Error formats d as "file:line:col: message" (with "warning: " before the
// message for warnings), so a Diagnostic can be returned as an error.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if s := d.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if d.Severity != Error {
		b.WriteString(d.Severity.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Errorf makes an error diagnostic.
func Errorf(pos Pos, code Code, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Severity: Error, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Warnf makes a warning diagnostic.
func Warnf(pos Pos, code Code, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Severity: Warning, Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithNote adds a related note and returns d.
func (d *Diagnostic) WithNote(pos Pos, format string, args ...any) *Diagnostic {
	d.Notes = append(d.Notes, Related{Pos: pos, Message: fmt.Sprintf(format, args...)})
	return d
}

// WithSuggestion sets the suggestion and returns d.
func (d *Diagnostic) WithSuggestion(format string, args ...any) *Diagnostic {
	d.Suggestion = fmt.Sprintf(format, args...)
	return d
}

// MaxErrors is the number of errors a List keeps; later ones are dropped and
// counted.
const MaxErrors = 10

// List collects diagnostics. The zero value is ready to use.
type List struct {
	Items   []*Diagnostic
	dropped int
}

// Add appends d, dropping errors beyond MaxErrors.
func (l *List) Add(d *Diagnostic) {
	if d == nil {
		return
	}
	if d.Severity == Error && l.ErrorCount() >= MaxErrors {
		l.dropped++
		return
	}
	l.Items = append(l.Items, d)
}

// Errorf adds an error.
func (l *List) Errorf(pos Pos, code Code, format string, args ...any) *Diagnostic {
	d := Errorf(pos, code, format, args...)
	l.Add(d)
	return d
}

// Warnf adds a warning.
func (l *List) Warnf(pos Pos, code Code, format string, args ...any) *Diagnostic {
	d := Warnf(pos, code, format, args...)
	l.Add(d)
	return d
}

// Append adds every diagnostic of other.
func (l *List) Append(other *List) {
	if other == nil {
		return
	}
	for _, d := range other.Items {
		l.Add(d)
	}
	l.dropped += other.dropped
}

// ErrorCount is the number of errors kept.
func (l *List) ErrorCount() int {
	n := 0
	for _, d := range l.Items {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

// HasErrors reports whether any error was added.
func (l *List) HasErrors() bool { return l.ErrorCount() > 0 || l.dropped > 0 }

// Dropped is the number of errors dropped beyond MaxErrors.
func (l *List) Dropped() int { return l.dropped }

// Sort orders the diagnostics by position, keeping insertion order for
// equal positions.
func (l *List) Sort() {
	sort.SliceStable(l.Items, func(i, j int) bool { return l.Items[i].Pos.Before(l.Items[j].Pos) })
}

// Err returns the list as an error if it holds any error, else nil.
func (l *List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

// Error prints every diagnostic on its own line.
func (l *List) Error() string {
	var b strings.Builder
	for i, d := range l.Items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	if l.dropped > 0 {
		fmt.Fprintf(&b, "\n(%d more errors)", l.dropped)
	}
	return b.String()
}

// MovePositions rewrites, with move, the positions of the diagnostics that
// err holds (a *Diagnostic or a *List along its chain) and of their notes:
// for texts that were cut out of a larger one, such as a launch line read
// from a comment of a file, whose errors belong at the file's line.
func MovePositions(err error, move func(Pos) Pos) {
	var ds []*Diagnostic
	var d *Diagnostic
	var l *List
	switch {
	case errors.As(err, &l):
		ds = l.Items
	case errors.As(err, &d):
		ds = []*Diagnostic{d}
	}
	for _, d := range ds {
		d.Pos, d.End = move(d.Pos), move(d.End)
		for i := range d.Notes {
			d.Notes[i].Pos = move(d.Notes[i].Pos)
		}
	}
}
