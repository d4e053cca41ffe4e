package nvrtc

// This file implements mapping NVRTC's diagnostics from lines of the
// generated CUDA back to lines of the .tri source.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// reLogLine matches an NVRTC diagnostic: "kernel.cu(12): error: ...".
var reLogLine = regexp.MustCompile(`^(.+?)\((\d+)\): (.*)$`)

// reSourceComment matches the comment the CUDA generator writes above the
// code of each statement: "// file.tri:12: <source line>".
var reSourceComment = regexp.MustCompile(`^\s*// ([^\s:]+):(\d+):`)

// MapLogToSource rewrites the diagnostics of an NVRTC log that name the
// CUDA file cuName ("kernel.cu(57): error: ...") as diagnostics of the
// source line lineMap gives ("add.tri:12: error: ... (kernel.cu:57)").
// Lines lineMap does not know, and lines naming other files (already .tri
// lines under #line directives), are kept as they are.
func MapLogToSource(log, cuName string, lineMap func(cuLine int) (file string, line int, ok bool)) string {
	lines := strings.Split(log, "\n")
	for i, l := range lines {
		m := reLogLine.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil || m[1] != cuName {
			continue
		}
		cuLine, _ := strconv.Atoi(m[2])
		file, line, ok := lineMap(cuLine)
		if !ok {
			continue
		}
		lines[i] = fmt.Sprintf("%s:%d: %s (%s:%d)", file, line, m[3], cuName, cuLine)
	}
	return strings.Join(lines, "\n")
}

// LineMapFromComments returns a lineMap for MapLogToSource built from the
// "// file.tri:12:" comments of generated CUDA: a CUDA line maps to the
// source line of the nearest such comment at or above it.
func LineMapFromComments(cuda string) func(cuLine int) (file string, line int, ok bool) {
	type loc struct {
		file string
		line int
	}
	var at []loc // at[i] is the source of CUDA line i+1
	var cur loc
	for l := range strings.SplitSeq(cuda, "\n") {
		if m := reSourceComment.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			cur = loc{m[1], n}
		}
		at = append(at, cur)
	}
	return func(cuLine int) (string, int, bool) {
		if cuLine < 1 || cuLine > len(at) || at[cuLine-1].file == "" {
			return "", 0, false
		}
		return at[cuLine-1].file, at[cuLine-1].line, true
	}
}
