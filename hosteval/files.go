package hosteval

// This file implements the reading of source files and the guard on the
// files a command writes: a source is a regular file of sane size whose
// line ends are read as Python reads them, and no output replaces an input.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/tri-lang/tri/internal/regfile"
)

// MaxSourceBytes bounds the size of a source file: far above any kernel
// file, far below what would exhaust memory.
const MaxSourceBytes = regfile.MaxSourceBytes

// ReadSource reads a kernel or module source file. What is not a regular
// file (a directory, a FIFO that would block, /dev/zero that never ends) and
// a file over MaxSourceBytes are refused before they are read, as bad input.
// CRLF and lone CR line ends become LF, as Python's universal newlines
// make them, so that lines and columns are the file's.
func ReadSource(path string) ([]byte, error) {
	text, err := regfile.ReadSource(path, MaxSourceBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Usage(fmt.Errorf("%s: no such file", path))
	}
	if err != nil {
		return nil, Usage(fmt.Errorf("%s: %w", path, err))
	}
	return NormalizeNewlines(text), nil
}

// NormalizeNewlines turns CRLF and lone CR line ends into LF, as Python
// reads source: every line keeps its number and every column its place.
func NormalizeNewlines(text []byte) []byte {
	if !strings.ContainsRune(string(text), '\r') {
		return text
	}
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\r", "\n"))
}

// FileKind names what a file that is not a regular file is.
func FileKind(m fs.FileMode) string { return regfile.Kind(m) }

// CheckOutput refuses, as bad input, an output that is one of the inputs
// (the same file once links are resolved, as os.SameFile compares them):
// writing it would destroy what the command read. what names the output
// for the message ("-o k.tri"); an output that does not exist yet is fine.
func CheckOutput(what, out string, inputs ...string) error {
	ofi, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		ifi, err := os.Stat(in)
		if err == nil && os.SameFile(ofi, ifi) {
			same := ""
			if out != in {
				same = fmt.Sprintf(" (%s is the same file)", out)
			}
			return Usage(fmt.Errorf("%s: the output would replace the input %s%s; write it elsewhere", what, in, same))
		}
	}
	return nil
}
