package cudanames

// This file implements the lists of names read from NVRTC builtins
// libraries, the table's second kind of input. The table is made from
// NVIDIA's files, which are not kept in the repository; a newer NVRTC is
// often found only on a machine with a GPU, where the full set of files
// (headers, libdevice) need not be. There, gen -list reads the builtins
// library that NVRTC loads with FromBuiltins, as the GPU test does, and
// writes its names, one a line, into a file nvrtc-VERSION.txt of this
// folder; the files are committed, and gen adds every one to the table.

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// listFiles are the committed lists, built into gen and the tests so that
// neither depends on the folder it runs in.
//
//go:embed nvrtc-*.txt
var listFiles embed.FS

// List is a committed list of the names an NVRTC builtins library declares
// at global scope.
type List struct {
	File    string   // its file name: nvrtc-13.0.88.txt
	Version string   // the library's version: 13.0.88
	Names   []string // sorted, without duplicates
}

// Lists returns the committed lists, ordered by file name.
func Lists() ([]List, error) {
	files, err := listFiles.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []List
	for _, f := range files {
		if !IsListFile(f.Name()) {
			return nil, fmt.Errorf("%s: a list's file is named nvrtc-VERSION.txt", f.Name())
		}
		text, err := listFiles.ReadFile(f.Name())
		if err != nil {
			return nil, err
		}
		names, err := ParseList(f.Name(), text)
		if err != nil {
			return nil, err
		}
		version := strings.TrimSuffix(strings.TrimPrefix(f.Name(), "nvrtc-"), ".txt")
		out = append(out, List{File: f.Name(), Version: version, Names: names})
	}
	return out, nil
}

// ParseList reads a list of names: one C identifier a line; blank lines
// and lines starting with # (the note on where the names come from) are
// skipped. file names the list in errors, which give its line.
func ParseList(file string, text []byte) ([]string, error) {
	var names []string
	for i, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !IsIdent(line) {
			return nil, fmt.Errorf("%s:%d: %q is not a C identifier", file, i+1, line)
		}
		names = append(names, line)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no names", file)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// ListText is the text of the list, in the file named file, of a builtins
// library (lib, a path or file name) whose names are names: a note saying
// where they come from and the command that writes it, then the
// identifiers, sorted, one a line.
func ListText(lib, file string, names []string) []byte {
	var b bytes.Buffer
	base := filepath.Base(lib)
	fmt.Fprintf(&b, "# The names NVRTC's builtins library %s declares at global scope,\n", base)
	b.WriteString("# as cudanames.FromBuiltins reads them, one a line; written by\n")
	fmt.Fprintf(&b, "#   %s\n", ListCommand(base, filepath.Base(file)))
	var ids []string
	for _, n := range names {
		if IsIdent(n) {
			ids = append(ids, n)
		}
	}
	slices.Sort(ids)
	for _, n := range slices.Compact(ids) {
		b.WriteString(n + "\n")
	}
	return b.Bytes()
}

// ListCommand is the command, run from the repository root, that writes
// the list of the builtins library at lib into this folder, in the file
// named file (ListFile of its version).
func ListCommand(lib, file string) string {
	return fmt.Sprintf("go run ./cudagen/internal/cudanames/gen -list -builtins %s -o %s",
		shellQuote(lib), path.Join("cudagen/internal/cudanames", file))
}

// ListFile is the name of the list of a library's version.
func ListFile(version string) string { return "nvrtc-" + version + ".txt" }

var libVersion = regexp.MustCompile(`^libnvrtc-builtins\.so\.(\d+(?:\.\d+)*)$`)

// LibraryVersion is the version a builtins library's file name carries
// (libnvrtc-builtins.so.13.0.88 is 13.0.88), or "" if it carries none.
func LibraryVersion(lib string) string {
	if m := libVersion.FindStringSubmatch(filepath.Base(lib)); m != nil {
		return m[1]
	}
	return ""
}

var listName = regexp.MustCompile(`^nvrtc-\d+(?:\.\d+)*\.txt$`)

// IsListFile reports whether name is the name of a list's file, which gen
// reads: nvrtc-VERSION.txt.
func IsListFile(name string) bool { return listName.MatchString(name) }

// shellQuote quotes s for a POSIX shell where it holds more than the
// characters of plain paths.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
