package survey

// This file implements the verdict on each kernel: whose the failure is.
// A failure is tri's gap unless one of these rules, tried in order, says
// otherwise; the CSV gives the rule that decided, so that each verdict can
// be checked by hand:
//
//   - another backend: the kernel's file lies in a folder (or has a name)
//     of a backend other than NVIDIA's (_ascend, _cambricon, triton_ascend,
//     _amd, ...), whether or not it builds;
//   - Triton rejects this too: the kernel's own test expects Triton to
//     raise (the kernel is named inside a with pytest.raises block of the
//     test function that defines it, or of any test for a top-level
//     kernel); or a name it reads is bound nowhere in its file (Triton's
//     NameError: test templates such as GENERATE_TEST_HERE that a test
//     replaces in the source before compiling it), as sema reports it or,
//     for a kernel inside a function that tri does not read, as the text
//     shows it; or tri's message says that Triton rejects it too;
//   - the derived launch is wrong: the launch does not bind (kind
//     "signature"), or the error names a value the survey guessed
//     (BLOCK=32: ...), or a static assert of the kernel fails on a guessed
//     value.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Verdicts of a kernel (Result.Verdict).
const (
	// VerdictGap is a failure that is tri's to fix.
	VerdictGap = "tri's gap"
	// VerdictLaunch is a failure of the launch the survey derived: the
	// kernel would build for the launch its callers give.
	VerdictLaunch = "derived launch is wrong"
	// VerdictRejected is a kernel that real Triton rejects too.
	VerdictRejected = "Triton rejects this too"
	// VerdictBackend is a kernel written for another backend than
	// NVIDIA's, built or not.
	VerdictBackend = "another backend"
)

// backendPart matches a path element that names a backend other than
// NVIDIA's: FlagGems' runtime/backend/_ascend, fla's backends/triton_ascend,
// Triton's test_core_amd.py.
var backendPart = regexp.MustCompile(`(?i)^(?:_|triton_)?(?:ascend|cambricon|kunlunxin|mthreads|metax|iluvatar|hygon|aipu|arm|amd|rocm|hip|npu|mlu|xpu|musa|tsingmicro|enflame)(?:_|$)|_(?:amd|rocm|hip|ascend|npu|xpu)(?:\.py|\.tri)$`)

// otherBackend is the path element of rel that names another backend, or "".
func otherBackend(rel string) string {
	for _, part := range strings.Split(rel, "/") {
		if backendPart.MatchString(part) {
			return part
		}
	}
	return ""
}

// tritonSays matches tri's messages that say Triton 3.6 rejects the
// construct too. "Triton does not support recursion" is not taken: Triton
// 3.6 compiles recursion that a constexpr ends (test_specialized_recursion).
var tritonSays = regexp.MustCompile(`Triton (?:3\.6 )?(?:fails on|rejects)`)

// undefinedName is the name of an "undefined name X" error.
var undefinedName = regexp.MustCompile(`undefined name ([A-Za-z_][A-Za-z0-9_]*)$`)

// guessedValue is the NAME=VALUE: that sema puts before an error that a
// meta-parameter's value caused.
var guessedValue = regexp.MustCompile(`^(?:[^\s:]+:\d+(?::\d+)?: )?([A-Za-z_][A-Za-z0-9_]*)=[^:\s]+: `)

// verdict decides whose r's failure is (or, for any kernel, whether it is
// another backend's), with the rule's reason. text is the file's text and
// guessed the names the derived launch guessed.
func verdict(r *Result, err error, text []byte, guessed map[string]bool) (string, string) {
	if part := otherBackend(r.File); part != "" {
		return VerdictBackend, fmt.Sprintf("its path names another backend (%s)", part)
	}
	if r.Status != Failed {
		return "", ""
	}
	if line := expectedToRaise(string(text), r.Func); line > 0 {
		return VerdictRejected, fmt.Sprintf("its test expects Triton to raise (pytest.raises at line %d)", line)
	}
	if r.Kind == "@jit not at top level" {
		// tri does not read the kernel, so sema names no undefined name:
		// the text is read instead (test_core.py's LOSE_TAIL, PATCHED).
		if n := unboundName(r.Func.body, text); n != "" {
			return VerdictRejected, fmt.Sprintf("%s is bound nowhere in the file (Triton's NameError)", n)
		}
	}
	for _, msg := range r.Errors {
		m := undefinedName.FindStringSubmatch(msg)
		if m != nil && !boundInText(text, m[1]) && !pythonBuiltins[m[1]] {
			return VerdictRejected, fmt.Sprintf("%s is bound nowhere in the file (Triton's NameError)", m[1])
		}
		if tritonSays.MatchString(msg) {
			return VerdictRejected, "tri's message says Triton rejects it too"
		}
	}
	if errors.Is(err, errDerive) || r.Kind == "signature" {
		return VerdictLaunch, "the derived launch does not bind"
	}
	if m := guessedValue.FindStringSubmatch(r.Message); m != nil && guessed[m[1]] {
		return VerdictLaunch, fmt.Sprintf("the error is of %s, whose value the survey guessed", m[1])
	}
	if strings.Contains(r.Message, "static_assert failed") {
		if names := assertedGuesses(r.Func.body, guessed); len(names) > 0 {
			return VerdictLaunch, fmt.Sprintf("a static assert on guessed %s fails", strings.Join(names, ", "))
		}
	}
	return VerdictGap, ""
}

