//go:build unix

package regfile

import "syscall"

// openFlags opens without waiting: opening a FIFO for reading otherwise
// blocks until a writer opens it. O_NONBLOCK does not change how a regular
// file is read.
const openFlags = syscall.O_NONBLOCK
