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