// unboundName is the first name that body (a def's text) reads and that
// text binds nowhere, nor the def's own parameters, nor Python: a
// template name. Comments, strings, attributes (x.name) and keyword
// arguments (f(axis=1)) are not reads.
func unboundName(body string, text []byte) string {
	code := literalOrComment.ReplaceAllString(body, " ")
	header, rest, ok := strings.Cut(code, ":\n") // the parameters end the def line(s)
	if !ok {
		return ""
	}
	params := map[string]bool{}
	for _, w := range word.FindAllString(header, -1) {
		params[w] = true
	}
	for _, m := range readName.FindAllStringSubmatchIndex(rest, -1) {
		name := rest[m[2]:m[3]]
		if params[name] || pythonKeywords[name] || pythonBuiltins[name] || keywordArg.MatchString(rest[m[3]:]) {
			continue
		}
		if !boundInText(text, name) {
			return name
		}
	}
	return ""
}

var (
	// literalOrComment matches a comment or a string literal: triple
	// quoted (a docstring) or on one line.
	literalOrComment = regexp.MustCompile(`(?s:""".*?"""|'''.*?''')|#[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)
	// readName matches a name that is not an attribute or a number's part.
	readName = regexp.MustCompile(`(?:^|[^\w.])([A-Za-z_][A-Za-z0-9_]*)`)
	// keywordArg matches what follows a keyword argument's name.
	keywordArg = regexp.MustCompile(`^[ \t]*=[^=]`)
)

// pythonKeywords are Python's keywords and soft keywords a kernel uses.
var pythonKeywords = map[string]bool{
	"if": true, "else": true, "elif": true, "for": true, "in": true, "while": true, "return": true,
	"and": true, "or": true, "not": true, "is": true, "None": true, "True": true, "False": true,
	"pass": true, "break": true, "continue": true, "def": true, "lambda": true, "with": true,
	"as": true, "assert": true, "del": true, "global": true, "nonlocal": true, "yield": true,
	"import": true, "from": true, "class": true, "try": true, "except": true, "finally": true, "raise": true,
}

// pythonBuiltins are names Python binds without the file (a kernel that
// reads one fails in tri for want of it, not in Triton).
var pythonBuiltins = map[string]bool{
	"getattr": true, "hasattr": true, "len": true, "range": true, "min": true, "max": true,
	"print": true, "isinstance": true, "int": true, "float": true, "bool": true, "abs": true,
	"pow": true, "round": true, "sum": true, "tuple": true, "list": true, "zip": true, "enumerate": true,
}

// boundInText reports whether text binds name anywhere: by assignment
// (also of a tuple, also annotated), def, class, as, for, import, a
// parameter of a one-line def, or a star import, which may bind anything.
func boundInText(text []byte, name string) bool {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`(?m)^[ \t]*(?:[\w.]+[ \t]*,[ \t]*)*` + q + `[ \t]*(?:,[ \t]*[\w.]+[ \t]*)*(?::[^=\n]*)?=[^=]` +
		`|\b(?:def|class|as|for)[ \t]+` + q + `\b|^[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import\b[^\n]*(?:\b` + q + `\b|\*)|^[ \t]*def[ \t]+\w+\([^\n]*\b` + q + `\b`)
	return re.Match(text)
}

// withRaises is a line opening a with pytest.raises(...) block.
var withRaises = regexp.MustCompile(`^([ \t]*)with[ \t]+pytest\.raises\(`)

// expectedToRaise is the 1-based line of a with pytest.raises block that
// names f, in the test function that defines f (or, for a top-level f, in
// a function that does not define its own f), else 0.
func expectedToRaise(text string, f *Func) int {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	lo, hi := 0, len(lines)
	if f.Indent > 0 {
		for k := f.Line - 2; k >= 0; k-- {
			m := defLine.FindStringSubmatch(lines[k])
			if m != nil && len(m[1]) < f.Indent {
				lo, hi = k, bodyEnd(lines, k, len(m[1]))
				break
			}
		}
	}
	name := regexp.MustCompile(`\b` + regexp.QuoteMeta(f.Name) + `\b`)
	redefined := regexp.MustCompile(`^[ \t]+def[ \t]+` + regexp.QuoteMeta(f.Name) + `\b`)
	for k := lo; k < hi; k++ {
		m := withRaises.FindStringSubmatch(lines[k])
		if m == nil {
			continue
		}
		if f.Indent == 0 && definesLocally(lines, k, redefined) {
			continue
		}
		end := bodyEnd(lines, k, len(m[1]))
		if slices.ContainsFunc(lines[k+1:end], name.MatchString) {
			return k + 1
		}
	}
	return 0
}

// definesLocally reports whether the top-level function around line k
// defines a function that redefined matches.
func definesLocally(lines []string, k int, redefined *regexp.Regexp) bool {
	start := k
	for start > 0 && !strings.HasPrefix(lines[start], "def ") {
		start--
	}
	end := bodyEnd(lines, start, 0)
	return slices.ContainsFunc(lines[start:end], redefined.MatchString)
}

// assertedGuesses are the guessed names that body's static asserts test.
func assertedGuesses(body string, guessed map[string]bool) []string {
	var out []string
	for _, m := range staticAssert.FindAllStringSubmatch(body, -1) {
		for _, w := range word.FindAllString(m[1], -1) {
			if guessed[w] && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return out
}

var (
	staticAssert = regexp.MustCompile(`static_assert\(([^\n]*)`)
	word         = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)
