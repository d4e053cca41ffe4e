package nvrtc

// This file implements FlushOutput: the lines a kernel prints with printf
// reach the process through the C library's stdout, which the driver
// writes at synchronization points. That stream is buffered (fully, when
// stdout is a pipe or a file) and a Go program never runs the C library's
// exit, so without a flush the lines would be lost or come out after the
// program's own output.

import "sync"

var (
	fflushOnce sync.Once
	fflush     uintptr
)

// FlushOutput flushes the C library's output streams, where the driver
// writes what kernels printed (device printf, failed assertions). Call it
// after synchronizing with a kernel that prints. Without the driver it
// does nothing.
func FlushOutput() {
	fflushOnce.Do(func() {
		if LoadDriver() != nil {
			return
		}
		for _, lib := range []string{"libc.so.6", "libc.so"} {
			if h, err := dlopen(lib); err == nil {
				if f, err := dlsym(h, "fflush"); err == nil {
					fflush = f
					return
				}
			}
		}
	})
	if fflush != 0 {
		callC(fflush, 0) // fflush(NULL): every output stream
	}
}
