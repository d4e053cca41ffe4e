// Package deptest lists, for tests, the packages that the package in the
// current directory links, so that a test can keep heavy or host-side
// dependencies out of it.
package deptest

import (
	"os/exec"
	"strings"
	"testing"
)

// Deps returns `go list -deps .` run in the test's package directory; the
// test is skipped where no go tool is found, and fails if the listing does
// not name want (a dependency the package must have, showing the listing
// is real).
func Deps(t *testing.T, want string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		if d == want {
			return deps
		}
	}
	t.Fatalf("go list -deps does not name %s", want)
	return nil
}
