package survey

// This file implements the kinds that failures are counted by: a short
// name for what went wrong, with the details (names, shapes, lines) left
// out, so that one cause met in many kernels counts as one row.

import (
	"errors"
	"regexp"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// KindInternal is the kind of a panic or of an error that tri reports as
// its own bug; it leads every table.
const KindInternal = "internal error"

// kindRule maps messages matching re to a kind; $1 and so on in kind take
// the match's groups. Where when is set, the rule applies only if it holds
// of the file's text and group 1.
type kindRule struct {
	re   *regexp.Regexp
	kind string
	when func(src []byte, name string) bool
}

// kindRules are tried in order on a failure's message (its first line,
// position left out).
var kindRules = []kindRule{
	{re: regexp.MustCompile(`internal error`), kind: KindInternal},
	{re: regexp.MustCompile(`host code (recursed deeper than|holds more than)|tri's host Python refuses`), kind: "host code past tri's limits"},
	{re: regexp.MustCompile(`(PermissionError|ImportError): .* is refused`), kind: "host I/O refused"},
	{re: regexp.MustCompile(`^undefined name ([A-Za-z_0-9]+)`), kind: "import", when: imports},
	{re: regexp.MustCompile(`NameError: name '([A-Za-z_0-9]+)' is not defined`), kind: "import", when: imports},
	{re: regexp.MustCompile(`NameError: name '([A-Za-z_0-9]+)' is not defined`), kind: "host code not read", when: definesTopLevel},
	{re: regexp.MustCompile(`^@triton\.(autotune|heuristics)[^:]*: (\w+Error)`), kind: "@triton.$1: $2"},
	{re: regexp.MustCompile(`^(?:tl|triton|libdevice)\b[\w.]* has no attribute`), kind: "undefined tl name"},
	{re: regexp.MustCompile(`^([A-Za-z_][\w.]*) has no attribute`), kind: "import", when: func([]byte, string) bool { return true }},
	{re: regexp.MustCompile(`^((?:tl|libdevice)(?:\.[A-Za-z_0-9]+)+) is not supported`), kind: "$1 unsupported"},
}

// Kind names the kind of a failure of a kernel of the file whose text is
// src: "internal error" for tri's own bugs and panics, "parse" for Python
// syntax tri's parser rejects, "tl.X unsupported" for a name of
// triton.language tri lacks, "import" for a name that the file imports
// from elsewhere, "signature" where the survey could derive no launch (or
// the launch does not bind, or a default cannot be evaluated),
// "timeout", and otherwise the diagnostic's code (type, value, args,
// undefined, unsupported, ...).
func Kind(err error, src []byte) string {
	switch {
	case errors.Is(err, errTimeout):
		return "timeout"
	case errors.Is(err, errDerive):
		return "signature"
	case errors.Is(err, errNested):
		return "@jit not at top level"
	case errors.Is(err, errNotFound):
		return "not found by the parser"
	}
	d := firstError(err)
	msg := err.Error()
	if d != nil {
		msg = d.Message
	}
	msg, _, _ = strings.Cut(msg, "\n")
	msg = position.ReplaceAllString(msg, "")
	for _, r := range kindRules {
		m := r.re.FindStringSubmatchIndex(msg)
		if m == nil || r.when != nil && !r.when(src, msg[m[2]:m[3]]) {
			continue
		}
		return string(r.re.ExpandString(nil, r.kind, msg, m))
	}
	if d != nil {
		switch {
		case d.Code == diag.CodeInternal:
			return KindInternal
		case d.Code == diag.CodeSyntax:
			return "parse"
		case d.Code == diag.CodeLaunch || d.Pos.File == hosteval.LaunchSource || strings.HasPrefix(d.Pos.File, "--let"):
			// The derived launch does not bind: an argument the survey
			// could not give, or a default it could not evaluate.
			return "signature"
		}
		return string(d.Code)
	}
	return "other"
}

// position is a message's leading file:line:col.
var position = regexp.MustCompile(`^[^\s:]+:\d+(?::\d+)?: `)

// errorLines are the first lines of the errors err holds, placed
// file:line:col: first the failure's message as the survey prints it,
// then every other error diagnostic of err's list.
func errorLines(err error, message string) []string {
	out := []string{message}
	var l *diag.List
	if !errors.As(err, &l) {
		return out
	}
	first := firstError(err)
	for _, d := range l.Items {
		if d.Severity != diag.Error || d == first {
			continue
		}
		line, _, _ := strings.Cut(d.Error(), "\n")
		out = append(out, line)
	}
	return out
}

// firstError is the first error diagnostic that err holds, or nil.
func firstError(err error) *diag.Diagnostic {
	var l *diag.List
	if errors.As(err, &l) {
		for _, d := range l.Items {
			if d.Severity == diag.Error {
				return d
			}
		}
	}
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return nil
}

var importStmt = regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n#]*))|import[ \t]+([^\n#]*))`)

// definesTopLevel reports whether src defines name at its top level, by
// def or assignment: a host name that tri's reading of the file skipped.
func definesTopLevel(src []byte, name string) bool {
	re := regexp.MustCompile(`(?m)^(?:def[ \t]+` + regexp.QuoteMeta(name) + `\b|` + regexp.QuoteMeta(name) + `[ \t]*=[^=])`)
	return re.Match(src)
}

var comment = regexp.MustCompile(`#[^\n]*`)

// imports reports whether src binds name by an import statement (at any
// level, parenthesized lists included).
func imports(src []byte, name string) bool {
	for _, m := range importStmt.FindAllSubmatch(src, -1) {
		for _, list := range m[1:] {
			for _, item := range strings.Split(comment.ReplaceAllString(string(list), ""), ",") {
				f := strings.Fields(item)
				switch {
				case len(f) == 1 && (f[0] == name || strings.HasPrefix(f[0], name+".")):
					return true
				case len(f) == 3 && f[1] == "as" && f[2] == name:
					return true
				}
			}
		}
	}
	return false
}
