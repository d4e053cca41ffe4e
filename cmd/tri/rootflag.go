package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/tri-lang/tri/hosteval"
)

// rootsValue is the value of --root: a folder to search for modules, each
// checked as it is given, so that a file or a missing folder is refused at
// the flag instead of being searched for nothing.
type rootsValue struct{ roots *[]string }

func (r rootsValue) Set(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("no folder %s", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder (it is %s)", dir, describeFile(fi.Mode()))
	}
	*r.roots = append(*r.roots, dir)
	return nil
}

func (r rootsValue) String() string { return strings.Join(*r.roots, ",") }

func (r rootsValue) Type() string { return "folder" }

// describeFile names what a file that is not a folder is.
func describeFile(m os.FileMode) string {
	if m.IsRegular() {
		return "a file"
	}
	return hosteval.FileKind(m)
}
