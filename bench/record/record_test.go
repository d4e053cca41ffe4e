// Package record holds the recorder and replayer of Triton launches
// (record.py, replay.py); this test runs their Python unit tests, which
// need neither a GPU nor torch, so that go test ./... covers them.
package record

import (
	"os/exec"
	"testing"
)

// TestPython runs test_replay.py: the replayer against a fake recording
// and a stand-in for tri, and the recorder's pure-Python parts.
func TestPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	cmd := exec.Command(py, "-m", "unittest", "discover", "-s", ".", "-p", "test_*.py")
	cmd.Env = append(cmd.Environ(), "PYTHONDONTWRITEBYTECODE=1") // no __pycache__ in the source tree
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
}
