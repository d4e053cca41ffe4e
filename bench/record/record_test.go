// Package record holds the recorder and replayer of Triton launches
// (record.py, replay.py); this test runs their Python unit tests, which
// need neither a GPU nor torch, so that go test ./... covers them.
package record

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPython runs test_replay.py: the replayer against a fake recording
// and a stand-in for tri, the recorder under a stand-in torch and Triton,
// and (unless -short) the replay of that recording through tri's
// interpreter, built here from ./cmd/tri.
func TestPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	env := []string{"PYTHONDONTWRITEBYTECODE=1"} // no __pycache__ in the source tree
	if !testing.Short() {
		tri := filepath.Join(t.TempDir(), "tri")
		build := exec.Command("go", "build", "-o", tri, "github.com/tri-lang/tri/cmd/tri")
		build.Env = append(build.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/tri: %v\n%s", err, out)
		}
		env = append(env, "TRI="+tri)
	}
	cmd := exec.Command(py, "-m", "unittest", "discover", "-s", ".", "-p", "test_*.py")
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
}
