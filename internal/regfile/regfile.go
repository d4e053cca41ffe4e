package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSourceBytes bounds the size of a source file (a kernel file or a
// module): far above any source, far below what would exhaust memory.
const MaxSourceBytes = 64 << 20

// Open opens path for reading and checks that what it opened is a regular
// file, which it returns with its FileInfo. The file is opened without
// waiting (where the platform has O_NONBLOCK), and the open file, not the
// path, is checked: a path checked by Stat and then opened could have been
// replaced by a FIFO in between.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, unwrapPath(err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("not a regular file (%s)", Kind(fi.Mode()))
	}
	return f, fi, nil
}

// ReadSource reads the source file at path, opened as Open opens it. A
// file over max bytes is refused before it is read, and one that grows
// past max while it is read is refused too.
func ReadSource(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, fmt.Errorf("%d bytes is too large for a source file (at most %d MiB)", fi.Size(), max>>20)
	}
	// Read one byte past the limit to tell whether the file grew.
	text, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if int64(len(text)) > max {
		return nil, fmt.Errorf("too large for a source file (at most %d MiB)", max>>20)
	}
	return text, nil
}

// Kind names what a file that is not a regular file is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// unwrapPath drops the path that errors from the os package repeat; the
// underlying error still matches fs.ErrNotExist and the like.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
