//go:build unix

package regfile

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestOpenFIFO: a named pipe no one writes is refused at once: opening it
// for reading does not wait for a writer, and it is not read.
func TestOpenFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "m.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadSource(fifo, MaxSourceBytes)
		done <- err
	}()
	select {
	case err := <-done:
		assert.EqualError(t, err, "not a regular file (a named pipe)")
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}
